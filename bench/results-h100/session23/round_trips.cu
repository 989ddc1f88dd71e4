// Round-trip latency of the soft engines' primitives: a GPU thread rings a
// doorbell in pinned host memory, a host thread serves it in one of several
// ways, the GPU thread spins on the completion. ns per round trip.
#include <cuda.h>
#include <cuda_runtime.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#define CK(x) do { auto r_ = (x); if (r_ != 0) { printf("%s:%d %s -> %d\n", __FILE__, __LINE__, #x, (int)r_); exit(1);} } while (0)

__global__ void pinger(volatile unsigned long long *db, volatile unsigned *flag_dev, volatile unsigned *flag_host,
                       bool host_flag, int n, unsigned long long *ns, volatile unsigned char *frame)
{
    unsigned long long t0 = 0, t1, ts;
    for (int i = 1; i <= n; i++) {
        if (i == 2) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
        __threadfence_system();
        *db = i;
        volatile unsigned *w = host_flag ? flag_host : frame ? (volatile unsigned *)(frame + (i % 128) * 4096 + 4092) : flag_dev;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ts));
        while (*w != (unsigned)i) {
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
            if (t1 - ts > 1000000000ull) { *ns = ~0ull; return; }
        }
    }
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    *ns = (t1 - t0) / (n - 1);
}

int main(int argc, char **argv)
{
    const int mode = argc > 1 ? atoi(argv[1]) : 0; // 0 serve in main, 1 thread + main spins eventQuery, 2 thread + main sleeps
    CK(cudaSetDevice(0));
    CK(cuInit(0));
    unsigned long long *db; unsigned *flag_host; unsigned char *src, *stage;
    CK(cudaHostAlloc(&db, 4096, cudaHostAllocMapped));
    CK(cudaHostAlloc(&flag_host, 4096, cudaHostAllocMapped));
    CK(cudaHostAlloc(&src, 1 << 20, cudaHostAllocMapped));
    CK(cudaHostAlloc(&stage, 4096, cudaHostAllocMapped));
    unsigned *flag_dev; unsigned char *frame, *sq; unsigned long long *ns;
    CK(cudaMalloc(&flag_dev, 4096)); CK(cudaMalloc(&frame, 1 << 20)); CK(cudaMalloc(&sq, 4096));
    CK(cudaMalloc(&ns, 8));
    cudaStream_t ks, s, f;
    CK(cudaStreamCreateWithFlags(&ks, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&f, cudaStreamNonBlocking));
    const int N = 3000;
    const char *names[] = {
        "0 host flag by CPU store (floor)",
        "1 fetch D2H 64B + query, then host flag",
        "2 4K H2D copy, GPU polls data's last word",
        "3 4K H2D + 64B H2D in stream order (dev flag)",
        "4 fetch + 4K + 64B (today's devq path)",
        "5 4K H2D + cuStreamWriteValue32 dev flag",
        "6 4K H2D + event query, CPU writes host flag",
        "7 4K H2D batch API + 64B batch (dev flag)",
        "8 4K H2D + cuStreamWriteValue32 host flag",
        "9 fetch + 4K + writeValue dev flag",
        "10 4K + 64B shadow + writeValue dev flag",
        "11 driver HtoD 4K + writeValue dev flag",
    };
    for (int v : {0, 3, 7, 10}) {
        CK(cudaMemset(flag_dev, 0, 4096)); memset((void *)flag_host, 0, 4096); *(volatile unsigned long long *)db = 0;
        CK(cudaMemset(frame, 0, 1 << 20));
        CK(cudaDeviceSynchronize());
        unsigned char *dlast = v == 2 ? frame : nullptr;
        bool hflag = v == 0 || v == 1 || v == 6 || v == 8;
        pinger<<<1, 1, 0, ks>>>(db, flag_dev, flag_host, hflag, N, ns, dlast);
        CK(cudaGetLastError());
        cudaEvent_t kev; CK(cudaEventCreateWithFlags(&kev, cudaEventDisableTiming)); CK(cudaEventRecord(kev, ks));
        auto serve = [&] {
        CK(cudaSetDevice(0));
        unsigned long long last = 0;
        cudaEvent_t ev; CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
        auto tl = std::chrono::steady_clock::now();
        for (int served = 0; served < N;) {
            unsigned long long d = __atomic_load_n((unsigned long long *)db, __ATOMIC_ACQUIRE);
            if (d == last) {
                __builtin_ia32_pause();
                if (std::chrono::steady_clock::now() - tl > std::chrono::seconds(3)) { printf("stuck at %d\n", served); break; }
                continue;
            }
            tl = std::chrono::steady_clock::now();
            last = d; served++;
            unsigned i = (unsigned)d;
            unsigned char *dst = frame + (i % 128) * 4096;
            *(unsigned *)(src + (i % 128) * 4096 + 4092) = i; // data's last word carries i
            *(unsigned *)(stage + (i % 64) * 64) = i;
            auto fetch = [&] {
                CK(cudaMemcpyAsync(src + (1 << 20) - 64, sq, 64, cudaMemcpyDeviceToHost, f));
                while (cudaStreamQuery(f) == cudaErrorNotReady) std::this_thread::yield();
            };
            auto data = [&] { CK(cudaMemcpyAsync(dst, src + (i % 128) * 4096, 4096, cudaMemcpyHostToDevice, s)); };
            auto flag = [&] { CK(cudaMemcpyAsync(flag_dev, stage + (i % 64) * 64, 4, cudaMemcpyHostToDevice, s)); };
            auto wv = [&](void *p) { CK(cuStreamWriteValue32((CUstream)s, (CUdeviceptr)p, i, 0)); };
            switch (v) {
            case 0: __atomic_store_n(flag_host, i, __ATOMIC_RELEASE); break;
            case 1: fetch(); __atomic_store_n(flag_host, i, __ATOMIC_RELEASE); break;
            case 2: data(); break;
            case 3: data(); flag(); break;
            case 4: fetch(); data(); flag(); break;
            case 5: data(); wv(flag_dev); break;
            case 6:
                data(); CK(cudaEventRecord(ev, s));
                while (cudaEventQuery(ev) == cudaErrorNotReady) ;
                __atomic_store_n(flag_host, i, __ATOMIC_RELEASE); break;
            case 7: {
                cudaMemcpyAttributes attr = {};
                attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
                attr.flags = cudaMemcpyFlagPreferOverlapWithCompute;
                size_t first = 0;
                void *d1[1] = {dst}; const void *s1[1] = {src + (i % 128) * 4096}; size_t n1[1] = {4096};
                CK(cudaMemcpyBatchAsync(d1, s1, n1, 1, &attr, &first, 1, s));
                void *d2[1] = {flag_dev}; const void *s2[1] = {stage + (i % 64) * 64}; size_t n2[1] = {4};
                CK(cudaMemcpyBatchAsync(d2, s2, n2, 1, &attr, &first, 1, s));
                break;
            }
            case 8: data(); wv(flag_host); break;
            case 9: fetch(); data(); wv(flag_dev); break;
            case 10: data(); CK(cudaMemcpyAsync(flag_dev + 64, stage + (i % 64) * 64, 60, cudaMemcpyHostToDevice, s)); wv(flag_dev); break;
            case 11: CK(cuMemcpyHtoDAsync((CUdeviceptr)dst, src + (i % 128) * 4096, 4096, (CUstream)s)); wv(flag_dev); break;
            }
        }
        CK(cudaEventDestroy(ev));
        };
        if (mode == 0) serve();
        else {
            std::thread th(serve);
            if (mode == 1) while (cudaEventQuery(kev) == cudaErrorNotReady) ;
            else if (mode == 2) while (cudaEventQuery(kev) == cudaErrorNotReady) std::this_thread::sleep_for(std::chrono::microseconds(200));
            th.join();
        }
        CK(cudaStreamSynchronize(ks));
        unsigned long long h; CK(cudaMemcpy(&h, ns, 8, cudaMemcpyDeviceToHost));
        printf("mode %d %-48s %8.2f us\n", mode, names[v], h / 1e3);
        fflush(stdout);
    }
    return 0;
}
