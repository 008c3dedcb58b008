#include "upin/core/multipart_parser.h"

#include "header_block.h"
#include "multipart_scratch.h"
#include "upin/core/header_params.h"

#include <algorithm>
#include <cstring>

namespace upin::core {
namespace {

constexpr char kCr[] = "\r";
constexpr char kDash[] = "-";

bool isInformational(Errc code)
{
    switch (code) {
    case Errc::Preamble:
    case Errc::BoundaryGuessed:
    case Errc::MissingContentDisposition:
    case Errc::EmptyFieldName:
    case Errc::FieldNamedByExtValue:
    case Errc::NestingTooDeep:
    case Errc::DiagnosticsTruncated: return true;
    default: return false;
    }
}

} // namespace

namespace {
bool isPrintableBoundary(std::string_view boundary)
{
    return !boundary.empty() && boundary.back() != ' ' && std::all_of(boundary.begin(), boundary.end(), [](char c) {
        return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f;
    });
}
} // namespace

Result<MultipartParser> MultipartParser::fromContentType(std::string_view contentType, Options options)
{
    HeaderValue parsed = parseHeaderValue(contentType);
    if (parsed.token.rfind("multipart/", 0) != 0)
        return Error{Errc::NotMultipart, 0};
    const std::string* boundary = parsed.param("boundary");
    if (!boundary)
        return Error{Errc::MissingBoundary, 0};
    auto parser = fromBoundary(*boundary, options);
    if (parser)
        parser->m_formData = parsed.token == "multipart/form-data";
    return parser;
}

Result<MultipartParser> MultipartParser::fromBoundary(std::string_view boundary, Options options)
{
    if (options.maxBoundaryLength > kMaxBoundaryCap)
        options.maxBoundaryLength = kMaxBoundaryCap;
    if (boundary.size() > options.maxBoundaryLength)
        return Error{Errc::BoundaryTooLong, 0};
    if (isValidBoundary(boundary))
        return MultipartParser(std::string(boundary), options, true);
    // Some clients and test suites send boundaries outside bchars (`boundary=\/\/\/\/`, unquoted). Lenient mode
    // takes any printable boundary as written and says so; a control character could never match a delimiter line.
    if (options.strict || !isPrintableBoundary(boundary))
        return Error{Errc::InvalidBoundary, 0};
    MultipartParser parser(std::string(boundary), options, true);
    parser.m_irregularBoundary = true;
    return parser;
}

std::string MultipartParser::guessBoundary(ByteView body)
{
    size_t i = 0;
    while (i < body.size() && (body[i] == '\r' || body[i] == '\n'))
        ++i;
    if (body.substr(i, 2) != "--")
        return {};
    size_t end = body.find('\n', i);
    if (end == std::string_view::npos)
        return {};
    std::string_view line = body.substr(i + 2, end - i - 2);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
        line.remove_suffix(1);
    if (line.size() > kMaxBoundaryCap || !isPrintableBoundary(line)) // fromBoundary judges it as the mode says
        return {};
    return std::string(line);
}

MultipartParser::MultipartParser(std::string boundary, Options options, bool formData)
    : m_options(options), m_boundary(std::move(boundary)),
      m_matcher(DelimiterMatcher::create(options.matcher, "\n--" + m_boundary)), m_scratch(std::make_unique<Scratch>()),
      m_formData(formData)
{
    m_scratch->fields.reserve(options.maxHeadersPerPart);
    m_headerBlock.reserve(std::min<size_t>(options.maxHeaderBytes, size_t{64} * 1024));
    // A body may open with "--boundary" directly: pretend the LF before it was already seen.
    m_matcher->reset(1);
    m_virtualHeld = true;
    m_heldOffset = uint64_t(0) - 1;
}

MultipartParser::MultipartParser(MultipartParser&&) noexcept = default;
MultipartParser& MultipartParser::operator=(MultipartParser&&) noexcept = default;
MultipartParser::~MultipartParser() = default;

Result<void> MultipartParser::feed(ByteView chunk, PartHandler& handler)
{
    if (m_state == State::Failed)
        return m_error;
    m_handler = &handler;
    if (m_irregularBoundary) { // reported once, with the first input
        m_irregularBoundary = false;
        diagnose(Errc::InvalidBoundary, 0);
    }
    bool overLimit = m_offset + chunk.size() > m_options.maxBodySize;
    if (overLimit)
        chunk = chunk.substr(0, m_options.maxBodySize - m_offset);
    m_chunkOffset = m_offset;
    for (size_t pos = 0; pos < chunk.size() && m_state != State::Failed;) {
        switch (m_state) {
        case State::Preamble:
        case State::Body: pos = scanBody(chunk, pos); break;
        case State::AfterDelimiter: pos = readDelimiterTail(chunk, pos); break;
        case State::Headers: pos = readHeaders(chunk, pos); break;
        case State::Epilogue: pos = chunk.size(); break; // skipped without looking at it
        case State::Failed: break;
        }
    }
    m_offset = m_chunkOffset + chunk.size();
    if (overLimit && m_state != State::Failed)
        fail(Errc::BodyTooLarge, m_options.maxBodySize);
    m_handler = nullptr;
    if (m_state == State::Failed)
        return m_error;
    return {};
}

Result<void> MultipartParser::finish(PartHandler& handler)
{
    if (m_state == State::Failed)
        return m_error;
    m_handler = &handler;
    const uint64_t end = m_offset;
    switch (m_state) {
    case State::Preamble: fail(Errc::NoDelimiter, end); break;
    case State::Body:
        // Whatever the matcher held was data after all: deliver it, so nothing received is lost.
        if (m_matcher->held() > 0)
            releaseHeld(m_matcher->held(), m_heldOffset);
        if (m_pendingCr)
            emitData({}, end);
        if (m_state != State::Failed)
            fail(Errc::UnexpectedEof, end);
        break;
    case State::AfterDelimiter:
        if (!m_delimiterConfirmed)
            confirmDelimiter();
        if (m_state != State::Failed && report(Errc::MissingCloseDelimiter, end))
            m_state = State::Epilogue;
        break;
    case State::Headers: {
        std::string_view lastLine(m_headerBlock.data() + m_lineStart, m_headerBlock.size() - m_lineStart);
        bool isClose = false;
        if (m_partOpen && headerLineIsDelimiter(lastLine, isClose) && isClose)
            endHeadersAtDelimiter(end - lastLine.size(), true, end);
        else if (m_partOpen)
            fail(Errc::UnexpectedEof, end);
        else if (report(Errc::MissingCloseDelimiter, end))
            m_state = State::Epilogue;
        break;
    }
    case State::Epilogue:
    case State::Failed: break;
    }
    m_handler = nullptr;
    if (m_state == State::Failed)
        return m_error;
    return {};
}

size_t MultipartParser::scanBody(ByteView chunk, size_t pos)
{
    ByteView rest = chunk.substr(pos);
    const uint64_t restOffset = m_chunkOffset + pos;
    const bool startedHeld = m_matcher->held() > 0;
    auto scan = m_matcher->scan(rest);
    const bool viaVirtual = m_virtualHeld && startedHeld && scan.released == 0 && scan.found;
    if (scan.released > 0)
        releaseHeld(scan.released, m_heldOffset);
    if (scan.dataEnd > 0)
        emitData(rest.substr(0, scan.dataEnd), restOffset);
    if (m_state == State::Failed)
        return chunk.size();
    if (!scan.found) {
        m_heldOffset = restOffset + rest.size() - m_matcher->held();
        return chunk.size();
    }
    m_virtualHeld = false;
    m_delimiterOffset = restOffset + scan.matchEnd - m_matcher->pattern().size(); // wraps for the virtual LF
    // Where the part body ends if this candidate is confirmed: before the CR of a CRLF, or before a bare LF.
    m_bodyEnd = viaVirtual ? m_delimiterOffset + 1 : (m_pendingCr ? m_pendingCrOffset : m_delimiterOffset);
    m_bareLf = !viaVirtual && !m_pendingCr;
    m_candidateViaVirtual = viaVirtual;
    m_scanState = m_state;
    m_delimiterConfirmed = false;
    m_state = State::AfterDelimiter;
    m_tail = Tail::Start;
    return pos + scan.matchEnd;
}

void MultipartParser::releaseHeld(size_t count, uint64_t offset)
{
    size_t skip = m_virtualHeld ? 1 : 0; // the virtual LF is never data
    m_virtualHeld = false;
    if (count > skip)
        emitData(m_matcher->pattern().substr(skip, count - skip), offset + skip);
}

void MultipartParser::emitData(ByteView data, uint64_t offset)
{
    if (m_state == State::Preamble) { // preamble bytes are skipped; remember a final CR to size the preamble
        if (!data.empty()) {
            m_pendingCr = data.back() == '\r';
            m_pendingCrOffset = offset + data.size() - 1;
        }
        return;
    }
    if (m_pendingCr) {
        m_pendingCr = false;
        deliver(ByteView(kCr, 1), m_pendingCrOffset);
    }
    if (!data.empty() && data.back() == '\r') {
        m_pendingCr = true;
        m_pendingCrOffset = offset + data.size() - 1;
        data.remove_suffix(1);
    }
    deliver(data, offset);
}

void MultipartParser::deliver(ByteView data, uint64_t offset)
{
    if (data.empty() || m_state == State::Failed)
        return;
    const uint64_t limit = m_isField ? std::min(m_options.maxFieldSize, m_options.maxPartSize) : m_options.maxPartSize;
    if (m_partBytes + data.size() > limit) {
        size_t allowed = static_cast<size_t>(limit - m_partBytes);
        if (allowed > 0)
            m_handler->onPartData(data.substr(0, allowed), offset);
        fail(m_isField && limit == m_options.maxFieldSize ? Errc::FieldTooLarge : Errc::PartTooLarge, offset + allowed);
        return;
    }
    m_partBytes += data.size();
    m_handler->onPartData(data, offset);
}

void MultipartParser::confirmDelimiter()
{
    m_delimiterConfirmed = true;
    if (m_scanState == State::Body) {
        if (m_bareLf && !report(Errc::BareLineFeed, m_delimiterOffset))
            return;
        m_pendingCr = false; // it was the delimiter's CR
        endPart(m_bodyEnd);
    } else {
        if (m_bodyEnd > 0) // the preamble is [0, m_bodyEnd)
            diagnose(Errc::Preamble, 0, m_bodyEnd);
    }
}

void MultipartParser::falseDelimiter(ByteView extra)
{
    // "--boundaryX" is data (as in Go). Re-emit the candidate from the pattern; no buffer is needed.
    m_state = m_scanState;
    ByteView pattern = m_matcher->pattern();
    if (m_state == State::Body) {
        if (m_candidateViaVirtual)
            emitData(pattern.substr(1), m_delimiterOffset + 1);
        else
            emitData(pattern, m_delimiterOffset);
        emitData(extra, m_delimiterOffset + pattern.size());
    } else {
        m_pendingCr = false;
    }
    m_matcher->reset(0);
}

// A state machine over what may follow a delimiter ("--", transport padding, CRLF or a bare LF): one case per
// Tail state, kept whole so the states read side by side.
size_t MultipartParser::readDelimiterTail(ByteView chunk, size_t pos)
{
    // The tail nearly every delimiter has, CRLF, taken at once: the byte loop below cost a part of many small ones
    // a tenth of its time.
    if (m_tail == Tail::Start && chunk.size() - pos >= 2 && chunk[pos] == '\r' && chunk[pos + 1] == '\n') {
        confirmDelimiter();
        if (m_state == State::Failed)
            return chunk.size();
        startPart(m_chunkOffset + pos + 2);
        return pos + 2;
    }
    for (; pos < chunk.size() && m_state == State::AfterDelimiter; ++pos) {
        const char c = chunk[pos];
        const uint64_t at = m_chunkOffset + pos;
        switch (m_tail) {
        case Tail::Start:
            if (c == '-') {
                m_tail = Tail::Dash;
                continue;
            }
            if (c == '\r') { // confirmed only if LF follows: "--boundary\rX" is data
                m_tail = Tail::ExpectLf;
                continue;
            }
            if (c != ' ' && c != '\t' && c != '\n') {
                falseDelimiter(ByteView());
                return pos; // rescan this byte as data
            }
            confirmDelimiter();
            if (m_state == State::Failed)
                return chunk.size();
            m_tail = Tail::Padding;
            [[fallthrough]];
        case Tail::Padding:
            if (c == ' ' || c == '\t')
                continue;
            if (c == '\r') {
                m_tail = Tail::ExpectLf;
                continue;
            }
            if (c == '\n') {
                if (!report(Errc::BareLineFeed, at))
                    return chunk.size();
                startPart(at + 1);
                return pos + 1;
            }
            if (!report(Errc::TextAfterDelimiter, at))
                return chunk.size();
            m_tail = Tail::SkipLine;
            continue;
        case Tail::Dash:
            if (c != '-') {
                falseDelimiter(ByteView(kDash, 1));
                return pos;
            }
            confirmDelimiter();
            if (m_state != State::Failed)
                m_state = State::Epilogue;
            return pos + 1;
        case Tail::ExpectLf:
            if (c == '\n') {
                if (!m_delimiterConfirmed)
                    confirmDelimiter();
                if (m_state == State::Failed)
                    return chunk.size();
                startPart(at + 1);
                return pos + 1;
            }
            if (!m_delimiterConfirmed) {
                falseDelimiter(ByteView(kCr, 1));
                return pos;
            }
            if (!report(Errc::TextAfterDelimiter, at))
                return chunk.size();
            m_tail = Tail::SkipLine;
            [[fallthrough]];
        case Tail::SkipLine: {
            auto* lf = static_cast<const char*>(std::memchr(chunk.data() + pos, '\n', chunk.size() - pos));
            if (!lf)
                return chunk.size();
            pos = static_cast<size_t>(lf - chunk.data());
            startPart(m_chunkOffset + pos + 1);
            return pos + 1;
        }
        }
    }
    return pos;
}

void MultipartParser::endPart(uint64_t bodyEnd)
{
    if (!m_partOpen)
        return;
    m_handler->onPartEnd(bodyEnd);
    m_partOpen = false;
    m_pendingCr = false;
}

bool MultipartParser::report(Errc code, uint64_t offset, uint64_t value)
{
    if (m_options.strict && !isInformational(code)) {
        fail(code, offset, value);
        return false;
    }
    diagnose(code, offset, value);
    return true;
}

void MultipartParser::diagnose(Errc code, uint64_t offset, uint64_t value)
{
    if (m_diagnosticCount < m_options.maxDiagnostics)
        m_handler->onDiagnostic({code, offset, value});
    else if (m_diagnosticCount == m_options.maxDiagnostics)
        m_handler->onDiagnostic({Errc::DiagnosticsTruncated, offset, 0});
    ++m_diagnosticCount;
}

void MultipartParser::fail(Errc code, uint64_t offset, uint64_t value)
{
    m_state = State::Failed;
    m_error = {code, offset, value};
}

} // namespace upin::core
