// SIMD substring search: compare 32 (AVX2) or 16 (SSE2) candidate start positions at once against the pattern's
// first byte and, shifted by m-1, its last byte; only positions where both agree are verified with memcmp.
// Written by hand because no packaged library offers a streaming-friendly SIMD search with this contract; the
// technique is Wojciech Mula's "SIMD-friendly algorithms for substring searching".
// Dispatch is at run time (no -march=native), so one binary runs on any x86-64 and uses AVX2 where present.
// On other processors only the scalar search is compiled, and serves.

#include "upin/core/delimiter_matcher.h"

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) // SSE2 is part of x86-64; 32-bit x86 builds take the scalar path
#define UPIN_X86_SIMD 1
#include <immintrin.h>
#endif

namespace upin::core {
namespace detail {
namespace {

// The scalar search: memchr for the first byte, then compare the rest. It also finishes the last few positions
// that do not fill a vector.
size_t scalarFind(const char* text, size_t size, std::string_view p, size_t from)
{
    const size_t m = p.size();
    while (from + m <= size) {
        auto* hit = static_cast<const char*>(std::memchr(text + from, p[0], size - from - m + 1));
        if (hit == nullptr)
            break;
        const auto i = static_cast<size_t>(hit - text);
        if (std::memcmp(hit + 1, p.data() + 1, m - 1) == 0)
            return i;
        from = i + 1;
    }
    return std::string_view::npos;
}

#ifdef UPIN_X86_SIMD

bool verify(const char* at, std::string_view p)
{
    // first and last byte already agree
    return p.size() <= 2 || std::memcmp(at + 1, p.data() + 1, p.size() - 2) == 0;
}

// Bit i set: text[i] equals the first byte and text[i + m - 1] the last one, for 32 positions.
// lastBytes is b + m - 1: the loop below keeps a pointer for each of the two streams, where offsets from one
// pointer were three values GCC kept on the stack and reloaded every 128 bytes.
__attribute__((target("avx2"))) inline uint32_t candidatesAvx2(const char* b, const char* lastBytes, __m256i first,
                                                               __m256i last)
{
    __m256i f = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
    __m256i l = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lastBytes));
    return static_cast<uint32_t>(
        _mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpeq_epi8(f, first), _mm256_cmpeq_epi8(l, last))));
}

// The bytes between the first and the last, checked whole in two 32-byte compares that may overlap, for patterns
// of 34 to 66 bytes: every browser's and HTTP library's delimiter. Content dense in near misses (the delimiter with
// one byte changed) makes a candidate every few dozen bytes, and a memcmp call for each cost 4x the filter.
struct InnerBytes {
    __m256i head; // pattern bytes 1..32
    __m256i tail; // the 32 bytes before the last
    size_t tailAt = 0;
    bool usable = false;
};

__attribute__((target("avx2"))) InnerBytes innerBytes(std::string_view p)
{
    InnerBytes inner{};
    const size_t inside = p.size() - 2;
    if (inside < 32 || inside > 64)
        return inner;
    inner.head = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p.data() + 1));
    inner.tailAt = p.size() - 1 - 32;
    inner.tail = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p.data() + inner.tailAt));
    inner.usable = true;
    return inner;
}

__attribute__((target("avx2"))) inline bool verifyAvx2(const char* at, std::string_view p, const InnerBytes& inner)
{
    if (!inner.usable)
        return verify(at, p);
    const __m256i head = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at + 1));
    const __m256i tail = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at + inner.tailAt));
    const __m256i same = _mm256_and_si256(_mm256_cmpeq_epi8(head, inner.head), _mm256_cmpeq_epi8(tail, inner.tail));
    return static_cast<uint32_t>(_mm256_movemask_epi8(same)) == 0xFFFFFFFFu;
}

// Whether the lowest two candidates of a 64-position mask match, or there are more than two: verified without a
// branch per candidate. Content dense in near misses has one or two candidates in most 64 bytes, at random; a loop
// over them mispredicted its exit nearly every time. This took `bench --input nearmiss` from 0.30x to 0.60x of
// memchr (7.8 -> 15.4 GB/s, one sitting); checking only bytes 1..32 here was as fast where the change fell there
// and no faster than the loop where it fell after. With no candidate left, the top bit stands in for one: it is
// checked and ignored.
__attribute__((target("avx2"))) inline bool needsLook(const char* s, uint64_t mask, std::string_view p,
                                                      const InnerBytes& inner)
{
    constexpr uint64_t kStandIn = uint64_t{1} << 63;
    const uint64_t rest = mask & (mask - 1);
    const bool first = verifyAvx2(s + __builtin_ctzll(mask | kStandIn), p, inner) & (mask != 0);
    const bool second = verifyAvx2(s + __builtin_ctzll(rest | kStandIn), p, inner) & (rest != 0);
    return first | second | ((rest & (rest - 1)) != 0);
}

__attribute__((target("avx2"))) size_t findAvx2(const char* text, size_t size, std::string_view p, size_t from)
{
    const size_t m = p.size();
    const __m256i first = _mm256_set1_epi8(p[0]);
    const __m256i last = _mm256_set1_epi8(p[m - 1]);
    const InnerBytes inner = innerBytes(p);
    size_t i = from;
    // 128 positions per round: four independent vectors keep more loads in flight, and one test of their OR
    // keeps the common no-candidate path to a single branch.
    for (; i + m - 1 + 128 <= size; i += 128) {
        const char* s = text + i;
        const char* e = s + m - 1;
        _mm_prefetch(s + 1024, _MM_HINT_T0); // a few lines ahead: the stream usually comes from memory
        _mm_prefetch(s + 1088, _MM_HINT_T0);
        uint32_t m0 = candidatesAvx2(s, e, first, last), m1 = candidatesAvx2(s + 32, e + 32, first, last);
        uint32_t m2 = candidatesAvx2(s + 64, e + 64, first, last), m3 = candidatesAvx2(s + 96, e + 96, first, last);
        if ((m0 | m1 | m2 | m3) == 0)
            continue;
        const uint64_t low = uint64_t(m0) | (uint64_t(m1) << 32), high = uint64_t(m2) | (uint64_t(m3) << 32);
        // Both halves checked, then one branch: int, not bool, so that neither check waits on the other's result.
        if (inner.usable && (int(needsLook(s, low, p, inner)) | int(needsLook(s + 64, high, p, inner))) == 0)
            continue;
        for (uint64_t mask : {low, high}) {
            while (mask) {
                unsigned bit = static_cast<unsigned>(__builtin_ctzll(mask));
                if (verifyAvx2(s + bit, p, inner))
                    return i + bit;
                mask &= mask - 1;
            }
            s += 64;
            i += 64;
        }
        i -= 128;
    }
    return scalarFind(text, size, p, i);
}

size_t findSse2(const char* text, size_t size, std::string_view p, size_t from)
{
    const size_t m = p.size();
    const __m128i first = _mm_set1_epi8(p[0]);
    const __m128i last = _mm_set1_epi8(p[m - 1]);
    size_t i = from;
    for (; i + m - 1 + 16 <= size; i += 16) {
        __m128i f = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text + i));
        __m128i l = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text + i + m - 1));
        auto mask =
            static_cast<uint32_t>(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(f, first), _mm_cmpeq_epi8(l, last))));
        while (mask) {
            unsigned bit = static_cast<unsigned>(__builtin_ctz(mask));
            if (verify(text + i + bit, p))
                return i + bit;
            mask &= mask - 1;
        }
    }
    return scalarFind(text, size, p, i);
}

#endif // UPIN_X86_SIMD

SimdLevel bestSupportedLevel()
{
#ifdef UPIN_X86_SIMD
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        return SimdLevel::Avx2;
    return __builtin_cpu_supports("sse2") ? SimdLevel::Sse2 : SimdLevel::Scalar;
#else
    return SimdLevel::Scalar;
#endif
}

SimdLevel chooseLevel()
{
    SimdLevel level = bestSupportedLevel();
    const char* wanted = std::getenv("UPIN_SIMD");
    if (auto cap = kSimdLevelNames.find(wanted ? wanted : ""); cap && *cap < level)
        level = *cap;
    return level;
}

using FindFn = size_t (*)(const char*, size_t, std::string_view, size_t);

FindFn findFor(SimdLevel level)
{
#ifdef UPIN_X86_SIMD
    if (level == SimdLevel::Avx2)
        return findAvx2;
    if (level == SimdLevel::Sse2)
        return findSse2;
#endif
    (void)level;
    return scalarFind;
}

struct Selection {
    SimdLevel level;
    FindFn find;
};

// A function-local static, so that a caller during another file's static initialisation still sees it set.
const Selection& selection()
{
    static const Selection chosen = [] {
        const SimdLevel level = chooseLevel();
        return Selection{level, findFor(level)};
    }();
    return chosen;
}

} // namespace

size_t simdFind(const char* text, size_t size, std::string_view pattern, size_t from)
{
    if (pattern.size() == 1) {
        if (from >= size)
            return std::string_view::npos;
        auto* hit = static_cast<const char*>(std::memchr(text + from, pattern[0], size - from));
        return hit ? static_cast<size_t>(hit - text) : std::string_view::npos;
    }
    return selection().find(text, size, pattern, from);
}

} // namespace detail

SimdLevel simdLevel()
{
    return detail::selection().level;
}

} // namespace upin::core
