#include "inspect/body_file.h"
#include "capture/report_json.h"
#include "common/qt_text.h"

#include "upin/core/http.h"
#include "upin/core/part_pipeline.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>

#include <vector>

namespace upin::app {

namespace {

constexpr qint64 kReadSize = 1 << 20;
// Reads in flight while the pipeline records and hashes them: 8 MiB at most.
constexpr size_t kReadBlocks = 8;

// Body bytes (after de-chunking) into the multipart parser.
class ParserSink final : public core::BodySink {
public:
    ParserSink(core::MultipartParser& parser, core::PartHandler& handler) : m_parser(parser), m_handler(handler) {}
    void onBody(core::ByteView data) override
    {
        if (copy && copyOk)
            copyOk = copy->write(data.data(), qint64(data.size())) == qint64(data.size());
        if (status)
            status = m_parser.feed(data, m_handler);
    }
    core::Result<void> status;
    QFile* copy = nullptr; // also writes the body here, when set
    bool copyOk = true;

private:
    core::MultipartParser& m_parser;
    core::PartHandler& m_handler;
};

} // namespace

QString emptyFileError(const QString& path)
{
    const QFileInfo info(path);
    return info.isFile() && info.size() == 0 ? QObject::tr("%1 is empty: nothing to parse").arg(path) : QString();
}

namespace {

// One parse of a file, in its steps: the head (raw HTTP), the parser, the body read and fed, its end.
class BodyFileParse {
public:
    explicit BodyFileParse(const BodyFileRequest& request) : m_request(request), m_file(request.path) {}
    BodyFileResult run();

private:
    bool readChunk(core::ByteView& chunk); // the next read, into a pool block the pipeline may hold
    bool readHead();                       // 1. false: the result's error says why
    core::Result<core::MultipartParser> makeParser();
    core::Result<void> feedBody(ParserSink& sink, core::BodyDecoder& decoder);
    core::Result<void> endBody(core::Result<void> status, core::MultipartParser& parser, core::PartHandler& handler,
                               const core::BodyDecoder& decoder);
    void keepDecodedBody(ParserSink& sink);
    void closeDecodedBody(const ParserSink& sink);
    bool decodes() const { return m_request.rawHttp && m_framing.kind != core::BodyFraming::Kind::None; }

    const BodyFileRequest& m_request;
    BodyFileResult m_result;
    QFile m_file;
    core::BlockPool m_blocks{size_t(kReadSize), kReadBlocks};
    core::BlockPool::Block m_block; // the last read's, while its bytes are parsed
    std::unique_ptr<core::PartPipeline> m_pipeline;
    core::HeadReader m_head;
    core::BodyFraming m_framing;
    core::ByteView m_pending; // read and not yet parsed: what followed the head in its last read
    std::optional<std::string> m_contentType;
};

bool BodyFileParse::readChunk(core::ByteView& chunk)
{
    m_block.reset();
    m_block = m_blocks.acquire(); // waits while the pipeline holds them all
    if (m_pipeline)
        m_pipeline->setSource(m_block);
    qint64 got = m_file.read(m_block->data(), kReadSize);
    if (got < 0)
        m_result.ioError = m_file.errorString();
    if (m_request.progress && !m_request.progress(m_file.pos(), m_file.size())) {
        m_result.cancelled = true;
        got = 0;
    }
    chunk = core::ByteView(m_block->data(), size_t(std::max<qint64>(got, 0)));
    return got > 0;
}

// 1. The request head, for raw HTTP files. What follows it in the last read is body.
bool BodyFileParse::readHead()
{
    while (!m_head.complete() && readChunk(m_pending)) {
        auto used = m_head.feed(m_pending);
        if (!used) {
            m_result.report.error = used.error();
            return false;
        }
        m_pending.remove_prefix(*used);
    }
    if (!m_head.complete()) {
        m_result.report.error = core::Error{core::Errc::UnexpectedEof, m_head.headBytes()};
        return false;
    }
    auto framing = core::bodyFraming(m_head.head());
    if (!framing) {
        m_result.report.error = framing.error();
        return false;
    }
    m_framing = *framing;
    m_result.request = RequestRecord::fromHead(m_head.head(), m_head.headBytes());
    m_result.request.setWire(m_framing, nullptr);
    m_result.bodyFileOffset = m_framing.kind == core::BodyFraming::Kind::Chunked ? -1 : qint64(m_head.headBytes());
    if (!m_contentType) {
        bool found = false;
        const std::string_view value = m_head.head().field("content-type", &found);
        if (found)
            m_contentType = std::string(value);
    }
    return true;
}

// 2. The parser: from the Content-Type, or a boundary guessed from the first delimiter line.
core::Result<core::MultipartParser> BodyFileParse::makeParser()
{
    const core::Options& options = m_request.settings.parser;
    if (m_contentType)
        return core::MultipartParser::fromContentType(*m_contentType, options);
    const QByteArray start =
        m_request.rawHttp ? QByteArray(m_pending.data(), qsizetype(m_pending.size())) : m_file.peek(qint64{64} * 1024);
    const std::string boundary = core::MultipartParser::guessBoundary({start.constData(), size_t(start.size())});
    if (boundary.empty())
        return core::Error{core::Errc::MissingBoundary, 0};
    m_result.guessed = true;
    return core::MultipartParser::fromBoundary(boundary, options);
}

// 3. The body, de-chunked when the head says so. Without framing, the rest of the file is the body.
core::Result<void> BodyFileParse::feedBody(ParserSink& sink, core::BodyDecoder& decoder)
{
    core::Result<void> status;
    do {
        if (m_pending.empty())
            continue;
        if (decodes()) {
            if (auto used = decoder.feed(m_pending, sink); !used)
                status = used.error();
        } else {
            sink.onBody(m_pending);
        }
        if (status && !sink.status)
            status = sink.status;
        if (m_pipeline)
            m_pipeline->flush();
    } while (status && !(decodes() && decoder.done()) && readChunk(m_pending));
    return status;
}

core::Result<void> BodyFileParse::endBody(core::Result<void> status, core::MultipartParser& parser,
                                          core::PartHandler& handler, const core::BodyDecoder& decoder)
{
    if (status && decodes() && !decoder.done()) {
        // The file ended before its framing did: the transfer's fault, whatever the content. Whether the multipart
        // body is whole anyway (a wrong Content-Length) is the parser's to say, beside it as a diagnostic.
        const quint64 missing = m_framing.kind == core::BodyFraming::Kind::ContentLength
                                    ? m_framing.contentLength - decoder.bodyBytes()
                                    : 0;
        handler.onDiagnostic({core::Errc::BodyCutShort, decoder.bodyBytes(), missing});
        if (auto content = parser.finish(handler); !content)
            handler.onDiagnostic({content.error().code, content.error().offset});
        return core::Error{core::Errc::BodyCutShort, decoder.bodyBytes()};
    }
    if (!status)
        return status;
    // The head's length ended the body before the file did: said first, as what the content's verdict (cut
    // short, when the length is too small) follows from.
    const qint64 after =
        m_framing.kind == core::BodyFraming::Kind::ContentLength && m_request.rawHttp
            ? QFileInfo(m_request.path).size() - m_result.bodyFileOffset - qint64(m_framing.contentLength)
            : 0;
    if (after > 0)
        handler.onDiagnostic({core::Errc::BytesAfterBody, m_framing.contentLength, quint64(after)});
    return parser.finish(handler);
}

void BodyFileParse::keepDecodedBody(ParserSink& sink)
{
    if (!m_request.keepDecodedBody || m_framing.kind != core::BodyFraming::Kind::Chunked)
        return;
    auto temporary = std::make_shared<QTemporaryFile>();
    if (temporary->open()) {
        sink.copy = temporary.get();
        m_result.decodedBody = temporary;
    } else {
        m_result.decodedBodyError = temporary->errorString();
    }
}

void BodyFileParse::closeDecodedBody(const ParserSink& sink)
{
    if (!m_result.decodedBody)
        return;
    if (sink.copyOk && m_result.decodedBody->flush()) {
        m_result.bodyFileOffset = 0;
    } else { // offsets stay unmapped; the parse itself stands
        m_result.decodedBodyError = m_result.decodedBody->errorString();
        m_result.decodedBody.reset();
    }
}

BodyFileResult BodyFileParse::run()
{
    if (!m_file.open(QIODevice::ReadOnly)) {
        m_result.ioError = m_file.errorString();
        return m_result;
    }
    m_contentType = m_request.contentType;
    if (m_request.rawHttp && !readHead())
        return m_result;
    auto parser = makeParser();
    if (!parser) {
        m_result.report.error = parser.error();
        return m_result;
    }
    core::EventRecorder recorder(m_request.settings);
    if (m_result.guessed)
        recorder.onDiagnostic({core::Errc::BoundaryGuessed, 0});
    // Recording and hashing run on a pipeline's thread when there is a hash, so they overlap reading the file.
    if (m_request.settings.hash != core::HashKind::None) {
        m_pipeline = std::make_unique<core::PartPipeline>(recorder);
        m_pipeline->setSource(m_block); // the head's last read may hold the body's first bytes
    }
    core::PartHandler& handler = m_pipeline ? static_cast<core::PartHandler&>(*m_pipeline) : recorder;
    ParserSink sink(*parser, handler);
    keepDecodedBody(sink);
    core::BodyDecoder decoder(m_framing);
    core::Result<void> status = feedBody(sink, decoder);
    if (m_request.rawHttp)
        m_result.request.setWire(m_framing, &decoder);
    status = endBody(status, *parser, handler, decoder);
    m_pipeline.reset(); // drained: the recorder holds every part
    m_result.report = recorder.takeReport(status, *parser);
    closeDecodedBody(sink);
    return std::move(m_result);
}

} // namespace

BodyFileResult parseBodyFile(const BodyFileRequest& request)
{
    return BodyFileParse(request).run();
}

} // namespace upin::app
