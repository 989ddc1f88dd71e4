/* Page table + frame ring + fault path (DREAM section 3.3), and the protocol
 * that keeps them consistent under any interleaving.
 *
 * The hit path. A read is optimistic and takes no atomic: the lane reads its
 * page's entry, the element from the entry's frame, then the entry again;
 * the same entry twice (its generation counts the page's loads) means the
 * frame held the page throughout (O5). Each lane translates on its own, so
 * a warp reading 32 pages does it in one pass, and lanes on one page share
 * the entry's cache line. A write, read-modify-write or atomic pins the
 * frame instead: lanes on one page elect a leader (match_any), every leader
 * of the warp pins at once (O2), the lanes access, the leaders unpin (O3).
 * Whatever is left (a page not resident, a read that saw its page move, a
 * failed pin) takes the slow path: the warp's remaining pages one at a time,
 * the page's leader pins it or faults it in with the whole warp's help;
 * leaders of different warps race on the page-table entry with a CAS and
 * exactly one loads the page.
 * "The warp" here is the access's group (sync.cuh dream_group_mask): the whole
 * warp when all of it makes the access together, else each lane alone, since
 * collectives over the partial masks of divergent code proved unsound.
 *
 * Who writes what (all at GPU scope; "acquire"/"release" are PTX's). An
 * entry is (state, frame, generation g); only the one holder of a
 * transition writes it, so each knows g:
 *
 *   pte[p]   only by atomics or by the one leader that owns the transition:
 *     INVALID|g      -> LOADING|NONE|g  the leader that claims p (CAS; the
 *                                   acquire is the fence of the ring's frame lock
 *                                   after it, none in O6: no write-back then)
 *     LOADING|NONE|g -> INVALID|g     that leader, giving its claim back: its wait
 *                                   for a frame timed out, a read-ahead lane found
 *                                   no free frame, its home was taken (early
 *                                   start), or a lone fault found a sequence
 *     LOADING|NONE|g -> LOADING|f|g   that leader, holding f locked and emptied
 *     LOADING|NONE|g -> VALID|f|g+1   that leader, an early start (O7)
 *                                   holding f by its owner CAS, once f holds
 *                                   p's data
 *     LOADING|f|g    -> VALID|f|g+1   that leader, once f holds p's data (| DREAM_PTE_MARK
 *                                   for the first page of a read-ahead window:
 *                                   never changed while VALID, so entries read
 *                                   twice still compare whole)
 *     LOADING|f|g    -> INVALID|g     that leader, when the load failed
 *     VALID|f|g      -> INVALID|g     the holder of f's lock, evicting clean p
 *     VALID|f|g      -> EVICTING|f|g  the same for dirty p (CAS: must be VALID|f)
 *     EVICTING|f|g   -> INVALID|g     after the write-back completed
 *     EVICTING|f|g   -> VALID|f|g     when the write-back failed (f unchanged)
 *   ref[f]   pins (+1/-1 by any leader) plus DREAM_REF_LOCKED while a
 *            leader holds f to evict and refill it; the lock is taken by CAS
 *            0 -> LOCKED only (then an acquire fence; in O6 a home's needs
 *            none, dream_home_take), and dropped by adding -LOCKED (+1 when
 *            the leader keeps a pin for its own access).
 *   owner[f] by the lock holder, outside O6; read by lock holders (and
 *            maintenance; ring takers filter on it, relaxed). In O6 a frame
 *            is taken by CAS NONE -> p on owner[f] itself (by a ring or home
 *            taker under f's lock, or by an early start without it, O7):
 *            the CAS decides who fills f; a failed load sets NONE again.
 *   dirty[f] set by pinned writers before their unpin; cleared by the lock
 *            holder after a write-back.
 *   loaded[f] when f's page was loaded, by its loader at the publish (and
 *            zeroed by a flush that empties f); read by ring takers as a
 *            hint (dream_ring_take's young frames), with no order.
 *   frame f  written by the lock holder's transport (in O6 the owner's: an
 *            early start holds no lock), and by pinned accesses.
 *
 * Invariants
 *   I1  A page is in at most one frame: it is claimed only when INVALID and
 *       becomes INVALID only once no frame holds it (after its write-back).
 *   I2  While f is unlocked, owner[f] == p  <=>  pte[p] == VALID|f|*: both
 *       are set by the lock holder before it unlocks, and an evictor changes
 *       both only while holding the lock. In O6 an early start's f is not
 *       locked, and owner[f] == p from its CAS while pte[p] is still
 *       LOADING|NONE (no one evicts then, and ring and home takers pass
 *       over a frame with an owner).
 *   I3  f's data changes only under f's lock or by its pinned accesses, and f
 *       is locked only while ref[f] == 0, so never under a pin. (In O6 an
 *       early start fills f by owning it, unlocked; nothing is pinned on f
 *       before its entry names f, and nothing refills f during the kernel.)
 *   I4  An entry never takes a VALID value twice while its page is out of
 *       the frame in between: leaving VALID|f|g for INVALID, the page comes back
 *       only as VALID|f'|g+1 (the generation wraps after 2^32 loads
 *       of one page, far beyond any single access, or the gap between two
 *       reads of a thread that O5 bridges with its hint).
 *
 * Orders, each a release observed by an acquire (O5 and O6: observed
 * through an address dependency, as they say)
 *   O1  Publish: the loader's transport fences the page's data and every
 *       earlier write (victim's entry, owner); then pte[p] = VALID|f|g+1,
 *       then the unlock. Whoever observes either one sees the data; the
 *       loader keeps a pin, whose release (O3) follows the entry, so no later
 *       lock of f can miss it. (An early start, O7, has no unlock and keeps
 *       no pin: in O6 no lock of this kernel refills f.)
 *   O2  Pin: e = pte[p] (VALID|f|g); old = atom.add.acquire(ref[f], n); then
 *       pte[p] again. Pinned iff old >= 0 and the entry is still e. old >= 0
 *       means the add follows f's last unlock in ref[f]'s order, and no lock
 *       can follow it until the unpin (I3). The acquire reads from that
 *       unlock or a later pin/unpin, so everything the last lock holder did
 *       is visible (its data; the end of any earlier page's mapping to f), and
 *       the second read of pte[p] is ordered after it: by I2 it can be VALID|f
 *       only if f holds p.
 *   O3  Unpin: the group's accesses, __syncwarp (orders the peers' accesses
 *       before the leader's), dirty[f] = 1 for writes, red.add.release(ref[f],
 *       -1). The next lock's CAS reads 0 only from such a release (or a later
 *       one) and is followed by an acquire fence, so every pinned access of f
 *       is complete before f is refilled, and every write and its dirty mark
 *       are visible to the write-back. The leader's pin is passed to its peers
 *       the same way: __syncwarp after it. In O6 the unpin is relaxed
 *       (dream_unpin: no lock of this kernel refills a frame holding a page).
 *   O4  Evict: the lock holder changes the victim's entry away from VALID|f
 *       and fences (fence.acq_rel) before anyone touches f's data (its peers
 *       after the __syncwarp that follows the claims, the queue engines
 *       after the request is posted); a write-back completes (the transport fences it
 *       to the backing store) before the entry becomes INVALID, so the next
 *       claim of the victim (CAS, then the fence of its frame lock) reads what
 *       was written.
 *   O5  Optimistic read: e = pte[p] (relaxed: VALID|f|g); v = the element of
 *       f, relaxed (from L2: f may be refilled while the kernel runs, and L1
 *       could hold lines of its last page); e' = pte[p] again, from an
 *       address made to depend on every word of v (dream_after); v is p's
 *       iff e' == e.
 *       Each load's address depends on the value of the one before, so it
 *       issues only after that one has returned (no GPU speculates a load's
 *       address), and all three are served by L2, where each location's
 *       accesses have one order. So the element is read after the entry,
 *       which O1 published after the data, and the entry is read again after
 *       the element. If the element's load saw anything written to f after
 *       p left it, the entry had changed before that write (O4's fence), so
 *       the re-read sees a different entry: another state, or by I4 another
 *       generation. These orders come from addresses, not from acquires:
 *       PTX's model orders two loads of a thread only by an acquire (or a
 *       fence). ptxas builds ld.acquire.gpu on sm_90 as this same load, a
 *       wait for its value, then CCTL.IVALL (the SM's whole L1
 *       invalidated): the dependency gives the wait, and the invalidation
 *       concerns only L1, which none of the three loads uses. Two of them
 *       on every read took L1 from every other access of the SM. O6
 *       departs from the model the same way; nothing else does. A failed
 *       read retries pinned (the slow path), so it is made at most twice.
 *       A thread's next read of the same page takes its last read's e' (kept
 *       in its hint) for e: the element's address is made from that value,
 *       so the element is read after the load that returned it, and the
 *       same argument holds with one entry read fewer (ATAX's row kernel,
 *       every page resident, read through O5: 15.0-15.1 -> 12.1-12.2 ms,
 *       H100). A write through the hint's copy clears the kept entry.
 *   O6  No eviction: when the ring has a frame for every page of the
 *       runtime's arrays, the host sets DREAM_PTR_NO_EVICT in every dream_ptr
 *       of the launch (arrays are made, freed, flushed and evicted only
 *       between kernels). Faults then take only frames without a page
 *       (dream_ring_take: one exists while any page is absent, by counting),
 *       so no entry leaves VALID during the kernel, and an access needs
 *       neither a re-read nor a pin: the frame's address is the thread's hint
 *       for p, else from pte[p] if VALID; then the element is loaded, stored
 *       or updated atomically in place. The hint (abi.h dream_hint) is a
 *       range of elements whose address it knows, the page's (clipped to
 *       the array's end) or, with O7 and O8, the whole array's: an access
 *       inside it is one compare and the element's load, before any bounds,
 *       type or mode check, since only an access of the copy's own T that
 *       passed them sets it (BFS's third launch, one thread walking 163,060
 *       edges: 152 warp instructions an edge in the general build, against
 *       19 in memory; bench/results-h100/session48). The frame is not refilled before the
 *       kernel ends. Such an access makes no warp collective: the lanes that
 *       missed enter the slow path as a group of their own (dream_group_mask
 *       there), and those that hit take no part (cc-csr's first hook,
 *       Kronecker scale 20, H100: 104 -> 79 ms cold). The entry is read
 *       relaxed at CTA scope, which this SM's L1 may serve (GPU scope goes to
 *       L2: cc-csr's first hook, Kronecker scale 20, H100, 137 -> 108 ms). L1
 *       may hold it stale only as not VALID (L1 is invalidated when a kernel
 *       starts, and no entry leaves VALID during it), which sends the access
 *       to the slow path, where it is read at GPU scope. If an earlier launch
 *       published it, the kernel boundary orders its data before the access.
 *       If this launch did, only the address does: the access's address is
 *       the entry's frame, so it issues after the entry has returned (no GPU
 *       speculates a load's address), and the entry was written after the
 *       data (O1). The access may be served by this SM's L1, which holds no
 *       line of f older than O1's publish: f had no page when this launch
 *       took it (O6 takes only such frames, and no access reads a frame whose
 *       page is not VALID: by its entry, or a home of an array all at home
 *       when the kernel began, O7), and L1 is invalidated when a kernel
 *       starts. As in O5, the order comes from the address, not an acquire:
 *       an acquire on every access to a page loaded in the same launch made
 *       cc-csr's first hook (Kronecker scale 20, H100) 211 ms, against 140 ms
 *       without it and 30 ms resident. A write's first access to a page
 *       through its hint sets dirty[f] = 1 (a plain store, read only by the
 *       host after the kernel: no frame is written back during it) and marks
 *       the hint, so later writes through it store only the element. An
 *       access made on the slow path (its page pinned or loaded there, which
 *       orders it as O2 or O1 does) leaves its frame in the hint too. Such
 *       accesses have plain memory's semantics (reads may be served from L1
 *       or hoisted out of a loop): a thread that waits for another's write
 *       uses atomics, as on plain memory.
 *   O7  Homes: the host gives each array, at its creation and while it
 *       lives, consecutive frames of its own (a home per page) if the ring
 *       has a free run that long. A load in O6 takes the page's home when
 *       that frame is free (dream_home_take; else the ring, as above); on
 *       direct a whole warp's lone 4 KiB fault issues the page's loads once
 *       its claim is won, and takes the home under them by the owner CAS
 *       alone, without f's lock (dream_early_claim, dream_early_fill,
 *       direct.cuh's early start: no write-back runs in O6, so the backing
 *       is the page's; an access's own lone fault takes it in
 *       dream_fault_lone, called from the access inline before the slow
 *       path, apart from dream_fault's general code; where there is no early
 *       start, on the queue backends and in a direct build capped below 128
 *       registers, such a fault takes its home there too, locked as above,
 *       then requests the page: dream_lone_fill). The CAS reads
 *       owner[f]'s latest value itself, so it needs no acquire; the lock's
 *       (CCTL.IVALL on sm_90) waited for the page's PCIe loads, and the
 *       owner's load after it was a round trip more. f had no owner, so no
 *       entry names it, and any other taker passes over it from the CAS on
 *       (the entry stays LOADING|NONE until the publish: no waiter pins f
 *       before it holds the page). A taker under the lock that saw
 *       owner[f] NONE before still decides by its own CAS, which fails.
 *       Only direct has an early start, and there no transfer into a frame
 *       outlives its fault (a lone lane's TMA lands in shared memory): a
 *       frame that a timeout left locked and without an owner holds nothing
 *       in flight. Each array counts its pages VALID at home (at_home: +1
 *       when a load publishes one there, in any mode; -1 when its entry
 *       leaves VALID there, by an eviction here or a flush; +1 again when
 *       a failed write-back restores it), read by the host between kernels. In a
 *       launch in O6 the host sets DREAM_PTR_AT_HOME in the dream_ptr of
 *       each array that has all its pages at home; its element i is then
 *       at home + i * sizeof(T): no entry, a plain access (its first, a
 *       miss of the hint, makes the whole array the hint's range). A launch whose
 *       every array is at home runs the kernel's resident build
 *       (DREAM_RESIDENT_KERNEL), which has only that access; any other
 *       launch in O6 runs its no-evict build (DREAM_NO_EVICT_KERNEL,
 *       dream_no_evict), which has no O5. Sound by O6:
 *       every entry was VALID at home before the kernel began (the kernel
 *       boundary orders the data), and nothing leaves VALID while it
 *       runs. A write marks its frame dirty once per thread and page (the
 *       hint's `dirty`). The resident build keeps no call, atomic or warp collective
 *       inline (a wrong index or type is recorded by one plain store:
 *       dream_access_ok), so the compiler may unroll a user's loop; its
 *       slow paths are capped at fewer registers (compile.py), the kernel's
 *       count being theirs too.
 *   O8  Whole at home during a launch: in O6, an access through a thread's
 *       copy of a dream_ptr that misses its hint reads the page's entry and
 *       the array's count of pages at home (p.at_home) together; where the
 *       count equals the array's pages, every page is VALID at home and
 *       stays so (O6): the access goes to home + offset, and the copy's hint
 *       takes the whole array as its range, so that its later accesses go
 *       there too, with no entry, as in a launch that began with the array
 *       at home (O7). Cold CC's first hook fills comp's 4,096 pages early and then
 *       walks a vertex of 163,060 edges alone, three labels an edge, each
 *       missing its hint; now they go home (H200, Kronecker 22: that hook
 *       232-246 -> 190-201 ms; cold BFS pays for the added test, 164-171
 *       -> 173-176 ms; bench/results-h100/session47). Sound as O6 is: each
 *       load publishes its page (after the transport's fence, O1) before it
 *       adds to the count, so every page's data is in L2 before the count
 *       is whole; an access in WHOLE issues after a branch on the count's
 *       value (no GPU issues a load past an unresolved branch), and L1 holds
 *       no line of a home older than its publish (O6). The count is read at
 *       CTA scope: a stale value is lower, and only delays the switch. A
 *       write in the range marks its page dirty where it is not the last
 *       page the copy marked (the hint's `dirty`).
 *
 * Progress (no livelock under heavy eviction)
 *   A leader that finds pte[p] == LOADING|f|g pins f ahead of the load (the
 *   same add + re-check as O2, accepting LOADING|f while f is still locked);
 *   its pin survives the unlock, so f cannot be taken again before it has
 *   made its access: every warp that asked for a page while it loaded gets
 *   it. It then polls relaxed for VALID|f|g+1, which it reads once more
 *   with ld.acquire (O1; the pin keeps it, I3), or for INVALID (the load
 *   failed: unpin, start over). Such a pin is on a frame that is
 *   locked anyway, and its holder waits for nothing but that frame's load.
 *   A leader that claimed its page and finds no unpinned frame among
 *   DREAM_RING_TRIES ring tickets keeps its claim (LOADING|NONE holds no
 *   frame; the page's other leaders wait on it holding nothing, up to the
 *   same timeout) and tries again after DREAM_FRAME_BACKOFF; it gives the
 *   claim back only when that wait times out. Giving it back at once let
 *   every leader of a hot page claim and scan the ring in turn while frames
 *   were short.
 *
 * No lane holds a pin while it waits for anything else (the fast path pins
 * only resident pages and unpins before the slow path; the slow path takes
 * one page at a time: pin, access, unpin), so any launch shape runs on any
 * ring: a claim waiting for a frame holds nothing that frees one. (This is
 * why a function run under a pin, dream_ptr::rmw's, must not access dream
 * arrays itself.) dream_span's pins are the one exception, held by design
 * (dream_pin_page).
 * Every wait is bounded (dream_wait_step): a fault that sees its page's
 * entry unchanged for the runtime's timeout ends the kernel with an error
 * naming what it waited for. */
#pragma once
#include "dream/transport.cuh"

#define DREAM_RING_TRIES 16 /* frames one attempt looks at before backing off */
/* ns between attempts when no frame was free: with more warps than frames,
   leaders spinning faster saturate the head cursor's atomics (6x slower) */
#define DREAM_FRAME_BACKOFF 1000
/* The pace of a warp through a page it reads on a busy GPU, about one
   16-byte access per lane (512 bytes) every 2 us: a frame is young
   (dream_ring_take) for the time such a warp takes to read its page once */
#define DREAM_YOUNG_BYTES_PER_US 256

/* Frame data is read and written at L2 (ld/st .cg): a frame is refilled with
 * another page while the kernel runs, and an SM's L1 would keep the old one. */
template <int N> struct dream_bits_t;
template <> struct dream_bits_t<1> { typedef unsigned char type; };
template <> struct dream_bits_t<2> { typedef unsigned short type; };
template <> struct dream_bits_t<4> { typedef unsigned int type; };
template <> struct dream_bits_t<8> { typedef unsigned long long type; };
template <> struct dream_bits_t<16> { typedef uint4 type; };

template <class T> __device__ __forceinline__ T dream_ld(const T *p)
{
    typedef typename dream_bits_t<sizeof(T)>::type B;
    const B b = __ldcg((const B *)p);
    T v;
    memcpy(&v, &b, sizeof(T));
    return v;
}

template <class T> __device__ __forceinline__ void dream_st(T *p, T v)
{
    typedef typename dream_bits_t<sizeof(T)>::type B;
    B b;
    memcpy(&b, &v, sizeof(T));
    __stcg((B *)p, b);
}

__device__ __forceinline__ uint64_t dream_pte(uint32_t state, uint32_t frame, uint32_t gen)
{
    return state | ((uint64_t)frame << DREAM_PTE_FRAME_SHIFT) | ((uint64_t)gen << DREAM_PTE_GEN_SHIFT);
}

/* The entry a load publishes: VALID|f and the next generation. */
__device__ __forceinline__ uint64_t dream_pte_loaded(uint32_t frame, uint32_t g)
{
    return dream_pte(DREAM_PTE_VALID, frame, g + 1);
}

__device__ __forceinline__ uint32_t dream_pte_frame(uint64_t e)
{
    return (uint32_t)(e >> DREAM_PTE_FRAME_SHIFT) & DREAM_FRAME_NONE;
}

__device__ __forceinline__ uint32_t dream_pte_state(uint64_t e)
{
    return (uint32_t)e & DREAM_PTE_STATE_MASK;
}

__device__ __forceinline__ uint32_t dream_pte_gen(uint64_t e)
{
    return (uint32_t)(e >> DREAM_PTE_GEN_SHIFT);
}

/* O2. Pins the frame of entry `e` of `pte` (VALID|f: a resident page;
 * LOADING|f: a page being loaded, see Progress). Returns the frame, or -1
 * with `e` set to the entry seen afterwards. */
__device__ __forceinline__ int dream_pin(dream_rt_state *rt, uint64_t *pte, uint64_t &e)
{
    const uint32_t f = dream_pte_frame(e);
    const int32_t old = dream_add_acquire(&rt->ref[f], 1);
    const uint64_t now = dream_ld_relaxed(pte);
    if (now == e && (old >= 0 || dream_pte_state(e) == DREAM_PTE_LOADING))
        return (int)f;
    atomicSub(&rt->ref[f], 1); /* nothing was accessed: no order needed */
    e = now;
    return -1;
}

/* owner[f]: (array slot, page) of the page f holds */
__device__ __forceinline__ uint64_t dream_owner(uint32_t slot, uint64_t page)
{
    return ((uint64_t)slot << DREAM_OWNER_PAGE_BITS) | page;
}

__device__ __forceinline__ uint32_t dream_owner_slot(uint64_t owner)
{
    return (uint32_t)(owner >> DREAM_OWNER_PAGE_BITS);
}

__device__ __forceinline__ uint64_t dream_owner_page(uint64_t owner)
{
    return owner & ((1ull << DREAM_OWNER_PAGE_BITS) - 1);
}

__device__ __forceinline__ uint64_t *dream_owner_pte(const dream_rt_state *rt, uint64_t owner)
{
    return rt->arrays[dream_owner_slot(owner)].pte + dream_owner_page(owner);
}

/* O6's take of a frame with no page: owner NONE -> mine, by CAS (I2) */
__device__ __forceinline__ bool dream_owner_take(uint64_t *owner, uint64_t mine)
{
    __builtin_assume(__isGlobal(owner)); /* a global atomic, not a generic one */
    return atomicCAS((unsigned long long *)owner, DREAM_OWNER_NONE, mine) == DREAM_OWNER_NONE;
}

/* O3. The accesses under the pin are complete (after __syncwarp for a
 * group). In O6 (`flags` of the launch) the unpin is relaxed: a frame that
 * holds a page is never refilled during such a kernel (its lockers take only
 * frames without a page, and nothing leaves VALID), and the host reads
 * dirty[] after it; the release's wait was 0.5 us of a serial fault. */
__device__ __forceinline__ void dream_unpin(dream_rt_state *rt, uint32_t f, bool write, uint32_t flags)
{
    if (write)
        rt->dirty[f] = 1;
    if (flags & DREAM_PTR_NO_EVICT)
        atomicSub(&rt->ref[f], 1);
    else
        dream_add_release(&rt->ref[f], -1);
}

/* FIFO: takes the frame under the head cursor, or the first unpinned one of
 * the DREAM_RING_TRIES from there that is not young (below), and locks it;
 * the cursor then moves past the frames skipped. One ticket and one more
 * atomic for what was skipped, not one atomic per frame looked at: under
 * pressure most frames are pinned, and per-frame tickets made the head
 * cursor the bottleneck (9.75 G of them for 24.7 M page loads in the stress
 * test). Concurrent takers overlap in what they look at; the lock's CAS
 * decides (in O6 the owner's CAS after it). The fence after a successful
 * CAS is the acquire of both the lock (O4) and the caller's claim of its
 * page. With `free_only` (O6) it passes over frames that hold a page, and
 * takes a free one by CAS of its owner NONE -> `mine` (an early start takes
 * its home by that CAS alone, O7). Returns -1 if none was free.
 *
 * Young frames (a departure from DESIGN.md's plain FIFO). Each attempt
 * takes a ticket and a failed one skips DREAM_RING_TRIES, so with more warps
 * waiting for a frame than there are frames the cursor circles the ring
 * every few microseconds, not once per ring's worth of loads, and would take
 * each frame the moment its loader's first access unpins it, before the warp
 * that asked for the page has read more of it (the table below). So a frame
 * whose page was loaded less than the time a warp takes to read it once
 * (DREAM_YOUNG_BYTES_PER_US) is passed over like a pinned one. Where the ring
 * turns over slower than that (any stream or gather that fits its warps'
 * pages) nothing changes; where it does not, the loads wait, which caps the
 * ring at nframes * DREAM_YOUNG_BYTES_PER_US bytes per microsecond whatever
 * the page size (68 GB/s at 2 frames per SM of an H100). A 64 KiB stream,
 * 256 MiB through 1,024 frames (H200; each cell: page loads per page of
 * data, GB/s):
 *
 *   young for    16 warps/SM                     64 warps/SM
 *                direct          softrnic        direct         softrnic
 *   (none)       5.4-8.2, 6-9    15-19, 1.7-2.1  1.4-1.5, 32-34 1.2, 30-32
 *   512 B/us     5.2-6.2, 8-10   3.2-3.3, 9-11   1.3, 35-37     1.07, 35-37
 *   256 B/us     4.1-4.5, 11-12  3.5, 9.5-9.7    1.2, 37-38     1.07, 34-35
 *   128 B/us     2.7-3.0, 17-18  3.8-3.9, 6-9    1.15, 38-40    1.1, 31-33
 *
 * ATAX at x = 8 and CSR graphs at x = 4 did not move. `loaded` is a hint,
 * written by the loader and read by takers with no order: a stale value
 * only moves one eviction. */
__device__ inline int dream_ring_take(dream_rt_state *rt, bool free_only, uint64_t mine)
{
    unsigned long long *head = (unsigned long long *)&rt->head;
    const uint64_t t0 = atomicAdd(head, 1ull);
    const uint32_t now = dream_ticks(), young = (1u << rt->page_shift) / DREAM_YOUNG_BYTES_PER_US;
    for (int k = 0; k < DREAM_RING_TRIES; k++) {
        const uint32_t f = (uint32_t)((t0 + k) % rt->nframes);
        if (free_only && dream_ld_relaxed(&rt->owner[f]) != DREAM_OWNER_NONE)
            continue; /* a cheap filter; checked again under the lock */
        if (dream_ld_relaxed((const uint32_t *)&rt->ref[f]) != 0 ||
            (!free_only && now - dream_ld_relaxed(&rt->loaded[f]) < young))
            continue;
        if (atomicCAS(&rt->ref[f], 0, DREAM_REF_LOCKED) == 0) {
            dream_fence_acquire();
            /* O6: a frame that holds a page, or is being filled, is not
               ours to take */
            if (free_only && !dream_owner_take(rt->owner + f, mine)) {
                dream_add_release(&rt->ref[f], -DREAM_REF_LOCKED);
                continue;
            }
            if (k) {
                atomicAdd(head, (unsigned long long)k);
                dream_count(rt, DREAM_C_FRAME_SKIPS, k);
            }
            return (int)f;
        }
    }
    atomicAdd(head, (unsigned long long)(DREAM_RING_TRIES - 1));
    dream_count(rt, DREAM_C_FRAME_SKIPS, DREAM_RING_TRIES);
    return -1;
}

/* What a fault uses of rt, read once at its start (dream_ring_of). rt's
 * fields are set before a kernel and never change while it runs, but the
 * compiler reads one again after each of the fault's atomics, acquires and
 * fences, an L2 round trip each time: read first, a serial fault took
 * 7.87-8.20 us against 8.12-8.35 (H100, bench/results-h100/session30). */
struct dream_ring {
    int32_t *ref;
    uint64_t *owner;
    uint32_t *loaded;
    unsigned long long *at_home;  /* the faulting array's count (O7) */
    unsigned long long *counters; /* this SM's shard */
};

__device__ __forceinline__ dream_ring dream_ring_of(const dream_rt_state *rt, uint32_t slot)
{
    return {rt->ref, rt->owner, rt->loaded, (unsigned long long *)&rt->arrays[slot].at_home,
            dream_counter_shard(rt->counters)};
}

/* O7: locks frame f, the home of the page being loaded, if it holds no page
 * and no pin, and makes `mine` its owner; else -1 (the caller takes a frame
 * from the ring). Only in O6, where the owner's CAS NONE -> mine decides who
 * fills f (an early start takes f by that CAS alone), so neither CAS needs
 * an acquire: the caller's claim needs none there, as no write-back runs
 * during such a kernel (O4's acquire is for one), where dream_ring_take's
 * fence after its CAS acquires both (that fence, with nothing to wait for,
 * was 0.3 us of a serial fault's 8.5, H200). The lock's CAS comes first: a
 * home is nearly always free when its page loads, and filtering on owner[f]
 * and ref[f] first cost a round trip (0.4 us, H100). */
__device__ inline int dream_home_take(const dream_ring &r, uint32_t f, uint64_t mine)
{
    if (atomicCAS(&r.ref[f], 0, DREAM_REF_LOCKED) != 0)
        return -1;
    if (!dream_owner_take(r.owner + f, mine)) {
        dream_add_release(&r.ref[f], -DREAM_REF_LOCKED);
        return -1;
    }
    return (int)f;
}

/* O7: the home frame of page `page` of array a, or DREAM_FRAME_NONE. */
__device__ __forceinline__ uint32_t dream_home_frame(const dream_array_desc &a, uint64_t page)
{
    return (a.flags & DREAM_ARRAY_HOME) ? a.home_frame + (uint32_t)page : DREAM_FRAME_NONE;
}

/* O7: whether frame f is the home of page `page` of array `slot`. */
__device__ __forceinline__ bool dream_is_home(const dream_rt_state *rt, uint32_t slot, uint64_t page, uint32_t f)
{
    return dream_home_frame(rt->arrays[slot], page) == f;
}

/* A frame for page `page` of p's array, locked and owned by the page: in O6
 * its home if free (O7), else from the ring; `home` says whether it is the
 * page's home (for at_home, which counts the loads of either mode), `own`
 * the page it held before (the victim; NONE in O6). In O6 the home comes from
 * p (abi.h: set there for an array with homes), not from the array's
 * descriptor: a load after the claim's CAS, a round trip of every fault
 * (with dream_access_pinned's `seen`, a serial fault 8.05-8.16 -> 7.79-7.85
 * us, H200). A launch that may evict reads the descriptor once it has a
 * frame from the ring, which may be the page's home by chance. */
__device__ __forceinline__ int dream_frame_take(dream_rt_state *rt, const dream_ring &r, const dream_ptr_abi &p,
                                                uint64_t page, bool &home, uint64_t &own)
{
    const bool o6 = p.flags & DREAM_PTR_NO_EVICT;
    const uint64_t mine = dream_owner(p.slot, page);
    const uint32_t h = o6 && p.home ? (uint32_t)((p.home - p.frames) >> p.page_shift) + (uint32_t)page
                                    : DREAM_FRAME_NONE;
    int f = h != DREAM_FRAME_NONE ? dream_home_take(r, h, mine) : -1;
    if (f < 0)
        f = dream_ring_take(rt, o6, mine);
    home = f >= 0 && (h != DREAM_FRAME_NONE ? (uint32_t)f == h : dream_is_home(rt, p.slot, page, (uint32_t)f));
    own = DREAM_OWNER_NONE;
    if (f >= 0 && !o6) { /* O6's takes made mine the owner, from NONE */
        own = r.owner[f];
        r.owner[f] = mine;
    }
    return f;
}

/* O7: the array's count of pages at home, when frame f is the page's home
   and its entry enters (+1) or leaves (-1) VALID; read by the host only
   between kernels. */
__device__ __forceinline__ void dream_count_home(dream_rt_state *rt, uint32_t slot, uint64_t page, uint32_t f,
                                                 long long d)
{
    if (dream_is_home(rt, slot, page, f))
        atomicAdd((unsigned long long *)&rt->arrays[slot].at_home, (unsigned long long)d);
}

/* Ends a lock; the transport's fence has ordered the frame's data before.
 * `keep` adds the leader's own pin: then a plain add suffices, since no one
 * can lock f again before that pin's release, which follows the entry the
 * leader published (O1). Without it the unlock itself is the release. */
__device__ __forceinline__ void dream_unlock(int32_t *ref, uint32_t f, bool keep)
{
    if (keep)
        atomicAdd(&ref[f], 1 - DREAM_REF_LOCKED);
    else
        dream_add_release(&ref[f], -DREAM_REF_LOCKED);
}

/* Frame f's address, from p's copy of the ring's base and page shift (kernel
 * parameters, not loads: the hit paths' addresses wait on the entry alone).
 * A 32-bit page size (pages are at most 16 MiB) makes it one wide
 * multiply-add. */
__device__ __forceinline__ uint8_t *dream_ptr_frame(const dream_ptr_abi &p, uint32_t f)
{
    return p.frames + (uint64_t)f * (1u << p.page_shift);
}

__device__ __forceinline__ uint64_t dream_pages(const dream_ptr_abi &p)
{
    return (p.n * p.elem_size + (1ull << p.page_shift) - 1) >> p.page_shift;
}

/* The launch's read-ahead depth: pages a fault may load ahead (abi.h). */
__device__ __forceinline__ uint32_t dream_ahead_depth(uint32_t flags)
{
    return (flags >> DREAM_PTR_AHEAD_SHIFT) & DREAM_PTR_AHEAD_MASK;
}

/* dream_ahead_stride's sequence of warps: the page before was loaded at most
   this many ticks (dream_ticks, about 1 us) ago. A grid-stride vector add
   (H100) took 0.11-0.12 s at 4096, 0.13-0.16 s at 1024, 0.17-0.20 s at 256;
   the transfer benchmark's serial walk visits no page's page before in the
   n / 2 faults before it (serial_step), so it never reads ahead */
#define DREAM_SEQUENCE_TICKS 4096

/* No stride (beyond DREAM_AHEAD_STRIDE): the caller of dream_access_pinned
   has not computed its first page's (dream_fault_lone computes it). */
#define DREAM_NO_AHEAD (DREAM_AHEAD_STRIDE + 1)

/* dream_ahead_stride's stride from the hint alone (below), 0 where none. */
__device__ __forceinline__ int32_t dream_hint_stride(const dream_ptr_abi &p, uint64_t page, uint64_t prev)
{
    const uint64_t at = prev, base = (uint64_t)p.pte;
    const uint64_t last = (at - base) / sizeof(uint64_t);
    if (at >= base && last < dream_pages(p)) {
        const long long s = (long long)page - (long long)last;
        if (s != 0 && s <= DREAM_AHEAD_STRIDE && s >= -DREAM_AHEAD_STRIDE)
            return (int32_t)s;
    }
    return 0;
}

/* A sequence of warps, from `before`, the entry of the page before, and the
 * ring's stamps `loaded` (read apart: dream_fault_lone issues the entry's
 * load with the claim's CAS and has read rt->loaded before it). */
__device__ __forceinline__ bool dream_in_sequence(const uint32_t *loaded, uint64_t before)
{
    const uint32_t st = dream_pte_state(before);
    return st == DREAM_PTE_LOADING ||
           (st == DREAM_PTE_VALID &&
            dream_ticks() - dream_ld_relaxed(&loaded[dream_pte_frame(before)]) < DREAM_SEQUENCE_TICKS);
}

/* Read-ahead: the stride from the page of the thread's last access through
 * this dream_ptr (its hint's entry, `prev`) to `page`, or 0 when there is
 * none to follow (dream_fault). Only in a launch that may read ahead (a
 * depth in its flags), and in one that evicts only for a warp that moves as
 * one stream (`peers`, the lanes on the page, are all of it): the host
 * bounds the pages read ahead by the warps it can hold, not by threads.
 *
 * A sequence of warps: where the thread has no stride to follow (its first
 * access to the array, as in a kernel of a thread per element, or one too
 * far, as in a grid-stride loop), a whole warp on one page reads ahead with
 * stride 1 if the page before is loading or was loaded in the last
 * DREAM_SEQUENCE_TICKS: other warps are walking the array upwards. In a
 * launch that evicts, as deep as the launch's depth there (abi.h: the ring
 * has 2 (d + 1) frames for each warp it holds), like a stream's: each fault
 * loads at most d pages, which the warps right after it take (vector add
 * at x = 4 0.37 -> 0.23 s, at x = 8 0.38 -> 0.32 s; ATAX unchanged).
 * Without it, 32 warps of a thread per float wait on each 4 KiB page, and
 * the warps an SM holds keep few pages in flight: cold vector add (3 GiB,
 * H100) moved 10.7 GB/s where a warp per page moves 49; with it 0.30 ->
 * 0.15 s (depth 7 instead of the launch's 31: 0.18 s), as a grid-stride
 * loop 0.29 -> 0.11-0.12 s. Recent, not merely resident: a scattered walk
 * finds the page before resident by chance once many are, and must not
 * read ahead for it. Both words are hints read without order (the entry at
 * CTA scope: most often in the line of the page's own, just read there): a
 * stale value costs or saves one read-ahead, whose pages are each checked
 * INVALID and claimed. */
__device__ __forceinline__ int32_t dream_ahead_stride(const dream_ptr_abi &p, uint64_t page, uint64_t prev,
                                                      unsigned peers)
{
    if (!dream_ahead_depth(p.flags) || (!(p.flags & DREAM_PTR_NO_EVICT) && peers != 0xFFFFFFFFu))
        return 0;
    const int32_t s = dream_hint_stride(p, page, prev);
    if (s != 0 || peers != 0xFFFFFFFFu || page == 0)
        return s;
    return dream_in_sequence(p.rt->loaded, dream_ld_sm(p.pte + page - 1)); /* a sequence of warps (above) */
}

/* Read-ahead windows past a load in progress (dream_ahead_page): a fault
 * whose page another warp is loading (LOADING with its frame at the fault's
 * start: that load, a fault of the same stream, normally brings the d pages
 * after it too) reads ahead in the first of the windows w = 0, 1, ..,
 * DREAM_AHEAD_WINDOWS of d pages (pages w d + 1 .. w d + d strides on) with
 * a page not taken. Warps walking one stream together (a column walk's 32
 * warps per page column) then load up to 1 + DREAM_AHEAD_WINDOWS windows at
 * once, each by one warp, where one warp loaded one window and the others
 * waited. The first page of each window is published with a mark
 * (DREAM_PTE_MARK). A read or write that finds it in the entry takes the
 * slow path, whose leader, once the group's access is made, reads ahead past
 * the page the same way (dream_fault's `past`), so the stream's windows are
 * read as its warps move on, not when they have run out of pages (ATAX's
 * column kernel, cold, 16384^2 floats, H200: 30.3-32.1 -> 21.4-21.7 ms at
 * x = 0, 32.7-37.5 -> 21.4-21.6 ms at x = 8). The mark stays while the page
 * is VALID, so a later launch that reaches it reads ahead too. The host's
 * bound (abi.h) holds: each warp still loads at most d pages a fault, and a
 * window is loaded by a warp of its stream, in the 1 + DREAM_AHEAD_WINDOWS
 * windows past a page of it that a warp is at, so a stream of k warps has
 * at most about min(k, 2 + DREAM_AHEAD_WINDOWS) windows loaded and not yet
 * used, about d + 1 pages a warp. A load still waiting for a frame (LOADING
 * without one) starts no window: frames are scarce then. */
#define DREAM_AHEAD_WINDOWS 3

/* Read-ahead and gather: whether this lane loads a page besides the need
 * lane's (dream_fault), and then which (`page`, its entry `e`). Only when
 * the whole warp is here, one lane needs a page and the launch has a depth d
 * (in any lane's flags: every dream_ptr of a launch has the same). Gather
 * first: of the lanes with `gather` (each the first of the lanes whose
 * access waits on one other page, dream_access_pinned), those that find
 * their page INVALID load it, the first d of them; `gather` is left true on
 * exactly those. Else read-ahead: lanes k = 1..d after the need lane, on
 * its array, load the pages k strides (`ahead`) further on; if the need
 * lane's page is being loaded, or resident with a mark (`past`, on the need
 * lane), k + w d strides on, in the first window w with a page not taken
 * (above). `mark` is left true on the lane that loads the first page of its
 * window (k = 1 + w d): that page is published with the read-ahead mark.
 * `needers`: the lanes of `mask` that need a page (dream_fault's ballot). */
__device__ __forceinline__ bool dream_ahead_page(const dream_ptr_abi &p, unsigned mask, unsigned needers, bool past,
                                                 bool &gather, int32_t ahead, uint64_t &page, uint64_t &e,
                                                 bool &mark)
{
    mark = false;
    const int depth = (int)dream_ahead_depth(p.flags); /* uniform: the launch's */
    if (mask != 0xFFFFFFFFu || __popc(needers) != 1 || depth == 0) {
        gather = false;
        return false;
    }
    const int leader = __ffs(needers) - 1;
    if (gather) /* a page already resident or loading takes no slot */
        e = dream_ld_relaxed(p.pte + page);
    gather = gather && dream_pte_state(e) == DREAM_PTE_INVALID;
    const unsigned gatherers = dream_ballot(mask, gather);
    if (gatherers) { /* uniform */
        gather = gather && __popc(gatherers & ((1u << dream_lane()) - 1)) < depth;
        return gather;
    }
    const int32_t stride = __shfl_sync(mask, ahead, leader);
    if (stride == 0) /* uniform */
        return false;
    const uint64_t first = __shfl_sync(mask, page, leader);
    const unsigned long long array = __shfl_sync(mask, (unsigned long long)p.pte, leader);
    const bool behind = __shfl_sync(
        mask, (dream_pte_state(e) == DREAM_PTE_LOADING && dream_pte_frame(e) != DREAM_FRAME_NONE) || past, leader);
    const int k = (int)((dream_lane() - leader) & 31);
    const bool lane = k != 0 && k <= depth && array == (unsigned long long)p.pte;
    for (int w = 0;; w++) { /* w is uniform: every lane takes each turn */
        const long long q = (long long)first + (long long)(k + w * depth) * stride;
        const bool in = lane && q >= 0 && (uint64_t)q < dream_pages(p);
        if (in) {
            page = (uint64_t)q;
            e = dream_ld_relaxed(p.pte + page);
        }
        const bool free = in && dream_pte_state(e) == DREAM_PTE_INVALID;
        const bool any = dream_any(mask, free);
        if (any || !behind || w == DREAM_AHEAD_WINDOWS) {
            mark = free && k == 1;
            return free;
        }
    }
}

/* The claim of page `pte`, INVALID in `e` as its claimer saw it: e becomes
 * LOADING|NONE|g if the CAS wins, else the entry it found. */
__device__ __forceinline__ bool dream_claim(uint64_t *pte, uint64_t &e)
{
    const uint64_t claim = dream_pte(DREAM_PTE_LOADING, DREAM_FRAME_NONE, dream_pte_gen(e));
    const uint64_t seen = atomicCAS((unsigned long long *)pte, e, claim);
    const bool won = seen == e;
    e = won ? claim : seen;
    return won;
}

/* O1: publishes page `pte`'s load into frame f (generation g + 1, with the
 * read-ahead mark if `mark`), stamps f young (dream_ring_take) and counts it
 * at home; the caller then unlocks f if it locked it. The transport has
 * fenced the data. */
__device__ __forceinline__ void dream_publish(const dream_ring &r, uint64_t *pte, uint32_t f, uint32_t g,
                                              bool mark, bool home)
{
    atomicExch((unsigned long long *)pte, dream_pte_loaded(f, g) | (mark ? DREAM_PTE_MARK : 0u));
    r.loaded[f] = dream_ticks();
    __builtin_assume(__isGlobal(r.at_home)); /* a global atomic, not a generic one */
    if (home)
        atomicAdd(r.at_home, 1ull);
}

/* Whether a whole warp's fault on one of p's pages may be a lone fault
 * (dream_fault_lone: direct's early start, else dream_lone_fill):
 * in a launch that evicts nothing (O6), an array with homes, 4 KiB pages.
 * Outside the transport's #ifdef: a kernel's own module, compiled with no
 * backend (compile.py), tests it before it calls dream_fault_lone. */
__device__ __forceinline__ bool dream_early_ok(const dream_ptr_abi &p)
{
    return (p.flags & DREAM_PTR_NO_EVICT) && p.home && p.page_shift == 12;
}

/* A lone fault (dream_fault_lone), collective over the whole warp, for page
 * `page` of lane `leader`, which saw it INVALID in `e` (dream_early_ok
 * holds), in two steps. The claim: whether the leader won it, on every lane;
 * the leader's `e` is then its claim, or the entry its CAS found. */
__device__ __forceinline__ bool dream_early_claim(const dream_ptr_abi &p, uint64_t page, uint64_t &e, int leader)
{
    uint64_t *pte = p.pte + page;
    __builtin_assume(__isGlobal(pte));
    return __shfl_sync(0xFFFFFFFFu, (int)dream_lane() == leader && dream_claim(pte, e), leader);
}

/* A read into frame f, locked, for page `pte` (generation g) ended with
 * status s (not DREAM_IO_OK): f holds nothing valid, and the entry is INVALID
 * again. After a timeout the transfer may still land, so f stays locked;
 * after an error nothing more will, and f is unlocked. */
__device__ __forceinline__ void dream_load_failed(const dream_ring &r, uint64_t *pte, uint32_t f, uint32_t g, int s)
{
    atomicExch((unsigned long long *)&r.owner[f], DREAM_OWNER_NONE); /* O6 takers CAS it */
    atomicExch((unsigned long long *)pte, dream_pte(DREAM_PTE_INVALID, 0, g));
    if (s == DREAM_IO_ERROR)
        dream_unlock(r.ref, f, false);
}

/* dream_fault_lone's "the request failed" (recorded), where the access is
 * then not made: not -1, which sends the fault to the slow path to try
 * again. */
#define DREAM_LONE_FAILED (-2)

#ifdef DREAM_TRANSPORT_EARLY
/* Direct's early start (direct.cuh), after dream_early_claim: the claim
 * won, the warp issues the page's loads (their address from p.backing, a
 * kernel parameter, not through rt->arrays: two dependent loads,
 * which the claim's CAS in dream_fault_lone waited for), the leader takes its
 * home under them by the owner's CAS alone (O7: not locked, so no acquire
 * waits for the loads, and no unlock or unpin follows the publish; the
 * entry stays LOADING|NONE until then, naming no frame: its waiters pin
 * none), and the warp stores the page there. Returns, on the leader, the home, published and
 * not pinned; -1 elsewhere, and where the home is taken: the leader's `e` is
 * then INVALID again, the claim given back (a home holds another page only
 * where the ring gave it one, rarely; the loads are then dropped, not
 * counted in bytes_in). The home held no page, so no victim's entry must
 * change first (O4). */
__device__ __forceinline__ int dream_early_fill(const dream_ptr_abi &p, const dream_ring &r, uint64_t page,
                                                uint64_t &e, int leader)
{
    const unsigned all = 0xFFFFFFFFu;
    const bool lead = (int)dream_lane() == leader;
    uint64_t *pte = p.pte + page;
    __builtin_assume(__isGlobal(pte));
    const dream_io_early x = dream_early_load(all, lead ? p.backing + (page << 12) : 0, leader);
    const uint32_t g = dream_pte_gen(e);
    int hf = -1;
    if (lead) {
        const uint32_t h = (uint32_t)((p.home - p.frames) >> 12) + (uint32_t)page;
        if (dream_owner_take(r.owner + h, dream_owner(p.slot, page))) {
            hf = (int)h;
        } else {
            e = dream_pte(DREAM_PTE_INVALID, 0, g);
            atomicExch((unsigned long long *)pte, e);
        }
    }
    hf = __shfl_sync(all, hf, leader);
    if (hf < 0)
        return -1;
    dream_early_store(x, dream_ptr_frame(p, (uint32_t)hf), r.counters);
    if (!lead)
        return -1;
    dream_publish(r, pte, (uint32_t)hf, g, false, true);
    return hf;
}
#define dream_lone_fill dream_early_fill /* the lone fault's fill on this backend */
#elif !defined(DREAM_FAULT_LINKED)
/* The lone fill where there is no early start (the queue backends, and
 * direct in a build capped below 128 registers: direct.cuh), after
 * dream_early_claim: the claim won, the
 * leader takes the page's home as dream_frame_take does in O6
 * (dream_home_take: locked, the owner's CAS) and names it in the entry
 * (LOADING|f: waiters pin f, Progress), the warp requests the page (the
 * leader's lane active), and the leader publishes it and unlocks f, as
 * dream_fault does. The same steps, without the general path's collectives
 * and calls (H100, softrnic, a serial fault: 27.5-27.8 -> 25.5-27.4 us with
 * GPU queues, 19.9-20.3 -> 17.8-18.4 us "split"; bench/results-h100/
 * session42). Returns, on the leader, the home, published and not pinned;
 * -1 elsewhere, and
 * where the home is taken (as dream_early_fill: the claim given back), or
 * DREAM_LONE_FAILED where the request failed (dream_load_failed). */
__device__ __forceinline__ int dream_lone_fill(const dream_ptr_abi &p, const dream_ring &r, uint64_t page,
                                               uint64_t &e, int leader)
{
    const unsigned all = 0xFFFFFFFFu;
    const bool lead = (int)dream_lane() == leader;
    uint64_t *pte = p.pte + page;
    __builtin_assume(__isGlobal(pte));
    const uint32_t g = dream_pte_gen(e);
    int hf = -1;
    if (lead) {
        const uint32_t h = (uint32_t)((p.home - p.frames) >> 12) + (uint32_t)page;
        hf = dream_home_take(r, h, dream_owner(p.slot, page));
        e = hf < 0 ? dream_pte(DREAM_PTE_INVALID, 0, g) : dream_pte(DREAM_PTE_LOADING, (uint32_t)hf, g);
        atomicExch((unsigned long long *)pte, e);
    }
    hf = __shfl_sync(all, hf, leader);
    if (hf < 0)
        return -1;
    const int s = dream_transport_io(p.rt, all, lead, {page, p.slot, (uint32_t)hf, DREAM_IO_READ, 0u});
    if (!lead)
        return -1;
    if (s != DREAM_IO_OK) {
        dream_load_failed(r, pte, (uint32_t)hf, g, s);
        return DREAM_LONE_FAILED;
    }
    dream_publish(r, pte, (uint32_t)hf, g, false, true);
    dream_unlock(r.ref, (uint32_t)hf, false);
    return hf;
}
#endif

/* The slow path, collective over `mask`: each lane with `need` resolves its
 * page and returns the frame it pinned, or -1 after recording an error. `e`
 * is the entry the fast path saw.
 *
 * Gather and read-ahead (dream_ahead_page), when the whole warp is here and
 * one lane needs a page, up to d other pages (d: the launch's depth,
 * dream_ahead_depth). Gather: the lanes with `gather` load the other pages
 * the warp's access waits for, in this one call (a warp gathering from 32
 * pages faults once, not 32 times in a row). Read-ahead, when none gathers:
 * `ahead` is the stride, in pages, from the page the need lane's thread
 * accessed before to the one it faults (0: none; at most DREAM_AHEAD_STRIDE
 * either way; dream_ahead_stride says when there is one); lanes 1..d after
 * it each load the page that many strides further on (a warp walking a
 * column of a row-major matrix faults once per d + 1 rows, not once per
 * row). Such a lane (`pre`) loads its page only
 * if it finds it INVALID (dream_ahead_page), wins the claim and gets a
 * frame at once (in O6 a free one; else any the ring gives, its victim
 * evicted and written back as for a demand load); otherwise it stops,
 * having waited for nothing but its own transfers: it ends in its first
 * pass of the loop. A loaded page is published and unlocked as any other
 * (O1), without a pin.
 *
 * The runtime compiles it once per backend in a module of its own, capped at
 * 128 registers, and links it to each kernel (compile.py, link_kernel; user
 * kernels see only the declaration, DREAM_FAULT_LINKED). A kernel's register
 * count is the maximum over its call graph: compiled into the kernel, this
 * function sets the hit path's count too (a read loop on direct: 154, one
 * 256-thread block per SM), and a cap on the whole kernel would cap the
 * user's own code. In its own module only this function is capped (it
 * spills a little), and the kernel keeps what its own code needs. Both
 * modules include these headers, so they define no other non-inline
 * __device__ function or variable (tests/test_compile.py checks).
 *
 * `past` (dream_access_pinned, on the need lane): its page is resident with
 * the read-ahead mark; the lane only leads the read-ahead past it, with no
 * pin, and it is not counted as a fault. */
#ifdef DREAM_FAULT_LINKED
__device__ int dream_fault(dream_rt_state *rt, dream_ptr_abi p, uint64_t page, unsigned mask, bool need,
                           uint64_t e, int32_t ahead, bool gather, bool past);
#else
__device__ __noinline__ int dream_fault(dream_rt_state *rt, dream_ptr_abi p, uint64_t page, unsigned mask,
                                        bool need, uint64_t e, int32_t ahead, bool gather, bool past)
{
    bool mark;
    const unsigned needers = dream_ballot(mask, need);
    const bool pre = dream_ahead_page(p, mask, needers, past, gather, ahead, page, e, mark);
    uint64_t *pte = p.pte + page;
    int frame = -1;
    bool done = (!need && !pre) || past, loaded = false, home = false;
    bool claimed = false; /* pte is our LOADING|NONE|g: a frame is what we wait for */
    uint32_t where = DREAM_WAIT_PAGE;
    uint64_t t_wait = 0;
    const uint64_t t_start = need ? dream_now() : 0;
    const dream_ring r = dream_ring_of(rt, p.slot);
#ifdef DREAM_TRANSPORT_EARLY
    /* a whole warp's fault on one INVALID page, with one need lane and none
       reading ahead (dream_fault_lone takes most such faults before they
       come here) */
    if (mask == 0xFFFFFFFFu && __popc(needers) == 1 && !dream_any(mask, pre)) { /* uniform */
        const int leader = __ffs(needers) - 1;
        if (__shfl_sync(mask, !past && dream_early_ok(p) && dream_pte_state(e) == DREAM_PTE_INVALID, leader) &&
            dream_early_claim(p, page, e, leader) && (frame = dream_early_fill(p, r, page, e, leader)) >= 0) {
            atomicAdd(&r.ref[frame], 1); /* the pin dream_access_pinned drops (relaxed in O6, dream_unpin) */
            home = loaded = done = true;
        }
    }
#endif

    while (dream_any(mask, !done)) {
        bool do_wb = false, do_rd = false, moved = false, take = false;
        dream_io_req wb = {}, rd = {};
        uint64_t *vpte = nullptr, ve = 0;
        if (!done) {
            const uint32_t st = dream_pte_state(e), f = dream_pte_frame(e), g = dream_pte_gen(e);
            if (frame >= 0) {
                /* pinned ahead of a load (Progress; e is its LOADING|f|g):
                   wait for the load's end, polling relaxed (an acquire is
                   CCTL.IVALL on sm_90: each poll would empty the SM's L1
                   under its other warps' hits), then one acquire of the
                   loaded entry, which our pin keeps (I3) */
                const uint64_t want = dream_pte_loaded((uint32_t)frame, g), no_mark = ~(uint64_t)DREAM_PTE_MARK;
                uint64_t now = dream_ld_relaxed(pte);
                if ((now & no_mark) == want)
                    now = dream_ld_acquire(pte);
                if ((now & no_mark) == want) {
                    done = true;
                } else if (now != e) {
                    atomicSub(&r.ref[frame], 1); /* the load failed: start over */
                    frame = -1;
                    moved = true;
                    e = now;
                }
                where = DREAM_WAIT_PAGE;
            } else if (st == DREAM_PTE_VALID || (st == DREAM_PTE_LOADING && f != DREAM_FRAME_NONE)) {
                frame = dream_pin(rt, pte, e);
                if (frame >= 0) {
                    done = st == DREAM_PTE_VALID;
                    moved = true;
                }
                where = DREAM_WAIT_PAGE;
            } else if (claimed || st == DREAM_PTE_INVALID) {
                if (!claimed) {
                    claimed = dream_claim(pte, e);
                    moved = !claimed;
                    done = !claimed && pre; /* another lane has it */
                }
                take = claimed;
            } else {
                where = DREAM_WAIT_PAGE; /* LOADING|NONE (its claimer may wait for a frame) or EVICTING */
            }
        }
        if (take) {
            /* in a launch that evicts, the ring's fence is O4's acquire */
            const uint32_t g = dream_pte_gen(e);
            uint64_t own;
            const int fr = dream_frame_take(rt, r, p, page, home, own);
            if (fr < 0 && pre) { /* no free frame now: give the page back */
                atomicExch((unsigned long long *)pte, dream_pte(DREAM_PTE_INVALID, 0, g));
                claimed = false;
                done = true;
            } else if (fr < 0) {
                where = DREAM_WAIT_FRAME; /* keep the claim (Progress) */
            } else {
                claimed = false;
                frame = fr;
                rd = {page, p.slot, (uint32_t)fr, DREAM_IO_READ, pre};
                do_rd = true;
                if (own != DREAM_OWNER_NONE) {
                    vpte = dream_owner_pte(rt, own);
                    const bool dirty = dream_load_u32(&rt->dirty[fr]) != 0;
                    ve = dream_ld_relaxed(vpte);
                    const uint32_t vg = dream_pte_gen(ve);
                    /* by I2 the victim's entry is VALID|fr, and only
                       we may change it: the CAS is a check */
                    const bool mapped =
                        dream_pte_state(ve) == DREAM_PTE_VALID && dream_pte_frame(ve) == (uint32_t)fr &&
                        atomicCAS((unsigned long long *)vpte, ve,
                                  dirty ? dream_pte(DREAM_PTE_EVICTING, (uint32_t)fr, vg)
                                        : dream_pte(DREAM_PTE_INVALID, 0, vg)) == ve;
                    if (!mapped) {
                        /* I2 broken: stop before any data moves (the frame stays locked) */
                        dream_fail(rt, DREAM_ERR_PROTOCOL, dream_owner_slot(own), 0,
                                   dream_owner_page(own), DREAM_WAIT_NONE, (uint32_t)ve,
                                   (uint32_t)fr, vg);
                        atomicExch(&rt->abort, 1u);
                        do_rd = false;
                        done = true;
                        frame = -1;
                    } else {
                        /* O4: the entry leaves VALID|fr before fr's data changes */
                        dream_fence_acquire();
                        dream_count_home(rt, dream_owner_slot(own), dream_owner_page(own), (uint32_t)fr, -1);
                        if (dirty) {
                            do_wb = true;
                            do_rd = false; /* after the write-back */
                            wb = {dream_owner_page(own), dream_owner_slot(own), (uint32_t)fr,
                                  DREAM_IO_WRITE};
                        } else {
                            dream_count(rt, DREAM_C_EVICTIONS, 1);
                        }
                    }
                }
            }
        }

        dream_syncwarp(mask); /* the leaders' entry changes (O4) before any lane writes a frame */
        if (dream_any(mask, do_wb)) {
            const int s = dream_transport_io(rt, mask, do_wb, wb);
            if (do_wb) {
                const uint32_t vg = dream_pte_gen(ve);
                if (s == DREAM_IO_OK) {
                    /* the transport fenced the write-back: a new claim of the
                       victim reads the written data (O4) */
                    rt->dirty[frame] = 0;
                    atomicExch((unsigned long long *)vpte, dream_pte(DREAM_PTE_INVALID, 0, vg));
                    dream_count(rt, DREAM_C_EVICTIONS, 1);
                    dream_count(rt, DREAM_C_WRITEBACKS, 1);
                    dream_count(rt, DREAM_C_BYTES_OUT, 1ull << rt->page_shift);
                    do_rd = true;
                } else {
                    /* The victim's only current copy is the frame: keep it
                     * resident and dirty. After a timeout the request may
                     * still be in flight, so the frame stays locked. */
                    r.owner[frame] = dream_owner(wb.slot, wb.page);
                    if (s == DREAM_IO_ERROR) {
                        atomicExch((unsigned long long *)vpte, ve); /* VALID|frame|vg again */
                        dream_count_home(rt, wb.slot, wb.page, (uint32_t)frame, 1);
                        dream_unlock(r.ref, (uint32_t)frame, false);
                    }
                    atomicExch((unsigned long long *)pte, dream_pte(DREAM_PTE_INVALID, 0, dream_pte_gen(e)));
                    done = true;
                    frame = -1;
                }
            }
        }

        if (dream_any(mask, do_rd)) {
            const uint32_t g = dream_pte_gen(e);
            if (do_rd) /* waiters may pin the frame from now on (Progress) */
                atomicExch((unsigned long long *)pte, dream_pte(DREAM_PTE_LOADING, (uint32_t)frame, g));
            const int s = dream_transport_io(rt, mask, do_rd, rd);
            if (do_rd) {
                if (s == DREAM_IO_OK) {
                    dream_publish(r, pte, (uint32_t)frame, g, mark, home);
                    dream_unlock(r.ref, (uint32_t)frame, !pre); /* keeping our pin for the access (none ahead) */
                    loaded = true;
                    if (pre)
                        frame = -1;
                } else {
                    dream_load_failed(r, pte, (uint32_t)frame, g, s);
                    frame = -1;
                }
                done = true;
            }
        }

        if (moved)
            t_wait = 0; /* the bound is on waiting without progress */
        else if (!done && !dream_wait_step(rt, t_wait, where == DREAM_WAIT_FRAME ? DREAM_FRAME_BACKOFF : 64)) {
            dream_wait_failed(rt, where, p.slot, page);
            if (frame >= 0)
                atomicSub(&r.ref[frame], 1);
            if (claimed) /* give the page back to whoever comes next */
                atomicExch((unsigned long long *)pte, dream_pte(DREAM_PTE_INVALID, 0, dream_pte_gen(e)));
            claimed = false;
            done = true;
            frame = -1;
        }
        if (!done && frame < 0 && !claimed && dream_pte_state(e) != DREAM_PTE_INVALID)
            e = dream_ld_relaxed(pte); /* look again */
    }
    /* counted last, after every fence of the fault: each one waited for the
       counters' atomics before it (0.7 us of a serial fault) */
    if (loaded) {
        dream_count(r.counters, DREAM_C_PAGES_IN, 1);
        dream_count(r.counters, DREAM_C_BYTES_IN, 1ull << p.page_shift);
        if (pre)
            dream_count(r.counters, gather ? DREAM_C_GATHERED : DREAM_C_AHEAD, 1);
    }
    if (need && !past) {
        dream_count(r.counters, DREAM_C_FAULTS, 1);
        if (!loaded && frame >= 0) /* served by another warp's load */
            dream_count(r.counters, DREAM_C_COALESCED, 1);
        dream_count(r.counters, DREAM_C_WAIT_NS, dream_now() - t_start);
    }
    return frame;
}
#endif

/* A lone fault's outcome (dream_fault_lone): the frame, or -1 (or
 * DREAM_LONE_FAILED), the entry the claim found and the stride a read-ahead
 * follows. */
struct dream_lone {
    int frame;
    int32_t ahead;
    uint64_t seen;
};

/* A lone fault (O6, an array with homes: dream_early_ok holds), collective
 * over the whole warp, every lane on page `page` (a 4 KiB page), which lane
 * 0 saw INVALID in `e` (every lane's `e`): unless lane 0's hint `prev` or a
 * sequence of warps gives a stride to read ahead (dream_ahead_stride), lane
 * 0 claims the page, and the warp loads it into its home (dream_lone_fill:
 * with direct's early start taken under the loads; else locked, then
 * requested). Returns the frame, unpinned (none reuses a frame
 * in O6), DREAM_LONE_FAILED where the request failed, or -1 where there is
 * a stride or the claim or the home is taken, with the entry the claim found
 * (INVALID again where it gave its claim back: a taken home, or a sequence
 * found) and the stride: the caller (dream_miss_no_evict) takes the general
 * path from there,
 * which then waits for the winner's load (or, where the home was taken,
 * claims the page again and tries the early start once more before the
 * ring; the lone fault's time is then not in wait_ns). Apart
 * from dream_fault, so that a lone fault runs none of its general code: the
 * calls' register saves and the general path's collectives were most of a
 * serial fault's 1,240 instructions (H100: 7.2-7.35 us a fault through
 * dream_fault, 4.6-4.8 us here, bench/results-h100/session38; 4.3 us called
 * from the access inline, dream_miss_no_evict, session39; 4.05-4.10 us
 * with the sequence look's load issued with the claim's CAS and the page's
 * address in p, session40: either alone left 4.24-4.27 us, the CAS then
 * waiting for the loads the other one left before it; 3.73-3.79 us with
 * the home taken by the owner's CAS, unlocked, session41). The loads
 * wait for the claim: issued before it, every warp of a block faulting on
 * one page loaded it over PCIe (cold vector add, a thread per element, 0.156
 * -> 0.227 s), and the serial fault was no faster. */
#ifdef DREAM_FAULT_LINKED
__device__ dream_lone dream_fault_lone(dream_ptr_abi p, uint64_t page, uint64_t e, uint64_t prev);
#else
__device__ __noinline__ dream_lone dream_fault_lone(dream_ptr_abi p, uint64_t page, uint64_t e, uint64_t prev)
{
    const unsigned all = 0xFFFFFFFFu;
    const bool lead = dream_lane() == 0, depth = dream_ahead_depth(p.flags) != 0; /* depth: uniform */
    int32_t ahead = __shfl_sync(all, lead && depth ? dream_hint_stride(p, page, prev) : 0, 0);
    if (ahead != 0)
        return {-1, ahead, e};
    /* dream_ahead_stride's sequence look, its load issued with the claim's
       CAS, under whose round trip it returns. A sequence found gives the
       claim back: lane 0 turns the entry from its LOADING|NONE|g back to
       INVALID|g, relaxed (nothing was written under the claim; a warp that
       waits on it starts over, as where a taken home's claim is given
       back), and the general path claims the page again to read ahead. A
       lost claim passes on the entry its CAS found, as before, with the
       look's stride */
    const bool look = depth && page != 0;
    const uint64_t before = lead && look ? dream_ld_sm(p.pte + page - 1) : 0;
    const uint64_t t_start = dream_now();
    const dream_ring r = dream_ring_of(p.rt, p.slot);
    const bool won = dream_early_claim(p, page, e, 0);
    ahead = __shfl_sync(all, lead && look && dream_in_sequence(r.loaded, before), 0);
    if (won && ahead != 0) {
        e = dream_pte(DREAM_PTE_INVALID, 0, dream_pte_gen(e));
        if (lead)
            atomicExch((unsigned long long *)(p.pte + page), e);
    }
    const int f = won && ahead == 0 ? __shfl_sync(all, dream_lone_fill(p, r, page, e, 0), 0) : -1;
    if (f == -1)
        return {-1, ahead, __shfl_sync(all, e, 0)};
    if (lead) {
        if (f >= 0) {
            dream_count(r.counters, DREAM_C_PAGES_IN, 1);
            dream_count(r.counters, DREAM_C_BYTES_IN, 1ull << 12);
        }
        dream_count(r.counters, DREAM_C_FAULTS, 1);
        dream_count(r.counters, DREAM_C_WAIT_NS, dream_now() - t_start);
    }
    return {f, 0, e};
}
#endif

/* Type and bounds of element i; records the error otherwise. */
__device__ __forceinline__ bool dream_check(const dream_ptr_abi &p, uint64_t i, uint32_t size)
{
    if (size != p.elem_size) {
        dream_fail(p.rt, DREAM_ERR_TYPE, p.slot, i, 0, 0, size, p.elem_size);
        return false;
    }
    if (i >= p.n) {
        dream_fail(p.rt, DREAM_ERR_BOUNDS, p.slot, i, 0, 0);
        return false;
    }
    return true;
}

/* After a timeout the runtime is aborted and no page can come in: end this
   thread rather than let the kernel run on through failing accesses. */
__device__ __forceinline__ void dream_exit_if_aborted(const dream_rt_state *rt, bool done)
{
    if (!done && dream_load_u32(&rt->abort))
        asm volatile("exit;");
}

/* An access's outcome: whether it was made, what its f returned, and the
 * address of the frame it was made in (the thread's hint then keeps it, O6). The
 * slow path returns it by value and takes the array's argument by value, so
 * no hit path keeps a variable in local memory for it: a reference to the
 * array or to the result, taken by a call that is not inlined, put both in
 * local memory on every access (an argument copy and a spilled result, about
 * 1.4 KiB of local traffic per warp read) and waited for each load before
 * the next. */
template <class T> struct dream_done {
    T v;
    bool done;
    uint64_t base;
};

/* The slow path of an access: runs f(T *) on element `byte` / sizeof(T) of
 * the array behind p, for each lane of `mask` with `pending`, with its page
 * pinned. The lanes take their distinct pages one at a time, all of them in
 * every step (uniform control flow: no lane runs ahead into another access
 * while its warp-mates are still in this one): the page's leader pins it or
 * faults it in with the whole warp's help, its lanes run f, the warp syncs,
 * the leader unpins. Returns whether this lane's access was made and what
 * f returned. O6's misses come here from dream_miss_no_evict, which tries a
 * lone fault first: `ahead` is the stride it computed for the first page
 * (DREAM_NO_AHEAD: none computed).
 *
 * With -DDREAM_VERIFY the leader checks, after its group's access, that the
 * frame still belongs to the page and is pinned, and counts any failure
 * (DREAM_C_VERIFY_*): a check of this protocol for stress tests.
 *
 * `prev` is the entry of the thread's hint: a fault follows the stride
 * from its page (dream_fault's read-ahead). `seen` is the page's entry as
 * the caller's fast path read it (on the lowest lane of each page's group
 * there), which the first page's leader takes rather than reading it again
 * (a round trip of every fault: dream_frame_take says what the two gave). It
 * may be stale, which only fails the pin or the claim, which then read the
 * entry; the later pages' leaders read theirs (the first page's fault may
 * have gathered them). */
template <class T, class F>
__device__ __noinline__ dream_done<T> dream_access_pinned(dream_ptr_abi p, uint64_t page, uint64_t off,
                                                         unsigned mask, bool pending, bool write,
                                                         uint64_t prev, uint64_t seen, int32_t ahead, F f)
{
    dream_rt_state *rt = p.rt;
    const unsigned long long key = (unsigned long long)(p.pte + page);
    const int lane = (int)dream_lane();
    dream_done<T> r = {T(), false, 0};
    bool first = true;
    for (unsigned todo = dream_ballot(mask, pending); todo; first = false) {
        const int leader = __ffs(todo) - 1;
        /* every lane of mask takes part in each collective: no && before a _sync */
        const unsigned long long lkey = dream_shfl(mask, key, leader);
        const bool mine = pending && key == lkey;
        const unsigned peers = dream_ballot(mask, mine);
        int frame = -1;
        uint64_t e = 0;
        if (lane == leader) {
            e = first ? seen : dream_ld_relaxed(p.pte + page);
            if (dream_pte_state(e) == DREAM_PTE_VALID)
                frame = dream_pin(rt, p.pte + page, e);
        }
        const bool need = lane == leader && frame < 0;
        if (dream_any(mask, need)) {
            /* gather: the first lane on each other page still to do */
            const bool wait = (todo >> lane & 1) && !mine;
            const unsigned same = dream_match_any(mask, wait ? key : 0); /* every lane: no && before it */
            const bool gather = wait && __ffs(same) - 1 == lane;
            const int got = dream_fault(rt, p, page, mask, need, e,
                                        !need                             ? 0
                                        : first && ahead != DREAM_NO_AHEAD ? ahead
                                                                           : dream_ahead_stride(p, page, prev, peers),
                                        gather, false);
            if (need)
                frame = got;
        }
        frame = dream_shfl(mask, frame, leader);
        dream_syncwarp(mask); /* the leader's pin (acquire) before the peers' accesses */
        if (mine && frame >= 0) {
            r.base = (uint64_t)dream_ptr_frame(p, (uint32_t)frame);
            r.v = f((T *)(r.base + off));
            r.done = true;
        }
        dream_syncwarp(mask);
        if (lane == leader && frame >= 0) {
#ifdef DREAM_VERIFY
            if (*(volatile uint64_t *)&rt->owner[frame] != dream_owner(p.slot, page))
                dream_count(rt, DREAM_C_VERIFY_OWNER, 1);
            /* pins, without the lock bias: a waiter that pinned ahead of
               the load may run while the loader's unlock is on its way */
            const int32_t ref = (int32_t)dream_ld_relaxed((const uint32_t *)&rt->ref[frame]);
            if ((ref < 0 ? ref - DREAM_REF_LOCKED : ref) < 1)
                dream_count(rt, DREAM_C_VERIFY_PIN, 1);
#endif
            dream_unpin(rt, (uint32_t)frame, write, p.flags);
        }
        /* the leader pinned its page resident with the read-ahead mark */
        const bool past = lane == leader && frame >= 0 && dream_pte_state(e) == DREAM_PTE_VALID &&
                          (e & DREAM_PTE_MARK);
        if (dream_any(mask, past))
            dream_fault(rt, p, page, mask, past, e, past ? dream_ahead_stride(p, page, prev, peers) : 0, false,
                        past);
        todo &= ~peers;
    }
    return r;
}

/* O6's miss, collective over the lanes that missed: a whole warp's fault on
 * one INVALID 4 KiB page of an array with homes (dream_early_ok), with no
 * page to read ahead, goes to dream_fault_lone first and is accessed
 * unpinned at the frame it returns (in O6 none reuses a frame), or not at
 * all where its request failed (recorded, as the slow path's would be);
 * any other, and one whose claim or home is taken, takes the slow path
 * (dream_access_pinned), with the stride and the entry the lone fault
 * found. Inline, before the slow path's call: tried inside it, every lone
 * fault paid its register saves and restores (67 words a lane; H100, a
 * serial fault 4.8 -> 4.3 us here, cold vector add and PolyBench unchanged,
 * bench/results-h100/session39). The match comes before any test of p:
 * lanes may access different arrays, and every lane of the warp takes part
 * in it. */
template <class T, class F>
__device__ __forceinline__ dream_done<T> dream_miss_no_evict(const dream_ptr_abi &p, uint64_t page, uint64_t off,
                                                             bool write, uint64_t prev, uint64_t seen, F f)
{
    const unsigned mask = dream_group_mask();
    int32_t ahead = DREAM_NO_AHEAD;
    if (mask == 0xFFFFFFFFu && dream_match_any(mask, (unsigned long long)(p.pte + page)) == mask &&
        dream_early_ok(p)) { /* uniform */
        const uint64_t e0 = __shfl_sync(mask, seen, 0);
        if (dream_pte_state(e0) == DREAM_PTE_INVALID) {
            const dream_lone l = dream_fault_lone(p, page, e0, prev);
            if (l.frame >= 0) {
                __syncwarp(); /* the leader's publish before the other lanes' accesses (PTX: a shuffle orders none) */
                dream_done<T> r;
                r.base = (uint64_t)dream_ptr_frame(p, (uint32_t)l.frame);
                if (write && dream_lane() == 0)
                    p.rt->dirty[l.frame] = 1;
                r.v = f((T *)(r.base + off));
                r.done = true;
                return r;
            }
            if (l.frame == DREAM_LONE_FAILED) {
                dream_done<T> r;
                r.v = T();
                r.done = false;
                r.base = 0;
                return r;
            }
            ahead = l.ahead;
            seen = l.seen;
        }
    }
    return dream_access_pinned<T>(p, page, off, mask, true, write, prev, seen, ahead, f);
}

/* The lanes of a group on one page elect a leader (the lowest), which pins
 * the page if it is resident: frame is the pinned frame on the leader, -1
 * otherwise (and on every other lane); e is the entry the leader saw. */
struct dream_lead {
    unsigned peers;
    int leader;
    bool lead;
    int frame;
    uint64_t e;
};

__device__ __forceinline__ dream_lead dream_lead_pin(dream_rt_state *rt, uint64_t *pte, unsigned mask)
{
    dream_lead l;
    l.peers = dream_match_any(mask, (unsigned long long)pte);
    l.leader = __ffs(l.peers) - 1;
    l.lead = (int)dream_lane() == l.leader;
    l.frame = -1;
    l.e = 0;
    if (l.lead) {
        l.e = dream_ld_relaxed(pte);
        if (dream_pte_state(l.e) == DREAM_PTE_VALID)
            l.frame = dream_pin(rt, pte, l.e);
    }
    return l;
}

/* O6, O7: a write's mark of its frame, read by the host after the kernel (no
 * frame is written back during one that evicts nothing). Stored only if not
 * yet set: a thread per element, each storing to its page's one word, made
 * a resident vector add 1.6x in-memory (H100) against 1.0x without the
 * mark; the load is served by L1, and a stale 0 there costs only a store
 * (no flag is cleared while such a kernel runs). */
__device__ __forceinline__ void dream_mark_dirty(uint32_t *d)
{
    __builtin_assume(__isGlobal(d));
    if (*d == 0)
        *d = 1;
}

/* O8: whether every page of p's array (it has homes) is VALID at home now:
 * its count (at_home, O7) read relaxed at CTA scope, which L1 may serve
 * stale, only ever lower (in O6 no page leaves VALID). */
__device__ __forceinline__ bool dream_whole(const dream_ptr_abi &p)
{
    return dream_ld_sm(p.at_home) == dream_pages(p);
}

/* O6: whether page `page`'s place is known, from its entry, read relaxed at
 * CTA scope and VALID, or from the array's count of pages at home, read
 * with it and whole (O8: `whole`); `base` is then the page's address. Else
 * `e` is the entry read (an entry with the read-ahead mark is a miss: the
 * slow path reads ahead past it). A write (`dirty`) marks the page dirty. */
__device__ __forceinline__ bool dream_o6_page(const dream_ptr_abi &p, uint64_t page, bool dirty, uint8_t *&base,
                                              bool &whole, uint64_t &e)
{
    e = dream_ld_sm(p.pte + page);
    whole = p.home && dream_whole(p); /* O8, its load issued with the entry's */
    if (whole) {
        if (dirty)
            dream_mark_dirty(p.home_dirty + page);
        base = p.home + (page << p.page_shift);
        return true;
    }
    if ((e & (DREAM_PTE_STATE_MASK | DREAM_PTE_MARK)) != DREAM_PTE_VALID)
        return false;
    if (dirty)
        dream_mark_dirty(&p.rt->dirty[dream_pte_frame(e)]);
    base = dream_ptr_frame(p, dream_pte_frame(e));
    return true;
}

/* O6, O7, O8: the hint's range becomes page `page` of p's array, at `b`, or
 * with `whole` the whole array at home; `base` is its first element's
 * address. */
template <class T>
__device__ __forceinline__ void dream_hint_range(const dream_ptr_abi &p, dream_hint &h, uint64_t page, const uint8_t *b,
                                                 bool whole)
{
    if (whole) {
        h.lo = 0;
        h.span = p.n;
        h.base = (uint64_t)p.home;
        return;
    }
    static_assert(sizeof(T) <= 16 && (sizeof(T) & (sizeof(T) - 1)) == 0,
                  "a page's range needs an element size that divides the page (array.py allows 1-16 bytes, powers of 2)");
    const uint64_t per = (1ull << p.page_shift) / sizeof(T), lo = page * per; /* element sizes divide pages */
    h.lo = lo;
    h.span = p.n - lo < per ? p.n - lo : per;
    h.base = (uint64_t)b;
}

/* dream_o6_page for an access through hint h: where the page's place is
 * known, the page (or with O8 the whole array) becomes h's range, and an
 * access that found the array whole is counted. */
template <class T>
__device__ __forceinline__ bool dream_o6_hint(const dream_ptr_abi &p, uint64_t page, bool dirty, dream_hint &h,
                                              uint8_t *&base, uint64_t &e)
{
    bool whole;
    if (!dream_o6_page(p, page, dirty, base, whole, e))
        return false;
    if (whole)
        dream_count(p.rt, DREAM_C_WHOLE, 1);
    dream_hint_range<T>(p, h, page, base, whole);
    return true;
}

/* The entry of the hint's range (its first page's), for a fault's stride
 * (dream_hint_stride); O5's `lo` is one. */
template <class T> __device__ __forceinline__ uint64_t dream_hint_entry(const dream_ptr_abi &p, const dream_hint &h)
{
    return h.span ? (uint64_t)(p.pte + ((h.lo * sizeof(T)) >> p.page_shift)) : h.lo;
}

/* An access whose element i of `size`-byte elements failed its type or
 * bounds check; records which. Linked from the fault module like
 * dream_fault, so no build keeps dream_fail's code and its warp collective
 * in a user's loop (a collective is convergent and stops the compiler from
 * unrolling it), nor its registers in the hit paths. */
#ifdef DREAM_FAULT_LINKED
__device__ void dream_access_failed(dream_ptr_abi p, uint64_t i, uint32_t size);
#else
__device__ __noinline__ void dream_access_failed(dream_ptr_abi p, uint64_t i, uint32_t size)
{
    dream_check(p, i, size);
}
#endif

#ifdef DREAM_RESIDENT_KERNEL
/* The resident build records a failed access with one plain store (abi.h
 * dream_resident_fail) into this variable of the kernel's own module, which
 * the host reads after the launch. A call, an atomic or inline assembly in
 * the failure path, as dream_access_failed has, keeps the compiler from
 * unrolling the user's loop and from reusing a value loaded the iteration
 * before, and so does a second store on the same path; one store does
 * neither (CC's hook in the resident build, Kronecker 22, H100: 77-80 ->
 * 72-74 ms; bench/results-h100/session31). A wrong index and a wrong type
 * share it, their values selected (abi.h), so that a read's failure is one
 * predicated store (dream_read). Threads failing together overwrite each
 * other's record. A 16-byte store is written whole
 * by the GPUs dream runs on, though PTX does not promise it: two threads'
 * halves would pair one's index with the other's array, thread and block. */
__device__ ulonglong2 dream_resident_failure;
#endif

/* Whether element i is in p's bounds and of its type T; else records which
 * (dream_access_failed, or in the resident build dream_resident_failure). */
template <class T> __device__ __forceinline__ bool dream_access_ok(const dream_ptr_abi &p, uint64_t i)
{
    if (sizeof(T) == p.elem_size && i < p.n)
        return true;
#ifdef DREAM_RESIDENT_KERNEL
    { /* one store, its values selected (abi.h) */
        const bool type = sizeof(T) != p.elem_size;
        const uint64_t block = blockIdx.x + (uint64_t)gridDim.x * (blockIdx.y + (uint64_t)gridDim.y * blockIdx.z);
        const uint32_t thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
        const uint64_t at = (uint64_t)thread << DREAM_RFAIL_THREAD_SHIFT |
                            (min(block, DREAM_RFAIL_BLOCK_MAX) + 1) << DREAM_RFAIL_BLOCK_SHIFT;
        dream_resident_failure = make_ulonglong2(type ? sizeof(T) : i, p.slot | (type ? 0 : at));
    }
#else
    dream_access_failed(p, i, sizeof(T));
#endif
    return false;
}

/* Whether this launch evicts nothing (O6). The no-evict build
 * (DREAM_NO_EVICT_KERNEL, compile.py) runs only such launches, so the access
 * path's O5 code drops out of it (cc_hook 3,600 -> 2,440 instructions): in
 * the general build, BFS's third launch executed 150 warp instructions an
 * edge, against 59 in the resident build and 19 in memory. Cold CC's first
 * hook 193-201 -> 170-179 ms; cold BFS unchanged (H200,
 * bench/results-h100/session48). */
__device__ __forceinline__ bool dream_no_evict(const dream_ptr_abi &p)
{
#if defined(DREAM_NO_EVICT_KERNEL)
    return true;
#elif defined(DREAM_EVICT_KERNEL) /* the general build runs only launches that may evict (kernel.py) */
    return false;
#else
    return p.flags & DREAM_PTR_NO_EVICT;
#endif
}

/* Builds whose launches keep ranges in hints (O6): not the resident one
 * (every array at home, accessed there) nor the general one (span stays 0) */
#if !defined(DREAM_RESIDENT_KERNEL) && !defined(DREAM_EVICT_KERNEL)
#define DREAM_HINT_RANGES
#endif

/* Whether p's array is at home in this launch (O7): always in the resident
   build, else by the host's flag. */
__device__ __forceinline__ bool dream_at_home(const dream_ptr_abi &p)
{
#ifdef DREAM_RESIDENT_KERNEL
    return true;
#else
    return p.flags & DREAM_PTR_AT_HOME;
#endif
}

/* Runs f(T *) -> T on element i with its page pinned, and marks the page
 * dirty (writes, read-modify-writes, atomics). Fast path: lanes on one page
 * elect a leader, every leader pins its resident page at once, the lanes
 * access, the leaders unpin, and the warp votes on the slow path; under O6
 * each lane accesses its resident page in place, with no collective, and the
 * lanes that missed take the slow path as a group of their own (those that
 * hit take no part); an array at home (O7) is accessed there. Returns f's
 * result; not done, with the error recorded, when the access could not be
 * made (bounds, type, failed fault); memory is then untouched. */
template <class T, class F>
__device__ __forceinline__ dream_done<T> dream_write(const dream_ptr_abi &p, uint64_t i, dream_hint &h, F f)
{
    dream_done<T> r = {T(), false, 0};
    const uint64_t byte = i * sizeof(T);
    const uint64_t page = byte >> p.page_shift;
#ifdef DREAM_HINT_RANGES
    if (i - h.lo < h.span && h.dirty == page + 1) { /* O6: the hint's range, its page marked by this copy */
        uint8_t *b = (uint8_t *)h.base;
        __builtin_assume(__isGlobal(b));
        r.v = f((T *)b + (i - h.lo));
        r.done = true;
        return r;
    }
#endif
    if (!dream_access_ok<T>(p, i))
        return r;
    if (dream_at_home(p)) {
        if (h.dirty != page + 1) { /* the copy's first write to the page */
            dream_mark_dirty(p.home_dirty + page);
            h.dirty = page + 1;
        }
#ifdef DREAM_HINT_RANGES
        dream_hint_range<T>(p, h, 0, nullptr, true);
#endif
        T *q = (T *)(p.home + byte);
        __builtin_assume(__isGlobal(q)); /* global accesses, not generic: frames are device memory */
        r.v = f(q);
        r.done = true;
        return r;
    }
#ifdef DREAM_RESIDENT_KERNEL
    __builtin_unreachable();
#else
    dream_rt_state *rt = p.rt;
    const uint64_t off = byte & ((1ull << p.page_shift) - 1);
    uint64_t *pte = p.pte + page;
    if (dream_no_evict(p)) {
        uint8_t *b;
        if (i - h.lo < h.span) { /* the hint's range: the copy's first write to this page there */
            b = (uint8_t *)((T *)h.base + (i - h.lo));
            dream_mark_dirty(&rt->dirty[((uint64_t)b - (uint64_t)p.frames) >> p.page_shift]);
        } else {
            uint64_t e;
            if (!dream_o6_hint<T>(p, page, true, h, b, e)) {
                r = dream_miss_no_evict<T>(p, page, off, true, dream_hint_entry<T>(p, h), e, f);
                if (r.done) { /* the access marked the frame dirty (pinned, or the lone fault's) */
                    dream_hint_range<T>(p, h, page, (const uint8_t *)r.base, false);
                    h.dirty = page + 1;
                }
                dream_exit_if_aborted(rt, r.done);
                return r;
            }
            b += off;
        }
        h.dirty = page + 1;
        __builtin_assume(__isGlobal(b));
        r.v = f((T *)b);
        r.done = true;
        return r;
    }
    const unsigned mask = dream_group_mask();
    const dream_lead l = dream_lead_pin(rt, pte, mask);
    const int frame = dream_shfl(mask, l.frame, l.leader);
    dream_syncwarp(mask); /* the leaders' pins (acquire) before their peers' accesses */
    if (frame >= 0)
        r.v = f((T *)(dream_ptr_frame(p, (uint32_t)frame) + off));
    dream_syncwarp(mask);
    if (l.lead && frame >= 0)
        dream_unpin(rt, (uint32_t)frame, true, p.flags);
    r.done = frame >= 0;
    if (dream_any(mask, !r.done)) {
        const dream_done<T> s = dream_access_pinned<T>(p, page, off, mask, !r.done, true, h.lo, l.e, DREAM_NO_AHEAD, f);
        if (s.done)
            r = s;
    }
    h.lo = (uint64_t)pte; /* the entry alone, for read-ahead: the frame may be reused */
    h.base = 0;
    dream_exit_if_aborted(rt, r.done);
    return r;
#endif
}

/* O5: the element's bits, loaded relaxed at GPU scope (from L2). */
template <class B> __device__ __forceinline__ B dream_ld_frame(const B *q)
{
    B b;
    if constexpr (sizeof(B) == 1) {
        unsigned short w;
        asm volatile("ld.relaxed.gpu.global.u8 %0, [%1];" : "=h"(w) : "l"(q) : "memory");
        b = (B)w;
    } else if constexpr (sizeof(B) == 2) {
        asm volatile("ld.relaxed.gpu.global.u16 %0, [%1];" : "=h"(b) : "l"(q) : "memory");
    } else if constexpr (sizeof(B) == 4) {
        asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(b) : "l"(q) : "memory");
    } else if constexpr (sizeof(B) == 8) {
        asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(b) : "l"(q) : "memory");
    } else {
        asm volatile("ld.relaxed.gpu.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(b.x), "=r"(b.y), "=r"(b.z), "=r"(b.w)
                     : "l"(q)
                     : "memory");
    }
    return b;
}

/* O5: q, at an address that depends on every word of the element's bits b,
 * so that a load from it issues only once all of b has returned: q + (w &
 * 0), w the words of b or'ed, the 0 the dream_ptr's page shift (< 64) >> 6,
 * and the and in asm, which no compiler folds. */
template <class B> __device__ __forceinline__ const uint64_t *dream_after(const uint64_t *q, const B &b,
                                                                          uint32_t page_shift)
{
    uint32_t w, z;
    if constexpr (sizeof(B) == 16)
        w = b.x | b.y | b.z | b.w;
    else if constexpr (sizeof(B) == 8)
        w = (uint32_t)b | (uint32_t)(b >> 32);
    else
        w = (uint32_t)b;
    asm("and.b32 %0, %1, %2;" : "=r"(z) : "r"(w), "r"(page_shift >> 6));
    return q + z;
}

#ifdef DREAM_RESIDENT_KERNEL
/* The resident build's read of element i at q (element 0 where `ok` is
   false: the failure is then recorded, and T() returned) */
template <class T>
__device__ __forceinline__ T dream_home_read(const dream_ptr_abi &p, uint64_t i, bool ok, const T *q)
{
    __builtin_assume(__isGlobal(q)); /* LDG, not a generic LD */
    const T v = *q;
    if (ok)
        return v;
    dream_access_ok<T>(p, i); /* records the failure */
    return T();
}
#endif

/* Reads element i. Every lane translates on its own. O5: the entry, the
 * element, the entry again; lanes whose page was absent or moved read pinned
 * on the slow path. O6 (no frame reused during this kernel): the element
 * from the hint's range, or the frame from the entry, as a plain load, with no
 * collective (the lanes that missed read on the slow path as a group of
 * their own); an array at home (O7) is read there. A lane whose entry
 * carries the read-ahead mark reads on the slow path, which reads ahead past
 * it. Returns T() when the read could not be made (the error is recorded). */
template <class T>
__device__ __forceinline__ T dream_read(const dream_ptr_abi &p, uint64_t i, dream_hint &h, bool narrow)
{
#ifdef DREAM_RESIDENT_KERNEL
    /* element i at home, or element 0 (every array has one) where the check
       fails, loaded before the failure is recorded: a load and a predicated
       store, no branch. With the check first, each load waited for the
       branch of the access before it (CC's hooks, Kronecker 22, H100: 49.7-51.0
       -> 47.1-49.2 ms); written as `return ok ? v : T()`, ptxas made the load
       conditional again. A signed 32-bit index (`narrow`: sign-extended in
       i) is checked and addressed in 32 bits: against min(n, 2^31), which a
       negative one fails too (BFS's fourth launch 25.0-25.4 -> 22.3-22.6 ms,
       CC's later hooks 46.7-49.4 -> 44.4-46.6 ms; bench/results-h100/session50) */
    if (narrow) {
        const uint32_t n32 = p.n < 0x80000000ull ? (uint32_t)p.n : 0x80000000u;
        const bool ok = sizeof(T) == p.elem_size && (uint32_t)i < n32;
        return dream_home_read<T>(p, i, ok, (const T *)p.home + (ok ? (int)(uint32_t)i : 0));
    }
    const bool ok = sizeof(T) == p.elem_size && i < p.n;
    return dream_home_read<T>(p, i, ok, (const T *)(p.home + (ok ? i * sizeof(T) : 0)));
#else
#ifdef DREAM_HINT_RANGES
    if (i - h.lo < h.span) { /* O6: the hint's range */
        const uint8_t *b = (const uint8_t *)h.base;
        __builtin_assume(__isGlobal(b)); /* LDG, not a generic LD (an assume on the element's address is lost) */
        return ((const T *)b)[i - h.lo];
    }
#endif
    if (!dream_access_ok<T>(p, i))
        return T();
    if (dream_at_home(p)) {
#ifdef DREAM_HINT_RANGES
        dream_hint_range<T>(p, h, 0, nullptr, true);
#endif
        const T *q = (const T *)(p.home + i * sizeof(T));
        __builtin_assume(__isGlobal(q)); /* LDG, not a generic LD */
        return *q;
    }
    dream_rt_state *rt = p.rt;
    const uint64_t byte = i * sizeof(T);
    const uint64_t page = byte >> p.page_shift;
    const uint64_t off = byte & ((1ull << p.page_shift) - 1);
    uint64_t *pte = p.pte + page;
    const auto ld = [](T *q) { return dream_ld(q); };
    if (dream_no_evict(p)) {
        uint8_t *b;
        uint64_t e;
        if (dream_o6_hint<T>(p, page, false, h, b, e)) {
            __builtin_assume(__isGlobal(b)); /* LDG, not a generic LD: the frame is in device memory */
            return *(const T *)(b + off);
        }
        const dream_done<T> s = dream_miss_no_evict<T>(p, page, off, false, dream_hint_entry<T>(p, h), e, ld);
        if (s.done) /* O6's miss */
            dream_hint_range<T>(p, h, page, (const uint8_t *)s.base, false);
        dream_exit_if_aborted(rt, s.done);
        return s.v;
    }
    const unsigned mask = dream_group_mask();
    typedef typename dream_bits_t<sizeof(T)>::type B;
    T v = T();
    bool done = false;
    /* O5 with the hint: the thread's last read of this page left the entry
       it validated there (h.base: its second read's value), which stands for
       the first read; the element's address is made from it, so it issues
       after that read returned, as O5 orders it after the first */
    const bool known = h.lo == (uint64_t)pte && dream_pte_state(h.base) == DREAM_PTE_VALID;
    const uint64_t e = known ? h.base : dream_ld_relaxed(pte);
    uint64_t again = 0;
    if (dream_pte_state(e) == DREAM_PTE_VALID) {
        const B b = dream_ld_frame((const B *)(dream_ptr_frame(p, dream_pte_frame(e)) + off));
        again = dream_ld_relaxed(dream_after(pte, b, p.page_shift));
        done = again == e;
        if (done) /* else b may be another page's: never returned */
            memcpy(&v, &b, sizeof(T));
        else
            dream_count(rt, DREAM_C_RETRIES, 1);
    }
    /* the thread's first read of a marked page is made again pinned, which
       reads ahead past it; its later reads there (its hint) are not */
    done = done && !((e & DREAM_PTE_MARK) && h.lo != (uint64_t)pte);
    const bool validated = done;
    if (dream_any(mask, !done)) {
        const dream_done<T> s = dream_access_pinned<T>(p, page, off, mask, !done, false, h.lo, e, DREAM_NO_AHEAD, ld);
        if (s.done) {
            v = s.v;
            done = true;
        }
    }
    h.lo = (uint64_t)pte; /* the entry, for read-ahead, and what the read validated */
    h.base = validated ? again : 0;
    dream_exit_if_aborted(rt, done);
    return v;
#endif
}

/* A span's page without a pin (ptr.cuh, dream_span): its home when the
 * array is at home (O7), else, in a launch that evicts nothing (O6), the
 * frame of its VALID entry, read as an access reads it; null otherwise. A
 * writer marks the page dirty, as an access's first write does. */
__device__ __forceinline__ uint8_t *dream_span_frame(const dream_ptr_abi &p, uint64_t page, bool write)
{
    if (dream_at_home(p)) {
        if (write)
            dream_mark_dirty(p.home_dirty + page);
        return p.home + (page << p.page_shift);
    }
#ifdef DREAM_RESIDENT_KERNEL
    __builtin_unreachable();
#else
    if (!dream_no_evict(p))
        return nullptr;
    uint8_t *b;
    bool whole;
    uint64_t e;
    return dream_o6_page(p, page, write, b, whole, e) ? b : nullptr;
#endif
}

/* Pins the page of element i for the calling lane alone (dream_span): the
 * lanes of one access group (dream_group_mask: the whole warp, or one lane)
 * on one page elect a leader that pins once for all of them, or faults the
 * page in; each lane later releases its own pin with dream_unpin. Returns
 * the frame, or -1 with the error recorded. The one exception to "no lane
 * holds a pin while it waits": in a launch that may evict, a span's pin
 * lives past this call, while its thread waits on anything (its
 * warp-mates' faults, in this very call when the whole warp moves at once),
 * so spans need more frames than the pins held at once; a shortfall ends in
 * a timeout naming the frame wait. In one that evicts nothing (O6) the span
 * drops the pin at once. */
__device__ __noinline__ inline int dream_pin_page(dream_ptr_abi p, uint64_t page)
{
    dream_rt_state *rt = p.rt;
    uint64_t *pte = p.pte + page;
    const unsigned mask = dream_group_mask();
    const dream_lead l = dream_lead_pin(rt, pte, mask);
    int frame = l.frame;
    const bool need = l.lead && frame < 0;
    if (dream_any(mask, need)) {
        const int got = dream_fault(rt, p, page, mask, need, l.e, 0, false, false);
        if (need)
            frame = got;
    }
    if (l.lead && frame >= 0 && __popc(l.peers) > 1) /* the peers' pins, under the leader's */
        atomicAdd(&rt->ref[frame], __popc(l.peers) - 1);
    frame = dream_shfl(mask, frame, l.leader);
    dream_syncwarp(mask); /* the leader's pin (acquire) before the peers' accesses */
    return frame;
}
