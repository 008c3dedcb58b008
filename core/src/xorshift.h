#pragma once
// xorshift64: deterministic pseudo-random numbers, several GB/s, no allocation. For generated test content (the
// bench's bodies, the probe's shapes), never for anything secret.

#include <cstdint>

namespace upin::core::detail {

struct XorShift64 {
    uint64_t state;
    uint64_t next()
    {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    }
};

} // namespace upin::core::detail
