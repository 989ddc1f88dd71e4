"""The paging stress kernel: a frame ring far smaller than the L2 and the
data, every resident warp faulting, and every element encoding (array,
index, round), so that each thread can check every value it reads.

Arrays (4 KiB pages): a (uint64, read and rewritten in place), b (uint32,
read only), w (uint64, one writer per element and round), h (uint32,
atomic counters). Op `op` of a round does, by op % 8:

  0, 1  random read of a                 2  strided read of b (next page each op)
  3     random read of b                 4  a's element read twice under one pin,
                                            200 ns apart, and written back unchanged
  5     w[perm(op / 8)] = tag(round), read back at once
  6     h.atomic_add(hash(op) % nh, 1)  7  random read of w: this round's or the last

Each mismatch is counted by kind (BAD_NAMES); the host then checks every
element of every array, and the runtime's own -DDREAM_VERIFY counters."""
import time

import numpy as np

from dream.bench.graphs import mix

BAD_NAMES = ("wrong_owner", "wrong_data", "changed_under_pin", "lost_write")

SOURCE = r'''
typedef unsigned long long u64;
#define IDX_BITS 40
#define TAG(id, round, i) (((u64)(id) << 56) | ((u64)(round) << IDX_BITS) | (u64)(i))
#define TAG32(i) ((2u << 28) | (unsigned)(i))

__device__ __forceinline__ u64 mix(u64 z) {  /* splitmix64, as dream.bench.graphs.mix */
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

__device__ void report(u64 *bad, int kind, u64 op, u64 got, u64 want) {
    atomicAdd(&bad[kind], 1ull);
    if (atomicCAS(&bad[4], 0ull, op + 1) == 0ull) { bad[5] = got; bad[6] = want; }
}

/* a value that is not `want`: another element's tag (wrong owner), an older
   round of the same w element (lost write), or neither (wrong data) */
__device__ void check64(u64 *bad, u64 op, u64 got, u64 want, u64 na, u64 nw) {
    if (got == want) return;
    const u64 id = got >> 56, rnd = (got >> IDX_BITS) & 0xFFFF, i = got & ((1ull << IDX_BITS) - 1);
    const bool stale = id == 3 && (want >> 56) == 3 && i == (want & ((1ull << IDX_BITS) - 1));
    const bool tag = (id == 1 && rnd == 0 && i < na) || (id == 3 && i < nw);
    report(bad, stale ? 3 : tag ? 0 : 1, op, got, want);
}

__device__ void check32(u64 *bad, u64 op, unsigned got, u64 i, u64 nb) {
    if (got == TAG32(i)) return;
    report(bad, (got >> 28) == 2u && (got & 0x0FFFFFFFu) < nb ? 0 : 1, op, got, TAG32(i));
}

/* together: the op numbers of each 256 consecutive threads are permuted so
   that a warp's 32 lanes make ops of one kind at once (the whole warp in one
   access: its faults gather, fault.cuh); the set of ops is the same */
extern "C" __global__ void stress(dream_ptr<u64> a, dream_ptr<unsigned> b, dream_ptr<u64> w,
                                  dream_ptr<unsigned> h, u64 round, u64 *bad, int together) {
    const u64 na = a.size(), nb = b.size(), nw = w.size(), nh = h.size();
    const u64 stride = 4096 / sizeof(unsigned) + 1;
    for (u64 t = blockIdx.x * (u64)blockDim.x + threadIdx.x; t < 8 * nw;
         t += (u64)gridDim.x * blockDim.x) {
        const u64 op = together ? (t & ~255ull) | ((t & 31) << 3) | ((t >> 5) & 7) : t;
        const u64 r = mix(op ^ (round << 48)), k = op >> 3;
        switch (op & 7) {
        case 0: case 1: { const u64 i = r % na; check64(bad, op, a[i], TAG(1, 0, i), na, nw); break; }
        case 2: { const u64 i = k * stride % nb; check32(bad, op, b[i], i, nb); break; }
        case 3: { const u64 i = r % nb; check32(bad, op, b[i], i, nb); break; }
        case 4: {
            const u64 i = r % na;
            u64 v1 = 0, v2 = 0;
            a.rmw(i, [&](u64 *q) {
                v1 = *(volatile u64 *)q;
                __nanosleep(200);
                v2 = *(volatile u64 *)q;
                *(volatile u64 *)q = v1;
                return v1;
            });
            if (v1 != v2) report(bad, 2, op, v2, v1);
            check64(bad, op, v1, TAG(1, 0, i), na, nw);
            break;
        }
        case 5: {
            const u64 j = k * 0x9E3779B97F4A7C15ull & (nw - 1);
            w[j] = TAG(3, round, j);
            check64(bad, op, w[j], TAG(3, round, j), na, nw);
            break;
        }
        case 6: h.atomic_add(mix(op) % nh, 1u); break;
        case 7: {
            const u64 j = r & (nw - 1), v = w[j];
            if (v != TAG(3, round - 1, j)) check64(bad, op, v, TAG(3, round, j), na, nw);
            break;
        }
        }
    }
}
'''

def tag(array_id: int, rnd: int, idx: np.ndarray) -> np.ndarray:
    return (np.uint64(array_id) << np.uint64(56)) | (np.uint64(rnd) << np.uint64(40)) | idx.astype(np.uint64)


def expected_histogram(nw: int, nh: int, rounds: int) -> np.ndarray:
    ops = np.arange(6, 8 * nw, 8, dtype=np.uint64)
    return (np.bincount((mix(np, ops) % np.uint64(nh)).astype(np.int64), minlength=nh)
            * rounds).astype(np.uint32)


def bad_pages(data: np.ndarray, bad: np.ndarray, per_page: int, most: int = 4) -> dict:
    """For the first `most` pages of `data` (`per_page` elements each) with
    wrong elements (indices `bad`): which 16-byte pieces are wrong (a hex
    bitmap: interleaved pieces point at the lanes of a warp copy, runs at a
    contiguous transfer) and whose data the first wrong element is (array
    id, round, index)."""
    out = {}
    for page in np.unique(bad // per_page)[:most]:
        idx = bad[bad // per_page == page]
        pieces = np.unique((idx % per_page) * data.itemsize // 16)
        bits = sum(1 << int(k) for k in pieces)
        v = int(data[idx[0]])
        width = per_page * data.itemsize // 64  # hex digits: 4 pieces each
        out[int(page)] = {"wrong": int(idx.size), "pieces": f"{bits:0{width}x}",
                          "first": [int(idx[0] % per_page), v >> 56, (v >> 40) & 0xFFFF, v & ((1 << 40) - 1)]}
    return out


def run_stress(rt, *, na: int, nb: int, nw: int, nh: int, rounds: int, grid=None, block=256,
               together=False):
    """Runs `rounds` launches of the stress kernel on runtime `rt` and checks
    everything. Returns a dict: mismatch counts by kind (in-kernel and in the
    final data), the first mismatch, stats, seconds. grid=None: as many blocks
    as can be resident. together: each warp's lanes make ops of one kind at
    once (the kernel's comment)."""
    import cupy
    assert nw & (nw - 1) == 0 and nb < 1 << 28 and nw >= 32
    assert not together or block % 256 == 0, "together permutes ops within 256 threads"
    a = rt.array(tag(1, 0, np.arange(na, dtype=np.uint64)), name="a")
    b = rt.array(((2 << 28) | np.arange(nb)).astype(np.uint32), name="b")
    w = rt.array(tag(3, 0, np.arange(nw, dtype=np.uint64)), name="w")
    h = rt.zeros(nh, np.uint32, name="h")
    k = rt.kernel(SOURCE, "stress", options=("-DDREAM_VERIFY",))
    if grid is None:
        grid = max(1, k.resident_threads((1 << 30, 1, 1), (block, 1, 1)) // block)
    bad = cupy.zeros(8, np.uint64)
    rt.reset_stats()
    t0 = time.perf_counter()
    for rnd in range(1, rounds + 1):
        k(grid, block, (a, b, w, h, np.uint64(rnd), bad, np.int32(together)))
    seconds = time.perf_counter() - t0
    stats = rt.stats().as_dict()
    counts = bad.get()
    out = {name: int(counts[i]) for i, name in enumerate(BAD_NAMES)}
    out["first"] = None if counts[4] == 0 else {"op": int(counts[4]) - 1, "got": hex(int(counts[5])),
                                                "want": hex(int(counts[6]))}
    a_now = a.to_numpy()
    a_bad = np.flatnonzero(a_now != tag(1, 0, np.arange(na, dtype=np.uint64)))
    out["final_a_wrong"] = int(a_bad.size)
    out["final_a_pages"] = bad_pages(a_now, a_bad, rt.page_size // a_now.itemsize)
    out["final_b_wrong"] = int(np.count_nonzero(b.to_numpy() != ((2 << 28) | np.arange(nb)).astype(np.uint32)))
    out["final_w_wrong"] = int(np.count_nonzero(w.to_numpy() != tag(3, rounds, np.arange(nw, dtype=np.uint64))))
    out["final_h_wrong"] = int(np.count_nonzero(h.to_numpy() != expected_histogram(nw, nh, rounds)))
    out.update(verify_owner=stats.get("verify_owner"), verify_pin=stats.get("verify_pin"),
               pages_in=stats["pages_in"], evictions=stats["evictions"],
               writebacks=stats["writebacks"], ops=8 * nw * rounds, frames=rt.nframes,
               grid=grid, block=block, seconds=round(seconds, 2), stats=stats)
    return out
