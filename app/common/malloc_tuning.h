#pragma once
// Call first thing in main. glibc's malloc returns big freed blocks to the kernel at once (each from mmap, or trimmed
// off the heap), and the next allocation of the same size faults its pages in afresh. QSslSocket allocates and frees
// a buffer the size of what it encrypts (up to the 1 MiB we queue) on every write: a 200 MiB upload over TLS spent
// a fifth of its CPU in page faults, and `send` over https took 1.57 x curl instead of 1.01 x (scripts/bench-e2e).
// Keeping freed memory in the heap makes those allocations reuse warm pages. What is kept is bounded by the peak
// that the limits allow (block pools, socket buffers), not by the size of any upload.

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace upin::app {

inline void keepFreedMemory()
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 32 << 20); // blocks below 32 MiB come from the heap, not mmap
    mallopt(M_TRIM_THRESHOLD, 64 << 20); // and the heap keeps up to 64 MiB free before giving memory back
#endif
}

} // namespace upin::app
