// Session 25, for the next session (compiled here, not yet run): the copy
// kernel as a soft engine would use it. One ring per posting CPU thread, one
// copier block per ring; thread 0 of the block polls the ring's posted count
// in host memory (the only host-memory poll), the block's warps copy the
// batch [consumed, posted), two 4 KiB pages per warp in flight, then the
// block syncs and thread 0 publishes the new consumed count (after a system
// fence: the host reuses sources and reads destinations in host memory once
// it sees it). A descriptor may carry a flag to set after its data (as a CQE
// after its page): the copier writes it after a GPU-scope fence.
//
//   nvcc -O2 -arch=sm_90 copier2.cu -lcuda && ./a.out [copies] [watchdog s] [phases: tcr]
//   phases: t = throughput for 1, 2, 4, 8 rings; c = the same copies by the copy
//   engines (cudaMemcpyBatchAsync, 16 a call, a stream per thread, as the soft
//   engines issue them) under the same busy kernel; r = round trip of one request
//
// Every wait is bounded (the watchdog ends the process). Modules load eagerly
// (CUDA_MODULE_LOADING=EAGER, set first): loaded lazily, a kernel's first
// launch while a persistent kernel runs waits for the context to go idle,
// which hung copier.cu's round trips and let its first copy-kernel row run
// before its busy kernel had started (helper review). The busy kernel does
// arithmetic on every SM the copier does not hold (copier.cu's folded to one
// multiply-add and a poll of one L2 line, a poll storm) and one lane per warp
// checks its stop flag, in GPU memory, every 4,096 steps. After each phase a
// few destination pages are compared with their sources.
#include <cuda.h>
#include <cuda_runtime.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#define CK(x) do { auto r_ = (x); if (r_ != 0) { printf("%s:%d %s -> %d\n", __FILE__, __LINE__, #x, (int)r_); exit(1);} } while (0)

struct alignas(32) Desc {
    unsigned long long src, dst;
    unsigned long long flag; // 0, or a GPU address that gets `value` after the data
    unsigned len, value;
};

constexpr unsigned NS = 4096; // descriptors per ring

struct alignas(128) RingCtl {
    unsigned long long posted;   // written by the CPU (release)
    char pad[120];
    unsigned long long consumed; // written by the copier block (after a system fence)
    char pad2[120];
};

__device__ __forceinline__ unsigned long long ld_acq_sys(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ unsigned long long ld_sys(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

// a descriptor's fields, read past any cached copy of a reused slot
struct Fields {
    unsigned long long src, dst, flag;
    unsigned value;
};
__device__ __forceinline__ Fields fields(const Desc *d)
{
    Fields f;
    f.src = ld_sys(&d->src);
    f.dst = ld_sys(&d->dst);
    f.flag = ld_sys(&d->flag);
    f.value = (unsigned)(ld_sys((const unsigned long long *)&d->len) >> 32);
    return f;
}

__device__ __forceinline__ void copy_pages(const Fields &a, const Fields *b, unsigned lane)
{
    // two pages of 4 KiB: 8 pieces of 16 B per lane each, all in flight
    const uint4 *fa = (const uint4 *)a.src, *fb = b ? (const uint4 *)b->src : nullptr;
    uint4 va[8], vb[8];
#pragma unroll
    for (int u = 0; u < 8; u++) {
        va[u] = __ldcg(fa + lane + 32 * u);
        if (fb)
            vb[u] = __ldcg(fb + lane + 32 * u);
    }
    uint4 *ta = (uint4 *)a.dst, *tb = b ? (uint4 *)b->dst : nullptr;
#pragma unroll
    for (int u = 0; u < 8; u++) {
        __stcg(ta + lane + 32 * u, va[u]);
        if (tb)
            __stcg(tb + lane + 32 * u, vb[u]);
    }
}

// block r serves ring r
__global__ void copier(const Desc *rings, RingCtl *ctl, const volatile unsigned *stop, unsigned sleep_ns)
{
    __shared__ unsigned long long s_next, s_posted;
    __shared__ int s_stop;
    const Desc *ring = rings + (size_t)blockIdx.x * NS;
    RingCtl *c = ctl + blockIdx.x;
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    if (threadIdx.x == 0) {
        s_next = 0;
        s_stop = 0;
    }
    __syncthreads();
    for (;;) {
        if (threadIdx.x == 0) {
            unsigned long long p;
            while ((p = ld_acq_sys(&c->posted)) == s_next && !*stop)
                if (sleep_ns)
                    __nanosleep(sleep_ns);
            s_posted = p;
            s_stop = p == s_next;
        }
        __syncthreads();
        if (s_stop)
            return;
        const unsigned long long next = s_next, posted = s_posted;
        // warp w takes pages next + 2w, next + 2w + 1, then 2 * warps further on
        for (unsigned long long i = next + 2 * warp; i < posted; i += 2 * warps) {
            const Fields a = fields(ring + i % NS);
            const bool two = i + 1 < posted;
            Fields b = {};
            if (two)
                b = fields(ring + (i + 1) % NS);
            copy_pages(a, two ? &b : nullptr, lane);
            __syncwarp();
            __threadfence(); /* the data before its flag */
            if (lane == 0) {
                if (a.flag)
                    *(volatile unsigned *)a.flag = a.value;
                if (two && b.flag)
                    *(volatile unsigned *)b.flag = b.value;
            }
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence_system(); /* every copy of the batch before the count the host reads */
            *(volatile unsigned long long *)&c->consumed = posted;
            s_next = posted;
        }
        __syncthreads();
    }
}

__global__ void hog(const volatile unsigned *stop, unsigned long long *sink)
{
    unsigned long long x = threadIdx.x;
    for (;;) {
        bool end = false;
        if ((threadIdx.x & 31) == 0)
            end = *stop;
        if (__shfl_sync(~0u, end, 0))
            break;
        for (int i = 0; i < 4096; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            asm volatile("" : "+l"(x)); /* not folded away */
        }
    }
    if (x == 42)
        *sink = x;
}

// one GPU thread: request i in host memory, then spin on flag[(i - 1) % 64] == i (GPU memory)
__global__ void faulter(volatile unsigned *req_host, volatile unsigned *flag, int n, unsigned long long *ns,
                        const volatile unsigned *stop)
{
    unsigned long long t0 = 0, t1;
    for (int i = 1; i <= n; i++) {
        if (i == 2)
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
        __threadfence_system();
        *req_host = i;
        while (flag[(i - 1) % 64] != (unsigned)i)
            if (*stop)
                return;
    }
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    *ns = (t1 - t0) / (n - 1);
}

static double secs(std::chrono::steady_clock::time_point a)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
}

int main(int argc, char **argv)
{
    setenv("CUDA_MODULE_LOADING", "EAGER", 1); /* before the first CUDA call */
    setvbuf(stdout, nullptr, _IONBF, 0);
    const size_t M = argc > 1 ? atoll(argv[1]) : 200000;
    const int limit = argc > 2 ? atoi(argv[2]) : 60;
    const char *phases = argc > 3 ? argv[3] : "tcr";
    std::thread([limit] {
        std::this_thread::sleep_for(std::chrono::seconds(limit));
        printf("watchdog: %d s, exiting\n", limit);
        _exit(3);
    }).detach();
    CK(cudaSetDevice(0));
    CK(cuInit(0));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, copier)); /* every kernel loaded before any runs */
    CK(cudaFuncGetAttributes(&fa, hog));
    CK(cudaFuncGetAttributes(&fa, faulter));
    const size_t SRC = 256ull << 20, DST = 64ull << 20, PG = 4096;
    const int MAXR = 8;
    unsigned char *src, *dst;
    CK(cudaHostAlloc(&src, SRC, cudaHostAllocMapped));
    for (size_t w = 0; w < SRC / 8; w++) /* every 8 bytes differ: a wrong page shows */
        ((unsigned long long *)src)[w] = w * 0x9E3779B97F4A7C15ull;
    CK(cudaMalloc(&dst, DST));
    Desc *rings;
    RingCtl *ctl;
    CK(cudaHostAlloc(&rings, MAXR * NS * sizeof(Desc), cudaHostAllocMapped));
    CK(cudaHostAlloc(&ctl, MAXR * sizeof(RingCtl), cudaHostAllocMapped));
    unsigned *stop_dev, *flags, *stop_src, *req;
    CK(cudaMalloc(&stop_dev, 4));
    CK(cudaMalloc(&flags, 64 * 4));
    CK(cudaHostAlloc(&stop_src, 8, cudaHostAllocMapped));
    CK(cudaHostAlloc(&req, 64, cudaHostAllocMapped));
    unsigned long long *sink, *ns;
    CK(cudaMalloc(&sink, 8));
    CK(cudaMalloc(&ns, 8));
    cudaStream_t cs, hs, ss, fs;
    for (cudaStream_t *s : {&cs, &hs, &ss, &fs})
        CK(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking));
    printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);

    /* one stop flag in GPU memory for copier and hog, set by a copy-engine copy */
    auto set_stop = [&](unsigned v) {
        stop_src[0] = v;
        CK(cudaMemcpyAsync(stop_dev, stop_src, 4, cudaMemcpyHostToDevice, ss));
        CK(cudaStreamSynchronize(ss));
    };
    /* the copier (and the faulter) first: resident before the hog */
    auto start = [&](int rings_n, bool with_faulter, unsigned sleep_ns) {
        memset(ctl, 0, MAXR * sizeof(RingCtl));
        set_stop(0);
        copier<<<rings_n, 256, 0, cs>>>(rings, ctl, stop_dev, sleep_ns);
        CK(cudaGetLastError());
        if (with_faulter) {
            faulter<<<1, 1, 0, fs>>>(req, flags, 3000, ns, stop_dev);
            CK(cudaGetLastError());
        }
        int per = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, hog, 256, 0));
        hog<<<(prop.multiProcessorCount - rings_n - 1) * per, 256, 0, hs>>>(stop_dev, sink);
        CK(cudaGetLastError());
    };
    auto finish = [&] {
        set_stop(1);
        CK(cudaDeviceSynchronize());
    };

    std::vector<unsigned long long> so(M), dof(M);
    std::mt19937_64 rng(1);
    const size_t V = 4096; /* the last V copies go to pages of their own (checked after each phase) */
    if (M < 2 * V) {
        printf("at least %zu copies\n", 2 * V);
        return 1;
    }
    for (size_t i = 0; i < M; i++) {
        so[i] = (rng() % (SRC / PG)) * PG;
        dof[i] = i + V >= M ? (i + V - M) * PG : (V + rng() % (DST / PG - V)) * PG;
    }

    for (int R : {1, 2, 4, 8}) {
        if (!strchr(phases, 't'))
            break;
        printf("throughput, %d rings ...\n", R);
        start(R, false, 500);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        std::atomic<bool> stuck{false};
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<std::thread> th;
        for (int r = 0; r < R; r++)
            th.emplace_back([&, r] {
                Desc *ring = rings + (size_t)r * NS;
                RingCtl *c = ctl + r;
                unsigned long long posted = 0;
                const auto tw = std::chrono::steady_clock::now();
                for (size_t i = r; i < M; i += R) {
                    while (posted - __atomic_load_n(&c->consumed, __ATOMIC_ACQUIRE) >= NS) /* ring full */
                        if (secs(tw) > 20) {
                            stuck = true;
                            return;
                        }
                    Desc &d = ring[posted % NS];
                    d.src = (unsigned long long)(src + so[i]);
                    d.dst = (unsigned long long)(dst + dof[i]);
                    d.flag = 0;
                    d.len = PG;
                    d.value = 0;
                    posted++;
                    if (posted % 16 == 0) /* publish in runs, as a pass would */
                        __atomic_store_n(&c->posted, posted, __ATOMIC_RELEASE);
                }
                __atomic_store_n(&c->posted, posted, __ATOMIC_RELEASE);
                while (__atomic_load_n(&c->consumed, __ATOMIC_ACQUIRE) != posted)
                    if (secs(tw) > 20) {
                        stuck = true;
                        return;
                    }
            });
        for (auto &x : th)
            x.join();
        const double dt = secs(t0);
        finish();
        int bad = 0;
        std::vector<unsigned char> got(V * PG);
        CK(cudaMemcpy(got.data(), dst, V * PG, cudaMemcpyDeviceToHost));
        for (size_t i = M - V; i < M; i++)
            bad += memcmp(got.data() + dof[i], src + so[i], PG) != 0;
        CK(cudaMemset(dst, 0, V * PG));
        printf("KERNEL %d rings (blocks of 256): %7.2f GB/s, %6.2f M copies/s, %d pages wrong%s\n", R,
               M * PG / dt / 1e9, M / dt / 1e6, bad, stuck ? "  STUCK" : "");
    }

    for (int T : {1, 4, 8}) {
        if (!strchr(phases, 'c'))
            break;
        printf("copy engines, %d threads ...\n", T);
        set_stop(0);
        int per = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, hog, 256, 0));
        hog<<<(prop.multiProcessorCount - 2) * per, 256, 0, hs>>>(stop_dev, sink); /* as in t: SMs to spare */
        CK(cudaGetLastError());
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        std::atomic<size_t> next{0};
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<std::thread> th;
        for (int t = 0; t < T; t++)
            th.emplace_back([&] {
                CK(cudaSetDevice(0));
                cudaStream_t st;
                CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
                cudaMemcpyAttributes attr = {};
                attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
                attr.flags = cudaMemcpyFlagPreferOverlapWithCompute;
                void *d[16];
                const void *sp[16];
                size_t n[16];
                for (;;) {
                    const size_t i0 = next.fetch_add(16);
                    if (i0 >= M)
                        break;
                    const size_t k = std::min<size_t>(16, M - i0);
                    for (size_t j = 0; j < k; j++) {
                        d[j] = dst + dof[i0 + j];
                        sp[j] = src + so[i0 + j];
                        n[j] = PG;
                    }
                    size_t first = 0;
                    CK(cudaMemcpyBatchAsync(d, sp, n, k, &attr, &first, 1, st));
                }
                CK(cudaStreamSynchronize(st));
                CK(cudaStreamDestroy(st));
            });
        for (auto &x : th)
            x.join();
        const double dt = secs(t0);
        finish();
        printf("COPY ENGINES, %d threads: %7.2f GB/s, %6.2f M copies/s, %5.2f us CPU per copy per thread\n", T,
               M * PG / dt / 1e9, M / dt / 1e6, dt * 1e6 * T / M);
    }

    if (strchr(phases, 'r')) {
        const int N = 3000;
        printf("round trip ...\n");
        *req = 0;
        CK(cudaMemset(flags, 0, 64 * 4));
        CK(cudaDeviceSynchronize());
        start(1, true, 0); /* its N; the copier spins without sleeping */
        Desc *ring = rings;
        RingCtl *c = ctl;
        unsigned last = 0;
        unsigned long long posted = 0;
        auto tl = std::chrono::steady_clock::now();
        bool stuck = false;
        for (unsigned served = 0; served < (unsigned)N;) {
            const unsigned r = __atomic_load_n(req, __ATOMIC_ACQUIRE);
            if (r == last) {
                if (secs(tl) > 3) {
                    printf("stuck at %u\n", served);
                    stuck = true;
                    break;
                }
                continue;
            }
            tl = std::chrono::steady_clock::now();
            last = r;
            served++;
            Desc &d = ring[posted % NS];
            d.src = (unsigned long long)(src + (r % 1024) * PG);
            d.dst = (unsigned long long)(dst + (r % 128) * PG);
            d.flag = (unsigned long long)(flags + (r - 1) % 64);
            d.len = PG;
            d.value = r;
            __atomic_store_n(&c->posted, ++posted, __ATOMIC_RELEASE);
        }
        if (!stuck)
            CK(cudaStreamSynchronize(fs));
        finish();
        unsigned long long h = 0;
        if (!stuck)
            CK(cudaMemcpy(&h, ns, 8, cudaMemcpyDeviceToHost));
        if (!stuck)
            printf("round trip, 4 KiB through the copy kernel: %.2f us\n", h / 1e3);
    }
    return 0;
}
