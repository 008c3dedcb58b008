// Request and response heads, and the framing each implies.

#include "http_lines.h"

#include "upin/core/header_params.h"

#include <algorithm>

namespace upin::core {
using namespace http_detail;

namespace {

// Empty lines before a request line are tolerated, but with strict line ends only as CRLF.
std::optional<Error> checkLeadingLines(ByteView buffer, size_t start, const HttpLimits& limits)
{
    if (!limits.strictLineEnds)
        return std::nullopt;
    for (size_t i = 0; i < start; ++i)
        if ((buffer[i] == '\n' && (i == 0 || buffer[i - 1] != '\r')) ||
            (buffer[i] == '\r' && (i + 1 >= buffer.size() || buffer[i + 1] != '\n')))
            return Error{Errc::BareLineEnd, i};
    return std::nullopt;
}

// "HTTP/1.0" or "HTTP/1.1": the minor version, or an error at offset.
Result<int> httpVersion(std::string_view version, uint64_t offset, Errc malformed)
{
    if (version.size() != 8 || version.substr(0, 7) != "HTTP/1.")
        return Error{version.substr(0, 5) == "HTTP/" ? Errc::UnsupportedHttpVersion : malformed, offset};
    if (version[7] != '0' && version[7] != '1')
        return Error{Errc::UnsupportedHttpVersion, offset};
    return version[7] - '0';
}

// The head's extent and its start line, once its blank line has arrived (span.end == 0 before).
struct StartLine {
    HeadSpan span;
    Line line;
};
Result<StartLine> startLine(ByteView buffer, const HttpLimits& limits)
{
    auto span = locateHead(buffer, limits);
    if (!span)
        return span.error();
    if (span->end == 0)
        return StartLine{};
    if (auto error = checkLeadingLines(buffer, span->start, limits))
        return *error;
    auto first = lineAt(buffer, span->start, limits);
    if (!first)
        return first.error();
    return StartLine{*span, *first};
}

} // namespace

std::string_view findField(std::span<const HttpField> fields, std::string_view name, bool* found)
{
    for (const auto& f : fields)
        if (equalsIgnoreCase(f.name, name)) {
            if (found)
                *found = true;
            return f.value;
        }
    if (found)
        *found = false;
    return {};
}

Result<size_t> parseRequestHead(ByteView buffer, std::span<HttpField> storage, RequestHead& out,
                                const HttpLimits& limits)
{
    auto head = startLine(buffer, limits);
    if (!head)
        return head.error();
    const auto& [span, first] = *head;
    if (span.end == 0)
        return size_t(0);
    const size_t start = span.start;
    const std::string_view line = trimSpaces(first.text);
    const size_t sp1 = line.find(' ');
    const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp2 == std::string_view::npos || sp1 == 0 || sp2 == sp1 + 1)
        return Error{Errc::MalformedRequestLine, start};
    // A CR here is one no LF follows: with strict line ends, said as such (as in a field line).
    for (size_t i = 0; i < line.size(); ++i)
        if (isControl(line[i]) || line[i] == '\t')
            return Error{limits.strictLineEnds && line[i] == '\r' ? Errc::BareLineEnd : Errc::MalformedRequestLine,
                         size_t(line.data() - buffer.data()) + i};
    out.begin = buffer.data();
    out.method = line.substr(0, sp1);
    out.target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    if (!std::all_of(out.method.begin(), out.method.end(), isTokenChar))
        return Error{Errc::MalformedRequestLine, start};
    auto minor = httpVersion(line.substr(sp2 + 1), start + sp2 + 1, Errc::MalformedRequestLine);
    if (!minor)
        return minor.error();
    out.minorVersion = *minor;
    auto fields = parseFields(buffer, first.next, span.end, storage, limits);
    if (!fields)
        return fields.error();
    out.fields = *fields;
    bool seenHost = false;
    for (const HttpField& field : out.fields)
        if (equalsIgnoreCase(field.name, "host") && std::exchange(seenHost, true))
            return Error{Errc::DuplicateHost, size_t(field.name.data() - buffer.data())};
    return span.end;
}

Result<size_t> parseResponseHead(ByteView buffer, std::span<HttpField> storage, ResponseHead& out,
                                 const HttpLimits& limits)
{
    auto head = startLine(buffer, limits);
    if (!head)
        return head.error();
    const auto& [span, first] = *head;
    if (span.end == 0)
        return size_t(0);
    if (span.start > 0) // no empty lines before a status line: whatever came there is not an answer
        return Error{Errc::MalformedStatusLine, 0};
    const std::string_view line = first.text;
    for (size_t i = 0; i < line.size(); ++i)
        if (isControl(line[i]))
            return Error{Errc::MalformedStatusLine, i};
    auto minor = httpVersion(line.substr(0, line.find(' ')), 0, Errc::MalformedStatusLine);
    if (!minor)
        return minor.error();
    // Exactly one SP, three digits, then SP and the reason (or nothing).
    if (line.size() < 12 || line[8] != ' ' ||
        !std::all_of(line.begin() + 9, line.begin() + 12, [](char c) { return c >= '0' && c <= '9'; }) ||
        line[9] == '0')
        return Error{Errc::MalformedStatusLine, 8};
    if (line.size() > 12 && line[12] != ' ')
        return Error{Errc::MalformedStatusLine, 12};
    out.begin = buffer.data();
    out.minorVersion = *minor;
    out.status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
    out.reason = line.size() > 13 ? line.substr(13) : std::string_view();
    auto fields = parseFields(buffer, first.next, span.end, storage, limits);
    if (!fields)
        return fields.error();
    out.fields = *fields;
    return span.end;
}

HeadReader::HeadReader(const HttpLimits& limits, Kind kind)
    : m_limits(limits), m_kind(kind), m_fields(limits.maxHeaderFields)
{
    m_buffer.reserve(std::min<size_t>(limits.maxHeadBytes, 8192));
}

void HeadReader::reset()
{
    m_buffer.clear();
    m_request = {};
    m_response = {};
    m_complete = false;
    m_error.reset();
}

Result<size_t> HeadReader::parse()
{
    return m_kind == Kind::Request ? parseRequestHead(m_buffer, m_fields, m_request, m_limits)
                                   : parseResponseHead(m_buffer, m_fields, m_response, m_limits);
}

Result<size_t> HeadReader::feed(ByteView data)
{
    if (m_error)
        return *m_error;
    if (m_complete)
        return size_t(0);
    const size_t before = m_buffer.size();
    m_buffer.append(data.substr(0, m_limits.maxHeadBytes - before));
    // Look for the blank line only in what is new (plus 3 bytes of overlap), so a client that sends one byte at
    // a time costs linear time.
    size_t from = before > 3 ? before - 3 : 0;
    bool ended = findHeadEnd(ByteView(m_buffer).substr(from)) != 0;
    if (!ended && m_buffer.size() < m_limits.maxHeadBytes)
        return data.size();
    auto length = parse();
    if (!length)
        return *(m_error = length.error());
    if (*length == 0)
        return data.size();   // the blank line seen was one of the empty lines allowed before the request line
    m_buffer.resize(*length); // shrinking keeps the storage, so the views in the head stay valid until reset()
    m_complete = true;
    return *length - before;
}

namespace {

// Content-Length fields: one value however often repeated (RFC 9110 8.6), nothing but digits. An error is at the
// offending value (begin: the head's first byte).
Result<std::optional<uint64_t>> contentLength(std::span<const HttpField> fields, const char* begin)
{
    std::optional<uint64_t> length;
    for (const auto& f : fields) {
        if (!equalsIgnoreCase(f.name, "content-length"))
            continue;
        uint64_t value = 0;
        if (!parseDecimal(f.value, value) || (length && value != *length))
            return Error{Errc::InvalidContentLength, offsetIn(begin, f.value)};
        length = value;
    }
    return length;
}

bool keepAlive(int minorVersion, std::string_view connection)
{
    return minorVersion >= 1 ? !containsToken(connection, "close") : containsToken(connection, "keep-alive");
}

} // namespace

Result<BodyFraming> bodyFraming(const RequestHead& head)
{
    BodyFraming framing;
    auto length = contentLength(head.fields, head.begin);
    if (!length)
        return length.error();
    bool hasEncoding = false;
    std::string_view encodingField;
    for (const auto& f : head.fields) {
        if (equalsIgnoreCase(f.name, "transfer-encoding")) {
            if (!equalsIgnoreCase(trimSpaces(f.value), "chunked") || hasEncoding)
                return Error{Errc::UnsupportedTransferEncoding, offsetIn(head.begin, f.value)};
            hasEncoding = true;
            encodingField = f.name;
        } else if (equalsIgnoreCase(f.name, "expect")) {
            framing.expectContinue = equalsIgnoreCase(f.value, "100-continue");
        }
    }
    if (*length && hasEncoding) // a request-smuggling shape: refuse rather than pick one; at Transfer-Encoding
        return Error{Errc::ConflictingFraming, offsetIn(head.begin, encodingField)};
    framing.kind = hasEncoding ? BodyFraming::Kind::Chunked
                   : *length   ? BodyFraming::Kind::ContentLength
                               : BodyFraming::Kind::None;
    framing.contentLength = length->value_or(0);
    framing.keepAlive = keepAlive(head.minorVersion, head.field("connection"));
    return framing;
}

Result<BodyFraming> responseFraming(const ResponseHead& head, bool answersHead)
{
    BodyFraming framing;
    framing.keepAlive = keepAlive(head.minorVersion, head.field("connection"));
    auto length = contentLength(head.fields, head.begin);
    if (!length)
        return length.error();
    // Every coding in order, across all Transfer-Encoding fields: chunked may only be the last.
    bool hasEncoding = false, chunkedLast = false;
    std::string_view encodingField;
    for (const auto& f : head.fields) {
        if (!equalsIgnoreCase(f.name, "transfer-encoding"))
            continue;
        encodingField = f.name;
        for (size_t start = 0; start <= f.value.size();) {
            const size_t comma = std::min(f.value.find(',', start), f.value.size());
            const std::string_view coding = trimSpaces(f.value.substr(start, comma - start));
            start = comma + 1;
            if (coding.empty())
                continue;
            if (chunkedLast) // chunked, then another coding: not a framing anyone can read the same way
                return Error{Errc::UnsupportedTransferEncoding, offsetIn(head.begin, coding)};
            hasEncoding = true;
            chunkedLast = equalsIgnoreCase(coding, "chunked");
        }
    }
    if (*length && hasEncoding)
        return Error{Errc::ConflictingFraming, offsetIn(head.begin, encodingField)};
    if (answersHead || head.status < 200 || head.status == 204 || head.status == 304)
        return framing; // no body, whatever the fields say
    if (chunkedLast) {
        framing.kind = BodyFraming::Kind::Chunked;
    } else if (*length) {
        framing.kind = BodyFraming::Kind::ContentLength;
        framing.contentLength = **length;
    } else {
        framing.kind = BodyFraming::Kind::UntilClose;
        framing.keepAlive = false;
    }
    return framing;
}

} // namespace upin::core
