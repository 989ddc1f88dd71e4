/* The runtime's shared layouts: what the Python host writes and the device
 * runtime reads (runtime state, array descriptors, dream_ptr kernel argument,
 * counters, the error record). One source of truth: dream/runtime/abi.py
 * mirrors it and tests/test_abi.py checks the mirror against the offsets the
 * compiler reports (module dream._abi). Plain C so NVRTC, nvcc and g++ agree. */
#pragma once
#include "dream/stdint.h"

/* Page-table entry, one uint64 per virtual page: state in the low two bits,
 * a frame index above them (29 bits), bit 31 a read-ahead mark (VALID only),
 * and in the high 32 bits the page's generation,
 * which each publication of a load increments: an entry read twice is the
 * same only if the page stayed in that frame in between (an optimistic
 * read's check, fault.cuh). Changed only by atomics; fault.cuh gives the
 * protocol.
 *   INVALID            not resident: any leader may claim it
 *   LOADING | frame    claimed by a leader; frame is DREAM_FRAME_NONE until the
 *                      leader holds a frame, then the frame being filled
 *   VALID | frame      resident in frame (| DREAM_PTE_MARK: the first page of
 *                      a read-ahead window, from its load to its eviction)
 *   EVICTING | frame   resident in frame, whose lock holder is writing it back */
#define DREAM_PTE_INVALID 0u
#define DREAM_PTE_LOADING 1u
#define DREAM_PTE_VALID 2u
#define DREAM_PTE_EVICTING 3u
#define DREAM_PTE_STATE_MASK 3u
#define DREAM_PTE_FRAME_SHIFT 2
/* the generation (the top 32 bits) counts a page's loads, wrapping */
#define DREAM_PTE_GEN_SHIFT 32
#define DREAM_FRAME_NONE ((1u << 29) - 1u)
#define DREAM_MAX_FRAMES DREAM_FRAME_NONE
/* VALID only, above the frame: the page starts a read-ahead window; an
 * access that reads the entry reads ahead past it (fault.cuh, read-ahead) */
#define DREAM_PTE_MARK (1u << 31)

/* Frame reference count: the number of warp groups pinning the frame, plus
 * DREAM_REF_LOCKED while a leader holds the frame to evict and refill it.
 * Additive, so racing pin/unpin pairs cancel out; a frame is locked only
 * when it is 0. */
#define DREAM_REF_LOCKED (-0x40000000)

/* Frame owner: (array slot, page), or none. */
#define DREAM_OWNER_NONE 0xFFFFFFFFFFFFFFFFull
#define DREAM_OWNER_PAGE_BITS 40
#define DREAM_MAX_SLOTS (1u << 23)

/* The direct backend's device state (rt->transport): this many uint32 locks,
 * zeroed by the host, over its lone lanes' staging slots (direct.cuh). */
#define DREAM_DIRECT_LOCKS 16384u

/* Error codes in dream_error.code (first error wins; count counts all). */
#define DREAM_ERR_NONE 0u
#define DREAM_ERR_BOUNDS 1u    /* index outside the array */
#define DREAM_ERR_TYPE 2u      /* dream_ptr<T> with sizeof(T) != element size */
#define DREAM_ERR_TIMEOUT 3u   /* a bounded wait ran out */
#define DREAM_ERR_TRANSPORT 4u /* the transport completed a request with an error */
#define DREAM_ERR_PROTOCOL 5u  /* a frame's owner and its page's entry disagree (a dream bug) */

/* What a timed-out wait was waiting for (dream_error.where). */
#define DREAM_WAIT_NONE 0u
#define DREAM_WAIT_PAGE 1u       /* another leader's load of the same page (or its wait for a frame) */
#define DREAM_WAIT_FRAME 2u      /* a frame with no pins */
#define DREAM_WAIT_QUEUE 3u      /* a free queue slot */
#define DREAM_WAIT_COMPLETION 4u /* the completion of a posted request */

/* Counters, DREAM_NCOUNTERS uint64 per shard; shards spread atomics over SMs.
 * Accesses that find their page resident are not counted: a count per
 * access would cost more than the access. */
#define DREAM_C_FAULTS 0      /* warp-group accesses that found the page absent */
#define DREAM_C_PAGES_IN 1    /* pages loaded into frames */
#define DREAM_C_EVICTIONS 2   /* resident pages dropped from their frame */
#define DREAM_C_WRITEBACKS 3  /* dirty frames written to the backing store */
#define DREAM_C_BYTES_IN 4
#define DREAM_C_BYTES_OUT 5
#define DREAM_C_WAIT_NS 6     /* time warp groups spent resolving faults */
#define DREAM_C_DOORBELLS 7   /* doorbell writes (queue transports) */
#define DREAM_C_REQUESTS 8    /* transport requests posted */
#define DREAM_C_FRAME_SKIPS 9 /* ring frames skipped: pinned, locked or young (fault.cuh) */
#define DREAM_C_COALESCED 10  /* faults served by another warp's load */
#define DREAM_C_RETRIES 11    /* optimistic reads whose page moved under them */
/* -DDREAM_VERIFY only: pinned accesses that found, after the access, their
   frame owned by another page, or not pinned (fault.cuh) */
#define DREAM_C_VERIFY_OWNER 12
#define DREAM_C_VERIFY_PIN 13
#define DREAM_C_AHEAD 14    /* pages loaded ahead of a fault (fault.cuh, read-ahead); in PAGES_IN too */
#define DREAM_C_GATHERED 15 /* pages a fault loaded for the other lanes of its warp's access (fault.cuh,
                               gather); in PAGES_IN too */
#define DREAM_C_WHOLE 16    /* accesses that found their array whole at home mid-launch, its dream_ptr copy
                               going home from then on (fault.cuh, O8) */
#define DREAM_NCOUNTERS 17
#define DREAM_COUNTER_SHARDS 256

typedef struct dream_array_desc {
    uint64_t *pte;      /* n_pages entries, device memory */
    uint64_t n_elems;
    uint64_t n_pages;
    uint64_t backing;   /* direct: device-visible pinned host address of page 0;
                           rnic: remote address of page 0; nvme: byte offset in
                           the namespace */
    uint32_t key;       /* rnic: rkey of the backing region; nvme: namespace id */
    uint32_t elem_size;
    uint32_t slot;      /* index of this descriptor in dream_rt_state.arrays */
    uint32_t flags;     /* DREAM_ARRAY_* */
    uint64_t at_home;   /* pages VALID in their home frame (device-counted) */
    uint32_t home_frame; /* DREAM_ARRAY_HOME: page p's home is frame home_frame + p */
    uint32_t pad;
} dream_array_desc;

/* The host gave the array homes: consecutive frames of its own, one per page,
 * disjoint from other arrays' homes, kept while the array lives. A load
 * while the ring holds every array (DREAM_PTR_NO_EVICT) takes the page's home
 * when it is free; at_home counts the pages VALID there, whichever mode
 * loaded them (fault.cuh, O7). */
#define DREAM_ARRAY_HOME 1u

typedef struct dream_error {
    uint32_t code;
    uint32_t count;
    uint32_t slot;
    uint32_t where;
    uint64_t index;
    uint64_t page;
    uint32_t block[3];
    uint32_t thread[3];
    uint32_t detail[4]; /* transport: status/syndrome, queue, slot/wqe index, opcode */
} dream_error;

/* The resident build's record of a failed access (fault.cuh,
 * dream_access_ok): the variable dream_resident_failure of the kernel's own
 * module, zero until an access fails, read and cleared by the host after
 * the launch, written by one 16-byte store; of threads failing together,
 * the last store stands. A wrong index has its block field (block + 1)
 * nonzero; a wrong element type has it zero, and `index` is sizeof(T). */
typedef struct dream_resident_fail {
    uint64_t index; /* the element index, or sizeof(T) for a wrong type */
    uint64_t where; /* slot | thread << DREAM_RFAIL_THREAD_SHIFT | (block + 1) << DREAM_RFAIL_BLOCK_SHIFT:
                       thread linear in its block, block linear in the grid (at most DREAM_RFAIL_BLOCK_MAX);
                       the slot alone for a wrong type */
} dream_resident_fail;
#define DREAM_RFAIL_THREAD_SHIFT 23
#define DREAM_RFAIL_BLOCK_SHIFT 33
#define DREAM_RFAIL_BLOCK_MAX 0x7FFFFFFEull /* a later block is recorded as this one */

typedef struct dream_rt_state {
    uint8_t *frames;          /* nframes << page_shift bytes */
    int32_t *ref;             /* per frame */
    uint64_t *owner;          /* per frame */
    uint32_t *dirty;          /* per frame */
    uint32_t *loaded;         /* per frame: when its page was loaded, in 1.024 us ticks (fault.cuh, ring) */
    dream_array_desc *arrays; /* by slot */
    uint64_t *counters;       /* DREAM_COUNTER_SHARDS x DREAM_NCOUNTERS */
    dream_error *error;
    void *transport;          /* the backend's device state */
    uint64_t nframes;
    uint64_t timeout_ns;      /* bound on every device-side wait */
    uint64_t head;            /* FIFO cursor of the frame ring */
    uint32_t page_shift;
    uint32_t abort;           /* set on a timeout or a protocol error: every wait gives up */
    uint32_t n_slots;
    uint32_t pad;
} dream_rt_state;

/* The kernel argument behind every dream_ptr<T>, passed by value. */
typedef struct dream_ptr_abi {
    dream_rt_state *rt;
    uint64_t *pte;
    uint64_t n;
    uint32_t page_shift;
    uint32_t slot;
    uint32_t elem_size;
    uint32_t flags;      /* DREAM_PTR_*, set by the host for each launch */
    /* with DREAM_PTR_NO_EVICT, for an array with homes (fault.cuh, O7; else
     * null): page p's home frame is at home + (p << page_shift), its dirty
     * flag at home_dirty[p] (an address, not a frame index: the first write
     * to a page then stores without first loading rt->dirty, which made a
     * warp's life, and vector add, 1.4x longer), and a fault takes the home
     * without loading the array's descriptor */
    uint8_t *home;
    uint32_t *home_dirty;
    /* the ring's base (rt->frames), so that O6 makes a frame's address from
     * its entry without a load of rt issued after it */
    uint8_t *frames;
    /* the array's backing (dream_array_desc.backing), so that a lone fault's
     * claim (fault.cuh, dream_fault_lone) waits for no load of the page's
     * address through rt (rt->arrays, then the descriptor) */
    uint64_t backing;
    /* with `home`: the array's count of pages at home (its dream_array_desc's
     * at_home), which an access reads to find the array whole there
     * (fault.cuh, O8) without loading rt->arrays first */
    const uint64_t *at_home;
} dream_ptr_abi;

/* Read-ahead (fault.cuh, dream_fault): the most pages a fault loads ahead
 * (one per other lane of the warp), and the largest stride (in pages)
 * between a thread's accesses that it follows. */
#define DREAM_AHEAD_MAX 31
#define DREAM_AHEAD_STRIDE 64

/* The ring has a frame for every page of the runtime's arrays: no frame is
 * reused while the kernel runs (fault.cuh, O6). */
#define DREAM_PTR_NO_EVICT 1u
/* With DREAM_PTR_NO_EVICT: every page of this array is VALID in its home, so
 * accesses go there (fault.cuh, O7). */
#define DREAM_PTR_AT_HOME 2u
/* The launch's read-ahead depth d (bits 16-20 of flags; 0: none): a fault
 * may load d pages besides its own, ahead of a stream or gathered for the
 * warp's other lanes (fault.cuh, dream_fault). DREAM_AHEAD_MAX in every
 * launch under DREAM_PTR_NO_EVICT (such loads take only free frames there);
 * in a launch that evicts, the largest d <= DREAM_AHEAD_MAX with 2 * (d + 1)
 * frames for each warp it can hold at once. There a fault reads ahead only
 * for a warp that moves as one stream (all its lanes on the page), and the
 * pages it gathers are the next ones its own access takes, so a warp has
 * about d + 1 such pages loaded and not yet used (at most 2d + 1: a
 * stream's read-ahead left over while it gathers), all warps together
 * about half the ring. A sequence of warps (a thread per element: fault.cuh,
 * dream_ahead_stride) reads ahead for the warps after it, which may not have
 * started yet: still d pages a fault, but such a page may be evicted before
 * its warp comes, which costs a second load, never a wrong one. Deeper is
 * better for a stream: a fault costs its protocol's round trips once for its
 * d + 1 pages. */
#define DREAM_PTR_AHEAD_SHIFT 16
#define DREAM_PTR_AHEAD_MASK 0x1Fu

/* An access's translation hint: one thread's copy of a dream_ptr<T> keeps
 * it (fault.cuh, O6). In a launch that evicts nothing it holds a range of
 * elements whose place is known: element i, lo <= i < lo + span, is at
 * base + (i - lo) * sizeof(T) (a page in its frame, or the whole array at home:
 * O7, O8); span 0 holds none, as the host's zeros do. A range lies inside
 * the array and is set by an access of the copy's own T, so an access in it
 * needs no other check. `dirty` is 1 + the last page this copy marked dirty
 * (0: none). In a launch that evicts, span stays 0: `lo` is the address of
 * the last entry an access found VALID, `base` the entry value an optimistic
 * read validated there (O5), or 0. The entry gives a fault the stride to
 * read ahead by. */
typedef struct dream_hint {
    uint64_t lo;
    uint64_t span;
    uint64_t base;
    uint64_t dirty;
} dream_hint;

/* What a dream_ptr<T> kernel parameter is: the array's argument, then a hint
 * the host passes as zeros; each thread's copy then keeps its own. */
typedef struct dream_ptr_arg {
    dream_ptr_abi abi;
    dream_hint hint;
} dream_ptr_arg;

DREAM_STATIC_ASSERT(sizeof(void *) == 8, "64-bit only");
DREAM_STATIC_ASSERT(DREAM_PTE_GEN_SHIFT == 32, "a generation is the entry's top 32 bits");
DREAM_STATIC_ASSERT(((uint64_t)DREAM_FRAME_NONE << DREAM_PTE_FRAME_SHIFT) < DREAM_PTE_MARK,
                    "the mark is above the frame");
DREAM_STATIC_ASSERT(DREAM_AHEAD_MAX <= DREAM_PTR_AHEAD_MASK && DREAM_AHEAD_MAX < 32, "a depth fits flags and a warp");
DREAM_STATIC_ASSERT(sizeof(dream_array_desc) == 64, "dream_array_desc");
DREAM_CHECK_OFFSET(dream_array_desc, at_home, 48);
DREAM_CHECK_OFFSET(dream_array_desc, backing, 24);
DREAM_CHECK_OFFSET(dream_array_desc, key, 32);
DREAM_CHECK_OFFSET(dream_array_desc, slot, 40);
DREAM_STATIC_ASSERT(sizeof(dream_error) == 72, "dream_error");
DREAM_CHECK_OFFSET(dream_error, index, 16);
DREAM_CHECK_OFFSET(dream_error, block, 32);
DREAM_CHECK_OFFSET(dream_error, detail, 56);
DREAM_STATIC_ASSERT(sizeof(dream_resident_fail) == 16, "dream_resident_fail: one 16-byte store");
DREAM_CHECK_OFFSET(dream_resident_fail, where, 8);
DREAM_STATIC_ASSERT(DREAM_RFAIL_THREAD_SHIFT >= 23 && (1u << 23) >= DREAM_MAX_SLOTS &&
                        DREAM_RFAIL_BLOCK_SHIFT - DREAM_RFAIL_THREAD_SHIFT == 10 &&
                        (DREAM_RFAIL_BLOCK_MAX + 1) >> (64 - DREAM_RFAIL_BLOCK_SHIFT) == 0,
                    "slot, thread (1024 a block) and block + 1 fill `where`");
DREAM_STATIC_ASSERT(sizeof(dream_rt_state) == 112, "dream_rt_state");
DREAM_CHECK_OFFSET(dream_rt_state, loaded, 32);
DREAM_CHECK_OFFSET(dream_rt_state, nframes, 72);
DREAM_CHECK_OFFSET(dream_rt_state, head, 88);
DREAM_CHECK_OFFSET(dream_rt_state, page_shift, 96);
DREAM_STATIC_ASSERT(sizeof(dream_ptr_abi) == 80, "dream_ptr_abi");
DREAM_CHECK_OFFSET(dream_ptr_abi, n, 16);
DREAM_CHECK_OFFSET(dream_ptr_abi, elem_size, 32);
DREAM_CHECK_OFFSET(dream_ptr_abi, home, 40);
DREAM_CHECK_OFFSET(dream_ptr_abi, frames, 56);
DREAM_CHECK_OFFSET(dream_ptr_abi, backing, 64);
DREAM_CHECK_OFFSET(dream_ptr_abi, at_home, 72);
DREAM_STATIC_ASSERT(sizeof(dream_ptr_arg) == 112, "dream_ptr_arg");
DREAM_CHECK_OFFSET(dream_ptr_arg, hint, 80);
