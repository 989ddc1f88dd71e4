// CPU cost per call of the CUDA calls a soft engine makes, GPU idle and busy.
#include <cuda.h>
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#define CK(x) do { auto r_ = (x); if (r_ != 0) { printf("%s:%d %s -> %d\n", __FILE__, __LINE__, #x, (int)r_); exit(1);} } while (0)
__global__ void spin(volatile int *stop) { while (!*stop) __nanosleep(1000); }
int main()
{
    CK(cudaSetDevice(0)); CK(cuInit(0));
    unsigned char *src, *dst; int *stop;
    CK(cudaHostAlloc(&src, 1 << 22, 0)); CK(cudaMalloc(&dst, 1 << 22)); CK(cudaHostAlloc(&stop, 64, cudaHostAllocMapped));
    cudaStream_t s, ks; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); CK(cudaStreamCreateWithFlags(&ks, cudaStreamNonBlocking));
    cudaEvent_t ev; CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    cudaMemcpyAttributes attr = {}; attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream; attr.flags = cudaMemcpyFlagPreferOverlapWithCompute;
    cudaMemcpyAttributes attr0 = {}; attr0.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    int i = 0;
    auto batch = [&](int n, cudaMemcpyAttributes *a) {
        void *d[16]; const void *sr[16]; size_t sz[16]; size_t first = 0;
        for (int k = 0; k < n; k++) { d[k] = dst + ((i * n + k) % 512) * 4096; sr[k] = src + ((i * n + k) % 512) * 4096; sz[k] = 4096; }
        CK(cudaMemcpyBatchAsync(d, sr, sz, n, a, &first, 1, s));
    };
    struct T { const char *name; std::function<void()> f; } tests[] = {
        {"cudaMemcpyAsync H2D 4K", [&] { CK(cudaMemcpyAsync(dst + (i % 512) * 4096, src + (i % 512) * 4096, 4096, cudaMemcpyHostToDevice, s)); }},
        {"cudaMemcpyAsync Default 4K", [&] { CK(cudaMemcpyAsync(dst + (i % 512) * 4096, src + (i % 512) * 4096, 4096, cudaMemcpyDefault, s)); }},
        {"cudaMemcpyAsync H2D 64B", [&] { CK(cudaMemcpyAsync(dst + (i % 512) * 64, src + (i % 512) * 64, 64, cudaMemcpyHostToDevice, s)); }},
        {"cuMemcpyHtoDAsync 4K", [&] { CK(cuMemcpyHtoDAsync((CUdeviceptr)(dst + (i % 512) * 4096), src + (i % 512) * 4096, 4096, (CUstream)s)); }},
        {"cuMemcpyAsync 4K", [&] { CK(cuMemcpyAsync((CUdeviceptr)(dst + (i % 512) * 4096), (CUdeviceptr)(src + (i % 512) * 4096), 4096, (CUstream)s)); }},
        {"BatchAsync 1 (overlap attr)", [&] { batch(1, &attr); }},
        {"BatchAsync 2 (overlap attr)", [&] { batch(2, &attr); }},
        {"BatchAsync 16 (overlap attr)", [&] { batch(16, &attr); }},
        {"BatchAsync 1 (plain attr)", [&] { batch(1, &attr0); }},
        {"BatchAsync 2 (plain attr)", [&] { batch(2, &attr0); }},
        {"cuStreamWriteValue32", [&] { CK(cuStreamWriteValue32((CUstream)s, (CUdeviceptr)(dst + (i % 512) * 4), i, 0)); }},
        {"cuStreamBatchMemOp 4 writes", [&] {
            CUstreamBatchMemOpParams p[4] = {};
            for (int k = 0; k < 4; k++) { p[k].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32; p[k].writeValue.address = (CUdeviceptr)(dst + ((i * 4 + k) % 512) * 4); p[k].writeValue.value = i; }
            CK(cuStreamBatchMemOp((CUstream)s, 4, p, 0)); }},
        {"cudaEventRecord", [&] { CK(cudaEventRecord(ev, s)); }},
        {"cudaEventQuery", [&] { cudaEventQuery(ev); }},
        {"cudaStreamQuery", [&] { cudaStreamQuery(s); }},
    };
    for (int busy = 0; busy < 2; busy++) {
        *stop = 0;
        if (busy) { spin<<<132, 1024, 0, ks>>>(stop); CK(cudaGetLastError()); }
        for (auto &t : tests) {
            double tot = 0; int n = 0;
            for (int rep = 0; rep < 10; rep++) {
                auto t0 = std::chrono::steady_clock::now();
                for (int k = 0; k < 100; k++, i++) t.f();
                tot += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count(); n += 100;
                CK(cudaStreamSynchronize(s));
            }
            printf("%s %-32s %7.2f us/call\n", busy ? "busy" : "idle", t.name, tot / n);
        }
        *stop = 1; __sync_synchronize();
        CK(cudaStreamSynchronize(ks));
    }
}
