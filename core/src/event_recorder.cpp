#include "upin/core/event_recorder.h"

#include "upin/core/header_params.h"

#include <algorithm>
#include <utility>

namespace upin::core {

struct EventRecorder::Nested {
    MultipartParser parser;
    EventRecorder recorder;
    Result<void> status;
};

EventRecorder::EventRecorder(Settings settings, uint64_t baseOffset, uint32_t depth)
    : m_settings(settings), m_base(baseOffset), m_depth(depth), m_hasher(settings.hash)
{}

EventRecorder::~EventRecorder() = default;

void EventRecorder::flushDataLog()
{
    if (m_settings.log && m_loggedData > 0) {
        m_log.push_back("data " + std::to_string(m_loggedData));
        m_loggedData = 0;
    }
}

namespace {
// Room for this many top-level parts (or --max-parts, when fewer: 10,000 by default) is reserved at a body's second
// part. A vector of 10,000 parts doubled its way there, moving every part at each step into fresh memory that
// faulted its pages in again: a fifth of the connection thread's time for a form of 10,000 fields. Reserved at once,
// 10,000 parts (2.9 MB) are one allocation, whose untouched pages cost nothing, so a body of a few parts costs no
// more. The programs take up to 4 MiB from glibc's heap (malloc_tuning.h), where the previous body's parts left their
// pages: the listener's default of 10,000 parts is under it; parse's 16,384 (4.7 MB) is mmap'd afresh, as before.
// Under AddressSanitizer a large allocation is not free: it writes the shadow of all its bytes when made and again when
// freed (0.7 MB of shadow for 16,384 parts), so a sanitizer build reserves room for a few parts and lets the vector
// grow. Only the capacity differs; that reservation made the sanitizer suite's corpus tests three times slower.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
constexpr bool kAddressSanitizer = __has_feature(address_sanitizer);
#else
constexpr bool kAddressSanitizer = false;
#endif
constexpr size_t kPartsReserved = kAddressSanitizer ? 8 : 16384;
} // namespace

void EventRecorder::onPartBegin(uint32_t index, uint64_t offset)
{
    flushDataLog();
    if (m_depth == 0 && m_report.parts.size() == 1)
        m_report.parts.reserve(std::min<size_t>(kPartsReserved, m_settings.parser.maxParts));
    m_current = &m_report.parts.emplace_back();
    m_partContentType.clear();
    ++budget().parts;
    m_current->index = index;
    m_current->offset = m_base + offset;
    if (m_settings.log)
        m_log.push_back("begin " + std::to_string(index) + " @" + std::to_string(m_base + offset));
}

namespace {
std::optional<std::string> cut(std::optional<std::string> text, bool keepWhole, bool& wasCut)
{
    if (text && !keepWhole && text->size() > kRecordedTextCap) {
        size_t end = kRecordedTextCap;
        while (end > 0 && (static_cast<unsigned char>((*text)[end]) & 0xC0) == 0x80)
            --end;                   // not inside a UTF-8 sequence
        text = text->substr(0, end); // a new string: resize() would keep the long one's memory
        wasCut = true;
    }
    return text;
}
} // namespace

void EventRecorder::onHeader(std::string_view name, std::string_view value)
{
    ReportBudget& kept = budget();
    const uint64_t cost = name.size() + value.size();
    const bool keep = kept.headerBytes + cost <= m_settings.parser.maxRecordedHeaderBytes;
    if (keep) {
        kept.headerBytes += cost; // counted either way, so that names are cut as the full report cuts them
        if (m_settings.keepHeaders)
            m_current->headers.emplace_back(name, value);
    } else {
        ++m_current->headersNotKept;
        if (!kept.headersReported) { // once per report: the part's own count says the rest
            kept.headersReported = true;
            m_report.diagnostics.push_back(
                {Errc::HeadersNotKept, m_current->offset, m_settings.parser.maxRecordedHeaderBytes});
        }
    }
    bool& wasCut = m_current->textCut;
    if (equalsIgnoreCase(name, "content-disposition")) {
        ContentDisposition cd = parseContentDisposition(value);
        m_current->name = cut(cd.name, keep, wasCut);
        m_current->filename = cut(cd.filename, keep, wasCut);
    } else if (equalsIgnoreCase(name, "content-type")) {
        m_partContentType = std::string(value); // whole, for a nested body's boundary
        m_current->contentType = cut(m_partContentType, keep, wasCut);
    } else if (equalsIgnoreCase(name, "content-transfer-encoding")) {
        m_current->transferEncoding = cut(std::string(value), keep, wasCut);
    }
    if (m_settings.log)
        m_log.push_back("header " + std::string(name) + ": " + std::string(value));
}

void EventRecorder::onHeadersComplete(uint64_t offset)
{
    m_current->bodyOffset = m_base + offset;
    if (m_settings.log)
        m_log.push_back("headers @" + std::to_string(m_base + offset));
    if (!m_current->contentType)
        return;
    HeaderValue type = parseHeaderValue(m_partContentType);
    if (type.token.rfind("multipart/", 0) != 0)
        return;
    if (m_depth + 1 > m_settings.parser.maxDepth) {
        onDiagnostic({Errc::NestingTooDeep, offset, m_depth + 1});
        return;
    }
    // A nested body's parser may record what the report has left: the report holds at most maxParts parts (the
    // body's own and every nested body's) and maxDiagnostics diagnostics, however many nested bodies there are.
    const ReportBudget& used = budget();
    Options nested = m_settings.parser;
    nested.maxParts = uint32_t(nested.maxParts > used.parts ? nested.maxParts - used.parts : 0);
    nested.maxDiagnostics =
        uint32_t(nested.maxDiagnostics > used.diagnostics ? nested.maxDiagnostics - used.diagnostics : 0);
    if (nested.maxParts == 0) { // this and later nested bodies stay opaque data, said once
        if (!std::exchange(budget().nestedPartsReported, true))
            onDiagnostic({Errc::TooManyParts, offset, m_settings.parser.maxParts});
        return;
    }
    auto child = MultipartParser::fromContentType(m_partContentType, nested);
    if (!child) {
        onDiagnostic({child.error().code, offset});
        return;
    }
    m_nested.reset(new Nested{std::move(*child), EventRecorder(m_settings, m_base + offset, m_depth + 1), {}});
    m_nested->recorder.m_sharedBudget = &budget();
}

void EventRecorder::onPartData(ByteView data, uint64_t /*offset*/)
{
    m_current->size += data.size();
    if (m_settings.hash != HashKind::None)
        m_hasher.update(data);
    m_loggedData += data.size();
    if (m_nested && m_nested->status)
        m_nested->status = m_nested->parser.feed(data, m_nested->recorder);
}

void EventRecorder::closeNested()
{
    if (!m_nested)
        return;
    Result<void> outcome = m_nested->status ? m_nested->parser.finish(m_nested->recorder) : m_nested->status;
    ParseReport child = m_nested->recorder.takeReport(outcome, m_nested->parser);
    m_current->children = std::move(child.parts);
    for (const auto& diagnostic : child.diagnostics)
        m_report.diagnostics.push_back(diagnostic); // already absolute
    if (child.error)
        m_report.diagnostics.push_back({child.error->code, child.error->offset});
    if (m_settings.log)
        for (const auto& line : m_nested->recorder.log())
            m_log.push_back("  " + line);
    m_nested.reset();
}

void EventRecorder::onPartEnd(uint64_t offset)
{
    flushDataLog();
    m_current->complete = true;
    if (m_settings.hash != HashKind::None)
        m_current->digest = m_hasher.finishHex();
    closeNested();
    if (m_settings.log)
        m_log.push_back("end @" + std::to_string(m_base + offset) + " size " + std::to_string(m_current->size) + " " +
                        m_current->digest);
}

void EventRecorder::onDiagnostic(const Diagnostic& diagnostic)
{
    flushDataLog();
    Diagnostic absolute = diagnostic;
    absolute.offset += m_base;
    ++budget().diagnostics;
    m_report.diagnostics.push_back(absolute);
    if (m_settings.log)
        m_log.push_back("diag " + std::string(codeName(diagnostic.code)) + " @" + std::to_string(absolute.offset) +
                        (diagnostic.value ? " = " + std::to_string(diagnostic.value) : std::string()));
}

ParseReport EventRecorder::takeReport(const Result<void>& outcome, const MultipartParser& parser)
{
    flushDataLog();
    if (m_current && !m_current->complete) { // keep what arrived of an unfinished part
        if (m_settings.hash != HashKind::None)
            m_current->digest = m_hasher.finishHex();
        closeNested();
    }
    m_report.ok = outcome.has_value();
    if (!outcome) {
        m_report.error = Error{outcome.error().code, outcome.error().offset + m_base};
        if (m_settings.log)
            m_log.push_back("error " + std::string(codeName(outcome.error().code)) + " @" +
                            std::to_string(m_report.error->offset));
    }
    m_report.bytes = parser.bytesConsumed();
    m_report.boundary = parser.boundary();
    m_report.hash = m_settings.hash;
    m_current = nullptr;
    if (m_report.parts.capacity() > 2 * m_report.parts.size()) // reports are kept (the window's recent captures)
        m_report.parts.shrink_to_fit();
    return std::move(m_report);
}

ParseReport parseBuffer(MultipartParser& parser, ByteView body, EventRecorder::Settings settings, size_t chunkSize)
{
    EventRecorder recorder(settings);
    if (chunkSize == 0)
        chunkSize = body.size() ? body.size() : 1;
    Result<void> status;
    for (size_t pos = 0; pos < body.size() && status; pos += chunkSize)
        status = parser.feed(body.substr(pos, chunkSize), recorder);
    if (status)
        status = parser.finish(recorder);
    return recorder.takeReport(status, parser);
}

} // namespace upin::core
