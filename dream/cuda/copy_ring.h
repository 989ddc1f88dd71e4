// The engine's side of the copy kernel (dream/copier.h gives the rings and
// their protocol, copier.cuh the kernel): what dma.h uses when an engine's
// copies go to the copy kernel instead of the copy engines.
//
//   dream::CopyRing r;  r.attach(ring, stream)   resumes after the last batch
//                                  ring holds; `stream` is the copy kernel's
//                                  (nullptr in host mode, where tests serve
//                                  the ring)
//   r.post(dsts, srcs, sizes, n)   copies as one batch: split into pieces of at
//                                  most DREAM_COPIER_CHUNK bytes, and into
//                                  several batches, in order, where the ring
//                                  has room for no more at once
//   r.end()                        descriptors posted: the point after them
//   r.landed(end)                  whether every copy before `end` has landed
//   r.wait(end, what)              waits for that, at most kRingWait, and
//                                  throws at once where the copy kernel's
//                                  stream says it has ended or failed
//
//   dream::CopierSwitch s;         an engine's request that its threads use
//                                  the copy kernel (want), and how many do
//                                  (engaged; dma.h Dma::follow)
//   s.set(on, threads, bound, ended)   asks, and waits (bounded) until
//                                  every thread has followed, or (turning
//                                  off) the engine's threads have ended
//
//   dream::CopierRings c;          an engine's rings and switch:
//   c.give(rings, n, stream, threads)   its rings, one per engine thread
//   c.use(on, threads, bound, ended)    s.set, once rings are given
#pragma once
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <functional>
#include <thread>

#include "dream/copier.h"

namespace dream {

class CopyRing {
public:
    // A copy kernel that has not taken a batch after this long is stuck (a
    // kernel does not run for minutes with copies pending: its engine
    // thread waits for them).
    static constexpr std::chrono::seconds kRingWait{60};
    // At most this many descriptors in one batch: the copier works on one
    // batch while the thread fills the next.
    static constexpr uint64_t kMaxBatch = DREAM_COPIER_STAGE;

    void attach(dream_copy_ring *r, cudaStream_t stream)
    {
        r_ = r;
        stream_ = stream;
        batches_ = __atomic_load_n(&r->posted, __ATOMIC_ACQUIRE);
        end_ = batches_ ? r->ends[(batches_ - 1) % DREAM_COPIER_BATCHES] : 0;
    }

    bool attached() const { return r_ != nullptr; }
    uint64_t end() const { return end_; }
    bool landed(uint64_t e) const { return __atomic_load_n(&r_->consumed, __ATOMIC_ACQUIRE) >= e; }

    void wait(uint64_t e, const char *what) const
    {
        const auto t0 = std::chrono::steady_clock::now();
        for (uint32_t spins = 1; !landed(e); spins++) {
            if (std::chrono::steady_clock::now() - t0 > kRingWait)
                throw std::runtime_error(std::string(what) + ": the copy kernel did not make its copies in " +
                                         std::to_string(kRingWait.count()) + " s");
            if (stream_ && spins % 1024 == 0) { /* a kernel that has left, or a lost context, makes none */
                const cudaError_t s = cudaStreamQuery(stream_);
                if (s == cudaSuccess)
                    throw std::runtime_error(std::string(what) + ": the copy kernel has ended with copies "
                                                                 "posted to it");
                if (s != cudaErrorNotReady) {
                    cudaGetLastError();
                    throw std::runtime_error(std::string(what) + ": the copy kernel's stream: " +
                                             cudaGetErrorName(s));
                }
            }
            std::this_thread::yield();
        }
    }

    void post(void *const *dsts, const void *const *srcs, const size_t *sizes, size_t n)
    {
        size_t i = 0, off = 0;
        while (i < n) {
            room();
            uint64_t k = end_;
            while (i < n && k < end_ + kMaxBatch) {
                const size_t len = std::min<size_t>(sizes[i] - off, DREAM_COPIER_CHUNK);
                dream_copy_desc &d = r_->desc[k % DREAM_COPIER_SLOTS];
                d.src = (uint64_t)srcs[i] + off;
                d.dst = (uint64_t)dsts[i] + off;
                d.len = (uint32_t)len;
                k++;
                off += len;
                if (off == sizes[i]) {
                    i++;
                    off = 0;
                }
            }
            /* the end publishes the batch (copier.h): after its descriptors */
            __atomic_store_n(&r_->ends[batches_ % DREAM_COPIER_BATCHES], k, __ATOMIC_RELEASE);
            __atomic_store_n(&r_->posted, batches_ + 1, __ATOMIC_RELEASE);
            batches_++;
            end_ = k;
        }
    }

private:
    // Waits until a batch of kMaxBatch descriptors fits: the slots it takes
    // and its entry in ends are free once the copies that used them landed.
    void room() const
    {
        const uint64_t slots_free = end_ + kMaxBatch <= DREAM_COPIER_SLOTS ? 0 : end_ + kMaxBatch - DREAM_COPIER_SLOTS;
        const uint64_t end_free =
            batches_ < DREAM_COPIER_BATCHES ? 0 : r_->ends[(batches_ - DREAM_COPIER_BATCHES) % DREAM_COPIER_BATCHES];
        wait(std::max(slots_free, end_free), "a copy ring with no room");
    }

    dream_copy_ring *r_ = nullptr;
    cudaStream_t stream_ = nullptr;
    uint64_t batches_ = 0, end_ = 0;
};

class CopierSwitch {
public:
    std::atomic<bool> want{false};
    std::atomic<int> engaged{0};

    // `ended`: the engine is stopped and its threads have ended (one that
    // failed stays engaged; the others may post until they end).
    void set(bool on, int threads, std::chrono::milliseconds bound, const std::function<bool()> &ended)
    {
        want.store(on, std::memory_order_release);
        const int target = on ? threads : 0;
        const auto t0 = std::chrono::steady_clock::now();
        while (engaged.load(std::memory_order_acquire) != target && !ended()) {
            if (std::chrono::steady_clock::now() - t0 > bound)
                throw std::runtime_error(std::string("engine threads did not move their copies ") +
                                         (on ? "to" : "off") + " the copy kernel in " +
                                         std::to_string(bound.count()) + " ms");
            std::this_thread::sleep_for(std::chrono::microseconds(20));
        }
    }
};

class CopierRings {
public:
    CopierSwitch sw;

    void give(uint64_t rings, int n, uint64_t stream, int threads)
    {
        if (n != threads)
            throw std::invalid_argument("set_copier: " + std::to_string(n) + " rings for " +
                                        std::to_string(threads) + " engine threads");
        rings_ = (dream_copy_ring *)rings;
        stream_ = (cudaStream_t)stream;
    }

    bool given() const { return rings_ != nullptr; }
    dream_copy_ring *ring(int k) const { return rings_ + k; }
    cudaStream_t stream() const { return stream_; }

    void use(bool on, int threads, std::chrono::milliseconds bound, const std::function<bool()> &ended)
    {
        if (!rings_)
            throw std::runtime_error("use_copier: no copy kernel rings (set_copier)");
        sw.set(on, threads, bound, ended);
    }

private:
    dream_copy_ring *rings_ = nullptr;
    cudaStream_t stream_ = nullptr;
};

} // namespace dream
