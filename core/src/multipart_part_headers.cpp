// A MultipartParser's part headers: the block after each delimiter line, read up to its blank line (or a delimiter
// line that cuts it short), then split, checked and handed to the handler. The body and the delimiters are in
// multipart_parser.cpp.

#include "multipart_scratch.h"
#include "upin/core/header_params.h"
#include "upin/core/multipart_parser.h"

#include <algorithm>
#include <cstring>

namespace upin::core {

void MultipartParser::startPart(uint64_t offset)
{
    m_state = State::Headers;
    m_partOffset = offset;
    m_headerBlock.clear();
    m_lineStart = 0;
    m_headerLines = 0;
}

bool MultipartParser::headerLineIsDelimiter(std::string_view line, bool& isClose) const
{
    if (line.size() < m_boundary.size() + 2 || line.substr(0, 2) != "--" ||
        line.substr(2, m_boundary.size()) != m_boundary)
        return false;
    std::string_view rest = line.substr(2 + m_boundary.size());
    isClose = rest.substr(0, 2) == "--";
    if (isClose)
        return true;
    return rest.find_first_not_of(" \t") == std::string_view::npos;
}

size_t MultipartParser::readHeaders(ByteView chunk, size_t pos)
{
    if (!m_partOpen) { // the first byte of a new part
        if (m_partCount >= m_options.maxParts) {
            fail(Errc::TooManyParts, m_partOffset);
            return chunk.size();
        }
        m_partOpen = true;
        m_partBytes = 0;
        m_isField = false;
        m_handler->onPartBegin(m_partCount++, m_partOffset);
    }
    // Most blocks lie whole in the chunk and need nothing of the general path below: split where they lie.
    size_t blockSize = 0;
    if (m_headerBlock.empty() &&
        detail::splitCleanHeaderBlock(chunk.substr(pos), m_options.maxHeaderBytes, m_options.maxHeadersPerPart,
                                      m_scratch->fields, blockSize)) {
        m_scratch->issues.clear();
        deliverHeaders(m_chunkOffset + pos + blockSize);
        return pos + blockSize;
    }
    while (pos < chunk.size()) {
        auto* lf = static_cast<const char*>(std::memchr(chunk.data() + pos, '\n', chunk.size() - pos));
        size_t lineEnd = lf ? static_cast<size_t>(lf - chunk.data()) + 1 : chunk.size();
        size_t take = lineEnd - pos;
        if (m_headerBlock.size() + take > m_options.maxHeaderBytes) {
            fail(Errc::HeaderBlockTooLarge, m_chunkOffset + pos + (m_options.maxHeaderBytes - m_headerBlock.size()));
            return chunk.size();
        }
        m_headerBlock.append(chunk.data() + pos, take);
        pos = lineEnd;
        if (!lf)
            return pos;
        const uint64_t afterLine = m_chunkOffset + pos;
        const uint64_t lineOffset = afterLine - (m_headerBlock.size() - m_lineStart);
        std::string_view line(m_headerBlock.data() + m_lineStart, m_headerBlock.size() - m_lineStart - 1);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty()) {
            if (m_headerBlock.size() - m_lineStart == 1 && !report(Errc::BareLineFeed, lineOffset))
                return chunk.size();
            processHeaderBlock(m_lineStart, afterLine);
            return pos;
        }
        bool isClose = false;
        if (headerLineIsDelimiter(line, isClose)) {
            endHeadersAtDelimiter(lineOffset, isClose, afterLine);
            return m_state == State::Failed ? chunk.size() : pos;
        }
        if (++m_headerLines > m_options.maxHeadersPerPart) {
            fail(Errc::TooManyHeaders, lineOffset);
            return chunk.size();
        }
        m_lineStart = m_headerBlock.size();
    }
    return pos;
}

// Go accepts a header block that runs straight into the next delimiter line (an App Engine capture does this):
// the part has an empty body.
void MultipartParser::endHeadersAtDelimiter(uint64_t lineOffset, bool isClose, uint64_t nextPart)
{
    if (!report(Errc::HeadersEndedByDelimiter, lineOffset))
        return;
    processHeaderBlock(m_lineStart, lineOffset);
    if (m_state == State::Failed)
        return;
    endPart(lineOffset);
    if (isClose)
        m_state = State::Epilogue;
    else
        startPart(nextPart);
}

void MultipartParser::processHeaderBlock(size_t blockSize, uint64_t bodyOffset)
{
    auto& scratch = *m_scratch;
    m_headerBlock.resize(blockSize);
    detail::splitHeaderBlock(m_headerBlock, scratch.fields, scratch.issues);
    deliverHeaders(bodyOffset);
}

// The split block's issues and fields to the handler, and the part's body begins.
void MultipartParser::deliverHeaders(uint64_t bodyOffset)
{
    auto& scratch = *m_scratch;
    for (const auto& issue : scratch.issues)
        if (!report(issue.code, m_partOffset + issue.at, issue.value))
            return;
    bool hasDisposition = false;
    for (const auto& field : scratch.fields) {
        // The spelling every client sends is one compare of 19 bytes; the byte loop takes the rest.
        if (field.name == "Content-Disposition" || equalsIgnoreCase(field.name, "content-disposition")) {
            const DispositionFacts facts = dispositionFacts(field.value);
            hasDisposition = true;
            m_isField = !facts.hasFilename;
            if (m_formData && !facts.named)
                diagnose(Errc::EmptyFieldName, m_partOffset);
            if (facts.namedByExtValue)
                diagnose(Errc::FieldNamedByExtValue, m_partOffset);
            // RFC 6266 makes such a header invalid: an irregularity, which strict mode refuses.
            if (facts.repeatedParameter && !report(Errc::RepeatedDispositionParameter, m_partOffset))
                return;
        }
        m_handler->onHeader(field.name, field.value);
    }
    if (m_formData && !hasDisposition)
        diagnose(Errc::MissingContentDisposition, m_partOffset);
    m_handler->onHeadersComplete(bodyOffset);
    m_state = State::Body;
    // The LF that ended the header block may double as the LF of the next delimiter (an empty body).
    m_matcher->reset(1);
    m_virtualHeld = true;
    m_heldOffset = bodyOffset - 1;
    m_pendingCr = false;
}

} // namespace upin::core
