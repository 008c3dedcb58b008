#include "upin/core/http_request.h"

#include "upin/core/header_params.h"

#include <algorithm>
#include <cstring>

namespace upin::core {
namespace {

// A control character that may not appear in a request line or field value (HTAB is allowed in values).
bool isControl(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\t') || u == 0x7f;
}

std::string_view trimSpaces(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// End of the head: index just past CRLFCRLF (or LFLF, or a mix), or 0 when not there yet.
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

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
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

} // namespace

std::string_view RequestHead::field(std::string_view name, bool* found) const
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
    // Tolerate empty lines before the request line (RFC 9112 section 2.2).
    size_t start = 0;
    while (start < buffer.size() && (buffer[start] == '\r' || buffer[start] == '\n'))
        ++start;
    size_t end = findHeadEnd(buffer.substr(start));
    if (end == 0) {
        if (buffer.size() >= limits.maxHeadBytes)
            return Error{Errc::HeadTooLarge, limits.maxHeadBytes};
        return size_t(0);
    }
    end += start;
    if (end > limits.maxHeadBytes)
        return Error{Errc::HeadTooLarge, limits.maxHeadBytes};

    size_t lineEnd = buffer.find('\n', start);
    std::string_view line = trimSpaces(buffer.substr(start, lineEnd - start));
    size_t sp1 = line.find(' ');
    size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp2 == std::string_view::npos || sp1 == 0 || sp2 == sp1 + 1)
        return Error{Errc::MalformedRequestLine, start};
    for (size_t i = 0; i < line.size(); ++i)
        if (isControl(line[i]) || line[i] == '\t')
            return Error{Errc::MalformedRequestLine, size_t(line.data() - buffer.data()) + i};
    out.method = line.substr(0, sp1);
    out.target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    std::string_view version = line.substr(sp2 + 1);
    if (!std::all_of(out.method.begin(), out.method.end(), isTokenChar))
        return Error{Errc::MalformedRequestLine, start};
    if (version.size() != 8 || version.substr(0, 7) != "HTTP/1.")
        return Error{version.substr(0, 5) == "HTTP/" ? Errc::UnsupportedHttpVersion : Errc::MalformedRequestLine,
                     start + sp2 + 1};
    if (version[7] != '0' && version[7] != '1')
        return Error{Errc::UnsupportedHttpVersion, start + sp2 + 1};
    out.minorVersion = version[7] - '0';

    size_t count = 0;
    for (size_t pos = lineEnd + 1; pos < end;) {
        size_t lf = buffer.find('\n', pos);
        std::string_view fieldLine = buffer.substr(pos, lf - pos);
        if (!fieldLine.empty() && fieldLine.back() == '\r')
            fieldLine.remove_suffix(1);
        if (fieldLine.empty())
            break;
        size_t colon = fieldLine.find(':');
        std::string_view name = fieldLine.substr(0, colon);
        if (colon == std::string_view::npos || name.empty() || !std::all_of(name.begin(), name.end(), isTokenChar))
            return Error{Errc::InvalidHeaderField, pos}; // also rejects obs-fold, as RFC 9112 allows
        // RFC 9110 field values: no control characters but HTAB (a NUL or bare CR could split or hide a field).
        for (size_t i = colon + 1; i < fieldLine.size(); ++i)
            if (isControl(fieldLine[i]))
                return Error{Errc::InvalidHeaderField, pos + i};
        if (count >= limits.maxHeaderFields || count >= storage.size())
            return Error{Errc::TooManyHeaderFields, pos};
        storage[count++] = {name, trimSpaces(fieldLine.substr(colon + 1))};
        pos = lf + 1;
    }
    out.fields = storage.first(count);
    return end;
}

HeadReader::HeadReader(const HttpLimits& limits) : m_limits(limits), m_fields(limits.maxHeaderFields)
{
    m_buffer.reserve(std::min<size_t>(limits.maxHeadBytes, 8192));
}

void HeadReader::reset()
{
    m_buffer.clear();
    m_head = {};
    m_complete = false;
}

Result<size_t> HeadReader::feed(ByteView data)
{
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
    auto length = parseRequestHead(m_buffer, m_fields, m_head, m_limits);
    if (!length)
        return length.error();
    if (*length == 0)
        return data.size();   // the blank line seen was one of the empty lines allowed before the request line
    m_buffer.resize(*length); // shrinking keeps the storage, so the views in m_head stay valid until reset()
    m_complete = true;
    return *length - before;
}

Result<BodyFraming> bodyFraming(const RequestHead& head)
{
    BodyFraming framing;
    bool hasLength = false, hasEncoding = false;
    for (const auto& f : head.fields) {
        if (equalsIgnoreCase(f.name, "content-length")) {
            uint64_t value = 0;
            if (!parseDecimal(f.value, value) || (hasLength && value != framing.contentLength))
                return Error{Errc::InvalidContentLength, 0};
            framing.contentLength = value;
            hasLength = true;
        } else if (equalsIgnoreCase(f.name, "transfer-encoding")) {
            if (!equalsIgnoreCase(trimSpaces(f.value), "chunked") || hasEncoding)
                return Error{Errc::UnsupportedTransferEncoding, 0};
            hasEncoding = true;
        } else if (equalsIgnoreCase(f.name, "expect")) {
            framing.expectContinue = equalsIgnoreCase(f.value, "100-continue");
        }
    }
    if (hasLength && hasEncoding) // a request-smuggling shape: refuse rather than pick one
        return Error{Errc::ConflictingFraming, 0};
    framing.kind = hasEncoding ? BodyFraming::Kind::Chunked
                   : hasLength ? BodyFraming::Kind::ContentLength
                               : BodyFraming::Kind::None;
    std::string_view connection = head.field("connection");
    framing.keepAlive =
        head.minorVersion >= 1 ? !containsToken(connection, "close") : containsToken(connection, "keep-alive");
    return framing;
}

BodyDecoder::BodyDecoder(const BodyFraming& framing, const HttpLimits& limits)
    : m_limits(limits),
      m_state(framing.kind == BodyFraming::Kind::Chunked                                      ? State::Size
              : framing.kind == BodyFraming::Kind::ContentLength && framing.contentLength > 0 ? State::Length
                                                                                              : State::Done),
      m_remaining(framing.contentLength)
{}

Result<size_t> BodyDecoder::fail(Errc code, uint64_t offset)
{
    m_state = State::Failed;
    m_error = {code, offset};
    return m_error;
}

std::optional<Error> BodyDecoder::skipLine(ByteView wire, size_t& pos, size_t limit, Errc code, State next,
                                           bool consumeLf)
{
    auto* lf = static_cast<const char*>(std::memchr(wire.data() + pos, '\n', wire.size() - pos));
    size_t upTo = lf ? size_t(lf - wire.data()) + (consumeLf ? 1 : 0) : wire.size();
    if (m_lineBytes + (upTo - pos) > limit) { // the offset is the first byte over the limit, whatever the chunking
        (void)fail(code, m_wire + pos + (limit - m_lineBytes));
        return m_error;
    }
    m_lineBytes += upTo - pos;
    pos = upTo;
    if (lf)
        m_state = next;
    return std::nullopt;
}

Result<size_t> BodyDecoder::feed(ByteView wire, BodySink& sink)
{
    if (m_state == State::Failed)
        return m_error;
    size_t pos = 0;
    while (pos < wire.size() && m_state != State::Done) {
        const uint64_t at = m_wire + pos;
        switch (m_state) {
        case State::Length:
        case State::Data: {
            size_t take = static_cast<size_t>(std::min<uint64_t>(m_remaining, wire.size() - pos));
            sink.onBody(wire.substr(pos, take));
            m_body += take;
            m_remaining -= take;
            pos += take;
            if (m_remaining == 0)
                m_state = m_state == State::Length ? State::Done : State::DataCr;
            continue;
        }
        case State::Size: {
            const char c = wire[pos++];
            int digit = hexDigit(c);
            if (digit >= 0) {
                if (++m_sizeDigits > 15)
                    return fail(Errc::InvalidChunkSize, at);
                m_chunkSize = m_chunkSize * 16 + uint64_t(digit);
            } else if (m_sizeDigits > 0 && (c == ';' || c == ' ' || c == '\t')) {
                m_state = State::SizeExt;
                m_lineBytes = 0;
            } else if (m_sizeDigits > 0 && c == '\r') {
                m_state = State::SizeLf;
            } else if (m_sizeDigits > 0 && c == '\n') {
                --pos;
                m_state = State::SizeLf;
            } else {
                return fail(Errc::InvalidChunkSize, at);
            }
            continue;
        }
        case State::SizeExt: // extensions are skipped, up to their limit
            if (auto error =
                    skipLine(wire, pos, m_limits.maxChunkExtension, Errc::ChunkExtensionTooLarge, State::SizeLf, false))
                return *error;
            continue;
        case State::SizeLf:
            if (wire[pos++] != '\n')
                return fail(Errc::InvalidChunkSize, at);
            m_remaining = m_chunkSize;
            m_lineBytes = 0;
            m_state = m_chunkSize == 0 ? State::TrailerStart : State::Data;
            m_chunks += m_chunkSize == 0 ? 0 : 1;
            m_chunkSize = 0;
            m_sizeDigits = 0;
            continue;
        case State::DataCr: {
            const char c = wire[pos++];
            if (c == '\n')
                m_state = State::Size;
            else if (c == '\r')
                m_state = State::DataLf;
            else
                return fail(Errc::MalformedChunk, at);
            continue;
        }
        case State::DataLf:
            if (wire[pos++] != '\n')
                return fail(Errc::MalformedChunk, at);
            m_state = State::Size;
            continue;
        case State::TrailerStart: {
            const char c = wire[pos++];
            if (c == '\n')
                m_state = State::Done;
            else if (c == '\r')
                m_state = State::TrailerLf;
            else
                m_state = State::TrailerLine;
            m_trailerBytes += m_state == State::TrailerLine ? 1 : 0;
            continue;
        }
        case State::TrailerLine: { // trailer fields are skipped, up to their limit
            const size_t lineFrom = pos;
            if (auto error =
                    skipLine(wire, pos, m_limits.maxTrailerBytes, Errc::TrailerTooLarge, State::TrailerStart, true))
                return *error;
            m_trailerBytes += pos - lineFrom;
            continue;
        }
        case State::TrailerLf:
            if (wire[pos++] != '\n')
                return fail(Errc::MalformedChunk, at);
            m_state = State::Done;
            continue;
        case State::Done:
        case State::Failed: break;
        }
    }
    m_wire += pos;
    return pos;
}

} // namespace upin::core
