// What the two host engines (softnvme.cpp, softrnic.cpp) share about their
// threads: the first failure they record, and threads whose end is awaited
// with a bound.
//
//   dream::Failure f;   f.set(why) keeps the first; f.get() returns it
//                       (std::nullopt if none) until f.clear().
//   dream::Threads t("engine threads");
//   t.start(fn)         runs fn on a new thread.
//   t.join_for(bound)   joins them all if all end within `bound`; else throws
//                       std::runtime_error saying how many still run, joins
//                       none, and a later call may join them.
//   t.rejoin(bound)     before starting again: join_for(bound), but throws
//                       at once while threads an earlier join_for() gave up
//                       on still run (they may never end).
//   serve(k, running, failure, worker)   an engine thread's life (below).
//   def_copier(cls)     the copy kernel's methods of an engine's Python
//                       class (copy_ring.h).
//   Counters: an engine names its counters in an X-macro, LIST(X), and
//   keeps a set per engine thread, `struct alignas(64) Counters {
//   LIST(DREAM_COUNTER) };`, each set in cache lines of its own: one set
//   shared by all threads was a line each of them wrote on every pass (idle
//   ones too), so that every count was a cache miss. counters() sums the
//   sets into a dict: LIST(DREAM_COUNTER_SUM) with `d` the dict and `c` a
//   set in scope; LIST(DREAM_COUNTER_KEEP) adds set `from` to set `into`
//   (the counts of threads that have ended).
//
// std::thread::join has no bound, and a thread blocked in a system call
// (a pread or fsync on a hung device) cannot be made to return. A thread that
// outlives the bound keeps using its engine, so an engine whose threads did
// not end is never destroyed: the Python module's holder leaks it (Release,
// below) and the Python side keeps the memory its queues live in.
#pragma once
#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#define DREAM_COUNTER(n) std::atomic<uint64_t> n{0};
#define DREAM_COUNTER_SUM(n) dream::add_count(d, #n, c.n);
#define DREAM_COUNTER_KEEP(n) into.n += from.n.load(std::memory_order_relaxed);

namespace dream {

inline void add_count(pybind11::dict &d, const char *name, const std::atomic<uint64_t> &v)
{
    const uint64_t was = d.contains(name) ? d[name].cast<uint64_t>() : 0;
    d[name] = was + v.load(std::memory_order_relaxed);
}

inline std::string seconds_text(double seconds)
{
    char s[32];
    std::snprintf(s, sizeof s, "%g s", seconds);
    return s;
}

// An engine's first failure. Recording one allocates nothing (`who`, then
// `what`, cut to the room reserved here): a thread that failed for want of
// memory still reports why, where an allocation in its handler would throw
// again, out of the thread, and end the process.
class Failure {
public:
    static constexpr size_t kRoom = 1024;
    Failure() { why_.reserve(kRoom); }
    std::optional<std::string> get()
    {
        std::lock_guard lk(m_);
        if (!set_)
            return std::nullopt;
        return why_;
    }
    void set(std::string_view who, std::string_view what = {})
    {
        std::lock_guard lk(m_);
        if (set_)
            return;
        why_.assign(who.substr(0, kRoom));
        why_.append(what.substr(0, kRoom - why_.size()));
        set_ = true;
    }
    void clear()
    {
        std::lock_guard lk(m_);
        set_ = false;
        why_.clear(); /* keeps the room */
    }

private:
    std::mutex m_;
    std::string why_;
    bool set_ = false;
};

class Threads {
public:
    explicit Threads(std::string what) : what_(std::move(what)) {}
    Threads(const Threads &) = delete;
    Threads &operator=(const Threads &) = delete;

    // Owners join_for() first; an owner whose threads outlived that is
    // leaked, never destroyed (see above), so this wait finds them ended.
    ~Threads()
    {
        for (auto &t : threads_)
            t.join();
    }

    void start(std::function<void()> fn)
    {
        std::lock_guard lk(m_);
        threads_.emplace_back([this, fn = std::move(fn)] {
            // libstdc++'s per-thread block (its exception state), allocated
            // now: else the thread's first throw allocates it, and where that
            // fails (out of memory: the very error thrown) glibc aborts the
            // process instead of letting the thread record its failure. (The
            // call is pure: its result is stored, or it is dropped.)
            [[maybe_unused]] volatile int exceptions = std::uncaught_exceptions();
            fn();
            {
                std::lock_guard lk(m_);
                ended_++;
            }
            cv_.notify_all();
        });
    }

    void join_for(std::chrono::milliseconds bound)
    {
        std::unique_lock lk(m_);
        if (!cv_.wait_for(lk, bound, [this] { return ended_ == threads_.size(); })) {
            gave_up_ = true;
            throw std::runtime_error(running() + " after " + seconds_text(bound.count() / 1000.0));
        }
        join(lk);
    }

    void rejoin(std::chrono::milliseconds bound)
    {
        {
            std::lock_guard lk(m_);
            if (gave_up_ && ended_ != threads_.size())
                throw std::runtime_error(running() + " from an earlier stop; not started");
        }
        join_for(bound);
    }

    // Joins them if all have ended (at once); whether none is left.
    bool join_ended()
    {
        std::unique_lock lk(m_);
        if (ended_ != threads_.size())
            return false;
        join(lk);
        return true;
    }

private:
    // "what: N of M still running" (under m_)
    std::string running() const
    {
        return what_ + ": " + std::to_string(threads_.size() - ended_) + " of " + std::to_string(threads_.size()) +
               " still running";
    }

    void join(std::unique_lock<std::mutex> &lk)
    {
        std::vector<std::thread> ended = std::move(threads_);
        threads_.clear();
        ended_ = 0;
        gave_up_ = false;
        lk.unlock();
        for (auto &t : ended)
            t.join(); // each has run its last statement
    }

    const std::string what_;
    std::mutex m_;
    std::condition_variable cv_;
    std::vector<std::thread> threads_;
    size_t ended_ = 0;
    bool gave_up_ = false; // a join_for() timed out; cleared once they are joined
};

// Engine thread k: w.bind(), then w.step() while `running`, polling busily
// for kSpin after the last work (step() returned true: it did some, or some
// waits on the copy engines), then napping kNap between looks; then
// w.finish(). A failure (a CUDA error, std::bad_alloc, ...) is recorded in
// `failure` and stops the engine, so that host waits see it at once instead
// of timing out.
constexpr auto kSpin = std::chrono::milliseconds(2);
constexpr auto kNap = std::chrono::microseconds(20);

template <class Worker> void serve(int k, std::atomic<bool> &running, Failure &failure, Worker &w)
{
    char who[32]; /* no std::string: past 15 characters one allocates, and that could throw out of the thread */
    std::snprintf(who, sizeof who, "engine thread %d, ", k);
    try {
        w.bind();
        auto last = std::chrono::steady_clock::now();
        while (running.load(std::memory_order_relaxed)) {
            if (w.step()) {
                last = std::chrono::steady_clock::now();
            } else if (std::chrono::steady_clock::now() - last > kSpin) {
                std::this_thread::sleep_for(kNap);
            } else {
#if defined(__x86_64__)
                __builtin_ia32_pause();
#endif
            }
        }
        w.finish();
    } catch (const std::exception &ex) {
        failure.set(who, ex.what());
        running = false;
    } catch (...) {
        failure.set(who, "an unknown exception");
        running = false;
    }
}

// The default bound on stopping an engine's threads (an engine's
// stop_timeout): longer than any wait inside a pass (a stream wait,
// Dma::kStreamWait = 60 s; draining file I/O, 30 s).
constexpr double kStopSeconds = 100;

// A bound given in seconds (from Python).
inline std::chrono::milliseconds bound(double seconds)
{
    if (!(seconds > 0) || !std::isfinite(seconds) || seconds > 1e6)
        throw std::invalid_argument("timeout: a positive number of seconds, at most 1e6");
    return std::chrono::milliseconds((long long)(seconds * 1000 + 0.5));
}

// The copy kernel's methods of an engine's Python class (E::set_copier,
// E::use_copier; copy_ring.h CopierRings).
template <class C> void def_copier(C &cls)
{
    using E = typename C::type;
    cls.def("set_copier", &E::set_copier, pybind11::arg("rings"), pybind11::arg("n"), pybind11::arg("stream") = 0,
            "The copy kernel's rings (dream/copier.h), one per engine thread, and its stream "
            "(0: none, host mode); engine stopped.")
        .def("use_copier", [](E &e, bool on, double t) { e.use_copier(on, bound(t)); }, pybind11::arg("on"),
             pybind11::arg("timeout"), pybind11::call_guard<pybind11::gil_scoped_release>(),
             "Moves the engine threads' copies to (on) or off the copy kernel; returns once "
             "every running thread has, its earlier copies landed.");
}

// Holder deleter of an engine (py::class_<E, std::unique_ptr<E, Release<E>>>):
// destroys it once E::shutdown(its stop_timeout) has ended all its threads;
// else leaves it in memory, for the threads that still use it, and says so.
// The GIL is let go meanwhile (no engine thread takes it), save while the
// interpreter shuts down.
template <class E> struct Release {
    void operator()(E *e) const
    {
#if PY_VERSION_HEX >= 0x030D0000
        const bool finalizing = Py_IsFinalizing();
#else
        const bool finalizing = _Py_IsFinalizing();
#endif
        try {
            if (!finalizing && PyGILState_Check()) {
                pybind11::gil_scoped_release nogil;
                e->shutdown(bound(e->stop_timeout));
            } else {
                e->shutdown(bound(e->stop_timeout));
            }
        } catch (const std::exception &ex) {
            std::fprintf(stderr, "dream: an engine is left in memory: %s\n", ex.what());
            return;
        }
        delete e;
    }
};

} // namespace dream
