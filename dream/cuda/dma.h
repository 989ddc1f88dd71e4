// How the host engines (soft RNIC, soft NVMe controller) move bytes.
//
//   dream::Dma dma(dream::Dma::Mode::gpu, device);  // or Mode::host
//
//   dma.read(dst, src, n)    adds a small read of queue memory (WQEs, SQEs,
//                            doorbell records; GPU or host memory) to the
//                            open fetch;
//   dma.read_wait()          issues the fetch and returns once every byte is
//                            in its dst (own stream: not behind page data).
//   dma.copy(dst, src, n)    adds a copy to the open batch (page data, or a
//                            completion from host staging that must stay
//                            unchanged until the batch has run).
//   dma.copy(dst, src, n, true)  the same, joined to the open batch's last
//                            copy when it continues it at both ends (the
//                            next page of a stream into the next frame): one
//                            copy, not two. Only where the caller knows both
//                            ends lie in the allocations of that last copy's
//                            (one copy never spans two allocations).
//   dma.copies()             copies issued (after joins), for counters.
//   dma.submit()             issues the open batch. Copies inside one batch
//                            run in any order; a batch starts only after every
//                            earlier batch has finished (one stream), so
//                            "data batch, then completion batch" writes each
//                            completion after its data.
//   t = dma.record()         a point in that order (after every batch issued
//                            so far); dma.done(t) polls it, dma.sync() waits
//                            for everything submitted.
//   Dma::on_device(p)        whether p is GPU memory (GPU mode only).
//   dream::HostBuffer b(mode, n)  zeroed staging memory that batches may copy
//                            from (pinned in GPU mode).
//   dma.use_ring(c, k)       lets the engine's switch (c.sw) send this
//                            thread's batches to the copy kernel's ring k
//                            (copy_ring.h)
//   dma.follow()             at the start of each pass: where the switch
//                            differs from what this thread uses, waits for
//                            every batch issued so far, then takes the other
//                            path and says so (sw.engaged). A batch thus never
//                            runs beside one of the other path: each point's
//                            order holds. Batches to the copy kernel are
//                            posted at submit(), in host mode too (a test's
//                            stand-in makes them there).
//
// Mode::host: every pointer is host memory and copies are plain memcpy, done
// where GPU mode issues them (read_wait(), submit()), joins included; this is
// how CPU tests drive the engines without a GPU.
// Mode::gpu: pointers are anything CUDA can address under unified addressing
// (device memory, pinned host memory); batches go to the GPU's copy engines
// with cudaMemcpyBatchAsync on a non-blocking stream of their own, so they run
// while the kernel that posted the requests is still running (a blocking
// stream would wait for that kernel: deadlock). Errors throw
// std::runtime_error naming the CUDA call. Every wait for a stream is bounded
// (kStreamWait): copies of a few MiB that have not finished in that time mean
// a stuck GPU, reported instead of waited for.
#pragma once
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <deque>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "copy_ring.h"

namespace dream {

class Dma {
public:
    enum class Mode { host, gpu };

    Dma(Mode mode, int device) : mode_(mode), device_(device)
    {
        if (mode_ == Mode::host)
            return;
        check(cudaSetDevice(device_), "cudaSetDevice");
        check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
        check(cudaStreamCreateWithFlags(&fetch_, cudaStreamNonBlocking), "cudaStreamCreate");
    }

    Dma(const Dma &) = delete;
    Dma &operator=(const Dma &) = delete;

    ~Dma()
    {
        if (mode_ == Mode::host)
            return;
        cudaSetDevice(device_);
        try {
            wait(stream_, "~Dma");
        } catch (const std::exception &) {
            // destroying a stream with copies in flight is allowed: they finish first
        }
        for (auto &p : pending_)
            if (p.event)
                cudaEventDestroy(p.event);
        for (cudaEvent_t e : spare_)
            cudaEventDestroy(e);
        cudaStreamDestroy(fetch_);
        cudaStreamDestroy(stream_);
    }

    Mode mode() const { return mode_; }
    // Whether submit() has made the copies by the time it returns (host
    // mode, not on the copy kernel).
    bool immediate() const { return mode_ == Mode::host && !engaged_; }

    // Engine threads call this first: the CUDA runtime's current device is
    // per thread.
    void bind_thread()
    {
        if (mode_ == Mode::gpu)
            check(cudaSetDevice(device_), "cudaSetDevice");
    }

    // GPU mode only (host mode has no GPU memory).
    static bool on_device(const void *p)
    {
        cudaPointerAttributes a;
        if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
            cudaGetLastError();
            return false;
        }
        return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
    }

    void read(void *dst, const void *src, size_t n) { add(fetches_, dst, src, n); }

    void read_wait()
    {
        if (issue(fetches_, fetch_) && mode_ == Mode::gpu)
            wait(fetch_, "Dma::read_wait");
    }

    void copy(void *dst, const void *src, size_t n, bool join = false) { add(copies_, dst, src, n, join); }

    // Engine stopped: a thread that ended while on the ring (a failure)
    // starts again off it. What it posted there stays pending until it
    // lands, which no new copy kernel pretends (runtime/copier.py refuses
    // to start on a ring not drained): its staging is never reused, nor a
    // write sent to its file, for data that never came.
    void use_ring(CopierRings &c, int k)
    {
        ring_.attach(c.ring(k), c.stream());
        switch_ = &c.sw;
        engaged_ = false;
    }

    void follow()
    {
        if (!switch_)
            return;
        const bool want = switch_->want.load(std::memory_order_acquire);
        if (want == engaged_)
            return;
        sync();
        engaged_ = want;
        switch_->engaged.fetch_add(want ? 1 : -1, std::memory_order_release);
    }

    // Returns the number of copies issued.
    size_t submit()
    {
        refuse_if_broken();
        const size_t n = engaged_ ? post(copies_) : issue(copies_, stream_);
        batches_ += n != 0;
        copies_issued_ += n;
        unrecorded_ |= n != 0;
        return n;
    }

    // Engines record every pass, idle or not: with no batch issued since the
    // last point, that point stands (no new event), and completed events are
    // retired first, so pending_ holds only events the GPU has yet to reach.
    uint64_t record()
    {
        refuse_if_broken();
        if (engaged_) {
            retire();
            if (!unrecorded_)
                return recorded_;
            unrecorded_ = false;
            pending_.push_back({++recorded_, nullptr, ring_.end()});
            return recorded_;
        }
        if (mode_ == Mode::host)
            return ++recorded_;
        retire();
        if (!unrecorded_)
            return recorded_;
        /* the point counts only once its event is recorded and listed: a
           failure before leaves no point that done() would call passed */
        const uint64_t t = recorded_ + 1;
        const bool fresh = spare_.empty();
        cudaEvent_t e = nullptr;
        if (fresh)
            check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
        else
            e = spare_.back();
        try {
            check(cudaEventRecord(e, stream_), "cudaEventRecord");
            pending_.push_back({t, e, 0});
        } catch (...) {
            if (fresh)
                cudaEventDestroy(e);
            throw;
        }
        if (!fresh)
            spare_.pop_back();
        unrecorded_ = false;
        recorded_ = t;
        return t;
    }

    bool done(uint64_t t)
    {
        retire();
        return pending_.empty() || pending_.front().t > t;
    }

    void sync()
    {
        if (engaged_)
            ring_.wait(ring_.end(), "Dma::sync");
        else if (mode_ == Mode::gpu)
            wait(stream_, "Dma::sync");
        done(recorded_);
    }

    uint64_t batches() const { return batches_.load(std::memory_order_relaxed); }
    uint64_t copies() const { return copies_issued_.load(std::memory_order_relaxed); }

private:
    void retire()
    {
        while (!pending_.empty()) {
            const Point &p = pending_.front();
            if (!p.event) {
                if (!ring_.landed(p.end))
                    break;
            } else {
                const cudaError_t r = cudaEventQuery(p.event);
                if (r == cudaErrorNotReady)
                    break;
                check(r, "cudaEventQuery");
                spare_.push_back(p.event);
            }
            pending_.pop_front();
        }
    }

    static constexpr std::chrono::seconds kStreamWait{60};

    /* Copies per cudaMemcpyBatchAsync call. Longer batches, issued by the
       thousand while a kernel kept every SM busy, corrupted the copy
       channel on driver 580.159.04, H100 and H200 (the H200's kernel log:
       Xid 32, "invalid or corrupted push buffer stream"). Then came
       cudaErrorLaunchFailure with no kernel at fault (cuda-gdb,
       compute-sanitizer), copies that never ran (a CQE never came), or a
       crash of the process. Runs of 150 launches of the transfer
       benchmark's stream kernel at 528 x 128 threads (softrnic, 4 KiB
       pages, ring 1/4 of the data) that failed: nearly all with whole
       batches, 1 in 6 at 64, 1 in 4 at 32, none of 4 at 16. vLLM saw the
       same API fail on that driver (vllm-project/vllm#49276). Stream order
       holds across the calls. */
    static constexpr size_t kBatchCopies = 16;

    // cudaStreamSynchronize, bounded: polls the stream, yielding between polls.
    static void wait(cudaStream_t s, const char *what)
    {
        const auto t0 = std::chrono::steady_clock::now();
        for (;;) {
            const cudaError_t r = cudaStreamQuery(s);
            if (r != cudaErrorNotReady) {
                check(r, what);
                return;
            }
            if (std::chrono::steady_clock::now() - t0 > kStreamWait)
                throw std::runtime_error(std::string(what) + ": the copy engine's stream did not finish in " +
                                         std::to_string(kStreamWait.count()) + " s");
            std::this_thread::yield();
        }
    }

    // After a batch that failed, no point passes: a copy it dropped would
    // else be taken for done (a completion with no data, a write of stale
    // staging to its file).
    void refuse_if_broken() const
    {
        if (broken_)
            throw std::runtime_error("Dma: an earlier batch of copies failed; no later copy is trusted");
    }

    static void check(cudaError_t r, const char *what)
    {
        if (r != cudaSuccess) {
            cudaGetLastError();
            throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(r) + " (" +
                                     cudaGetErrorString(r) + ")");
        }
    }

    struct Batch {
        std::vector<void *> dsts;
        std::vector<const void *> srcs;
        std::vector<size_t> sizes;

        void clear()
        {
            dsts.clear();
            srcs.clear();
            sizes.clear();
        }
    };

    void add(Batch &b, void *dst, const void *src, size_t n, bool join = false)
    {
        if (n == 0)
            return;
        const size_t k = b.sizes.size();
        if (join && k && (uint8_t *)b.dsts[k - 1] + b.sizes[k - 1] == dst &&
            (const uint8_t *)b.srcs[k - 1] + b.sizes[k - 1] == src) {
            b.sizes[k - 1] += n;
            return;
        }
        if (k == b.dsts.capacity() || k == b.srcs.capacity() || k == b.sizes.capacity()) {
            /* room in all three first: a failure adds none, not a copy whose parts disagree */
            const size_t c = std::max<size_t>(64, 2 * k);
            b.dsts.reserve(c);
            b.srcs.reserve(c);
            b.sizes.reserve(c);
        }
        b.dsts.push_back(dst);
        b.srcs.push_back(src);
        b.sizes.push_back(n);
    }

    size_t post(Batch &b)
    {
        const size_t n = b.sizes.size();
        ring_.post(b.dsts.data(), b.srcs.data(), b.sizes.data(), n);
        b.clear();
        return n;
    }

    size_t issue(Batch &b, cudaStream_t s)
    {
        const size_t n = b.sizes.size();
        if (n == 0)
            return 0;
        if (mode_ == Mode::host) {
            for (size_t i = 0; i < n; i++)
                std::memcpy(b.dsts[i], b.srcs[i], b.sizes[i]);
            b.clear();
            return n;
        }
        cudaMemcpyAttributes attr = {};
        attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
        attr.flags = cudaMemcpyFlagPreferOverlapWithCompute;
        cudaError_t r = cudaSuccess;
        for (size_t lo = 0; lo < n && r == cudaSuccess; lo += kBatchCopies) {
            size_t first = 0;
            r = cudaMemcpyBatchAsync(b.dsts.data() + lo, b.srcs.data() + lo, b.sizes.data() + lo,
                                     std::min(kBatchCopies, n - lo), &attr, &first, 1, s);
        }
        b.clear();
        if (r != cudaSuccess)
            broken_ = true; /* some of the batch's copies never ran */
        check(r, "cudaMemcpyBatchAsync");
        return n;
    }

    Mode mode_;
    int device_;
    cudaStream_t stream_ = nullptr; // batches, in order
    cudaStream_t fetch_ = nullptr;  // small reads: not queued behind page data
    Batch copies_, fetches_;
    struct Point {
        uint64_t t;
        cudaEvent_t event; // on the stream; or nullptr: the copy kernel's ring, at `end`
        uint64_t end;
    };
    std::deque<Point> pending_;
    bool broken_ = false;
    std::vector<cudaEvent_t> spare_;
    uint64_t recorded_ = 0;
    bool unrecorded_ = false; // a batch issued after the last recorded point
    CopyRing ring_;
    CopierSwitch *switch_ = nullptr;
    bool engaged_ = false; // batches go to ring_
    std::atomic<uint64_t> batches_{0}, copies_issued_{0}; // read by other threads (counters)
};

// Staging memory copies may read from while the engine goes on: pinned in GPU
// mode (a batch from pageable memory would be staged synchronously), zeroed.
class HostBuffer {
public:
    HostBuffer(Dma::Mode mode, size_t n) : pinned_(mode == Dma::Mode::gpu), n_(n)
    {
        if (pinned_) {
            const cudaError_t r = cudaHostAlloc(&p_, n ? n : 1, cudaHostAllocPortable);
            if (r != cudaSuccess) {
                cudaGetLastError();
                throw std::runtime_error(std::string("cudaHostAlloc: ") + cudaGetErrorName(r));
            }
        } else {
            p_ = std::calloc(1, n ? n : 1);
            if (!p_)
                throw std::bad_alloc();
        }
        std::memset(p_, 0, n);
    }
    HostBuffer(const HostBuffer &) = delete;
    HostBuffer &operator=(const HostBuffer &) = delete;
    ~HostBuffer()
    {
        if (pinned_)
            cudaFreeHost(p_);
        else
            std::free(p_);
    }
    uint8_t *data() const { return (uint8_t *)p_; }
    size_t size() const { return n_; }

private:
    bool pinned_;
    size_t n_;
    void *p_ = nullptr;
};

} // namespace dream
