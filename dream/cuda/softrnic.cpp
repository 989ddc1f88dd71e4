// dream._softrnic: a software RNIC that serves exactly the mlx5 RDMA
// READ/WRITE WQEs GPU threads post (dream/cuda/include/dream/rnic.cuh), for
// machines without a ConnectX.
//
// Engine threads watch each QP's 8-byte UAR doorbell word (pinned host memory
// the GPU writes, standing in for the NIC's UAR page), fetch the WQEs it
// announces (DMA from GPU memory, or plain reads from host memory), check
// each as a NIC would (dream/softrnic.h, shared with the GPU engine: else an
// error CQE with the mlx5 syndrome, after which the QP is in error and
// flushes what follows), move the data (one batch per pass over the QPs) and
// write each CQE only after its data has landed, the owner bit flipping on
// every pass over the CQ. dma.h says how bytes move in host and GPU mode.
// The same engine object keeps the regions and QPs of a GPU engine
// (engine="gpu", dream/verbs/softrnic.py), whose threads never start.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <cstddef>
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
#include "dream/mlx5.h"
#include "dream/softrnic.h"

namespace py = pybind11;
using dream::Dma;

namespace {


struct Qp {
    uint8_t *sq, *cq;
    uint64_t *uar;
    uint32_t depth, qpn;
    bool sq_dev, cq_dev;
    dream::HostBuffer wqes; // fetched WQEs, by SQ slot
    dream::HostBuffer cqes; // CQE images by CQ slot, then their shadows (completions.h), until written
    uint64_t last_uar = 0;
    uint32_t consumer = 0; // WQEs taken from the SQ
    uint32_t cq_pi = 0;    // CQEs produced
    bool error = false;

    Qp(Dma::Mode m, uint8_t *sq_, uint8_t *cq_, uint64_t *uar_, uint32_t depth_,
       uint32_t qpn_, bool sq_dev_, bool cq_dev_)
        : sq(sq_), cq(cq_), uar(uar_), depth(depth_), qpn(qpn_), sq_dev(sq_dev_), cq_dev(cq_dev_),
          wqes(m, (size_t)depth_ * DREAM_MLX5_SEND_WQE_BB),
          cqes(m, 2 * (size_t)depth_ * DREAM_MLX5_CQE_SIZE)
    {
        last_uar = __atomic_load_n(uar, __ATOMIC_ACQUIRE);
    }
};

// An engine thread's counters (engine.h).
#define DREAM_RNIC_COUNTERS(X) DREAM_SOFTRNIC_COUNTS(X) X(passes)
struct alignas(64) Counters {
    DREAM_RNIC_COUNTERS(DREAM_COUNTER)
};

uint32_t load_be32(const uint8_t *p)
{
    uint32_t v;
    std::memcpy(&v, p, 4);
    return dream_bswap32(v);
}

class Engine;

// One engine thread's share of the QPs (or all of them, for poll()).
class Worker {
public:
    Worker(Engine &e, Dma::Mode mode, int device) : e_(e), dma_(mode, device) {}
    std::vector<uint32_t> qps;
    Counters count;
    std::mutex m; // held for a pass; reset_qp takes it

    size_t pass();
    void finish();
    void loop(int k);
    void bind() { dma_.bind_thread(); }
    bool step() { return pass() != 0 || cqes_.waiting(); } // did or awaits work
    uint64_t batches() const { return dma_.batches(); }
    uint64_t copies() const { return dma_.copies(); }
    Dma &dma() { return dma_; }

private:
    void process(Qp &q, uint32_t slot);
    void complete(Qp &q, const dream_softrnic_work &k);

    Engine &e_;
    Dma dma_;
    /* the regions and direction of this pass's last data copy: a WQE in the
       same ones whose data continues it at both ends joins its copy */
    struct {
        uint32_t lkey, rkey;
        bool read, any;
    } last_ = {};
    /* the owner bit: bit 0 of op_own, the last 8 bytes' top byte */
    dream::Completions<DREAM_MLX5_CQE_SIZE, uint64_t, (uint64_t)DREAM_MLX5_CQE_OWNER_MASK << 56> cqes_;
};

class Engine {
public:
    Engine(bool gpu, int device, int threads, uint64_t max_message, double stop_timeout)
        : mode(gpu ? Dma::Mode::gpu : Dma::Mode::host), device(device),
          threads(std::max(1, threads)), max_message(max_message), stop_timeout(stop_timeout),
          poller_(std::make_unique<Worker>(*this, mode, device))
    {
        dream::bound(stop_timeout); // checks it
    }

    // The module's holder (dream::Release) calls shutdown() first.
    ~Engine() = default;

    uint32_t register_region(uint64_t addr, uint64_t length, uint32_t access)
    {
        if (length == 0)
            throw std::invalid_argument("register_region: empty region");
        std::unique_lock lk(regions_m_);
        if (regions.size() >= (1u << 24)) // a key holds the index in 24 bits
            throw std::length_error("register_region: 2^24 regions registered (keys are not reused)");
        const uint32_t key = (uint32_t)regions.size() << 8 | DREAM_SOFTRNIC_KEY_TAG;
        regions.push_back({addr, length, access, 1});
        return key;
    }

    void deregister(uint32_t key)
    {
        std::unique_lock lk(regions_m_);
        const uint32_t i = key >> 8;
        if ((key & 0xFFu) != DREAM_SOFTRNIC_KEY_TAG || i >= regions.size() || !regions[i].live)
            throw std::invalid_argument("deregister: unknown key " + std::to_string(key));
        regions[i].live = 0;
    }

    // The region table as the GPU engine takes it (dream_softrnic_region[]).
    py::bytes region_table()
    {
        std::shared_lock lk(regions_m_);
        return py::bytes((const char *)regions.data(), regions.size() * sizeof(dream_softrnic_region));
    }

    py::tuple add_qp(uint64_t sq, uint64_t cq, uint32_t depth, uint64_t uar)
    {
        if (!idle())
            throw std::runtime_error("add_qp: stop the engine first");
        if (depth == 0 || (depth & (depth - 1)) || depth > DREAM_QUEUE_MAX_DEPTH)
            throw std::invalid_argument("add_qp: depth must be a power of two <= " +
                                        std::to_string(DREAM_QUEUE_MAX_DEPTH));
        const uint32_t qpn = 0x100u + (uint32_t)qps.size();
        const bool sq_dev = mode == Dma::Mode::gpu && Dma::on_device((void *)sq);
        const bool cq_dev = mode == Dma::Mode::gpu && Dma::on_device((void *)cq);
        qps.push_back(std::make_unique<Qp>(mode, (uint8_t *)sq, (uint8_t *)cq,
                                           (uint64_t *)uar, depth, qpn, sq_dev, cq_dev));
        return py::make_tuple(qps.size() - 1, qpn);
    }

    void start()
    {
        if (running_)
            return;
        threads_.rejoin(dream::bound(stop_timeout)); // threads that ended on a failure
        retire_workers();
        fail_.clear();
        copier_.sw.engaged = 0;
        running_ = true;
        for (int k = 0; k < threads; k++) {
            auto w = std::make_unique<Worker>(*this, mode, device);
            for (uint32_t i = k; i < qps.size(); i += threads)
                w->qps.push_back(i);
            if (copier_.given())
                w->dma().use_ring(copier_, k);
            workers_.push_back(std::move(w));
        }
        for (size_t k = 0; k < workers_.size(); k++)
            threads_.start([w = workers_[k].get(), k] { w->loop((int)k); });
    }

    // Returns once no engine thread runs: completions of data already moved
    // are written, WQEs not yet fetched stay in their queues. Throws if a
    // thread has not ended after `bound` (its workers are then kept).
    void stop(std::chrono::milliseconds bound)
    {
        running_ = false;
        threads_.join_for(bound);
        retire_workers();
    }

    void shutdown(std::chrono::milliseconds bound) { stop(bound); }

    // The copy kernel's rings (dream/copier.h), one per engine thread, for
    // the threads the next start() makes.
    void set_copier(uint64_t rings, int n, uint64_t stream)
    {
        if (!idle())
            throw std::runtime_error("set_copier: stop the engine first");
        copier_.give(rings, n, stream, threads);
    }

    void use_copier(bool on, std::chrono::milliseconds bound)
    {
        copier_.use(on, (int)workers_.size(), bound, [this] { return idle(); });
    }

    // Stopped, and no engine thread left (one that ended on a failure is
    // joined here): after a stop() that timed out, threads may still run.
    bool idle() { return !running_ && threads_.join_ended(); }

    bool running() const { return running_; }

    // One pass over every QP in the calling thread (engine stopped): what the
    // threads do, made deterministic for tests.
    size_t poll()
    {
        if (!idle())
            throw std::runtime_error("poll: the engine threads are running");
        poller_->qps.clear();
        for (uint32_t i = 0; i < qps.size(); i++)
            poller_->qps.push_back(i);
        poller_->bind();
        const size_t n = poller_->pass();
        poller_->finish();
        return n;
    }

    Qp &qp(uint32_t i)
    {
        if (i >= qps.size())
            throw std::out_of_range("no QP " + std::to_string(i));
        return *qps[i];
    }

    // Back to a fresh QP (as after RESET -> RTS, with an empty CQ) once the
    // host has re-initialized the queue memory; the doorbell word is cleared
    // here, under the worker's lock, so the old value reads as no doorbell.
    void reset_qp(uint32_t i)
    {
        Qp &q = qp(i);
        std::unique_lock<std::mutex> lk;
        if (!workers_.empty()) // a thread may still serve it (a stop that timed out)
            lk = std::unique_lock<std::mutex>(workers_[i % threads]->m);
        q.error = false;
        q.consumer = 0;
        q.cq_pi = 0;
        __atomic_store_n(q.uar, 0, __ATOMIC_RELEASE);
        q.last_uar = 0;
    }

    py::dict counters() const
    {
        py::dict d;
        uint64_t b = retired_batches_, n = retired_copies_;
        const auto add = [&](const Counters &c) { DREAM_RNIC_COUNTERS(DREAM_COUNTER_SUM) };
        add(retired_);
        add(poller_->count);
        b += poller_->batches();
        n += poller_->copies();
        for (auto &w : workers_) {
            add(w->count);
            b += w->batches();
            n += w->copies();
        }
        d["batches"] = b;
        d["copies"] = n; // data and CQE copies issued, adjacent pages joined
        return d;
    }

    // The first failure, until the next start().
    std::optional<std::string> error() { return fail_.get(); }
    dream::Failure &failure() { return fail_; }

    const Dma::Mode mode;
    const int device;
    const int threads;
    const uint64_t max_message;
    const double stop_timeout; // seconds: stop() and shutdown() wait at most this
    std::vector<std::unique_ptr<Qp>> qps;
    // by key >> 8 (dream/softrnic.h); entry 0 is never a key's
    std::vector<dream_softrnic_region> regions{dream_softrnic_region{}};
    std::shared_mutex regions_m_;
    std::atomic<bool> running_{false};

private:
    // Once their threads are joined: the workers' counts kept, the workers dropped.
    void retire_workers()
    {
        for (auto &w : workers_) {
            retired_batches_ += w->batches();
            retired_copies_ += w->copies();
            Counters &into = retired_;
            const Counters &from = w->count;
            DREAM_RNIC_COUNTERS(DREAM_COUNTER_KEEP)
        }
        workers_.clear();
    }

    dream::CopierRings copier_;
    std::unique_ptr<Worker> poller_;
    std::vector<std::unique_ptr<Worker>> workers_;
    uint64_t retired_batches_ = 0, retired_copies_ = 0;
    Counters retired_; // the counts of workers whose threads have ended
    dream::Failure fail_;
    dream::Threads threads_{"engine threads"}; // last: joined (destroyed) first
};

void Worker::complete(Qp &q, const dream_softrnic_work &k)
{
    const uint32_t c = q.cq_pi++;
    const uint32_t slot = c & (q.depth - 1);
    uint8_t *img = q.cqes.data() + (size_t)slot * DREAM_MLX5_CQE_SIZE;
    uint32_t words[DREAM_MLX5_CQE_SIZE / 4];
    dream_softrnic_cqe(words, &k, q.qpn, (c & q.depth) ? 1 : 0);
    std::memcpy(img, words, sizeof words);
    cqes_.add(q.cq + (size_t)slot * DREAM_MLX5_CQE_SIZE, img, img + (size_t)q.depth * DREAM_MLX5_CQE_SIZE,
              q.cq_dev, &q);
    count.cqes++;
}

void Worker::process(Qp &q, uint32_t slot)
{
    uint32_t w[12];
    std::memcpy(w, q.wqes.data() + (size_t)slot * DREAM_MLX5_SEND_WQE_BB, sizeof w);
    const dream_softrnic_work k = dream_softrnic_decode(w, q.consumer, q.qpn, q.error, e_.max_message,
                                                        e_.regions.data(), (uint32_t)e_.regions.size());
    dream_softrnic_count(count, k);
    if (k.synd == 0) {
        const bool join = last_.any && last_.lkey == k.lkey && last_.rkey == k.rkey && last_.read == (bool)k.read;
        last_ = {k.lkey, k.rkey, (bool)k.read, true};
        dma_.copy((void *)k.dst, (const void *)k.src, k.len, join);
    } else if (dream_softrnic_fails_qp(&k)) {
        q.error = true;
    }
    if (k.cqe)
        complete(q, k);
    q.consumer++;
}

size_t Worker::pass()
{
    std::lock_guard lk(m);
    dma_.follow();
    cqes_.write_ready(dma_);
    last_.any = false;
    struct Work {
        Qp *q;
        uint32_t n;
    };
    std::vector<Work> work;
    for (uint32_t i : qps) {
        Qp &q = *e_.qps[i];
        const uint64_t v = __atomic_load_n(q.uar, __ATOMIC_ACQUIRE);
        if (v == q.last_uar)
            continue;
        q.last_uar = v;
        count.doorbells++;
        const uint32_t ctrl0 = load_be32((const uint8_t *)&v);
        const uint32_t ctrl1 = load_be32((const uint8_t *)&v + 4);
        const uint32_t n = (((ctrl0 >> 8) + 1u) - q.consumer) & 0xFFFFu;
        if ((ctrl1 >> 8) != q.qpn || n > q.depth) {
            count.bad_doorbells++;
            continue;
        }
        if (n == 0)
            continue;
        const uint32_t s0 = q.consumer & (q.depth - 1);
        const uint32_t first = std::min(n, q.depth - s0);
        const size_t bb = DREAM_MLX5_SEND_WQE_BB;
        if (q.sq_dev) {
            dma_.read(q.wqes.data() + s0 * bb, q.sq + s0 * bb, first * bb);
            if (n > first)
                dma_.read(q.wqes.data(), q.sq, (n - first) * bb);
        } else { /* ordered after the doorbell load (acquire) */
            std::memcpy(q.wqes.data() + s0 * bb, q.sq + s0 * bb, first * bb);
            if (n > first)
                std::memcpy(q.wqes.data(), q.sq, (n - first) * bb);
        }
        work.push_back({&q, n});
    }
    count.passes++;
    if (work.empty())
        return 0;
    dma_.read_wait();
    size_t total = 0;
    {
        std::shared_lock rl(e_.regions_m_);
        for (const Work &wk : work) {
            for (uint32_t k = 0; k < wk.n; k++)
                process(*wk.q, wk.q->consumer & (wk.q->depth - 1));
            total += wk.n;
        }
    }
    /* data and CQE shadows, then (stream order) the CQEs with the owner bit
       handed over: a CQE is seen only once its data has landed */
    cqes_.shadows(dma_);
    dma_.submit();
    cqes_.post(dma_, dma_.record());
    return total;
}

void Worker::finish()
{
    std::lock_guard lk(m);
    dma_.sync();
    cqes_.write_ready(dma_);
}

void Worker::loop(int k)
{
    dream::serve(k, e_.running_, e_.failure(), *this);
}

} // namespace

PYBIND11_MODULE(_softrnic, m)
{
    m.doc() = "Software RNIC serving mlx5 RDMA READ/WRITE WQEs posted by GPU threads";
    auto engine = py::class_<Engine, std::unique_ptr<Engine, dream::Release<Engine>>>(m, "Engine");
    dream::def_copier(engine);
    engine
        .def(py::init<bool, int, int, uint64_t, double>(), py::arg("gpu"), py::arg("device") = 0,
             py::arg("threads") = 1, py::arg("max_message") = 1ull << 30,
             py::arg("stop_timeout") = dream::kStopSeconds)
        .def("register_region", &Engine::register_region, py::arg("addr"), py::arg("length"),
             py::arg("access"), "Registers [addr, addr + length); returns its key (lkey = rkey).")
        .def("deregister", &Engine::deregister, py::arg("key"))
        .def("region_table", &Engine::region_table,
             "The regions as the GPU engine takes them: dream_softrnic_region by key >> 8.")
        .def("add_qp", &Engine::add_qp, py::arg("sq"), py::arg("cq"), py::arg("depth"),
             py::arg("uar"),
             "Adds a QP: SQ and CQ of `depth` 64-byte entries (GPU or host memory), `uar` the "
             "host address of its 8-byte doorbell word. Returns (index, qpn).")
        .def("start", &Engine::start, py::call_guard<py::gil_scoped_release>())
        .def("stop", [](Engine &e, std::optional<double> t) { e.stop(dream::bound(t.value_or(e.stop_timeout))); },
             py::arg("timeout") = py::none(), py::call_guard<py::gil_scoped_release>(),
             "Ends the engine threads; raises if one has not ended after `timeout` s (else stop_timeout).")
        .def_property_readonly("running", &Engine::running)
        .def("poll", &Engine::poll, py::call_guard<py::gil_scoped_release>(),
             "One pass over every QP in this thread (engine stopped); returns the WQEs served.")
        .def("reset_qp", &Engine::reset_qp, py::arg("index"),
             py::call_guard<py::gil_scoped_release>())
        .def("qp_error", [](Engine &e, uint32_t i) { return e.qp(i).error; }, py::arg("index"))
        .def("qp_info",
             [](Engine &e, uint32_t i) {
                 const Qp &q = e.qp(i);
                 py::dict d;
                 d["qpn"] = q.qpn;
                 d["depth"] = q.depth;
                 d["consumer"] = q.consumer;
                 d["cq_pi"] = q.cq_pi;
                 d["error"] = q.error;
                 d["sq_on_device"] = q.sq_dev;
                 d["cq_on_device"] = q.cq_dev;
                 return d;
             },
             py::arg("index"))
        .def("counters", &Engine::counters)
        .def_property_readonly("error", &Engine::error,
                               "Why the engine threads stopped on their own, or None.")
        .def_readonly("threads", &Engine::threads)
        .def_property_readonly("gpu", [](const Engine &e) { return e.mode == Dma::Mode::gpu; });

    py::dict layouts;
#define COUNT_FIELD(n) FIELD(dream_softrnic_counts, n);
    STRUCT(dream_queue, FIELD(dream_queue, ticket); FIELD(dream_queue, rung);
           FIELD(dream_queue, lock); FIELD(dream_queue, depth); FIELD(dream_queue, seq));
    STRUCT(dream_mlx5_ctrl_seg, FIELD(dream_mlx5_ctrl_seg, opmod_idx_opcode);
           FIELD(dream_mlx5_ctrl_seg, qpn_ds); FIELD(dream_mlx5_ctrl_seg, signature);
           FIELD(dream_mlx5_ctrl_seg, dci_stream_channel_id); FIELD(dream_mlx5_ctrl_seg, fm_ce_se);
           FIELD(dream_mlx5_ctrl_seg, imm));
    STRUCT(dream_mlx5_raddr_seg, FIELD(dream_mlx5_raddr_seg, raddr);
           FIELD(dream_mlx5_raddr_seg, rkey); FIELD(dream_mlx5_raddr_seg, reserved));
    STRUCT(dream_mlx5_data_seg, FIELD(dream_mlx5_data_seg, byte_count);
           FIELD(dream_mlx5_data_seg, lkey); FIELD(dream_mlx5_data_seg, addr));
    STRUCT(dream_mlx5_rdma_wqe, FIELD(dream_mlx5_rdma_wqe, ctrl); FIELD(dream_mlx5_rdma_wqe, raddr);
           FIELD(dream_mlx5_rdma_wqe, data); FIELD(dream_mlx5_rdma_wqe, unused));
    STRUCT(dream_mlx5_cqe64, FIELD(dream_mlx5_cqe64, rsvd0); FIELD(dream_mlx5_cqe64, srqn_uidx);
           FIELD(dream_mlx5_cqe64, imm_inval_pkey); FIELD(dream_mlx5_cqe64, app);
           FIELD(dream_mlx5_cqe64, app_op); FIELD(dream_mlx5_cqe64, app_info);
           FIELD(dream_mlx5_cqe64, byte_cnt); FIELD(dream_mlx5_cqe64, timestamp);
           FIELD(dream_mlx5_cqe64, sop_drop_qpn); FIELD(dream_mlx5_cqe64, wqe_counter);
           FIELD(dream_mlx5_cqe64, signature); FIELD(dream_mlx5_cqe64, op_own));
    STRUCT(dream_mlx5_err_cqe, FIELD(dream_mlx5_err_cqe, rsvd0); FIELD(dream_mlx5_err_cqe, srqn);
           FIELD(dream_mlx5_err_cqe, rsvd1); FIELD(dream_mlx5_err_cqe, vendor_err_synd);
           FIELD(dream_mlx5_err_cqe, syndrome); FIELD(dream_mlx5_err_cqe, s_wqe_opcode_qpn);
           FIELD(dream_mlx5_err_cqe, wqe_counter); FIELD(dream_mlx5_err_cqe, signature);
           FIELD(dream_mlx5_err_cqe, op_own));
    STRUCT(dream_mlx5_dbrec, FIELD(dream_mlx5_dbrec, rcv_counter);
           FIELD(dream_mlx5_dbrec, send_counter));
    STRUCT(dream_rnic_queue, FIELD(dream_rnic_queue, q); FIELD(dream_rnic_queue, qpn);
           FIELD(dream_rnic_queue, lkey); FIELD(dream_rnic_queue, sq); FIELD(dream_rnic_queue, cq);
           FIELD(dream_rnic_queue, dbr); FIELD(dream_rnic_queue, uar));
    STRUCT(dream_rnic, FIELD(dream_rnic, queues); FIELD(dream_rnic, nqueues);
           FIELD(dream_rnic, flags));
    STRUCT(dream_softrnic_region, FIELD(dream_softrnic_region, addr); FIELD(dream_softrnic_region, length);
           FIELD(dream_softrnic_region, access); FIELD(dream_softrnic_region, live));
    STRUCT(dream_softrnic_counts, DREAM_SOFTRNIC_COUNTS(COUNT_FIELD));
    STRUCT(dream_softrnic_qp_state, FIELD(dream_softrnic_qp_state, consumer);
           FIELD(dream_softrnic_qp_state, cq_pi); FIELD(dream_softrnic_qp_state, error);
           FIELD(dream_softrnic_qp_state, last_dbr));
    STRUCT(dream_softrnic_gpu, FIELD(dream_softrnic_gpu, qps); FIELD(dream_softrnic_gpu, state);
           FIELD(dream_softrnic_gpu, regions); FIELD(dream_softrnic_gpu, counts);
           FIELD(dream_softrnic_gpu, max_message); FIELD(dream_softrnic_gpu, nqps);
           FIELD(dream_softrnic_gpu, nregions));
    m.attr("layouts") = layouts;

    py::dict c;
    CONST(DREAM_QUEUE_MAX_DEPTH);
    CONST(DREAM_MLX5_OPCODE_RDMA_WRITE); CONST(DREAM_MLX5_OPCODE_RDMA_READ);
    CONST(DREAM_MLX5_WQE_CTRL_SOLICITED); CONST(DREAM_MLX5_WQE_CTRL_CQ_UPDATE);
    CONST(DREAM_MLX5_WQE_CTRL_FENCE); CONST(DREAM_MLX5_SEND_WQE_BB); CONST(DREAM_MLX5_SEND_WQE_DS);
    CONST(DREAM_MLX5_RDMA_DS); CONST(DREAM_MLX5_INLINE_SEG); CONST(DREAM_MLX5_BYTE_COUNT_MASK);
    CONST(DREAM_MLX5_CQE_REQ); CONST(DREAM_MLX5_CQE_REQ_ERR); CONST(DREAM_MLX5_CQE_INVALID);
    CONST(DREAM_MLX5_CQE_OWNER_MASK); CONST(DREAM_MLX5_CQE_SIZE);
    CONST(DREAM_MLX5_SYND_LOCAL_LENGTH_ERR); CONST(DREAM_MLX5_SYND_LOCAL_QP_OP_ERR);
    CONST(DREAM_MLX5_SYND_LOCAL_PROT_ERR); CONST(DREAM_MLX5_SYND_WR_FLUSH_ERR);
    CONST(DREAM_MLX5_SYND_MW_BIND_ERR); CONST(DREAM_MLX5_SYND_BAD_RESP_ERR);
    CONST(DREAM_MLX5_SYND_LOCAL_ACCESS_ERR); CONST(DREAM_MLX5_SYND_REMOTE_INVAL_REQ_ERR);
    CONST(DREAM_MLX5_SYND_REMOTE_ACCESS_ERR); CONST(DREAM_MLX5_SYND_REMOTE_OP_ERR);
    CONST(DREAM_MLX5_SYND_TRANSPORT_RETRY_EXC_ERR); CONST(DREAM_MLX5_SYND_RNR_RETRY_EXC_ERR);
    CONST(DREAM_MLX5_SYND_REMOTE_ABORTED_ERR);
    CONST(DREAM_SOFTRNIC_VS_NONE); CONST(DREAM_SOFTRNIC_VS_OPCODE); CONST(DREAM_SOFTRNIC_VS_DS);
    CONST(DREAM_SOFTRNIC_VS_QPN); CONST(DREAM_SOFTRNIC_VS_WQE_INDEX); CONST(DREAM_SOFTRNIC_VS_INLINE);
    CONST(DREAM_SOFTRNIC_VS_LENGTH); CONST(DREAM_SOFTRNIC_VS_KEY); CONST(DREAM_SOFTRNIC_VS_BOUNDS);
    CONST(DREAM_SOFTRNIC_VS_ACCESS);
    CONST(DREAM_RNIC_BAD_CQE); CONST(DREAM_SOFTRNIC_KEY_TAG); CONST(DREAM_RNIC_LOCAL_ENGINE);
    CONST(DREAM_SOFTRNIC_GPU_THREADS);
    CONST(DREAM_ACCESS_LOCAL_WRITE); CONST(DREAM_ACCESS_REMOTE_WRITE); CONST(DREAM_ACCESS_REMOTE_READ);
    CONST(DREAM_MLX5_RCV_DBR); CONST(DREAM_MLX5_SND_DBR); CONST(DREAM_MLX5_DOORBELL_BYTES);
    m.attr("constants") = c;
}
