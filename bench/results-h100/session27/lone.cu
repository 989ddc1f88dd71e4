// Session 27: a lone lane copying a 4 KiB page from pinned host memory to device memory.
// V0: today's dream_warp_copy for one lane (two halves, 8 loads each in flight = 16);
// V1: cp.async.bulk.prefetch.L2 of the page first, then V0; V2: prefetch.global.L2 per 128 B line, then V0;
// V3: 32 loads in flight.  Modes: serial (one lane, one page after another), per-warp lone (one lane of
// every warp), all lanes (each lane its own page).
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
constexpr uint32_t N16 = 4096 / 16;

template <int V> __device__ __forceinline__ void copy_page(uint4 *to, const uint4 *from)
{
    if (V == 1)
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(from), "r"(4096u) : "memory");
    if (V == 2)
        for (int k = 0; k < 32; k++)
            asm volatile("prefetch.global.L2 [%0];" ::"l"((const char *)from + 128 * k));
    if (V == 5) {
        __shared__ __align__(128) uint4 buf[8][N16];
        __shared__ __align__(8) uint64_t bar[8];
        const int w = threadIdx.x / 32;
        const uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar[w]), sb = (uint32_t)__cvta_generic_to_shared(buf[w]);
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(4096u) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(sb), "l"(from), "r"(4096u), "r"(b) : "memory");
        uint32_t done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(b), "r"(0u) : "memory");
        asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(b) : "memory");
#pragma unroll 16
        for (uint32_t k = 0; k < N16; k++) __stcg(to + k, buf[w][k]);
        return;
    }
    if (V == 4) {
        for (uint32_t k = 0; k < N16; k += 32) {
            uint4 v[32];
#pragma unroll
            for (int u = 0; u < 32; u++) v[u] = __ldcg(from + k + u);
#pragma unroll
            for (int u = 0; u < 32; u++) __stcg(to + k + u, v[u]);
        }
        return;
    }
    constexpr int U = V == 3 ? 32 : 16;
    constexpr uint32_t step = N16 / U;
    for (uint32_t k = 0; k < step; k++) {
        uint4 v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = __ldcg(from + k + u * step);
#pragma unroll
        for (int u = 0; u < U; u++) __stcg(to + k + u * step, v[u]);
    }
}

template <int V> __global__ void serial(uint4 *dev, const uint4 *host, int pages, unsigned long long *ns)
{
    if (threadIdx.x) return;
    uint64_t t0; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    for (int p = 0; p < pages; p++) { copy_page<V>(dev + p * N16, host + p * N16); __threadfence(); }
    uint64_t t1; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    *ns = t1 - t0;
}
// every warp: `lanes` lanes each copy `per` pages of their own
template <int V> __global__ void many(uint4 *dev, const uint4 *host, int lanes, int per)
{
    const int lane = threadIdx.x % 32, warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (lane >= lanes) return;
    for (int i = 0; i < per; i++) {
        const size_t p = ((size_t)warp * lanes + lane) * per + i;
        copy_page<V>(dev + p * N16, host + p * N16);
    }
}

template <int V> int run(const char *name, uint4 *dev, uint4 *host, unsigned long long *ns, size_t total_pages, int off)
{
    serial<V><<<1, 32>>>(dev, host + (size_t)off * 512 * N16, 512, ns);
    CK(cudaDeviceSynchronize());
    unsigned long long h; CK(cudaMemcpy(&h, ns, 8, cudaMemcpyDeviceToHost));
    printf("%s serial %.2f us/page", name, h / 512.0 / 1e3);
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    for (int lanes : {1, 8, 32}) {
        if (V == 5 && lanes > 1) break;
        const int warps = 132 * 32, per = (int)(total_pages / ((size_t)warps * lanes));
        many<V><<<warps / 8, 256>>>(dev, host, lanes, per);
        cudaEventRecord(a);
        many<V><<<warps / 8, 256>>>(dev, host, lanes, per);
        cudaEventRecord(b); CK(cudaEventSynchronize(b));
        float ms; cudaEventElapsedTime(&ms, a, b);
        printf(" | %2d lanes/warp %6.2f GB/s", lanes, (double)warps * lanes * per * 4096 / ms / 1e6);
    }
    printf("\n");
    return 0;
}

int main()
{
    const size_t pages = 132 * 32 * 32 * 2, bytes = pages * 4096;
    uint4 *host, *dev; unsigned long long *ns;
    CK(cudaHostAlloc(&host, bytes, cudaHostAllocMapped));
    CK(cudaMalloc(&dev, bytes)); CK(cudaMalloc(&ns, 8));
    uint4 *hd; CK(cudaHostGetDevicePointer(&hd, host, 0));
    for (int r = 0; r < 2; r++) {
        run<0>("V0 16 in flight     ", dev, hd, ns, pages, 4 * r + 0);
        run<1>("V1 bulk L2 prefetch ", dev, hd, ns, pages, 4 * r + 1);
        run<2>("V2 line L2 prefetch ", dev, hd, ns, pages, 4 * r + 2);
        run<3>("V3 32 in flight     ", dev, hd, ns, pages, 4 * r + 3);
        run<4>("V4 32 side by side  ", dev, hd, ns, pages, 4 * r + 8);
        run<5>("V5 TMA to shared    ", dev, hd, ns, pages, 4 * r + 9);
    }
    return 0;
}
