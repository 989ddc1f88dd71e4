// dream._abi: the compiler's view of abi.h and copier.h (sizes, offsets,
// constants), so that tests/test_abi.py and tests/test_copier.py can check
// the Python mirrors field by field.
#include <pybind11/pybind11.h>
#include <cstddef>
#include "dream/abi.h"
#include "dream/copier.h"
#include "mirror.h"

namespace py = pybind11;

PYBIND11_MODULE(_abi, m)
{
    py::dict layouts;
    STRUCT(dream_array_desc, FIELD(dream_array_desc, pte); FIELD(dream_array_desc, n_elems);
           FIELD(dream_array_desc, n_pages); FIELD(dream_array_desc, backing);
           FIELD(dream_array_desc, key); FIELD(dream_array_desc, elem_size);
           FIELD(dream_array_desc, slot); FIELD(dream_array_desc, flags); FIELD(dream_array_desc, at_home);
           FIELD(dream_array_desc, home_frame); FIELD(dream_array_desc, pad));
    STRUCT(dream_error, FIELD(dream_error, code); FIELD(dream_error, count); FIELD(dream_error, slot);
           FIELD(dream_error, where); FIELD(dream_error, index); FIELD(dream_error, page);
           FIELD(dream_error, block); FIELD(dream_error, thread); FIELD(dream_error, detail));
    STRUCT(dream_resident_fail, FIELD(dream_resident_fail, index); FIELD(dream_resident_fail, where));
    STRUCT(dream_rt_state, FIELD(dream_rt_state, frames); FIELD(dream_rt_state, ref);
           FIELD(dream_rt_state, owner); FIELD(dream_rt_state, dirty); FIELD(dream_rt_state, loaded);
           FIELD(dream_rt_state, arrays);
           FIELD(dream_rt_state, counters); FIELD(dream_rt_state, error);
           FIELD(dream_rt_state, transport); FIELD(dream_rt_state, nframes);
           FIELD(dream_rt_state, timeout_ns); FIELD(dream_rt_state, head);
           FIELD(dream_rt_state, page_shift); FIELD(dream_rt_state, abort);
           FIELD(dream_rt_state, n_slots); FIELD(dream_rt_state, pad));
    STRUCT(dream_ptr_abi, FIELD(dream_ptr_abi, rt); FIELD(dream_ptr_abi, pte); FIELD(dream_ptr_abi, n);
           FIELD(dream_ptr_abi, page_shift); FIELD(dream_ptr_abi, slot);
           FIELD(dream_ptr_abi, elem_size); FIELD(dream_ptr_abi, flags); FIELD(dream_ptr_abi, home);
           FIELD(dream_ptr_abi, home_dirty); FIELD(dream_ptr_abi, frames); FIELD(dream_ptr_abi, backing);
           FIELD(dream_ptr_abi, at_home));
    STRUCT(dream_hint, FIELD(dream_hint, lo); FIELD(dream_hint, span); FIELD(dream_hint, base); FIELD(dream_hint, dirty));
    STRUCT(dream_ptr_arg, FIELD(dream_ptr_arg, abi); FIELD(dream_ptr_arg, hint));
    STRUCT(dream_copy_desc, FIELD(dream_copy_desc, src); FIELD(dream_copy_desc, dst);
           FIELD(dream_copy_desc, len); FIELD(dream_copy_desc, pad));
    STRUCT(dream_copy_ring, FIELD(dream_copy_ring, posted); FIELD(dream_copy_ring, pad0);
           FIELD(dream_copy_ring, consumed); FIELD(dream_copy_ring, pad1); FIELD(dream_copy_ring, ends);
           FIELD(dream_copy_ring, desc));
    STRUCT(dream_copier_ctl, FIELD(dream_copier_ctl, started); FIELD(dream_copier_ctl, stop);
           FIELD(dream_copier_ctl, expired); FIELD(dream_copier_ctl, pad));
    m.attr("layouts") = layouts;

    py::dict c;
    CONST(DREAM_PTE_INVALID); CONST(DREAM_PTE_LOADING); CONST(DREAM_PTE_VALID);
    CONST(DREAM_PTE_EVICTING); CONST(DREAM_FRAME_NONE);
    CONST(DREAM_PTE_STATE_MASK); CONST(DREAM_PTE_FRAME_SHIFT); CONST(DREAM_PTE_MARK); CONST(DREAM_PTE_GEN_SHIFT); CONST(DREAM_MAX_FRAMES);
    CONST(DREAM_REF_LOCKED); CONST(DREAM_PTR_NO_EVICT); CONST(DREAM_PTR_AT_HOME); CONST(DREAM_PTR_AHEAD_SHIFT); CONST(DREAM_PTR_AHEAD_MASK); CONST(DREAM_ARRAY_HOME); CONST(DREAM_AHEAD_MAX); CONST(DREAM_AHEAD_STRIDE);
    CONST(DREAM_OWNER_PAGE_BITS); CONST(DREAM_MAX_SLOTS);
    CONST(DREAM_ERR_NONE); CONST(DREAM_ERR_BOUNDS); CONST(DREAM_ERR_TYPE);
    CONST(DREAM_ERR_TIMEOUT); CONST(DREAM_ERR_TRANSPORT); CONST(DREAM_ERR_PROTOCOL);
    CONST(DREAM_RFAIL_THREAD_SHIFT); CONST(DREAM_RFAIL_BLOCK_SHIFT); CONST(DREAM_RFAIL_BLOCK_MAX);
    CONST(DREAM_WAIT_NONE); CONST(DREAM_WAIT_PAGE); CONST(DREAM_WAIT_FRAME);
    CONST(DREAM_WAIT_QUEUE); CONST(DREAM_WAIT_COMPLETION);
    CONST(DREAM_C_FAULTS); CONST(DREAM_C_PAGES_IN); CONST(DREAM_C_EVICTIONS);
    CONST(DREAM_C_WRITEBACKS); CONST(DREAM_C_BYTES_IN); CONST(DREAM_C_BYTES_OUT);
    CONST(DREAM_C_WAIT_NS); CONST(DREAM_C_DOORBELLS); CONST(DREAM_C_REQUESTS);
    CONST(DREAM_C_FRAME_SKIPS); CONST(DREAM_C_COALESCED); CONST(DREAM_C_RETRIES);
    CONST(DREAM_C_VERIFY_OWNER);
    CONST(DREAM_C_VERIFY_PIN); CONST(DREAM_C_AHEAD); CONST(DREAM_C_GATHERED); CONST(DREAM_C_WHOLE);
    CONST(DREAM_NCOUNTERS);
    CONST(DREAM_COUNTER_SHARDS); CONST(DREAM_DIRECT_LOCKS);
    py::dict copier;
    {
        py::dict &c = copier;
        CONST(DREAM_COPIER_SLOTS); CONST(DREAM_COPIER_BATCHES); CONST(DREAM_COPIER_CHUNK);
        CONST(DREAM_COPIER_THREADS); CONST(DREAM_COPIER_STAGE); CONST(DREAM_COPIER_STAGE_BYTES);
    }
    m.attr("copier_constants") = copier;
    c["DREAM_OWNER_NONE"] = py::int_((unsigned long long)DREAM_OWNER_NONE);
    m.attr("constants") = c;
}
