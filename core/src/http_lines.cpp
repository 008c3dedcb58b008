#include "http_lines.h"

#include "upin/core/header_params.h"

#include <algorithm>

namespace upin::core::http_detail {

bool isControl(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\t') || u == 0x7f;
}

// Spaces and TABs only: a CR is never white space here (a request line trimmed of a trailing CR took
// "GET / HTTP/1.1\r\r\n" as a line that ends in CRLF), and a header parameter's reader trims the same way.
std::string_view trimSpaces(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

size_t findHeadEnd(ByteView buffer)
{
    for (size_t lf = buffer.find('\n'); lf != std::string_view::npos; lf = buffer.find('\n', lf + 1)) {
        size_t next = lf + 1;
        if (next < buffer.size() && buffer[next] == '\n')
            return next + 1;
        if (next + 1 < buffer.size() && buffer[next] == '\r' && buffer[next + 1] == '\n')
            return next + 2;
    }
    return 0;
}

bool parseDecimal(std::string_view text, uint64_t& out)
{
    if (text.empty() || text.size() > 19)
        return false;
    out = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return false;
        out = out * 10 + uint64_t(c - '0');
    }
    return true;
}

bool containsToken(std::string_view list, std::string_view token)
{
    size_t start = 0;
    while (start <= list.size()) {
        size_t comma = std::min(list.find(',', start), list.size());
        if (equalsIgnoreCase(trimSpaces(list.substr(start, comma - start)), token))
            return true;
        start = comma + 1;
    }
    return false;
}

Result<Line> lineAt(ByteView buffer, size_t pos, const HttpLimits& limits)
{
    const size_t lf = buffer.find('\n', pos);
    Line line{buffer.substr(pos, lf - pos), lf == std::string_view::npos ? buffer.size() : lf + 1};
    const bool hasCr = !line.text.empty() && line.text.back() == '\r';
    if (limits.strictLineEnds && lf != std::string_view::npos && !hasCr)
        return Error{Errc::BareLineEnd, lf};
    if (hasCr)
        line.text.remove_suffix(1);
    return line;
}

Result<std::span<HttpField>> parseFields(ByteView buffer, size_t pos, size_t end, std::span<HttpField> storage,
                                         const HttpLimits& limits)
{
    size_t count = 0;
    while (pos < end) {
        auto line = lineAt(buffer, pos, limits);
        if (!line)
            return line.error();
        const std::string_view text = line->text;
        if (text.empty())
            break;
        const size_t colon = text.find(':');
        const std::string_view name = text.substr(0, colon);
        if (colon == std::string_view::npos || name.empty() || !std::all_of(name.begin(), name.end(), isTokenChar))
            return Error{Errc::InvalidHeaderField, pos}; // also rejects obs-fold, as RFC 9112 allows
        // RFC 9110 field values: no control characters but HTAB (a NUL or bare CR could split or hide a field).
        for (size_t i = colon + 1; i < text.size(); ++i)
            if (isControl(text[i]))
                return Error{limits.strictLineEnds && text[i] == '\r' ? Errc::BareLineEnd : Errc::InvalidHeaderField,
                             pos + i};
        if (count >= limits.maxHeaderFields || count >= storage.size())
            return Error{Errc::TooManyHeaderFields, pos};
        storage[count++] = {name, trimSpaces(text.substr(colon + 1))};
        pos = line->next;
    }
    return storage.first(count);
}

Result<HeadSpan> locateHead(ByteView buffer, const HttpLimits& limits)
{
    HeadSpan span;
    while (span.start < buffer.size() && (buffer[span.start] == '\r' || buffer[span.start] == '\n'))
        ++span.start;
    const size_t end = findHeadEnd(buffer.substr(span.start));
    if (end == 0) {
        if (buffer.size() >= limits.maxHeadBytes)
            return Error{Errc::HeadTooLarge, limits.maxHeadBytes};
        return span;
    }
    span.end = span.start + end;
    if (span.end > limits.maxHeadBytes)
        return Error{Errc::HeadTooLarge, limits.maxHeadBytes};
    return span;
}

} // namespace upin::core::http_detail
