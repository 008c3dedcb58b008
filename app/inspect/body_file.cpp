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

BodyFileResult parseBodyFile(const BodyFileRequest& request)
{
    BodyFileResult result;
    QFile file(request.path);
    if (!file.open(QIODevice::ReadOnly)) {
        result.ioError = file.errorString();
        return result;
    }
    core::BlockPool blocks(size_t(kReadSize), kReadBlocks);
    core::BlockPool::Block block; // the last read's, while its bytes are parsed
    std::unique_ptr<core::PartPipeline> pipeline;
    auto readChunk = [&](core::ByteView& chunk) {
        block.reset();
        block = blocks.acquire(); // waits while the pipeline holds them all
        if (pipeline)
            pipeline->setSource(block);
        qint64 got = file.read(block->data(), kReadSize);
        if (got < 0)
            result.ioError = file.errorString();
        if (request.progress && !request.progress(file.pos(), file.size())) {
            result.cancelled = true;
            got = 0;
        }
        chunk = core::ByteView(block->data(), size_t(std::max<qint64>(got, 0)));
        return got > 0;
    };

    // 1. The request head, for raw HTTP files. What follows it in the last read is body.
    core::HeadReader head;
    core::BodyFraming framing;
    core::ByteView pending;
    std::optional<std::string> contentType = request.contentType;
    if (request.rawHttp) {
        while (!head.complete() && readChunk(pending)) {
            auto used = head.feed(pending);
            if (!used) {
                result.report.error = used.error();
                return result;
            }
            pending.remove_prefix(*used);
        }
        if (!head.complete()) {
            result.report.error = core::Error{core::Errc::UnexpectedEof, head.headBytes()};
            return result;
        }
        auto parsedFraming = core::bodyFraming(head.head());
        if (!parsedFraming) {
            result.report.error = parsedFraming.error();
            return result;
        }
        framing = *parsedFraming;
        result.request = RequestRecord::fromHead(head.head(), head.headBytes());
        result.request.setWire(framing, nullptr);
        result.bodyFileOffset = framing.kind == core::BodyFraming::Kind::Chunked ? -1 : qint64(head.headBytes());
        if (!contentType) {
            bool found = false;
            std::string_view value = head.head().field("content-type", &found);
            if (found)
                contentType = std::string(value);
        }
    }

    // 2. The parser: from the Content-Type, or a boundary guessed from the first delimiter line.
    const core::Options& options = request.settings.parser;
    auto parser = [&]() -> core::Result<core::MultipartParser> {
        if (contentType)
            return core::MultipartParser::fromContentType(*contentType, options);
        QByteArray start =
            request.rawHttp ? QByteArray(pending.data(), qsizetype(pending.size())) : file.peek(qint64{64} * 1024);
        std::string boundary = core::MultipartParser::guessBoundary({start.constData(), size_t(start.size())});
        if (boundary.empty())
            return core::Error{core::Errc::MissingBoundary, 0};
        result.guessed = true;
        return core::MultipartParser::fromBoundary(boundary, options);
    }();
    if (!parser) {
        result.report.error = parser.error();
        return result;
    }
    core::EventRecorder recorder(request.settings);
    if (result.guessed)
        recorder.onDiagnostic({core::Errc::BoundaryGuessed, 0});

    // 3. The body, de-chunked when the head says so. Without framing, the rest of the file is the body. Recording
    // and hashing run on a pipeline's thread when there is a hash, so they overlap reading the file.
    if (request.settings.hash != core::HashKind::None) {
        pipeline = std::make_unique<core::PartPipeline>(recorder);
        pipeline->setSource(block); // the head's last read may hold the body's first bytes
    }
    core::PartHandler& handler = pipeline ? static_cast<core::PartHandler&>(*pipeline) : recorder;
    ParserSink sink(*parser, handler);
    if (request.keepDecodedBody && framing.kind == core::BodyFraming::Kind::Chunked) {
        auto temporary = std::make_shared<QTemporaryFile>();
        if (temporary->open()) {
            sink.copy = temporary.get();
            result.decodedBody = temporary;
        } else {
            result.decodedBodyError = temporary->errorString();
        }
    }
    core::BodyDecoder decoder(framing);
    const bool decode = request.rawHttp && framing.kind != core::BodyFraming::Kind::None;
    core::Result<void> status;
    do {
        if (pending.empty())
            continue;
        if (decode) {
            auto used = decoder.feed(pending, sink);
            if (!used)
                status = used.error();
        } else {
            sink.onBody(pending);
        }
        if (status && !sink.status)
            status = sink.status;
        if (pipeline)
            pipeline->flush();
    } while (status && !(decode && decoder.done()) && readChunk(pending));
    if (request.rawHttp)
        result.request.setWire(framing, &decoder);
    if (status && decode && !decoder.done()) {
        // The file ended before its framing did: the transfer's fault, whatever the content. Whether the multipart
        // body is whole anyway (a wrong Content-Length) is the parser's to say, beside it as a diagnostic.
        const quint64 missing =
            framing.kind == core::BodyFraming::Kind::ContentLength ? framing.contentLength - decoder.bodyBytes() : 0;
        handler.onDiagnostic({core::Errc::BodyCutShort, decoder.bodyBytes(), missing});
        if (auto content = parser->finish(handler); !content)
            handler.onDiagnostic({content.error().code, content.error().offset});
        status = core::Error{core::Errc::BodyCutShort, decoder.bodyBytes()};
    } else if (status) {
        // The head's length ended the body before the file did: said first, as what the content's verdict (cut
        // short, when the length is too small) follows from.
        const qint64 after =
            framing.kind == core::BodyFraming::Kind::ContentLength && request.rawHttp
                ? QFileInfo(request.path).size() - result.bodyFileOffset - qint64(framing.contentLength)
                : 0;
        if (after > 0)
            handler.onDiagnostic({core::Errc::BytesAfterBody, framing.contentLength, quint64(after)});
        status = parser->finish(handler);
    }
    pipeline.reset(); // drained: the recorder holds every part
    result.report = recorder.takeReport(status, *parser);
    if (result.decodedBody) {
        if (sink.copyOk && result.decodedBody->flush()) {
            result.bodyFileOffset = 0;
        } else { // offsets stay unmapped; the parse itself stands
            result.decodedBodyError = result.decodedBody->errorString();
            result.decodedBody.reset();
        }
    }
    return result;
}

} // namespace upin::app
