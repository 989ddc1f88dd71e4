/* The dream device runtime: include this (the runtime does, ahead of every
 * user kernel) and take dream_ptr<T> arguments. The transport is chosen when
 * the runtime compiles the slow paths (-DDREAM_BACKEND_<NAME>); kernel sources
 * do not change between backends. */
#pragma once
#include "dream/abi.h"
#include "dream/sync.cuh"
#include "dream/transport.cuh"
#if defined(DREAM_BACKEND_DIRECT)
#include "dream/direct.cuh"
#elif defined(DREAM_BACKEND_RNIC)
#include "dream/rnic.cuh"
#elif defined(DREAM_BACKEND_NVME)
#include "dream/nvme.cuh"
#elif defined(DREAM_FAULT_LINKED)
/* A user kernel's own module (compile.py, link_kernel) needs no backend: its
   slow paths are linked from the backend's module, and nothing else it
   compiles calls a transport, so one build of it serves every backend. */
#else
#error "define DREAM_BACKEND_DIRECT, DREAM_BACKEND_RNIC or DREAM_BACKEND_NVME"
#endif
#include "dream/fault.cuh"
#include "dream/ptr.cuh"
