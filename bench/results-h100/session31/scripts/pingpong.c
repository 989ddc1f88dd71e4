#include <stdint.h>
/* the host side of a ping-pong: waits for the GPU's value i in *a, answers it in *b */
void serve(volatile uint64_t *a, volatile uint64_t *b, int n)
{
    for (uint64_t i = 1; i <= (uint64_t)n; i++) {
        while (__atomic_load_n(a, __ATOMIC_ACQUIRE) != i)
            __builtin_ia32_pause();
        __atomic_store_n(b, i, __ATOMIC_RELEASE);
    }
}
