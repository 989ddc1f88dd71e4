/* dream_ptr<T>: what a kernel receives for each dream array.
 *
 *   c[i] = a[i] + b[i];       element read and write through a proxy
 *   c[i] += 1;                read-modify-write under one pin (not atomic)
 *   a.atomic_add(i, v);       atomics on elements (add, min, max, cas, exch)
 *
 * dream_ptr<const T> reads only, as const T * does: a write, an atomic or a
 * writing span through it does not compile. It is passed and checked as
 * dream_ptr<T> is (sizeof(T) against the array's element size).
 *
 * Reads are optimistic, writes and atomics pin the page (fault.cuh). */
#pragma once
#include "dream/fault.cuh"

/* min/max for the types CUDA has no native atomic of, by CAS on the bits. */
template <class T, class Op> __device__ T dream_atomic_cas_loop(T *p, T v, Op better)
{
    typedef typename dream_bits_t<sizeof(T)>::type B;
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "32/64-bit elements only");
    B *q = (B *)p;
    B old = dream_ld(q), assumed;
    do {
        assumed = old;
        T cur;
        memcpy(&cur, &assumed, sizeof(T));
        if (!better(v, cur))
            return cur;
        B nb;
        memcpy(&nb, &v, sizeof(T));
        old = atomicCAS(q, assumed, nb);
    } while (old != assumed);
    T r;
    memcpy(&r, &old, sizeof(T));
    return r;
}

/* min/max: CUDA's own atomics for the integers it has them for (an unused
   result makes them reductions, with no round trip), the CAS loop for the
   rest. With the loop for every type, the CC hook's highest-degree vertex
   (Kronecker 22, resident build, H100) took 141 ms alone, against 90. */
template <class T> __device__ __forceinline__ T dream_atomic_min(T *p, T v)
{
    return dream_atomic_cas_loop(p, v, [](T x, T y) { return x < y; });
}
template <class T> __device__ __forceinline__ T dream_atomic_max(T *p, T v)
{
    return dream_atomic_cas_loop(p, v, [](T x, T y) { return x > y; });
}
#define DREAM_NATIVE_MIN_MAX(T)                                                                              \
    __device__ __forceinline__ T dream_atomic_min(T *p, T v) { return atomicMin(p, v); }                     \
    __device__ __forceinline__ T dream_atomic_max(T *p, T v) { return atomicMax(p, v); }
DREAM_NATIVE_MIN_MAX(int)
DREAM_NATIVE_MIN_MAX(unsigned int)
DREAM_NATIVE_MIN_MAX(long long)
DREAM_NATIVE_MIN_MAX(unsigned long long)
#undef DREAM_NATIVE_MIN_MAX

/* atomicAdd has no signed 64-bit overload: two's complement adds alike. */
template <class T> __device__ __forceinline__ T dream_atomic_add(T *p, T v) { return atomicAdd(p, v); }
__device__ __forceinline__ long long dream_atomic_add(long long *p, long long v)
{
    return (long long)atomicAdd((unsigned long long *)p, (unsigned long long)v);
}

/* Exchange and compare-and-swap on the bits, for every 4- and 8-byte type. */
template <class T> __device__ __forceinline__ T dream_atomic_exch(T *p, T v)
{
    typedef typename dream_bits_t<sizeof(T)>::type B;
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "32/64-bit elements only");
    B b, r;
    memcpy(&b, &v, sizeof(T));
    r = atomicExch((B *)p, b);
    T out;
    memcpy(&out, &r, sizeof(T));
    return out;
}

template <class T> __device__ __forceinline__ T dream_atomic_cas(T *p, T cmp, T v)
{
    typedef typename dream_bits_t<sizeof(T)>::type B;
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "32/64-bit elements only");
    B c, b, r;
    memcpy(&c, &cmp, sizeof(T));
    memcpy(&b, &v, sizeof(T));
    r = atomicCAS((B *)p, c, b);
    T out;
    memcpy(&out, &r, sizeof(T));
    return out;
}

/* An element type T of dream_ptr<T> or dream_span<T>: the type accessed
   (T without const) and whether it may be written. */
template <class T> struct dream_elem { typedef T type; static constexpr bool write = true; };
template <class T> struct dream_elem<const T> { typedef T type; static constexpr bool write = false; };
#define DREAM_WRITABLE(T)                                                                                  \
    static_assert(dream_elem<T>::write, "a dream_ptr<const T> is read-only: declare it dream_ptr<T> to write, " \
                                        "update or use atomics")

template <class T> struct dream_ptr;

template <class T> struct dream_ref {
    typedef typename dream_elem<T>::type U;
    /* the dream_ptr's array and hint, read together: the hint's range says
       where elements of its own array are (abi.h dream_hint), so a ref that
       outlives a reassignment of its dream_ptr accesses the new array */
    const dream_ptr<T> *d;
    uint64_t i;
    bool narrow; /* i is a signed 32-bit index, sign-extended (fault.cuh dream_read) */

    __device__ __forceinline__ operator U() const
    {
        dream_hint fresh;
        return dream_read<U>(d->a, i, d->hint(fresh), narrow);
    }
    __device__ __forceinline__ const dream_ref &operator=(U v) const
    {
        DREAM_WRITABLE(T);
        dream_hint fresh;
        dream_write<U>(d->a, i, d->hint(fresh), [=](U *q) { dream_st(q, v); return v; });
        return *this;
    }
    __device__ __forceinline__ const dream_ref &operator=(const dream_ref &o) const
    {
        return *this = (U)o;
    }
    template <class Op> __device__ __forceinline__ const dream_ref &update(Op op) const
    {
        DREAM_WRITABLE(T);
        dream_hint fresh;
        dream_write<U>(d->a, i, d->hint(fresh), [=](U *q) {
            const U n = (U)op(dream_ld(q));
            dream_st(q, n);
            return n;
        });
        return *this;
    }
    __device__ const dream_ref &operator+=(U v) const { return update([=](U x) { return x + v; }); }
    __device__ const dream_ref &operator-=(U v) const { return update([=](U x) { return x - v; }); }
    __device__ const dream_ref &operator*=(U v) const { return update([=](U x) { return x * v; }); }
    __device__ const dream_ref &operator/=(U v) const { return update([=](U x) { return x / v; }); }
    __device__ const dream_ref &operator++() const { return update([](U x) { return x + 1; }); }
    __device__ const dream_ref &operator--() const { return update([](U x) { return x - 1; }); }
};

template <class T> struct dream_ptr {
    typedef typename dream_elem<T>::type U;
    dream_ptr_abi a;         /* the kernel argument is dream_ptr_arg (abi.h): a, then h */
    mutable dream_hint h;    /* this copy's: changed by its accesses (a dream_ptr is a per-thread value;
                                an object shared through memory takes no hint: hint()) */

    /* The hint an access takes: h, or `fresh` (none) where this object is
       not the thread's own copy (in shared memory, a cluster's included, or
       in global or constant memory): threads sharing one object would race
       on its hint's range, and an access in a range is unchecked (fault.cuh
       O6). The test folds away for a thread's own copy. Not in the resident
       build, where a check made ptxas unroll less: its reads take no hint,
       and a shared object's `dirty` names a page some thread has already
       marked in this launch. */
    __device__ __forceinline__ dream_hint &hint(dream_hint &fresh) const
    {
#ifndef DREAM_RESIDENT_KERNEL
        if (!__isLocal(this))
            return fresh = dream_hint{}, fresh;
#endif
        return h;
    }

    /* Any integer index (or a dream_ref to one, read first); a signed 32-bit
       one (J: 4 bytes, -1 < 0, and 1 / 2 == 0, not a float) is told apart,
       as the resident build checks and addresses it in 32 bits (fault.cuh
       dream_read) */
    template <class I> __device__ __forceinline__ dream_ref<T> operator[](I i) const
    {
        const auto j = +i;
        typedef decltype(+i) J;
        return {this, (uint64_t)j, sizeof(J) == 4 && J(-1) < J(0) && J(1) / J(2) == J(0)};
    }
    __device__ __forceinline__ uint64_t size() const { return a.n; }

    /* Runs f(T *) -> T on element i under its page's pin and returns its
       result. f must not access dream arrays itself: a pin is never held
       while its holder waits for another page (fault.cuh). Captures by
       value keep the hit path's variables in registers (fault.cuh,
       dream_done). */
    template <class F> __device__ __forceinline__ U rmw(uint64_t i, F f) const
    {
        DREAM_WRITABLE(T);
        dream_hint fresh;
        return dream_write<U>(a, i, hint(fresh), f).v;
    }
    /* Each returns the old value (T() if the access failed: the error is recorded). */
    __device__ U atomic_add(uint64_t i, U v) const { return rmw(i, [=](U *q) { return dream_atomic_add(q, v); }); }
    __device__ U atomic_exch(uint64_t i, U v) const { return rmw(i, [=](U *q) { return dream_atomic_exch(q, v); }); }
    __device__ U atomic_cas(uint64_t i, U cmp, U v) const { return rmw(i, [=](U *q) { return dream_atomic_cas(q, cmp, v); }); }
    __device__ U atomic_min(uint64_t i, U v) const { return rmw(i, [=](U *q) { return dream_atomic_min(q, v); }); }
    __device__ U atomic_max(uint64_t i, U v) const { return rmw(i, [=](U *q) { return dream_atomic_max(q, v); }); }
};

static_assert(sizeof(dream_ptr<float>) == sizeof(dream_ptr_arg), "dream_ptr<T> is the kernel argument dream_ptr_arg");

/* dream_span<T>: one translation for a run of elements. The span pins the
 * page of the element asked for and hands out plain pointers into it until
 * an element of another page is asked for (the span then moves: unpins, pins
 * the new page) or the span ends (scope exit or release()).
 *
 *   dream_span<const float> row(A);           // reads: ptr() gives const float *
 *   for (int j = 0; j < n; j++) sum += row[i * n + j];
 *   dream_span<float> out(C);                 // reads and writes (marks the page dirty)
 *   if (float *q = out.ptr(i)) *q = v;
 *
 * Rules: ptr(i) is nullptr when the access failed (bounds, type, a failed
 * fault: the error is recorded and raised after the kernel); a pointer is
 * valid for elements of i's page only, and only until the span moves or
 * ends; a span is one thread's (not shared), and has plain memory's
 * semantics for the page plus its own writes (its loads may hit L1). In a
 * launch that may evict, a span's pin lives while its thread does other
 * things, waits for its warp-mates included, so the ring must have more
 * frames than the pins held at once: resident threads times spans per
 * thread (short of that, the kernel ends with DreamTimeoutError naming the
 * frame wait, never a hang). Plain loads and stores are safe through the
 * pin: its acquire (or the load's) orders them after the page's data, and no
 * one refills a pinned frame. In a launch that evicts nothing (fault.cuh, O6)
 * a span holds no pin: it takes the page's home (O7) or its frame as an
 * access does, and no frame is refilled before the kernel ends. */
template <class T> struct dream_span {
    typedef typename dream_elem<T>::type U;
    dream_ptr_abi a;
    T *base = nullptr;             /* element `first` in its frame */
    uint64_t first = 0, count = 0; /* the pinned page's elements: first .. first + count - 1 */
    int frame = -1;

    /* over a dream_ptr<U>, or a dream_ptr<const U> for a span of const U */
    __device__ explicit dream_span(const dream_ptr<U> &p) : a(p.a) {}
    __device__ explicit dream_span(const dream_ptr<const U> &p) : a(p.a)
    {
        static_assert(!dream_elem<T>::write, "a dream_span<T> over a dream_ptr<const T> would write a read-only "
                                             "array: declare it dream_span<const T>");
    }
    dream_span(const dream_span &) = delete;
    dream_span &operator=(const dream_span &) = delete;
    __device__ ~dream_span() { release(); }

    /* Element i: a plain pointer, or nullptr (the error is recorded). */
    __device__ __forceinline__ T *ptr(uint64_t i)
    {
        if (i - first < count)
            return base + (i - first);
        return move(i);
    }
    /* Element i's value, or U() when the access failed. */
    __device__ __forceinline__ U operator[](uint64_t i)
    {
        const T *q = ptr(i);
        return q ? *q : U();
    }
    __device__ __forceinline__ void release()
    {
        if (frame >= 0)
            dream_unpin(a.rt, (uint32_t)frame, dream_elem<T>::write, a.flags);
        frame = -1;
        count = 0;
    }

  private:
    __device__ T *move(uint64_t i)
    {
        release();
        if (!dream_access_ok<U>(a, i))
            return nullptr;
        const uint64_t per = (1ull << a.page_shift) / sizeof(U), page = i / per;
        uint8_t *b = dream_span_frame(a, page, dream_elem<T>::write); /* O6, O7: no pin */
#ifndef DREAM_RESIDENT_KERNEL /* there every array is at home */
        if (!b) {
            frame = dream_pin_page(a, page);
            if (frame < 0) {
                dream_exit_if_aborted(a.rt, false);
                return nullptr;
            }
            b = dream_ptr_frame(a, (uint32_t)frame);
            if (dream_no_evict(a)) { /* the frame keeps the page: the pin's acquire is all we need */
                dream_unpin(a.rt, (uint32_t)frame, dream_elem<T>::write, a.flags);
                frame = -1;
            }
        }
#endif
        first = page * per;
        count = a.n - first < per ? a.n - first : per;
        base = (T *)b;
        return base + (i - first);
    }
};

#undef DREAM_WRITABLE
