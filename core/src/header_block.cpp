#include "header_block.h"

#include "http_lines.h" // trimSpaces
#include "upin/core/header_params.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace upin::core::detail {
namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t';
}

// RFC 9110 field values exclude the controls but TAB: NUL to US and DEL. CR and LF never reach here.
bool isControl(char c)
{
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\t') || byte == 0x7f;
}

// Reports a value's first control byte; the value is kept as sent.
void reportControlByte(std::string_view value, const char* block, std::vector<HeaderIssue>& issues)
{
    const auto control = std::find_if(value.begin(), value.end(), isControl);
    if (control != value.end())
        issues.push_back({Errc::ControlByteInHeader,
                          static_cast<size_t>(value.data() - block + (control - value.begin())),
                          static_cast<unsigned char>(*control)});
}

// An obs-fold continuation line, joined to the value it extends with one space.
void foldInto(HeaderField& last, std::string_view line, char* data, std::vector<HeaderIssue>& issues)
{
    line = http_detail::trimSpaces(line);
    if (line.empty())
        return;
    reportControlByte(line, data, issues);
    // Moved back to just after the value it extends: at least an LF and a blank lie between the two, room for the
    // joining space, and the bytes it lands on belong to no field.
    char* write = data + (last.value.data() + last.value.size() - data);
    if (!last.value.empty())
        *write++ = ' ';
    std::memmove(write, line.data(), line.size());
    last.value = std::string_view(last.value.data(), static_cast<size_t>(write + line.size() - last.value.data()));
}

// A "name: value" line (start: its offset in the block); false when it is no field (the issue says why).
bool addField(std::string_view line, size_t start, const char* data, std::vector<HeaderField>& fields,
              std::vector<HeaderIssue>& issues)
{
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) {
        issues.push_back({Errc::MalformedHeader, start});
        return false;
    }
    const std::string_view name = line.substr(0, colon);
    size_t bad = 0;
    while (bad < name.size() && isTokenChar(name[bad]))
        ++bad;
    if (bad < name.size()) {
        issues.push_back({Errc::InvalidHeaderName, start + bad});
        return false;
    }
    const std::string_view value = http_detail::trimSpaces(line.substr(colon + 1));
    reportControlByte(value, data, issues);
    // Both stay where they are: only a continuation line is moved (an empty value's view still marks the place).
    fields.push_back({name, value});
    return true;
}

} // namespace

void splitHeaderBlock(std::string& block, std::vector<HeaderField>& fields, std::vector<HeaderIssue>& issues)
{
    fields.clear();
    issues.clear();
    char* data = block.data();
    bool canFold = false; // the previous line produced a field that a continuation may extend
    bool reportedBareLf = false;
    for (size_t lineStart = 0; lineStart < block.size();) {
        size_t lf = block.find('\n', lineStart);
        size_t next = lf + 1;
        size_t end = lf;
        if (end > lineStart && data[end - 1] == '\r') {
            --end;
        } else if (!reportedBareLf) {
            issues.push_back({Errc::BareLineFeed, lf});
            reportedBareLf = true;
        }
        std::string_view line(data + lineStart, end - lineStart);
        if (line.empty()) {
            lineStart = next;
            continue;
        }
        size_t start = lineStart;
        lineStart = next;

        if (line.find('\r') != std::string_view::npos) {
            issues.push_back({Errc::MalformedHeader, start + line.find('\r')});
            canFold = false;
            continue;
        }
        if (isSpace(line.front())) {
            if (!canFold) {
                issues.push_back({fields.empty() ? Errc::LeadingWhitespaceHeader : Errc::MalformedHeader, start});
                continue;
            }
            foldInto(fields.back(), line, data, issues);
            continue;
        }
        canFold = addField(line, start, data, fields, issues);
    }
}

namespace {

// A bit for each of the 128 bytes a clean block may span: GCC's and Clang's 128-bit integer, on every 64-bit target.
__extension__ using Wide = unsigned __int128;

template <typename Bits>
struct LineBytes {
    Bits lf = 0, cr = 0, control = 0; // control: the bytes isControl takes
};

// The LF, CR and control bits of the 64 bytes at p. SSE2 is part of every x86-64.
LineBytes<uint64_t> findLineBytes(const char* p)
{
    LineBytes<uint64_t> bits;
#if defined(__x86_64__)
    for (unsigned i = 0; i < 64; i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        const auto is = [&v](char c) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(c)); };
        const auto bitsOf = [](__m128i m) { return uint64_t(static_cast<uint16_t>(_mm_movemask_epi8(m))); };
        const __m128i low = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v); // 0x00 to 0x1f
        bits.lf |= bitsOf(is('\n')) << i;
        bits.cr |= bitsOf(is('\r')) << i;
        bits.control |= bitsOf(_mm_andnot_si128(is('\t'), _mm_or_si128(low, is('\x7f')))) << i;
    }
    bits.control &= ~(bits.lf | bits.cr);
#else
    for (unsigned i = 0; i < 64; ++i) {
        bits.lf |= uint64_t(p[i] == '\n') << i;
        bits.cr |= uint64_t(p[i] == '\r') << i;
        bits.control |= uint64_t(p[i] != '\n' && p[i] != '\r' && isControl(p[i])) << i;
    }
#endif
    return bits;
}

size_t lowestBit(uint64_t bits)
{
    return static_cast<size_t>(__builtin_ctzll(bits));
}

size_t lowestBit(Wide bits)
{
    const auto low = static_cast<uint64_t>(bits);
    return low ? lowestBit(low) : 64 + lowestBit(static_cast<uint64_t>(bits >> 64));
}

template <typename Bits>
Bits bitsBelow(size_t n)
{
    return n >= sizeof(Bits) * 8 ? ~Bits(0) : (Bits(1) << n) - 1;
}

// The LFs that may end a block: after a CR that opens the text or follows an LF.
template <typename Bits>
Bits blankLineEnds(Bits lf, Bits cr)
{
    return lf & (cr << 1) & ((lf << 2) | Bits(2));
}

// Where the name ends if the line opens with a name every client spells the same way, else 0: one compare instead
// of a table lookup per byte, which was two fifths of splitting a part's headers in `bench --input manyparts`.
size_t knownNameEnd(std::string_view line)
{
    constexpr std::string_view kDisposition = "Content-Disposition:";
    constexpr std::string_view kType = "Content-Type:";
    if (line.size() >= kDisposition.size() && std::memcmp(line.data(), kDisposition.data(), kDisposition.size()) == 0)
        return kDisposition.size() - 1;
    if (line.size() >= kType.size() && std::memcmp(line.data(), kType.data(), kType.size()) == 0)
        return kType.size() - 1;
    return 0;
}

template <typename Bits>
bool splitLines(std::string_view text, const LineBytes<Bits>& bytes, size_t maxBytes, size_t maxLines,
                std::vector<HeaderField>& fields, size_t& blockSize)
{
    const Bits lf = bytes.lf;
    const Bits cr = bytes.cr;
    const Bits ends = blankLineEnds(lf, cr);
    if (ends == 0)
        return false;
    const size_t blankLf = lowestBit(ends);
    if (blankLf + 1 > maxBytes)
        return false;
    const Bits block = bitsBelow<Bits>(blankLf + 1);
    if ((((cr << 1) ^ lf) & block) != 0) // a bare LF, or a CR not followed by LF
        return false;
    if ((bytes.control & block) != 0) // the general path reports it
        return false;
    fields.clear();
    size_t lineStart = 0;
    for (Bits lines = lf & block & ~(Bits(1) << blankLf); lines != 0; lines &= lines - 1) {
        const size_t lineEnd = lowestBit(lines) - 1; // its CR
        if (fields.size() == maxLines || text[lineStart] == '-')
            return false;
        // Else the name's token bytes run to the colon: ':' is not one of them.
        size_t at = lineStart + knownNameEnd(text.substr(lineStart, lineEnd - lineStart));
        while (isTokenChar(text[at]))
            ++at;
        if (text[at] != ':' || at == lineStart) // not a token before the first colon, or no colon
            return false;
        // Trimmed here, not by http_detail::trimSpaces: GCC stored the view that call returned in halves and
        // reloaded it as one vector to push the field, a store-forwarding stall that perf put at a fifth of this
        // function's time. (The lines hold no CR, the one byte the two trims treat apart.)
        size_t valueStart = at + 1;
        size_t valueEnd = lineEnd;
        while (valueStart < valueEnd && isSpace(text[valueStart]))
            ++valueStart;
        while (valueEnd > valueStart && isSpace(text[valueEnd - 1]))
            --valueEnd;
        fields.push_back({text.substr(lineStart, at - lineStart), text.substr(valueStart, valueEnd - valueStart)});
        lineStart = lineEnd + 2;
    }
    blockSize = blankLf + 1;
    return true;
}

} // namespace

// Written because the general path took a dozen short scans a part (memchr per line, again per line to split, for
// the CR, for the colon), most of a parse of many small fields. Here vector compares find every LF and CR in one
// pass (and the control bytes a value may not hold), and the loop that checks a name's bytes stops at its colon.
bool splitCleanHeaderBlock(std::string_view text, size_t maxBytes, size_t maxLines, std::vector<HeaderField>& fields,
                           size_t& blockSize)
{
    constexpr size_t kSpan = 128;
    char padded[kSpan]; // a short text is read from a copy: no load may pass its end
    const char* data = text.data();
    if (text.size() < kSpan) {
        std::memcpy(padded, text.data(), text.size());
        std::memset(padded + text.size(), 0, kSpan - text.size());
        data = padded;
    }
    const LineBytes<uint64_t> low = findLineBytes(data);
    if (blankLineEnds(low.lf, low.cr) != 0)
        return splitLines(text, low, maxBytes, maxLines, fields, blockSize);
    if (text.size() <= 64)
        return false;
    const LineBytes<uint64_t> high = findLineBytes(data + 64);
    const auto join = [](uint64_t l, uint64_t h) { return Wide(l) | (Wide(h) << 64); };
    const LineBytes<Wide> both{join(low.lf, high.lf), join(low.cr, high.cr), join(low.control, high.control)};
    return splitLines(text, both, maxBytes, maxLines, fields, blockSize);
}

} // namespace upin::core::detail
