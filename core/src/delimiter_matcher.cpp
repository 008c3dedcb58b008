#include "upin/core/delimiter_matcher.h"

#include <cstring>

namespace upin::core {

DelimiterMatcher::DelimiterMatcher(MatcherKind kind, std::string pattern)
    : m_pattern(std::move(pattern)), m_border(m_pattern.size(), 0), m_kind(kind)
{
    for (size_t i = 1, k = 0; i < m_pattern.size(); ++i) {
        while (k > 0 && m_pattern[i] != m_pattern[k])
            k = m_border[k - 1];
        if (m_pattern[i] == m_pattern[k])
            ++k;
        m_border[i] = static_cast<uint32_t>(k);
    }
}

size_t DelimiterMatcher::step(size_t state, char byte) const
{
    while (state > 0 && m_pattern[state] != byte)
        state = m_border[state - 1];
    return m_pattern[state] == byte ? state + 1 : 0;
}

DelimiterMatcher::Scan DelimiterMatcher::scan(ByteView chunk)
{
    const size_t m = m_pattern.size();
    const size_t n = chunk.size();
    const size_t held = m_held;
    size_t state = held;
    size_t i = 0;
    // Phase 1: a partial match carried from earlier chunks. Step byte by byte only while the partial match still
    // starts inside the held bytes (state > i); this is at most m steps, after which the fast search takes over.
    while (state > i && i < n) {
        state = step(state, chunk[i++]);
        if (state == m) { // the match began inside the held bytes
            m_held = 0;
            return {held + i - m, 0, i, true};
        }
    }
    if (state > i) { // chunk exhausted while still extending the carried partial match
        m_held = state;
        return {held + i - state, 0, 0, false};
    }
    // Phase 2: every held byte was data; the strategy searches the rest of the chunk.
    const size_t from = i - state;
    const size_t pos = findIn(chunk, from);
    if (pos != std::string_view::npos) {
        m_held = 0;
        return {held, pos, pos + m, true};
    }
    // No full match: hold the longest chunk suffix that is a pattern prefix (it is shorter than m).
    size_t tail = n - from < m ? from : n - (m - 1);
    size_t tailState = 0;
    for (; tail < n; ++tail)
        tailState = step(tailState, chunk[tail]);
    m_held = tailState;
    return {held, n - tailState, 0, false};
}

namespace {

// Byte-at-a-time KMP over the whole chunk: every byte goes through the automaton, as in Spring's old matcher.
// The fastest honest form of the byte-by-byte approach, so the baseline is fair: a byte that extends the partial
// match is a predictable branch, and a mismatch takes one lookup in the failure links compiled into a table.
class KmpMatcher final : public DelimiterMatcher {
public:
    explicit KmpMatcher(std::string p)
        : DelimiterMatcher(MatcherKind::Kmp, std::move(p)), m_next(m_pattern.size() * 256)
    {
        for (size_t state = 0; state < m_pattern.size(); ++state)
            for (int byte = 0; byte < 256; ++byte)
                m_next[state * 256 + size_t(byte)] = static_cast<uint16_t>(step(state, static_cast<char>(byte)));
    }

protected:
    size_t findIn(ByteView text, size_t from) const override
    {
        return m_firstByteUnique ? run<true>(text, from) : run<false>(text, from);
    }

private:
    // When the first byte occurs nowhere else in the pattern (true of every multipart delimiter, which starts with
    // LF), all failure links are 0: after a mismatch the state is 1 if the byte is the first one, else 0, with no
    // table lookup in the loop-carried dependency.
    template <bool kFirstByteUnique>
    size_t run(ByteView text, size_t from) const
    {
        const size_t m = m_pattern.size();
        const auto* pattern = reinterpret_cast<const unsigned char*>(m_pattern.data());
        const uint16_t* next = m_next.data();
        const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
        const unsigned char first = pattern[0];
        const size_t n = text.size();
        size_t state = 0;
        // The same byte-at-a-time automaton, run as two tight loops: at state 0 every byte but the pattern's first
        // keeps the state, and along a partial match every equal byte advances it. Only a mismatch inside a
        // partial match needs the failure links. No byte is skipped and none is compared twice.
        for (size_t i = from; i < n;) {
            if (state == 0) {
                while (i < n && bytes[i] != first)
                    ++i;
                if (i == n)
                    break;
                state = 1;
                ++i;
            }
            while (state < m && i < n && bytes[i] == pattern[state]) {
                ++state;
                ++i;
            }
            if (state == m)
                return i - m;
            if (i == n)
                break;
            const unsigned char c = bytes[i++];
            state = kFirstByteUnique ? size_t(c == first) : next[state * 256 + c];
        }
        return std::string_view::npos;
    }

    bool m_firstByteUnique = m_pattern.find(m_pattern[0], 1) == std::string::npos;
    std::vector<uint16_t> m_next; // m states x 256 bytes
};

// memchr for a candidate byte, then compare the whole pattern. The candidate byte is the pattern's last byte:
// a multipart delimiter starts with LF, the most common byte of text bodies, and ends with a boundary character.
// After a failed candidate the search resumes one byte later, not after the compared bytes: skipping further is
// the restart bug that misses "aab" in "aaab".
class ChunkedMatcher final : public DelimiterMatcher {
public:
    explicit ChunkedMatcher(std::string p) : DelimiterMatcher(MatcherKind::Chunked, std::move(p)) {}

protected:
    size_t findIn(ByteView text, size_t from) const override
    {
        const size_t m = m_pattern.size();
        if (text.size() < m || from > text.size() - m)
            return std::string_view::npos;
        const char* base = text.data();
        const char last = m_pattern[m - 1];
        for (size_t end = from + m - 1; end < text.size();) { // end: candidate position of the last byte
            auto* hit = static_cast<const char*>(std::memchr(base + end, last, text.size() - end));
            if (!hit)
                break;
            size_t start = static_cast<size_t>(hit - base) + 1 - m;
            if (std::memcmp(base + start, m_pattern.data(), m - 1) == 0)
                return start;
            end = static_cast<size_t>(hit - base) + 1;
        }
        return std::string_view::npos;
    }
};

class SimdMatcher final : public DelimiterMatcher {
public:
    explicit SimdMatcher(std::string p) : DelimiterMatcher(MatcherKind::Simd, std::move(p)) {}

protected:
    size_t findIn(ByteView text, size_t from) const override
    {
        return detail::simdFind(text.data(), text.size(), m_pattern, from);
    }
};

} // namespace

std::unique_ptr<DelimiterMatcher> DelimiterMatcher::create(MatcherKind kind, std::string pattern)
{
    switch (kind) {
    case MatcherKind::Kmp: return std::make_unique<KmpMatcher>(std::move(pattern));
    case MatcherKind::Chunked: return std::make_unique<ChunkedMatcher>(std::move(pattern));
    case MatcherKind::Simd: break;
    }
    return std::make_unique<SimdMatcher>(std::move(pattern));
}

} // namespace upin::core
