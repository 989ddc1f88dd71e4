// Session 25 microbenchmark: 4 KiB host->GPU copies posted by CPU threads, moved
// (a) by the copy engines, cudaMemcpyBatchAsync 16 a call, one stream per thread
//     (what the soft engines do today), or
// (b) by a persistent copy kernel on a few SMs that polls a ring of descriptors
//     in pinned host memory (no CUDA call per copy),
// while a "hog" kernel keeps every other SM busy. Then the round trip of one
// 4 KiB request: a GPU thread posts it to host memory, a CPU thread serves it
// (a) copy + cuStreamWriteValue32 flag or (b) a descriptor for the copier,
// and the GPU thread spins on the flag in GPU memory.
#include <cuda.h>
#include <cuda_runtime.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>
#include <unistd.h>

#define CK(x) do { auto r_ = (x); if (r_ != 0) { printf("%s:%d %s -> %d\n", __FILE__, __LINE__, #x, (int)r_); exit(1);} } while (0)

struct alignas(32) Desc {
    unsigned long long src, dst;
    unsigned len, pad;
    unsigned long long seq; // index + 1, written last
};

constexpr unsigned NS = 8192; // ring slots

__device__ __forceinline__ unsigned long long ld_acq_sys(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

// warp w serves ring indices w, w + W, w + 2W, ...
__global__ void copier(const Desc *ring, const volatile unsigned *stop, unsigned long long *consumed_host,
                       unsigned *done_dev, unsigned ndone)
{
    const unsigned lane = threadIdx.x & 31, W = gridDim.x * blockDim.x / 32;
    unsigned long long idx = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    for (;;) {
        const Desc *d = ring + idx % NS;
        unsigned long long s = 0;
        if (lane == 0) {
            while ((s = ld_acq_sys(&d->seq)) != idx + 1) {
                if (*stop)
                    break;
                __nanosleep(200);
            }
        }
        s = __shfl_sync(~0u, s, 0);
        if (s != idx + 1)
            return;
        unsigned long long src = 0, dst = 0;
        unsigned len = 0;
        if (lane == 0) {
            src = d->src;
            dst = d->dst;
            len = d->len;
        }
        src = __shfl_sync(~0u, src, 0);
        dst = __shfl_sync(~0u, dst, 0);
        len = __shfl_sync(~0u, len, 0);
        const uint4 *from = (const uint4 *)src;
        uint4 *to = (uint4 *)dst;
        const unsigned n16 = len / 16;
        for (unsigned k = lane; k < n16; k += 32 * 8) {
            uint4 v[8];
#pragma unroll
            for (int u = 0; u < 8; u++)
                if (k + u * 32 < n16)
                    v[u] = __ldcg(from + k + u * 32);
#pragma unroll
            for (int u = 0; u < 8; u++)
                if (k + u * 32 < n16)
                    __stcg(to + k + u * 32, v[u]);
        }
        __syncwarp();
        __threadfence();
        if (lane == 0) {
            if (ndone)
                *(volatile unsigned *)&done_dev[idx % ndone] = (unsigned)(idx + 1);
            *(volatile unsigned long long *)&consumed_host[idx % NS] = idx + 1;
        }
        idx += W;
    }
}

__global__ void hog(const volatile unsigned *stop, unsigned long long *sink)
{
    unsigned long long x = threadIdx.x;
    while (!*stop) {
        for (int i = 0; i < 1000; i++)
            x = x * 6364136223846793005ull + 1442695040888963407ull;
    }
    if (x == 42)
        *sink = x;
}

// one GPU thread: request i in host memory, then spin on done_dev[(i - 1) % 64] == i
__global__ void faulter(volatile unsigned *req_host, volatile unsigned *done_dev, int n, unsigned long long *ns)
{
    unsigned long long t0 = 0, t1;
    for (int i = 1; i <= n; i++) {
        if (i == 2)
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
        __threadfence_system();
        *req_host = i;
        while (done_dev[(i - 1) % 64] != (unsigned)i) {
        }
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
    setvbuf(stdout, nullptr, _IONBF, 0);
    const int limit = argc > 2 ? atoi(argv[2]) : 100;
    std::thread([limit] { /* nothing here may hang the device call */
        std::this_thread::sleep_for(std::chrono::seconds(limit));
        printf("watchdog: %d s, exiting\n", limit);
        _exit(3);
    }).detach();
    CK(cudaSetDevice(0));
    CK(cuInit(0));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const size_t SRC = 256ull << 20, DST = 64ull << 20, PG = 4096;
    const size_t M = argc > 1 ? atoll(argv[1]) : 400000; // copies per throughput run
    unsigned char *src;
    CK(cudaHostAlloc(&src, SRC, cudaHostAllocMapped));
    memset(src, 1, SRC);
    unsigned char *dst;
    CK(cudaMalloc(&dst, DST));
    Desc *ring;
    CK(cudaHostAlloc(&ring, NS * sizeof(Desc), cudaHostAllocMapped));
    unsigned long long *consumed;
    CK(cudaHostAlloc(&consumed, NS * 8, cudaHostAllocMapped));
    unsigned *stop, *req;
    CK(cudaHostAlloc(&stop, 64, cudaHostAllocMapped));
    CK(cudaHostAlloc(&req, 64, cudaHostAllocMapped));
    unsigned *done_dev;
    CK(cudaMalloc(&done_dev, 64 * 4));
    unsigned long long *sink, *ns;
    CK(cudaMalloc(&sink, 8));
    CK(cudaMalloc(&ns, 8));
    std::vector<unsigned long long> so(M), dof(M);
    std::mt19937_64 rng(1);
    for (size_t i = 0; i < M; i++) {
        so[i] = (rng() % (SRC / PG)) * PG;
        dof[i] = (rng() % (DST / PG)) * PG;
    }
    cudaStream_t hs, cs;
    CK(cudaStreamCreateWithFlags(&hs, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
    printf("%s, %d SMs, %zu copies of 4 KiB per run\n", prop.name, prop.multiProcessorCount, M);

    /* the hog's stop flag lies in GPU memory, set by a copy-engine copy: a
       flag in host memory that every hog thread polls floods PCIe with reads */
    unsigned *hog_stop, *flag_src;
    CK(cudaMalloc(&hog_stop, 4));
    CK(cudaHostAlloc(&flag_src, 8, cudaHostAllocMapped));
    cudaStream_t ss;
    CK(cudaStreamCreateWithFlags(&ss, cudaStreamNonBlocking));
    auto start_hog = [&](int keep_free) {
        *stop = 0;
        flag_src[0] = 0;
        flag_src[1] = 1;
        CK(cudaMemcpyAsync(hog_stop, flag_src, 4, cudaMemcpyHostToDevice, ss));
        CK(cudaStreamSynchronize(ss));
        int per = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, hog, 256, 0));
        hog<<<(prop.multiProcessorCount - keep_free) * per, 256, 0, hs>>>(hog_stop, sink);
        CK(cudaGetLastError());
    };
    auto stop_all = [&] {
        *stop = 1;
        CK(cudaMemcpyAsync(hog_stop, flag_src + 1, 4, cudaMemcpyHostToDevice, ss));
        CK(cudaDeviceSynchronize());
    };

    const char *phases = argc > 3 ? argv[3] : "ckr";
    // (a) copy engines
    for (int T : {1, 4, 8}) {
        if (!strchr(phases, 'c'))
            break;
        printf("CE, %d threads ...\n", T);
        start_hog(0);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        std::vector<std::thread> th;
        std::atomic<size_t> next{0};
        const auto t0 = std::chrono::steady_clock::now();
        for (int t = 0; t < T; t++)
            th.emplace_back([&] {
                CK(cudaSetDevice(0));
                cudaStream_t s;
                CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
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
                    CK(cudaMemcpyBatchAsync(d, sp, n, k, &attr, &first, 1, s));
                }
                CK(cudaStreamSynchronize(s));
                CK(cudaStreamDestroy(s));
            });
        for (auto &x : th)
            x.join();
        const double dt = secs(t0);
        stop_all();
        printf("CE   batch16, %d CPU threads: %7.2f GB/s, %6.2f M copies/s, %5.2f us CPU per copy per thread\n", T,
               M * PG / dt / 1e9, M / dt / 1e6, dt * 1e6 * T / M);
    }

    // (b) copy kernel on `blocks` blocks of 256 threads, the hog on the other SMs
    for (int blocks : {4, 8, 16}) {
        if (!strchr(phases, 'k'))
            break;
        for (int T : {1, 4}) {
            printf("KERN, %d blocks, %d threads ...\n", blocks, T);
            memset(ring, 0, NS * sizeof(Desc));
            memset(consumed, 0, NS * 8);
            *stop = 0;
            copier<<<blocks, 256, 0, cs>>>(ring, stop, consumed, done_dev, 0);
            CK(cudaGetLastError());
            start_hog(blocks);
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            std::atomic<size_t> next{0};
            std::atomic<bool> stuck{false};
            const auto t0 = std::chrono::steady_clock::now();
            std::vector<std::thread> th;
            for (int t = 0; t < T; t++)
                th.emplace_back([&] {
                    for (;;) {
                        const size_t i = next.fetch_add(1);
                        if (i >= M)
                            break;
                        Desc *d = ring + i % NS;
                        const unsigned long long prev = i >= NS ? i - NS + 1 : 0;
                        const auto tw = std::chrono::steady_clock::now();
                        while (__atomic_load_n(&consumed[i % NS], __ATOMIC_ACQUIRE) != prev) {
                            if (secs(tw) > 2) {
                                stuck = true;
                                return;
                            }
                        }
                        d->src = (unsigned long long)(src + so[i]);
                        d->dst = (unsigned long long)(dst + dof[i]);
                        d->len = PG;
                        __atomic_store_n(&d->seq, (unsigned long long)i + 1, __ATOMIC_RELEASE);
                    }
                });
            for (auto &x : th)
                x.join();
            // the last NS indices consumed
            const auto tw = std::chrono::steady_clock::now();
            for (size_t i = M > NS ? M - NS : 0; i < M && !stuck; i++)
                while (__atomic_load_n(&consumed[i % NS], __ATOMIC_ACQUIRE) != i + 1)
                    if (secs(tw) > 5) {
                        stuck = true;
                        break;
                    }
            const double dt = secs(t0);
            stop_all();
            printf("KERN %2d blocks, %d CPU threads: %7.2f GB/s, %6.2f M copies/s%s\n", blocks, T, M * PG / dt / 1e9,
                   M / dt / 1e6, stuck ? "  STUCK" : "");
        }
    }

    // round trip of one request, hog on the other SMs
    const int N = 3000;
    for (int v : {0, 1}) {
        if (!strchr(phases, v == 0 ? 'r' : 'R'))
            continue;
        printf("round trip %d ...\n", v);
        memset(ring, 0, NS * sizeof(Desc));
        memset(consumed, 0, NS * 8);
        *req = 0;
        CK(cudaMemset(done_dev, 0, 64 * 4));
        CK(cudaDeviceSynchronize());
        *stop = 0;
        if (v == 1)
            copier<<<1, 64, 0, cs>>>(ring, stop, consumed, done_dev, 64);
        cudaStream_t fs;
        CK(cudaStreamCreateWithFlags(&fs, cudaStreamNonBlocking));
        faulter<<<1, 1, 0, fs>>>(req, done_dev, N, ns); /* before the hog: resident */
        CK(cudaGetLastError());
        start_hog(2);
        cudaStream_t s;
        CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        unsigned last = 0;
        auto tl = std::chrono::steady_clock::now();
        for (unsigned served = 0; served < (unsigned)N;) {
            const unsigned r = __atomic_load_n(req, __ATOMIC_ACQUIRE);
            if (r == last) {
                if (secs(tl) > 3) {
                    printf("stuck at %u\n", served);
                    break;
                }
                continue;
            }
            tl = std::chrono::steady_clock::now();
            last = r;
            served++;
            const unsigned long long i = r - 1;
            unsigned char *d = dst + (i % 128) * PG, *sp = src + (i % 1024) * PG;
            if (v == 0) {
                CK(cudaMemcpyAsync(d, sp, PG, cudaMemcpyHostToDevice, s));
                CK(cuStreamWriteValue32((CUstream)s, (CUdeviceptr)(done_dev + i % 64), r, 0));
            } else {
                Desc *x = ring + i % NS;
                x->src = (unsigned long long)sp;
                x->dst = (unsigned long long)d;
                x->len = PG;
                __atomic_store_n(&x->seq, i + 1, __ATOMIC_RELEASE);
            }
        }
        CK(cudaStreamSynchronize(fs));
        stop_all();
        unsigned long long h;
        CK(cudaMemcpy(&h, ns, 8, cudaMemcpyDeviceToHost));
        printf("round trip, 4 KiB, %s: %.2f us\n", v == 0 ? "CE copy + cuStreamWriteValue32" : "copy kernel (2 warps)",
               h / 1e3);
    }
    return 0;
}
