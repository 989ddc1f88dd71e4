// dream._softnvme: a software NVMe controller over real backing files, for
// machines without an NVMe device. It serves exactly the NVMe commands GPU
// threads post (dream/cuda/include/dream/nvme.cuh; formats in nvme.h).
//
// BAR0 is a host buffer the caller gives (pinned host memory standing in for
// the controller's registers): the controller publishes CAP and VS there and
// engine threads watch the SQ tail / CQ head doorbells at the offsets CAP's
// doorbell stride gives. For each rung SQ the engine fetches the new entries
// (DMA from GPU memory, or plain reads from host memory), validates them as a
// controller does (opcode, fields, namespace, LBA range, transfer size, PRP
// alignment, DMA windows; else the NVMe status), and hands the file I/O to a
// pool of threads (pread/pwrite on an O_DIRECT descriptor for "cold"
// namespaces, the page cache for "warm" ones, into aligned staging); a read
// the page cache holds whole is made by the engine thread itself (below,
// Worker::read_cached). Read data
// lands in the frame through the copy engines or the copy kernel (dma.h) and each CQE is written
// only after its data; a write's data is fetched from the frame first. Flush
// fsyncs. CQEs go in completion order with the phase tag flipping on every
// pass over the CQ, never more than the CQ head doorbell leaves room for.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include "completions.h"
#include "dma.h"
#include "engine.h"
#include "mirror.h"
#include "dream/nvme.h"

namespace py = pybind11;
using dream::Dma;

namespace {

using dream::kNap;
constexpr auto kDrain = std::chrono::seconds(30);    // bound on waiting for file I/O to end
constexpr uint64_t kCtrlPage = 1ull << DREAM_NVME_CTRL_PAGE_SHIFT;
constexpr uint64_t kAlign = 4096; // staging and O_DIRECT alignment
constexpr uint32_t kMaxEntries = 65536;

struct Namespace {
    std::string path;
    int fd = -1;        // buffered
    int fd_direct = -1; // O_DIRECT, for cold reads and writes; -1 when warm or unsupported
    uint64_t nblocks = 0;
    bool writable = false;
    ~Namespace()
    {
        if (fd_direct >= 0)
            close(fd_direct);
        if (fd >= 0)
            close(fd);
    }
};

struct Window {
    uint64_t addr, len;
    bool device;
};

struct Queue {
    uint32_t qid, entries;
    uint8_t *sq, *cq;
    uint32_t *sq_db, *cq_db;
    bool sq_dev, cq_dev;
    dream::HostBuffer sqes, cqes; // fetched SQEs by SQ slot; CQE images by CQ slot, then their shadows
    uint32_t sq_head = 0, cq_tail = 0, cq_head = 0, phase = 1;
    uint32_t sq_reported = 0; // the SQ head the last CQE posted told the host
    uint32_t bad_sq = UINT32_MAX, bad_cq = UINT32_MAX; // rejected doorbell values still standing
    uint32_t last_tail = 0;
    std::deque<std::pair<uint16_t, uint16_t>> held; // (cid, status15) waiting for CQ room

    Queue(Dma::Mode m, uint32_t qid_, uint32_t n, uint8_t *sq_, uint8_t *cq_, uint32_t *sdb,
          uint32_t *cdb, bool sd, bool cd)
        : qid(qid_), entries(n), sq(sq_), cq(cq_), sq_db(sdb), cq_db(cdb), sq_dev(sd), cq_dev(cd),
          sqes(m, (size_t)n * sizeof(dream_nvme_sqe)), cqes(m, 2 * (size_t)n * sizeof(dream_nvme_cqe))
    {
    }
};

// An engine thread's counters (engine.h), its file I/O's too.
#define DREAM_NVME_COUNTERS(X)                                                                            \
    X(doorbells) X(cq_doorbells) X(bad_doorbells) X(commands) X(reads) X(writes) X(flushes) X(bytes_read) \
    X(bytes_written) X(errors) X(cqes) X(cq_full) X(direct_ios) X(buffered_ios) X(cached_reads) X(io_ns)  \
    X(passes)
struct alignas(64) Counters {
    DREAM_NVME_COUNTERS(DREAM_COUNTER)
};

class Engine;
class Worker;

// One command from fetch to completion.
struct Cmd {
    Worker *w = nullptr;
    Queue *q = nullptr;
    std::shared_ptr<Namespace> ns; // kept open while the command runs
    uint16_t cid = 0;
    uint8_t opc = 0;
    uint64_t off = 0, len = 0;
    std::vector<std::pair<uint64_t, uint64_t>> segs; // (address, bytes) of the data buffer
    int buf = -1;
    uint8_t *staging = nullptr;
    uint16_t status = DREAM_NVME_SC_SUCCESS;
    uint64_t ready = 0; // writes: the DMA point after which staging holds the frame
};

// File I/O threads shared by the engine's workers (and remove_namespace's
// fsync): each runs jobs in turn.
class Pool {
public:
    Pool(Engine &e, int n) : e_(e), n_(n)
    {
        for (int k = 0; k < n; k++)
            threads_.start([this] { run(); });
    }
    ~Pool() { end(); }
    void submit(Cmd *c);
    void submit(std::function<void()> job)
    {
        {
            std::lock_guard lk(m_);
            jobs_.push_back(std::move(job));
        }
        cv_.notify_one();
    }
    size_t size() const { return n_; }
    // Ends the threads once the jobs queued have run; throws if that takes
    // longer than `bound` (an I/O that does not return).
    void shutdown(std::chrono::milliseconds bound)
    {
        end();
        threads_.join_for(bound);
    }
    // Tests only: while held, a thread that takes a job waits before running
    // it, as one whose pread or fsync does not return.
    void hold(bool on)
    {
        {
            std::lock_guard lk(m_);
            held_ = on;
        }
        cv_.notify_all();
    }

private:
    void run();
    void io(Cmd *c);
    void end()
    {
        {
            std::lock_guard lk(m_);
            stop_ = true;
        }
        cv_.notify_all();
    }
    Engine &e_;
    const size_t n_;
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> jobs_;
    bool stop_ = false, held_ = false;
    dream::Threads threads_{"file I/O threads"}; // last: joined (destroyed) first
};

// One engine thread's share of the queues (or all of them, for poll()).
class Worker {
public:
    Worker(Engine &e, Dma::Mode mode, int device, size_t nbufs, size_t buf_bytes);
    std::vector<Queue *> queues;
    Counters count;
    std::mutex m; // held for a pass

    ~Worker()
    {
        for (auto *v : {&fresh_, &finished_, &ended_, &staged_, &done_})
            for (Cmd *c : *v)
                delete c;
    }
    size_t pass(bool fetching = true);
    bool busy();
    void finish();
    void loop(int k);
    void bind() { dma_.bind_thread(); }
    bool step() { return pass() != 0 || busy() || cqes_.waiting(); } // did or awaits work
    uint64_t batches() const { return dma_.batches(); }
    Dma &dma() { return dma_; }
    // Staging buffers not held by a command (free, or free once their copy has run).
    size_t spare_buffers() const { return free_.size() + cooling_.size(); }
    void io_done(Cmd *c) // cannot allocate (nor fail): to_pool made room
    {
        std::lock_guard lk(done_m_);
        done_.push_back(c);
    }

private:
    int take_buffer();
    bool read_cached(Cmd &c);
    // A queue's new entries between the two halves of their fetch.
    struct Fetch {
        Queue *q;
        uint32_t s0;
        std::vector<int> bufs; // staging, one per entry
    };
    bool fetch_start(Queue &q, Fetch &f);
    void fetch_end(const Fetch &f, std::vector<Cmd *> &out);
    void place(Cmd *c);
    void hand_on(Cmd *c);
    void end(Cmd *c);
    void to_pool(Cmd *c);
    void validate(Cmd &c, const dream_nvme_sqe &e);
    uint16_t prps(Cmd &c, const dream_nvme_sqe &e);
    void complete(Queue &q, uint16_t cid, uint16_t status);
    void invalid_doorbell(Queue &q, const char *which, uint32_t value);
    void post_held(Queue &q);

    Engine &e_;
    Dma dma_;
    dream::HostBuffer staging_;
    uint8_t *base_;
    size_t buf_bytes_;
    std::vector<int> free_;
    std::deque<std::pair<uint64_t, int>> cooling_; // buffers free once the DMA point passes
    std::vector<Fetch> fetches_; // a pass's, kept for their buffers' capacity
    // A command is listed in one of these, or is in the pool, from its fetch
    // to its completion (pass()).
    std::vector<Cmd *> fresh_;    // fetched
    std::vector<Cmd *> finished_; // its I/O done (or none to do)
    std::vector<Cmd *> ended_;    // to complete
    std::vector<Cmd *> staged_;   // writes waiting for their frame data
    std::vector<int> cool_;       // read staging whose copy to the frame awaits its DMA point
    size_t inflight_ = 0;         // commands given to the pool
    std::mutex done_m_;
    std::vector<Cmd *> done_; // the pool's, finished; room for inflight_ (to_pool)
    /* the phase tag: bit 0 of status, the last dword's upper half */
    dream::Completions<sizeof(dream_nvme_cqe), uint32_t, 1u << 16> cqes_;
};

class Engine {
public:
    Engine(bool gpu, int device, uint64_t bar, uint64_t bar_size, uint32_t dstrd, uint32_t lba_size,
           uint64_t mdts, uint64_t staging, int threads, int io_threads, double stop_timeout)
        : mode(gpu ? Dma::Mode::gpu : Dma::Mode::host), device(device), bar((uint8_t *)bar),
          bar_size(bar_size), dstrd(dstrd), lba_shift(lba_size == 4096 ? 12 : 9), mdts(mdts),
          threads(std::max(1, threads)), stop_timeout(stop_timeout)
    {
        dream::bound(stop_timeout); // checks it
        if (lba_size != 512 && lba_size != 4096)
            throw std::invalid_argument("lba_size must be 512 or 4096");
        if (dstrd > 15)
            throw std::invalid_argument("dstrd: 0 to 15");
        if (mdts < kCtrlPage || mdts % kCtrlPage || mdts > (65536ull << lba_shift))
            throw std::invalid_argument("mdts: a multiple of 4 KiB, at most 65536 blocks");
        if (bar_size < DREAM_NVME_CQ_HDBL(1, dstrd) + 4)
            throw std::invalid_argument("bar_size: too small for one I/O queue's doorbells");
        // CAP: MQES, CQR (contiguous queues), TO = 1 (500 ms), DSTRD, CSS = NVM, MPSMIN = MPSMAX = 0
        const uint64_t cap = (uint64_t)(kMaxEntries - 1) | (1ull << 16) | (1ull << 24) |
                             ((uint64_t)dstrd << 32) | (1ull << 37);
        std::memcpy(this->bar + DREAM_NVME_REG_CAP, &cap, 8);
        const uint32_t vs = 0x00020000u; // 2.0
        std::memcpy(this->bar + DREAM_NVME_REG_VS, &vs, 4);
        nbufs_ = std::max<uint64_t>(1, staging / mdts);
        const size_t nbufs = nbufs_;
        pool_ = std::make_unique<Pool>(*this, std::max(1, io_threads));
        for (int k = 0; k < this->threads; k++)
            workers_.push_back(std::make_unique<Worker>(*this, mode, device,
                                                        (nbufs + this->threads - 1) / this->threads,
                                                        mdts));
    }

    // The module's holder (dream::Release) calls shutdown() first: every
    // thread has ended. The members go in reverse order: the engine
    // threads, then the pool, then the workers they report to.
    ~Engine() = default;

    uint32_t add_namespace(const std::string &path, bool writable, bool cold)
    {
        auto ns = std::make_shared<Namespace>();
        ns->path = path;
        ns->writable = writable;
        ns->fd = open(path.c_str(), (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
        if (ns->fd < 0)
            throw std::runtime_error("open " + path + ": " + std::strerror(errno));
        struct stat st;
        if (fstat(ns->fd, &st) != 0 || !S_ISREG(st.st_mode))
            throw std::invalid_argument(path + ": not a regular file");
        if (st.st_size == 0 || (uint64_t)st.st_size % (1ull << lba_shift))
            throw std::invalid_argument(path + ": size " + std::to_string(st.st_size) +
                                        " is not a positive multiple of the LBA size " +
                                        std::to_string(1u << lba_shift));
        ns->nblocks = (uint64_t)st.st_size >> lba_shift;
        if (cold) // tmpfs and some others refuse O_DIRECT: then the page cache serves
            ns->fd_direct = open(path.c_str(), (writable ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC);
        std::unique_lock lk(ns_m_);
        uint32_t nsid = 1;
        while (ns_.count(nsid))
            nsid++;
        ns_[nsid] = std::move(ns);
        return nsid;
    }

    // Commands already running keep the files open until they finish. The
    // file is synced by an I/O thread, waited for at most `timeout_s`: a sync
    // that outlives it keeps the namespace open, and the engine's shutdown
    // then reports that thread.
    void remove_namespace(uint32_t nsid, std::optional<double> timeout)
    {
        const double timeout_s = timeout.value_or(stop_timeout);
        dream::bound(timeout_s);
        std::shared_ptr<Namespace> n;
        {
            std::unique_lock lk(ns_m_);
            auto it = ns_.find(nsid);
            if (it == ns_.end())
                throw std::invalid_argument("no namespace " + std::to_string(nsid));
            n = it->second;
            ns_.erase(it);
        }
        auto synced = std::make_shared<std::promise<int>>();
        auto got = synced->get_future();
        pool_->submit([n, synced] { synced->set_value(fsync(n->fd) == 0 ? 0 : errno); });
        if (got.wait_for(std::chrono::duration<double>(timeout_s)) != std::future_status::ready)
            throw std::runtime_error("remove_namespace: fsync of " + n->path + " did not finish within " +
                                     dream::seconds_text(timeout_s));
        if (const int err = got.get())
            throw std::runtime_error("remove_namespace: fsync of " + n->path + ": " + std::strerror(err));
    }

    std::shared_ptr<Namespace> ns(uint32_t nsid)
    {
        std::shared_lock lk(ns_m_);
        auto it = ns_.find(nsid);
        return it == ns_.end() ? nullptr : it->second;
    }

    std::vector<std::shared_ptr<Namespace>> all_ns()
    {
        std::shared_lock lk(ns_m_);
        std::vector<std::shared_ptr<Namespace>> v;
        for (auto &kv : ns_)
            v.push_back(kv.second);
        return v;
    }

    py::dict ns_info(uint32_t nsid)
    {
        auto n = ns(nsid);
        if (!n)
            throw std::invalid_argument("no namespace " + std::to_string(nsid));
        py::dict d;
        d["path"] = n->path;
        d["blocks"] = n->nblocks;
        d["lba_size"] = 1u << lba_shift;
        d["writable"] = n->writable;
        d["direct"] = n->fd_direct >= 0;
        return d;
    }

    // The controller DMAs only inside mapped windows (an IOMMU's view).
    void map_dma(uint64_t addr, uint64_t len)
    {
        if (len == 0)
            throw std::invalid_argument("map_dma: empty window");
        const bool dev = mode == Dma::Mode::gpu && Dma::on_device((void *)addr);
        std::unique_lock lk(win_m_);
        windows_[addr] = Window{addr, len, dev};
    }

    void unmap_dma(uint64_t addr)
    {
        std::unique_lock lk(win_m_);
        if (!windows_.erase(addr))
            throw std::invalid_argument("unmap_dma: no window at " + std::to_string(addr));
    }

    // The window holding [addr, addr + len), or nullopt.
    std::optional<Window> window(uint64_t addr, uint64_t len)
    {
        std::shared_lock lk(win_m_);
        auto it = windows_.upper_bound(addr);
        if (it == windows_.begin())
            return std::nullopt;
        --it;
        const Window &w = it->second;
        if (addr - w.addr > w.len || len > w.len - (addr - w.addr))
            return std::nullopt;
        return w;
    }

    // An I/O queue pair, as the admin commands Create I/O CQ / SQ would make
    // it on a real controller (the host-side seam): `entries` each, SQ and CQ
    // in GPU or host memory, doorbells in BAR0 by qid and CAP.DSTRD.
    void create_queue(uint32_t qid, uint64_t sq, uint64_t cq, uint32_t entries)
    {
        if (!idle())
            throw std::runtime_error("create_queue: stop the engine first");
        if (qid == 0 || qid > 0xFFFF || queues_.count(qid))
            throw std::invalid_argument("create_queue: qid " + std::to_string(qid) +
                                        " is the admin queue, out of range or taken");
        if (entries < 2 || entries > kMaxEntries)
            throw std::invalid_argument("create_queue: 2 to 65536 entries");
        if (DREAM_NVME_CQ_HDBL(qid, dstrd) + 4 > bar_size)
            throw std::invalid_argument("create_queue: qid " + std::to_string(qid) +
                                        "'s doorbells lie beyond BAR0");
        const bool sd = mode == Dma::Mode::gpu && Dma::on_device((void *)sq);
        const bool cd = mode == Dma::Mode::gpu && Dma::on_device((void *)cq);
        auto q = std::make_unique<Queue>(mode, qid, entries, (uint8_t *)sq, (uint8_t *)cq,
                                         (uint32_t *)(bar + DREAM_NVME_SQ_TDBL(qid, dstrd)),
                                         (uint32_t *)(bar + DREAM_NVME_CQ_HDBL(qid, dstrd)), sd, cd);
        __atomic_store_n(q->sq_db, 0u, __ATOMIC_RELEASE);
        __atomic_store_n(q->cq_db, 0u, __ATOMIC_RELEASE);
        queues_[qid] = std::move(q);
    }

    Queue &queue(uint32_t qid)
    {
        auto it = queues_.find(qid);
        if (it == queues_.end())
            throw std::out_of_range("no queue " + std::to_string(qid));
        return *it->second;
    }

    void start()
    {
        if (running_)
            return;
        threads_.rejoin(dream::bound(stop_timeout)); // threads that ended on a failure
        fail_.clear();
        attach_rings();
        running_ = true;
        for (auto &w : workers_)
            w->queues.clear();
        size_t k = 0;
        for (auto &kv : queues_)
            workers_[k++ % workers_.size()]->queues.push_back(kv.second.get());
        for (size_t k = 0; k < workers_.size(); k++)
            threads_.start([this, k] { workers_[k]->loop((int)k); });
    }

    // Returns once no engine thread runs: commands already fetched are
    // finished and completed (where the CQ has room); entries not yet fetched
    // stay in their queues, and their submitters time out. Throws if a
    // thread has not ended after `bound` (a file I/O that does not return).
    void stop(std::chrono::milliseconds bound)
    {
        running_ = false;
        threads_.join_for(bound);
    }

    // The copy kernel's rings (dream/copier.h), one per engine thread.
    void set_copier(uint64_t rings, int n, uint64_t stream)
    {
        if (!idle())
            throw std::runtime_error("set_copier: stop the engine first");
        copier_.give(rings, n, stream, threads);
        attach_rings();
    }

    // Engine stopped: each worker (kept across starts) on its ring, off it.
    void attach_rings()
    {
        copier_.sw.engaged = 0;
        if (copier_.given())
            for (int k = 0; k < threads; k++)
                workers_[k]->dma().use_ring(copier_, k);
    }

    void use_copier(bool on, std::chrono::milliseconds bound)
    {
        copier_.use(on, threads, bound, [this] { return idle(); });
    }

    // Every thread ended, the I/O threads too, within one `bound` (dream::Release).
    void shutdown(std::chrono::milliseconds bound)
    {
        const auto t0 = std::chrono::steady_clock::now();
        stop(bound);
        const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
        pool_->shutdown(std::max(bound - spent, std::chrono::milliseconds(0)));
    }

    // Stopped, and no engine thread left (one that ended on a failure is
    // joined here): after a stop() that timed out, threads may still run.
    bool idle() { return !running_ && threads_.join_ended(); }

    bool running() const { return running_; }

    // Serves every queue in the calling thread (engine stopped) until all it
    // fetched has completed, save completions waiting for CQ room: what the
    // threads do, made deterministic for tests. Returns the commands fetched.
    size_t poll()
    {
        if (!idle())
            throw std::runtime_error("poll: the engine threads are running");
        if (!poller_) // staging of its own, made only where poll() is used
            poller_ = std::make_unique<Worker>(*this, mode, device, nbufs_, mdts);
        poller_->queues.clear();
        for (auto &kv : queues_)
            poller_->queues.push_back(kv.second.get());
        poller_->bind();
        size_t n = poller_->pass();
        const auto deadline = std::chrono::steady_clock::now() + kDrain;
        while (poller_->busy()) {
            if (std::chrono::steady_clock::now() > deadline)
                throw std::runtime_error("poll: file I/O did not finish in 30 s");
            std::this_thread::sleep_for(kNap);
            n += poller_->pass();
        }
        poller_->finish();
        return n;
    }

    py::dict counters() const
    {
        py::dict d;
        uint64_t b = 0;
        const auto add = [&](const Worker &w) {
            const Counters &c = w.count;
            DREAM_NVME_COUNTERS(DREAM_COUNTER_SUM)
            b += w.batches();
        };
        for (auto &w : workers_)
            add(*w);
        if (poller_)
            add(*poller_);
        d["batches"] = b;
        return d;
    }

    std::optional<std::string> error() { return fail_.get(); }

    // Keeps the first failure; error() returns it until the next start().
    void fail(std::string_view who, std::string_view what = {}) { fail_.set(who, what); }
    dream::Failure &failure() { return fail_; }

    Pool &pool() { return *pool_; }

    // Tests only: the n-th step of the passes from now that may fail (each
    // queue's fetch_end; a command's placement, copy and completion; each
    // CQE; each staging buffer's cooling; each write's hand-over to the pool)
    // throws, as one whose DMA or allocation failed (0: none).
    std::atomic<int> fail_step{0};
    void step(const char *what)
    {
        if (fail_step.load(std::memory_order_relaxed) > 0 && fail_step.fetch_sub(1) == 1)
            throw std::runtime_error(std::string(what) + " failed (test)");
    }
    size_t poller_spare_buffers() const { return poller_ ? poller_->spare_buffers() : 0; }

    const Dma::Mode mode;
    const int device;
    uint8_t *const bar;
    const uint64_t bar_size;
    const uint32_t dstrd, lba_shift;
    const uint64_t mdts;
    const int threads;
    const double stop_timeout; // seconds: stop(), shutdown() and remove_namespace() wait at most this
    std::atomic<bool> running_{false};

private:
    std::map<uint32_t, std::unique_ptr<Queue>> queues_;
    std::shared_mutex ns_m_, win_m_;
    std::map<uint32_t, std::shared_ptr<Namespace>> ns_;
    std::map<uint64_t, Window> windows_;
    size_t nbufs_;
    dream::Failure fail_;
    dream::CopierRings copier_;
    // destroyed in reverse: the engine threads, the I/O threads, the workers
    std::unique_ptr<Worker> poller_;
    std::vector<std::unique_ptr<Worker>> workers_;
    std::unique_ptr<Pool> pool_;
    dream::Threads threads_{"engine threads"};
};

// Whole-length pread/pwrite; false on an error or a short transfer (end of file).
bool full_io(int fd, bool write, uint8_t *p, uint64_t len, uint64_t off, int &err)
{
    uint64_t done = 0;
    while (done < len) {
        const ssize_t r = write ? pwrite(fd, p + done, len - done, off + done)
                                : pread(fd, p + done, len - done, off + done);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            err = r < 0 ? errno : 0;
            return false;
        }
        done += (uint64_t)r;
    }
    return true;
}

void Pool::run()
{
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock lk(m_);
            cv_.wait(lk, [this] { return stop_ || !jobs_.empty(); });
            if (jobs_.empty())
                return;
            job = std::move(jobs_.front());
            jobs_.pop_front();
            cv_.wait(lk, [this] { return !held_; });
        }
        try {
            job();
        } catch (const std::exception &ex) { // as an engine thread's (dream::serve)
            e_.fail("file I/O thread, ", ex.what());
            e_.running_ = false;
        } catch (...) {
            e_.fail("file I/O thread, ", "an unknown exception");
            e_.running_ = false;
        }
    }
}

void Pool::submit(Cmd *c)
{
    submit([this, c] { io(c); });
}

void Pool::io(Cmd *c)
{
    const auto t0 = std::chrono::steady_clock::now();
    Namespace &ns = *c->ns;
    if (c->opc == DREAM_NVME_OPC_FLUSH) {
        if (fsync(ns.fd) != 0)
            c->status = DREAM_NVME_SC_WRITE_FAULT;
    } else {
        const bool write = c->opc == DREAM_NVME_OPC_WRITE;
        int err = 0;
        bool ok = false, direct = false;
        if (ns.fd_direct >= 0 && (c->off | c->len) % 512 == 0) {
            ok = full_io(ns.fd_direct, write, c->staging, c->len, c->off, err);
            direct = ok || err != EINVAL; // EINVAL: finer than the device's blocks
        }
        if (!direct)
            ok = full_io(ns.fd, write, c->staging, c->len, c->off, err);
        (direct ? c->w->count.direct_ios : c->w->count.buffered_ios)++;
        if (!ok)
            c->status = write ? DREAM_NVME_SC_WRITE_FAULT : DREAM_NVME_SC_READ_ERROR;
    }
    c->w->count.io_ns += (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now() - t0)
                      .count();
    c->w->io_done(c);
}

Worker::Worker(Engine &e, Dma::Mode mode, int device, size_t nbufs, size_t buf_bytes)
    : e_(e), dma_(mode, device), staging_(mode, nbufs * buf_bytes + kAlign), buf_bytes_(buf_bytes)
{
    base_ = (uint8_t *)(((uintptr_t)staging_.data() + kAlign - 1) & ~(uintptr_t)(kAlign - 1));
    for (size_t k = 0; k < nbufs; k++)
        free_.push_back((int)k);
}

int Worker::take_buffer()
{
    while (!cooling_.empty() && dma_.done(cooling_.front().first)) {
        free_.push_back(cooling_.front().second);
        cooling_.pop_front();
    }
    if (free_.empty())
        return -1;
    const int b = free_.back();
    free_.pop_back();
    return b;
}

// A read of a namespace without O_DIRECT whose blocks the page cache holds
// whole, made here into the command's staging: no hand-off to the file I/O
// pool and back (a futex wake each way, and cores taken from the engine
// threads) for the 1-2 us a cached 4 KiB pread takes. Warm 4 KiB gather,
// 4 engine threads, H100, one call: 2.2-2.5 GB/s through the pool, 4.6-5.3
// GB/s read here (0.18-0.20x -> 0.37-0.42x pread + copy). RWF_NOWAIT returns
// EAGAIN rather than wait for the storage or a lock, so an engine thread
// never blocks on a miss here: such a read (or a short one, or an error, or
// a kernel without RWF_NOWAIT) goes to the pool, which makes it whole or
// reports it.
bool Worker::read_cached(Cmd &c)
{
    const Namespace &ns = *c.ns;
    if (ns.fd_direct >= 0)
        return false;
    uint64_t done = 0;
    while (done < c.len) {
        iovec v{c.staging + done, (size_t)(c.len - done)};
        const ssize_t r = preadv2(ns.fd, &v, 1, (off_t)(c.off + done), RWF_NOWAIT);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        done += (uint64_t)r;
    }
    count.cached_reads++;
    return true;
}

// The data buffer's segments from PRP1/PRP2 or a PRP list; a status on error.
uint16_t Worker::prps(Cmd &c, const dream_nvme_sqe &e)
{
    if (e.prp1 & 3)
        return DREAM_NVME_SC_PRP_OFFSET;
    const uint64_t first = std::min(c.len, kCtrlPage - (e.prp1 & (kCtrlPage - 1)));
    c.segs.push_back({e.prp1, first});
    uint64_t left = c.len - first;
    if (left == 0)
        return DREAM_NVME_SC_SUCCESS;
    if (left <= kCtrlPage) {
        if (e.prp2 & (kCtrlPage - 1))
            return DREAM_NVME_SC_PRP_OFFSET;
        c.segs.push_back({e.prp2, left});
        return DREAM_NVME_SC_SUCCESS;
    }
    uint64_t list = e.prp2;
    if (list & 7)
        return DREAM_NVME_SC_PRP_OFFSET;
    std::vector<uint64_t> ent;
    while (left) {
        // the list runs to the end of its page; the last entry chains on if more are needed
        const uint64_t room = (kCtrlPage - (list & (kCtrlPage - 1))) / 8;
        const uint64_t need = (left + kCtrlPage - 1) / kCtrlPage;
        const uint64_t n = need <= room ? need : room;
        const auto w = e_.window(list, n * 8);
        if (!w)
            return DREAM_NVME_SC_DATA_TRANSFER;
        ent.resize(n);
        if (w->device) {
            dma_.read(ent.data(), (const void *)list, n * 8);
            dma_.read_wait();
        } else {
            std::memcpy(ent.data(), (const void *)list, n * 8);
        }
        const uint64_t data = need <= room ? n : n - 1;
        for (uint64_t k = 0; k < data; k++) {
            if (ent[k] & (kCtrlPage - 1))
                return DREAM_NVME_SC_PRP_OFFSET;
            const uint64_t b = std::min(left, kCtrlPage);
            auto &last = c.segs.back();
            if (last.first + last.second == ent[k]) // contiguous pages: one copy
                last.second += b;
            else
                c.segs.push_back({ent[k], b});
            left -= b;
        }
        if (left) {
            list = ent[n - 1];
            if (list & 7)
                return DREAM_NVME_SC_PRP_OFFSET;
        }
    }
    return DREAM_NVME_SC_SUCCESS;
}

void Worker::validate(Cmd &c, const dream_nvme_sqe &e)
{
    c.opc = e.opc;
    c.cid = e.cid;
    if (e.opc != DREAM_NVME_OPC_READ && e.opc != DREAM_NVME_OPC_WRITE &&
        e.opc != DREAM_NVME_OPC_FLUSH) {
        c.status = DREAM_NVME_SC_INVALID_OPCODE;
        return;
    }
    if (e.flags & (DREAM_NVME_FLAGS_FUSE_MASK | DREAM_NVME_FLAGS_PSDT_MASK)) {
        c.status = DREAM_NVME_SC_INVALID_FIELD; // no fused commands, no SGLs
        return;
    }
    c.ns = e_.ns(e.nsid);
    if (!c.ns) {
        c.status = DREAM_NVME_SC_INVALID_NS;
        return;
    }
    if (e.opc == DREAM_NVME_OPC_FLUSH)
        return;
    const uint64_t nblocks = (uint64_t)e.nlb + 1;
    c.len = nblocks << e_.lba_shift;
    if (c.len > e_.mdts) {
        c.status = DREAM_NVME_SC_INVALID_FIELD;
        return;
    }
    if (e.slba >= c.ns->nblocks || nblocks > c.ns->nblocks - e.slba) {
        c.status = DREAM_NVME_SC_LBA_RANGE;
        return;
    }
    c.off = e.slba << e_.lba_shift;
    if (e.opc == DREAM_NVME_OPC_WRITE && !c.ns->writable) {
        c.status = DREAM_NVME_SC_WRITE_PROTECTED;
        return;
    }
    if ((c.status = prps(c, e)) != DREAM_NVME_SC_SUCCESS)
        return;
    for (const auto &s : c.segs)
        if (!e_.window(s.first, s.second)) {
            c.status = DREAM_NVME_SC_DATA_TRANSFER;
            return;
        }
}

// Reads q's doorbells and, for the new entries that staging has buffers for,
// starts their fetch: from host memory a copy, from GPU memory a DMA read
// that the pass issues together with every other queue's (one read_wait(),
// a round trip through the copy engines of about 7 us, per pass rather than
// per queue: the softrnic engine's way). Whether there is anything to end.
bool Worker::fetch_start(Queue &q, Fetch &f)
{
    const uint32_t ch = __atomic_load_n(q.cq_db, __ATOMIC_ACQUIRE);
    // The head moves only over CQEs already posted: one past the tail would
    // give the host slots we have not written (NVMe's invalid doorbell write).
    const uint32_t posted = (q.cq_tail + q.entries - q.cq_head) % q.entries;
    if (ch < q.entries && (ch + q.entries - q.cq_head) % q.entries <= posted) {
        if (ch != q.cq_head)
            count.cq_doorbells++;
        q.cq_head = ch;
    } else if (ch != q.bad_cq) {
        q.bad_cq = ch;
        invalid_doorbell(q, "CQ head", ch);
    }
    // A rejected value stays in the register until the host writes another:
    // judged again once more CQEs reported the head, it could pass.
    const uint32_t tail = __atomic_load_n(q.sq_db, __ATOMIC_ACQUIRE);
    if (tail == q.bad_sq)
        return false;
    // The host reuses an SQ slot only once a CQE reported the head past it, so
    // the new entries and those fetched since the last reported head fit in
    // entries - 1. A tail that moved back or past the free slots would refetch
    // old entries (old writes run again): NVMe's invalid doorbell write, ignored.
    const uint32_t avail = (tail + q.entries - q.sq_head) % q.entries;
    const uint32_t unreported = (q.sq_head + q.entries - q.sq_reported) % q.entries;
    if (tail >= q.entries || avail + unreported >= q.entries) {
        q.bad_sq = tail;
        invalid_doorbell(q, "SQ tail", tail);
        return false;
    }
    q.bad_sq = UINT32_MAX;
    if (tail != q.last_tail) {
        q.last_tail = tail;
        count.doorbells++;
    }
    f.q = &q;
    f.bufs.clear();
    /* before any buffer is taken: a push that throws would lose it */
    f.bufs.reserve(std::min<size_t>(avail, free_.size() + cooling_.size()));
    for (uint32_t k = 0; k < avail; k++) {
        const int b = take_buffer();
        if (b < 0)
            break; // fetch the rest once staging frees up: the SQ holds them meanwhile
        f.bufs.push_back(b);
    }
    const uint32_t n = (uint32_t)f.bufs.size();
    if (n == 0)
        return false;
    const size_t E = sizeof(dream_nvme_sqe);
    const uint32_t s0 = f.s0 = q.sq_head, first = std::min(n, q.entries - s0);
    if (q.sq_dev) {
        dma_.read(q.sqes.data() + s0 * E, q.sq + s0 * E, first * E);
        if (n > first)
            dma_.read(q.sqes.data(), q.sq, (n - first) * E);
    } else { /* ordered after the doorbell load (acquire) */
        std::memcpy(q.sqes.data() + s0 * E, q.sq + s0 * E, first * E);
        if (n > first)
            std::memcpy(q.sqes.data(), q.sq, (n - first) * E);
    }
    return true;
}

// The commands of f's entries, once their fetch has landed. Their buffers
// stay listed in f, and the SQ head stays, until the whole pass's fetch has
// succeeded (pass()).
void Worker::fetch_end(const Fetch &f, std::vector<Cmd *> &out)
{
    Queue &q = *f.q;
    e_.step("fetch");
    const size_t E = sizeof(dream_nvme_sqe);
    const uint32_t n = (uint32_t)f.bufs.size();
    for (uint32_t k = 0; k < n; k++) {
        const uint32_t slot = (f.s0 + k) % q.entries;
        dream_nvme_sqe e;
        std::memcpy(&e, q.sqes.data() + slot * E, E);
        std::unique_ptr<Cmd> c(new Cmd); /* deleted if validate or the push throws */
        c->w = this;
        c->q = &q;
        c->buf = f.bufs[k];
        c->staging = base_ + (size_t)f.bufs[k] * buf_bytes_;
        validate(*c, e);
        out.push_back(c.get());
        c.release();
    }
}

void Worker::invalid_doorbell(Queue &q, const char *which, uint32_t value)
{
    count.bad_doorbells++;
    e_.fail("queue " + std::to_string(q.qid) + ": invalid " + which + " doorbell write " +
            std::to_string(value) + " (" + std::to_string(q.entries) + " entries, SQ head " +
            std::to_string(q.sq_head) + ", last reported " + std::to_string(q.sq_reported) +
            ", CQ head " + std::to_string(q.cq_head) + "); ignored");
}

void Worker::post_held(Queue &q)
{
    while (!q.held.empty() && (q.cq_tail + 1) % q.entries != q.cq_head) {
        const auto [cid, status] = q.held.front();
        const uint32_t slot = q.cq_tail;
        dream_nvme_cqe *img = (dream_nvme_cqe *)q.cqes.data() + slot;
        img->dw0 = img->dw1 = 0;
        img->sq_head = (uint16_t)q.sq_head;
        img->sq_id = (uint16_t)q.qid;
        img->cid = cid;
        img->status = (uint16_t)((status << 1) | q.phase);
        /* staged before anything moves: if it fails, the CQE stays held */
        e_.step("CQE");
        cqes_.add(q.cq + (size_t)slot * sizeof(dream_nvme_cqe), (const uint8_t *)img,
                  (uint8_t *)(img + q.entries), q.cq_dev, &q);
        q.held.pop_front();
        q.sq_reported = q.sq_head;
        if (++q.cq_tail == q.entries) {
            q.cq_tail = 0;
            q.phase ^= 1;
        }
        count.cqes++;
    }
    if (!q.held.empty())
        count.cq_full++;
}

void Worker::complete(Queue &q, uint16_t cid, uint16_t status)
{
    const bool error = status != DREAM_NVME_SC_SUCCESS;
    q.held.push_back({cid, error ? (uint16_t)(status | DREAM_NVME_SF_DNR) : status}); // none would succeed on a retry
    count.errors += error;
}

bool Worker::busy()
{
    std::lock_guard lk(m);
    return inflight_ != 0 || !staged_.empty() || !fresh_.empty() || !finished_.empty() || !ended_.empty();
}

// Calls f on each of v's elements from `from` on, in order, and unlists
// those it returned from, also when it throws: an element stays listed until
// f has placed it elsewhere, so a step that fails leaves it to a later pass.
template <class T, class F> static void drain(std::vector<T> &v, F f, size_t from = 0)
{
    size_t i = from;
    struct Unlist {
        std::vector<T> &v;
        const size_t from;
        const size_t &i;
        ~Unlist() { v.erase(v.begin() + (std::ptrdiff_t)from, v.begin() + (std::ptrdiff_t)i); }
    } unlist{v, from, i};
    for (; i < v.size(); i++)
        f(v[i]);
}

// A command just fetched: to be completed (an invalid one), a write whose
// frame data goes to staging first, a read the page cache served, or file
// I/O for the pool.
void Worker::place(Cmd *c)
{
    e_.step("placement");
    if (c->status != DREAM_NVME_SC_SUCCESS) {
        ended_.push_back(c);
    } else if (c->opc == DREAM_NVME_OPC_WRITE) {
        uint8_t *p = c->staging;
        for (const auto &s : c->segs) {
            dma_.copy(p, (const void *)s.first, s.second);
            p += s.second;
        }
        staged_.push_back(c);
    } else if (c->opc == DREAM_NVME_OPC_READ && read_cached(*c)) {
        finished_.push_back(c);
    } else {
        to_pool(c);
    }
}

// A command whose I/O is done: a read's data to its frame (its staging free
// once that copy has run), then it is counted and ended.
void Worker::hand_on(Cmd *c)
{
    e_.step("copy");
    const bool ok = c->status == DREAM_NVME_SC_SUCCESS;
    if (c->opc == DREAM_NVME_OPC_READ && ok) {
        const uint8_t *p = c->staging;
        for (const auto &s : c->segs) {
            dma_.copy((void *)s.first, p, s.second);
            p += s.second;
        }
        cool_.push_back(c->buf);
        c->buf = -1;
        count.reads++;
        count.bytes_read += c->len;
    } else if (c->opc == DREAM_NVME_OPC_WRITE && ok) {
        count.writes++;
        count.bytes_written += c->len;
    } else if (c->opc == DREAM_NVME_OPC_FLUSH && ok) {
        count.flushes++;
    }
    ended_.push_back(c);
}

// Its CQE held for posting, its staging free (free_ has room for every buffer).
void Worker::end(Cmd *c)
{
    e_.step("completion");
    complete(*c->q, c->cid, c->status);
    if (c->buf >= 0)
        free_.push_back(c->buf);
    delete c;
}

void Worker::to_pool(Cmd *c)
{
    {
        std::lock_guard dl(done_m_);
        done_.reserve(inflight_ + 1); /* io_done's push then never allocates */
    }
    e_.pool().submit(c);
    inflight_++;
}

// One pass over the worker's queues. A step that fails (a DMA, an allocation)
// throws, and the engine fails; what the pass holds stays listed for this
// worker's next pass: the fetch's own unwinding below, then every command in
// fresh_ .. ended_ or staged_ until its next place has it (drain), each CQE
// held until it is staged. Another worker does not take them up: poll()
// after a failed engine thread (or start() after a failed poll()) may post a
// held CQE whose data copy the failed worker never submitted.
size_t Worker::pass(bool fetching)
{
    std::lock_guard lk(m);
    dma_.follow();
    cqes_.write_ready(dma_);
    size_t fetched = 0;
    if (fetching) {
        const auto named = [](const Queue &q, const std::exception &ex) {
            return std::runtime_error("queue " + std::to_string(q.qid) + ": " + ex.what());
        };
        const size_t before = fresh_.size();
        size_t n = 0;
        try {
            fetches_.resize(queues.size());
            for (Queue *q : queues)
                try {
                    n += fetch_start(*q, fetches_[n]);
                } catch (const std::exception &ex) {
                    throw named(*q, ex);
                }
            if (n) /* every queue's entries from GPU memory, in one wait */
                dma_.read_wait();
            for (size_t k = 0; k < n; k++)
                try {
                    fetch_end(fetches_[k], fresh_);
                } catch (const std::exception &ex) {
                    throw named(*fetches_[k].q, ex);
                }
        } catch (...) {
            /* What this fetch took goes back, with no allocation (the
               failure may be bad_alloc): its commands, and its buffers (each
               listed in its fetch, fetch_end's commands' too; free_ has room
               for all); no SQ head has moved, so the entries are fetched
               again. */
            for (size_t k = before; k < fresh_.size(); k++)
                delete fresh_[k];
            fresh_.resize(before);
            for (Fetch &f : fetches_) {
                for (int b : f.bufs)
                    free_.push_back(b);
                f.bufs.clear();
            }
            throw;
        }
        for (size_t k = 0; k < n; k++) { /* the commands hold the buffers now */
            Fetch &f = fetches_[k];
            const uint32_t got = (uint32_t)f.bufs.size();
            f.q->sq_head = (f.s0 + got) % f.q->entries;
            count.commands += got;
            f.bufs.clear();
        }
        fetched = fresh_.size() - before;
    }
    {
        std::lock_guard dl(done_m_);
        finished_.insert(finished_.end(), done_.begin(), done_.end());
        inflight_ -= done_.size();
        done_.clear(); /* keeps its room */
    }
    count.passes++;

    /* room first: each list below can take every command that may reach it */
    const size_t moving = fresh_.size() + finished_.size();
    for (auto *v : {&finished_, &ended_, &staged_})
        v->reserve(v->size() + moving);
    cool_.reserve(cool_.size() + moving);
    const size_t handed = finished_.size();
    drain(fresh_, [this](Cmd *c) { place(c); });
    drain(finished_, [this](Cmd *c) { hand_on(c); });
    drain(ended_, [this](Cmd *c) { end(c); });
    for (Queue *q : queues)
        post_held(*q);
    /* data and CQE shadows, then (stream order) the CQEs with the phase tag
       handed over */
    cqes_.shadows(dma_);
    dma_.submit();
    const uint64_t point = dma_.record();
    drain(cool_, [&](int b) {
        e_.step("cooling");
        cooling_.push_back({point, b});
    });
    for (Cmd *c : staged_)
        if (c->ready == 0)
            c->ready = point;
    cqes_.post(dma_, point);
    /* writes whose frame data has reached staging go to the files */
    const auto ready =
        std::stable_partition(staged_.begin(), staged_.end(), [this](Cmd *c) { return !dma_.done(c->ready); });
    drain(
        staged_,
        [this](Cmd *c) {
            e_.step("write");
            to_pool(c);
        },
        (size_t)(ready - staged_.begin()));
    return fetched + handed;
}

// Lands what was fetched (bounded: a file I/O that hangs past kDrain is left
// to a later start), then waits for the copies and writes the host CQEs.
void Worker::finish()
{
    const auto deadline = std::chrono::steady_clock::now() + kDrain;
    while (busy() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(kNap);
        pass(false);
    }
    std::lock_guard lk(m);
    dma_.sync();
    cqes_.write_ready(dma_);
}

void Worker::loop(int k)
{
    dream::serve(k, e_.running_, e_.failure(), *this);
}

// The CPU-driven baseline's reads (dream/bench/nvme_baseline.py): block-sized
// preads at `offsets` into dst + i * block, split over `threads` threads.
// Returns the seconds taken.
double read_blocks(const std::string &path, bool direct, py::array_t<uint64_t> offsets,
                   uint64_t block, uint64_t dst, int threads)
{
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | (direct ? O_DIRECT : 0));
    if (fd < 0)
        throw std::runtime_error("open " + path + ": " + std::strerror(errno));
    const uint64_t *off = offsets.data();
    const size_t n = (size_t)offsets.size();
    std::atomic<int> err{0};
    const auto t0 = std::chrono::steady_clock::now();
    {
        py::gil_scoped_release nogil;
        std::vector<std::thread> ts;
        for (int k = 0; k < std::max(1, threads); k++)
            ts.emplace_back([&, k] {
                int e = 0;
                for (size_t i = k; i < n && !err; i += std::max(1, threads))
                    if (!full_io(fd, false, (uint8_t *)dst + i * block, block, off[i], e))
                        err = e ? e : EIO;
            });
        for (auto &t : ts)
            t.join();
    }
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    close(fd);
    if (err)
        throw std::runtime_error("read_blocks " + path + ": " + std::strerror(err));
    return dt;
}

} // namespace

PYBIND11_MODULE(_softnvme, m)
{
    m.doc() = "Software NVMe controller over backing files, serving commands posted by GPU threads";
    auto engine = py::class_<Engine, std::unique_ptr<Engine, dream::Release<Engine>>>(m, "Engine");
    dream::def_copier(engine);
    engine
        .def(py::init<bool, int, uint64_t, uint64_t, uint32_t, uint32_t, uint64_t, uint64_t, int,
                      int, double>(),
             py::arg("gpu"), py::arg("device") = 0, py::arg("bar"), py::arg("bar_size"),
             py::arg("dstrd") = 0, py::arg("lba_size") = 512, py::arg("mdts") = 1ull << 20,
             py::arg("staging") = 64ull << 20, py::arg("threads") = 1, py::arg("io_threads") = 4,
             py::arg("stop_timeout") = dream::kStopSeconds,
             "A controller whose registers live at host address `bar` (CAP and VS written "
             "there). gpu=False: every address is host memory (CPU tests). mdts: the largest "
             "transfer in bytes; staging: bytes of aligned staging, shared by the engine threads; "
             "stop_timeout: seconds that stopping waits for a thread before reporting it.")
        .def("add_namespace", &Engine::add_namespace, py::arg("path"), py::arg("writable"),
             py::arg("cold") = true, "Attaches a file as a namespace (size = file size); returns its nsid.")
        .def("remove_namespace", &Engine::remove_namespace, py::arg("nsid"),
             py::arg("timeout") = py::none(), py::call_guard<py::gil_scoped_release>(),
             "Detaches a namespace once its file is synced (at most `timeout` s, else stop_timeout).")
        .def("namespace_info", &Engine::ns_info, py::arg("nsid"))
        .def("map_dma", &Engine::map_dma, py::arg("addr"), py::arg("length"),
             "Lets the controller move data to and from [addr, addr + length).")
        .def("unmap_dma", &Engine::unmap_dma, py::arg("addr"))
        .def("create_queue", &Engine::create_queue, py::arg("qid"), py::arg("sq"), py::arg("cq"),
             py::arg("entries"))
        .def("start", &Engine::start, py::call_guard<py::gil_scoped_release>())
        .def("stop", [](Engine &e, std::optional<double> t) { e.stop(dream::bound(t.value_or(e.stop_timeout))); },
             py::arg("timeout") = py::none(), py::call_guard<py::gil_scoped_release>(),
             "Ends the engine threads; raises if one has not ended after `timeout` s (else stop_timeout).")
        .def("_hold_io", [](Engine &e, bool on) { e.pool().hold(on); }, py::arg("on"),
             "Tests only: file I/O waits while held, as an I/O that does not return.")
        .def("_fail_step", [](Engine &e, int n) { e.fail_step = n; }, py::arg("n"),
             "Tests only: the n-th step from now of the passes that may fail (each queue's fetch, "
             "a command's placement, copy and completion, a CQE, a staging buffer's cooling, a "
             "write's hand-over to the file I/O threads) fails, as a failed DMA or allocation.")
        .def("_poller_spare_buffers", &Engine::poller_spare_buffers,
             "Tests only: poll()'s staging buffers held by no command.")
        .def_property_readonly("running", &Engine::running)
        .def("poll", &Engine::poll, py::call_guard<py::gil_scoped_release>(),
             "Serves every queue in this thread (engine stopped) until what it fetched has "
             "completed; returns the commands fetched and finished.")
        .def("queue_info",
             [](Engine &e, uint32_t qid) {
                 const Queue &q = e.queue(qid);
                 py::dict d;
                 d["entries"] = q.entries;
                 d["sq_head"] = q.sq_head;
                 d["cq_tail"] = q.cq_tail;
                 d["cq_head"] = q.cq_head;
                 d["phase"] = q.phase;
                 d["held"] = q.held.size();
                 d["sq_on_device"] = q.sq_dev;
                 d["cq_on_device"] = q.cq_dev;
                 return d;
             },
             py::arg("qid"))
        .def("counters", &Engine::counters)
        .def_property_readonly("error", &Engine::error,
                               "The first failure since start() (an engine thread that "
                               "died, an invalid doorbell write), or None.")
        .def_readonly("threads", &Engine::threads)
        .def_property_readonly("io_threads", [](Engine &e) { return e.pool().size(); })
        .def_property_readonly("lba_size", [](const Engine &e) { return 1u << e.lba_shift; })
        .def_readonly("mdts", &Engine::mdts)
        .def_readonly("dstrd", &Engine::dstrd)
        .def_property_readonly("gpu", [](const Engine &e) { return e.mode == Dma::Mode::gpu; });

    m.def("read_blocks", &read_blocks, py::arg("path"), py::arg("direct"), py::arg("offsets"),
          py::arg("block"), py::arg("dst"), py::arg("threads") = 8,
          "Baseline reads: pread of `block` bytes at each offset into dst + i * block "
          "(O_DIRECT if direct), on `threads` threads; returns seconds.");

    py::dict layouts;
    STRUCT(dream_queue, FIELD(dream_queue, ticket); FIELD(dream_queue, rung);
           FIELD(dream_queue, lock); FIELD(dream_queue, depth); FIELD(dream_queue, seq));
    STRUCT(dream_nvme_sqe, FIELD(dream_nvme_sqe, opc); FIELD(dream_nvme_sqe, flags);
           FIELD(dream_nvme_sqe, cid); FIELD(dream_nvme_sqe, nsid); FIELD(dream_nvme_sqe, cdw2);
           FIELD(dream_nvme_sqe, cdw3); FIELD(dream_nvme_sqe, mptr); FIELD(dream_nvme_sqe, prp1);
           FIELD(dream_nvme_sqe, prp2); FIELD(dream_nvme_sqe, slba); FIELD(dream_nvme_sqe, nlb);
           FIELD(dream_nvme_sqe, control); FIELD(dream_nvme_sqe, cdw13);
           FIELD(dream_nvme_sqe, cdw14); FIELD(dream_nvme_sqe, cdw15));
    STRUCT(dream_nvme_cqe, FIELD(dream_nvme_cqe, dw0); FIELD(dream_nvme_cqe, dw1);
           FIELD(dream_nvme_cqe, sq_head); FIELD(dream_nvme_cqe, sq_id);
           FIELD(dream_nvme_cqe, cid); FIELD(dream_nvme_cqe, status));
    STRUCT(dream_nvme_queue, FIELD(dream_nvme_queue, q); FIELD(dream_nvme_queue, sq);
           FIELD(dream_nvme_queue, cq); FIELD(dream_nvme_queue, sq_db);
           FIELD(dream_nvme_queue, cq_db); FIELD(dream_nvme_queue, mailbox);
           FIELD(dream_nvme_queue, entries); FIELD(dream_nvme_queue, qid);
           FIELD(dream_nvme_queue, cq_head); FIELD(dream_nvme_queue, cq_phase);
           FIELD(dream_nvme_queue, cq_lock); FIELD(dream_nvme_queue, pad));
    STRUCT(dream_nvme, FIELD(dream_nvme, queues); FIELD(dream_nvme, frames_dma);
           FIELD(dream_nvme, prp_lists); FIELD(dream_nvme, prp_stride);
           FIELD(dream_nvme, nqueues); FIELD(dream_nvme, lba_shift); FIELD(dream_nvme, flags));
    m.attr("layouts") = layouts;

    py::dict c;
    CONST(DREAM_QUEUE_MAX_DEPTH);
    CONST(DREAM_NVME_OPC_FLUSH); CONST(DREAM_NVME_OPC_WRITE); CONST(DREAM_NVME_OPC_READ);
    CONST(DREAM_NVME_FLAGS_FUSE_MASK); CONST(DREAM_NVME_FLAGS_PSDT_MASK);
    CONST(DREAM_NVME_SF_CODE_MASK); CONST(DREAM_NVME_SF_DNR);
    CONST(DREAM_NVME_SCT_GENERIC); CONST(DREAM_NVME_SCT_COMMAND); CONST(DREAM_NVME_SCT_MEDIA);
    CONST(DREAM_NVME_SC_SUCCESS); CONST(DREAM_NVME_SC_INVALID_OPCODE);
    CONST(DREAM_NVME_SC_INVALID_FIELD); CONST(DREAM_NVME_SC_DATA_TRANSFER);
    CONST(DREAM_NVME_SC_INVALID_NS); CONST(DREAM_NVME_SC_PRP_OFFSET);
    CONST(DREAM_NVME_SC_WRITE_PROTECTED); CONST(DREAM_NVME_SC_LBA_RANGE);
    CONST(DREAM_NVME_SC_WRITE_FAULT); CONST(DREAM_NVME_SC_READ_ERROR);
    CONST(DREAM_NVME_REG_CAP); CONST(DREAM_NVME_REG_VS); CONST(DREAM_NVME_REG_DBS);
    CONST(DREAM_NVME_CTRL_PAGE_SHIFT); CONST(DREAM_NVME_PRP_PER_PAGE);
    CONST(DREAM_NVME_MB_ARRIVED);
    m.attr("constants") = c;
}
