/* Fixed-width integers for headers shared by NVRTC device code and host C++.
 * NVRTC ships no <stdint.h>; everything else gets the real one. */
#pragma once
#if defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#else
#include <stddef.h>
#include <stdint.h>
#endif

#if defined(__cplusplus)
#define DREAM_STATIC_ASSERT(c, m) static_assert(c, m)
#else
#define DREAM_STATIC_ASSERT(c, m) _Static_assert(c, m)
#endif
/* NVRTC has no offsetof: offsets are checked where the header meets nvcc and
 * g++ (the host engines and tests compile every header). */
#if defined(__CUDACC_RTC__)
#define DREAM_CHECK_OFFSET(t, f, v)
#else
#define DREAM_CHECK_OFFSET(t, f, v) DREAM_STATIC_ASSERT(offsetof(t, f) == (v), #t "." #f)
#endif
