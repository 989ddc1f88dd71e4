"""Kernels `dream bench transfer` and `dream bench queues` time: the same
access pattern through dream_ptr and through a raw pointer (zero-copy pinned
memory, UVM), so that every ratio compares like with like. Elements are 16
bytes (uint4, a complex128 array): one warp access moves 512 bytes."""

# Each warp streams its own contiguous chunk: pages in flight = warps.
STREAM = r'''
extern "C" __global__ void stream(PTR a, unsigned long long n, unsigned long long per_warp,
                                  unsigned long long *sink) {
    const unsigned long long warp = (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    const unsigned long long lo = warp * per_warp, hi = min(lo + per_warp, n);
    unsigned acc = 0;
    for (unsigned long long i = lo + lane; i < hi; i += 32) {
        uint4 v = a[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc) atomicXor(sink, (unsigned long long)acc);
}'''

# Each warp reads whole 4 KiB blocks at random block indices.
GATHER = r'''
extern "C" __global__ void gather(PTR a, const unsigned long long *blocks, unsigned long long nreq,
                                  unsigned long long *sink) {
    const unsigned long long warps = (gridDim.x * (unsigned long long)blockDim.x) / 32;
    const unsigned long long warp = (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    unsigned acc = 0;
    for (unsigned long long k = warp; k < nreq; k += warps) {
        const unsigned long long base = blocks[k] * 256;  /* 4 KiB = 256 uint4 */
        for (unsigned j = lane; j < 256; j += 32) {
            uint4 v = a[base + j];
            acc ^= v.x ^ v.y ^ v.z ^ v.w;
        }
    }
    if (acc) atomicXor(sink, (unsigned long long)acc);
}'''

# One warp, one page after another: the serial fault latency. Page k * step
# (mod count) in turn, `step` more than the largest stride a fault reads
# ahead by (abi.h DREAM_AHEAD_STRIDE): each access is a fault of its own.
SERIAL = r'''
extern "C" __global__ void serial(PTR a, unsigned long long stride, unsigned long long count,
                                  unsigned long long step, unsigned long long *sink, unsigned long long *ns) {
    unsigned acc = 0;
    unsigned long long t0 = 0;
    for (unsigned long long k = 0; k < count; k++) {
        if (k == 1) {  /* the first access pays for the kernel's start */
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
        }
        uint4 v = a[(k * step % count) * stride + threadIdx.x];
        acc ^= v.x ^ (unsigned)k;
    }
    unsigned long long t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    if (threadIdx.x == 0) *ns = t1 - t0;
    atomicXor(sink, (unsigned long long)acc);
}'''


def dream_source(src: str) -> str:
    return src.replace("PTR", "dream_ptr<uint4>")


def raw_source(src: str) -> str:
    return src.replace("PTR", "const uint4 *__restrict__")
