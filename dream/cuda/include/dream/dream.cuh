/* The dream device runtime: include this (the runtime does, ahead of every
 * user kernel) and take dream_ptr<T> arguments. The transport is chosen when
 * the runtime compiles the kernel (-DDREAM_BACKEND_<NAME>); kernel sources do
 * not change between backends. */
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
#else
#error "define DREAM_BACKEND_DIRECT, DREAM_BACKEND_RNIC or DREAM_BACKEND_NVME"
#endif
#include "dream/fault.cuh"
#include "dream/ptr.cuh"
