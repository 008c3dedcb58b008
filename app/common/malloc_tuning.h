#pragma once
// Call first thing in main. glibc's malloc returns big freed blocks to the kernel at once (each from mmap, or trimmed
// off the heap), and the next allocation of the same size faults its pages in afresh. QSslSocket allocates and frees
// a buffer the size of what it encrypts (up to the 1 MiB we queue) on every write: a 200 MiB upload over TLS spent
// a fifth of its CPU in page faults, and `send` over https took 1.57 x curl instead of 1.01 x (scripts/bench-e2e).
// The same held for a form of 10,000 fields: its report's parts (2.9 MB, reserved at once) came from mmap, and the
// page faults of filling them were 40% of the listener's time; /part-event took 20 ms by curl's clock, 7 ms once
// they came from the heap.
// Blocks up to 4 MiB now come from the heap, and each heap keeps up to 8 MiB free at its top for the next one:
// enough for those (2 and 4 MiB gave back half the gain on /file-part and /capture, 8 and 16 MiB no more than this),
// little enough that a listener that built big answers gives the memory back (a review measured 64 MiB kept per heap
// holding on to 35 MiB more; this keeps about 18 MiB more than 2 and 4 MiB did after a run of such forms).
#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace upin::app {

inline void keepFreedMemory()
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 4 << 20); // blocks up to 4 MiB come from the heap, not mmap
    mallopt(M_TRIM_THRESHOLD, 8 << 20); // and a heap keeps up to 8 MiB free at its top
#endif
}

} // namespace upin::app
