// Body framing on the wire: Content-Length, chunked (RFC 9112 7.1) and close-delimited, streaming.

#include "upin/core/http.h"

#include <algorithm>
#include <cstring>

namespace upin::core {
namespace {

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

} // namespace

BodyDecoder::BodyDecoder(const BodyFraming& framing, const HttpLimits& limits)
    : m_limits(limits), m_remaining(framing.contentLength)
{
    switch (framing.kind) {
    case BodyFraming::Kind::Chunked: m_state = State::Size; break;
    case BodyFraming::Kind::UntilClose: m_state = State::UntilClose; break;
    case BodyFraming::Kind::ContentLength: m_state = framing.contentLength > 0 ? State::Length : State::Done; break;
    case BodyFraming::Kind::None: m_state = State::Done; break;
    }
}

void BodyDecoder::closed()
{
    if (m_state == State::UntilClose)
        m_state = State::Done;
}

Result<size_t> BodyDecoder::fail(Errc code, uint64_t offset)
{
    m_state = State::Failed;
    m_error = {code, offset};
    return m_error;
}

namespace {
// A control character other than HTAB, CR and LF (which the line rules handle): never in a line a relay passes on.
bool isControl(char c)
{
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\t' && c != '\r' && c != '\n') || byte == 0x7f;
}
} // namespace

std::optional<Error> BodyDecoder::checkLineEnds(ByteView line, uint64_t offset, bool endsWithLf)
{
    for (size_t i = 0; i < line.size(); ++i) {
        const bool lf = endsWithLf && i + 1 == line.size();
        if (m_lastWasCr && !lf) // a CR that no LF follows
            return fail(Errc::BareLineEnd, offset + i).error();
        if (lf && !m_lastWasCr)
            return fail(Errc::BareLineEnd, offset + i).error();
        if (isControl(line[i]))
            return fail(Errc::InvalidChunkLine, offset + i).error();
        m_lastWasCr = line[i] == '\r';
    }
    return std::nullopt;
}

std::optional<Error> BodyDecoder::skipLine(ByteView wire, size_t& pos, size_t limit, Errc code, State next,
                                           bool consumeLf)
{
    auto* lf = static_cast<const char*>(std::memchr(wire.data() + pos, '\n', wire.size() - pos));
    size_t upTo = lf ? size_t(lf - wire.data()) + (consumeLf ? 1 : 0) : wire.size();
    const size_t allowed = limit - m_lineBytes;
    if (m_limits.strictLineEnds) {
        // The bytes within the limit and the first past it, so that the error found first is the same however
        // the line is split. An extension line's LF is read by SizeLf, which checks it; here the bytes up to it.
        const size_t checked = std::min(upTo - pos, allowed + 1);
        if (auto error =
                checkLineEnds(wire.substr(pos, checked), m_wire + pos, lf && consumeLf && checked == upTo - pos))
            return error;
    }
    if (upTo - pos > allowed) { // the offset is the first byte over the limit, whatever the chunking
        (void)fail(code, m_wire + pos + allowed);
        return m_error;
    }
    m_lineBytes += upTo - pos;
    pos = upTo;
    if (lf)
        m_state = next;
    return std::nullopt;
}

// A state machine over the framing (length, chunk size line, data, CRLF, trailers, until close): one case per
// state, each taking what bytes it can and naming the next; kept whole so the states read side by side.
Result<size_t> BodyDecoder::feed(ByteView wire, BodySink& sink)
{
    if (m_state == State::Failed)
        return m_error;
    const bool strict = m_limits.strictLineEnds;
    size_t pos = 0;
    while (pos < wire.size() && m_state != State::Done) {
        const uint64_t at = m_wire + pos;
        switch (m_state) {
        case State::Length:
        case State::Data:
        case State::UntilClose: {
            size_t take = m_state == State::UntilClose
                              ? wire.size() - pos
                              : static_cast<size_t>(std::min<uint64_t>(m_remaining, wire.size() - pos));
            sink.onBody(wire.substr(pos, take));
            m_body += take;
            pos += take;
            if (m_state == State::UntilClose)
                continue;
            m_remaining -= take;
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
                // Strict (RFC 9112 7.1.1): white space after the size is BWS before an extension's ';', never
                // the end of the line ("5 \r\n"), which servers read differently.
                m_state = strict && c != ';' ? State::SizeBws : State::SizeExt;
                m_lineBytes = 0;
                m_lastWasCr = false;
            } else if (m_sizeDigits > 0 && c == '\r') {
                m_state = State::SizeLf;
                m_lastWasCr = true;
            } else if (m_sizeDigits > 0 && c == '\n') {
                if (strict)
                    return fail(Errc::BareLineEnd, at);
                --pos;
                m_state = State::SizeLf;
            } else {
                return fail(Errc::InvalidChunkSize, at);
            }
            continue;
        }
        case State::SizeBws: {
            const char c = wire[pos++];
            if (c == ';')
                m_state = State::SizeExt;
            else if (c != ' ' && c != '\t')
                return fail(Errc::InvalidChunkLine, at);
            else if (++m_lineBytes > m_limits.maxChunkExtension)
                return fail(Errc::ChunkExtensionTooLarge, at);
            continue;
        }
        case State::SizeExt: // extensions are skipped, up to their limit
            if (auto error =
                    skipLine(wire, pos, m_limits.maxChunkExtension, Errc::ChunkExtensionTooLarge, State::SizeLf, false))
                return *error;
            continue;
        case State::SizeLf:
            if (wire[pos++] != '\n')
                return fail(strict ? Errc::BareLineEnd : Errc::InvalidChunkSize, at);
            if (strict && !m_lastWasCr)
                return fail(Errc::BareLineEnd, at);
            m_remaining = m_chunkSize;
            m_lineBytes = 0;
            m_lastWasCr = false;
            m_state = m_chunkSize == 0 ? State::TrailerStart : State::Data;
            m_chunks += m_chunkSize == 0 ? 0 : 1;
            m_chunkSize = 0;
            m_sizeDigits = 0;
            continue;
        case State::DataCr: {
            const char c = wire[pos++];
            if (c == '\n' && !strict)
                m_state = State::Size;
            else if (c == '\r')
                m_state = State::DataLf;
            else
                return fail(c == '\n' ? Errc::BareLineEnd : Errc::MalformedChunk, at);
            continue;
        }
        case State::DataLf:
            if (wire[pos++] != '\n')
                return fail(Errc::MalformedChunk, at);
            m_state = State::Size;
            continue;
        case State::TrailerStart: {
            const char c = wire[pos++];
            m_lastWasCr = false;
            if (c == '\n' && !strict) {
                m_state = State::Done;
            } else if (c == '\n') {
                return fail(Errc::BareLineEnd, at);
            } else if (c == '\r') {
                m_state = State::TrailerLf;
            } else if (strict && (c == ' ' || c == '\t' || isControl(c))) {
                return fail(Errc::InvalidChunkLine, at); // a folded trailer line, or a control byte to start one
            } else {
                m_state = State::TrailerLine;
                ++m_trailerBytes;
            }
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
                return fail(strict ? Errc::BareLineEnd : Errc::MalformedChunk, at);
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
