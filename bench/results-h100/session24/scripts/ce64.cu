// Copy-engine rate for scattered page copies H2D, as the soft engines issue them:
// cudaMemcpyBatchAsync in calls of 16, from T host threads each with its own stream.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
#include <chrono>
#include <random>
#define CK(x) do { cudaError_t r = (x); if (r != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(r)); exit(1); } } while (0)
int main() {
    const size_t H = 1ull << 30, D = 256ull << 20;
    char *h, *d; CK(cudaHostAlloc((void**)&h, H, 0)); CK(cudaMalloc(&d, D));
    for (size_t page : {4096ul, 65536ul})
    for (int threads : {1, 4, 8})
    for (int per_call : {16, 64}) {
        const size_t total = (page == 4096 ? 65536 : 16384);  // copies overall
        auto t0 = std::chrono::steady_clock::now();
        std::vector<std::thread> ts;
        for (int k = 0; k < threads; k++) ts.emplace_back([&, k] {
            cudaSetDevice(0); cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
            std::mt19937_64 rng(k);
            const size_t mine = total / threads;
            std::vector<void*> dst(per_call); std::vector<const void*> src(per_call); std::vector<size_t> sz(per_call, page);
            cudaMemcpyAttributes attr = {}; attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream; attr.flags = cudaMemcpyFlagPreferOverlapWithCompute;
            for (size_t i = 0; i < mine; i += per_call) {
                for (int j = 0; j < per_call; j++) {
                    dst[j] = d + ((k * mine + i + j) * page) % D;
                    src[j] = h + (rng() % (H / page)) * page;
                }
                size_t first = 0;
                CK(cudaMemcpyBatchAsync(dst.data(), src.data(), sz.data(), per_call, &attr, &first, 1, s));
            }
            CK(cudaStreamSynchronize(s));
        });
        for (auto &t : ts) t.join();
        double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        printf("page %6zu threads %d per_call %3d: %6.2f GB/s  %.2f us/copy\n", page, threads, per_call, total * page / sec / 1e9, sec / total * 1e6);
    }
    size_t big = 256ull << 20; auto t0 = std::chrono::steady_clock::now();
    CK(cudaMemcpy(d, h, big, cudaMemcpyHostToDevice));
    printf("bulk %.2f GB/s\n", big / std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 1e9);
}
