#include "inspect/body_file.h"

#include <QFile>

#include <vector>

namespace upin::app {

namespace {
constexpr qint64 kReadSize = 1 << 20;
constexpr qint64 kGuessWindow = 64 * 1024;
} // namespace

BodyFileResult parseBodyFile(const BodyFileRequest& request)
{
    BodyFileResult result;
    QFile file(request.path);
    if (!file.open(QIODevice::ReadOnly)) {
        result.ioError = file.errorString();
        return result;
    }
    const core::Options& options = request.settings.parser;
    auto parser = [&]() -> core::Result<core::MultipartParser> {
        if (request.contentType)
            return core::MultipartParser::fromContentType(*request.contentType, options);
        QByteArray head = file.peek(kGuessWindow);
        std::string boundary = core::MultipartParser::guessBoundary({head.constData(), size_t(head.size())});
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
    std::vector<char> buffer(kReadSize);
    core::Result<void> status;
    while (status) {
        qint64 got = file.read(buffer.data(), kReadSize);
        if (got < 0) {
            result.ioError = file.errorString();
            break;
        }
        if (got == 0)
            break;
        status = parser->feed({buffer.data(), size_t(got)}, recorder);
    }
    if (status)
        status = parser->finish(recorder);
    result.report = recorder.takeReport(status, *parser);
    return result;
}

} // namespace upin::app
