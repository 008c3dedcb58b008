#pragma once
// Streaming search for one delimiter across a sequence of chunks.
//
// The matcher never copies or buffers input. When a chunk ends with a partial match, it only remembers how many
// bytes of the pattern were matched ("held"): those bytes are, by definition, the pattern's own prefix, so a caller
// that later learns they were data can re-emit them from pattern() instead of from a buffer.
//
// Strategies differ only in how they look for a full occurrence inside one chunk; the carry-over across chunk edges
// and the held tail are shared code, so every strategy reports identical positions for every chunking.

#include "upin/core/enum_names.h"
#include "upin/core/errors.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace upin::core {

enum class MatcherKind : uint8_t {
    Kmp,     // byte-at-a-time Knuth-Morris-Pratt: how Spring's matcher worked before the fix; the baseline
    Chunked, // memchr for the delimiter's last byte, then verify: the proposed Spring fix, done correctly
    Simd,    // SIMD filter on the first and last byte (AVX2, SSE2 or scalar: see simdLevel()); the default
};

inline constexpr EnumNames<MatcherKind, 3> kMatcherNames{
    {{{MatcherKind::Kmp, "kmp"}, {MatcherKind::Chunked, "chunked"}, {MatcherKind::Simd, "simd"}}}};
inline constexpr auto kAllMatchers = kMatcherNames.values();
inline constexpr MatcherKind kDefaultMatcher = MatcherKind::Simd; // when a request or command names none
inline std::string_view matcherName(MatcherKind kind)
{
    return kMatcherNames.name(kind);
}
inline std::optional<MatcherKind> matcherFromName(std::string_view name)
{
    return kMatcherNames.find(name);
}

// The instruction set the simd matcher uses: the best this CPU has (scalar on non-x86 builds), capped by the
// environment variable UPIN_SIMD ("avx2", "sse2" or "scalar") when it is set. Read once, at the first call, and
// fixed for the life of the process: the tests run every code path on one machine by setting it per test run.
enum class SimdLevel : uint8_t { Scalar, Sse2, Avx2 };
inline constexpr EnumNames<SimdLevel, 3> kSimdLevelNames{
    {{{SimdLevel::Scalar, "scalar"}, {SimdLevel::Sse2, "sse2"}, {SimdLevel::Avx2, "avx2"}}}};
SimdLevel simdLevel();

class DelimiterMatcher {
public:
    // Outcome of scanning one chunk. Byte order of the stream is: `released` held bytes, then chunk.
    struct Scan {
        size_t released = 0; // bytes of pattern() prefix held from earlier chunks that turned out to be data
        size_t dataEnd = 0;  // chunk[0, dataEnd) is data
        size_t matchEnd = 0; // when found: the delimiter ends just before chunk[matchEnd]
        bool found = false;  // when not found, chunk[dataEnd, end) is now held (held() bytes in total)
    };

    // pattern must not be empty. One allocation here; none in scan().
    static std::unique_ptr<DelimiterMatcher> create(MatcherKind kind, std::string pattern);
    virtual ~DelimiterMatcher() = default;

    // Scans chunk, continuing a partial match held from earlier calls. Stops at the first full match.
    Scan scan(ByteView chunk);
    // Forget any partial match, or pretend `heldPrefix` pattern bytes were just seen (the parser uses 1 to accept
    // a delimiter at the very start of a body, where RFC 2046 needs no preceding line break).
    void reset(size_t heldPrefix = 0) { m_held = heldPrefix; }
    size_t held() const { return m_held; }
    std::string_view pattern() const { return m_pattern; }
    MatcherKind kind() const { return m_kind; }

protected:
    DelimiterMatcher(MatcherKind kind, std::string pattern);
    // First full occurrence of the pattern that lies wholly in text[from, end), or npos.
    virtual size_t findIn(ByteView text, size_t from) const = 0;
    // One KMP transition: state = length of the pattern prefix matched so far.
    size_t step(size_t state, char byte) const;

    std::string m_pattern;
    std::vector<uint32_t> m_border; // KMP failure table, used by the carry-over and tail logic of every strategy

private:
    size_t m_held = 0;
    MatcherKind m_kind;
};

namespace detail {
// SIMD first/last-byte filter search (matcher_simd.cpp), at simdLevel().
size_t simdFind(const char* text, size_t size, std::string_view pattern, size_t from);
} // namespace detail

} // namespace upin::core
