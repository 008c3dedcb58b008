#include "bench/shootout_worker.h"
#include "common/qt_text.h"

#include "upin/core/event_recorder.h"

#include <QFile>
#include <QFileInfo>

namespace upin::app {

void ShootoutWorker::run(const ShootoutRequest& request)
{
    ShootoutResult result;
    core::BenchBody body;
    if (request.path.isEmpty()) {
        body = core::makeBenchBody(request.shape, request.size);
        auto name = core::benchInputName(request.shape);
        result.label = tr("%1, %2 MiB generated").arg(toQString(name)).arg(request.size >> 20);
    } else {
        QFile file(request.path);
        if (!file.open(QIODevice::ReadOnly)) {
            result.error = file.errorString();
            emit finished(result);
            return;
        }
        QByteArray bytes = file.read(qint64(kMaxFileBytes));
        body.body.assign(bytes.constData(), size_t(bytes.size()));
        std::string boundary =
            request.contentType.isEmpty() ? core::MultipartParser::guessBoundary(body.body) : std::string();
        body.contentType = request.contentType.isEmpty() ? "multipart/form-data; boundary=" + boundary
                                                         : request.contentType.toStdString();
        // The parts count that every strategy must reproduce, from one parse.
        auto parser = core::MultipartParser::fromContentType(body.contentType);
        if (!parser) {
            result.error = tr("%1: no usable boundary").arg(request.path);
            emit finished(result);
            return;
        }
        core::ParseReport report = core::parseBuffer(*parser, body.body, {core::HashKind::None, false, {}});
        body.parts = uint32_t(report.parts.size());
        result.label = QFileInfo(request.path).fileName();
    }
    result.bytes = body.body.size();
    auto add = [&](const QString& strategy, const core::BenchTiming& t) {
        result.entries.append({strategy, t.gbps, t.parsedOk});
    };
    add(QStringLiteral("memchr"), core::timeMemchrCeiling(body, request.runs));
    for (auto kind : core::kAllMatchers) {
        auto name = core::matcherName(kind);
        add(toQString(name), core::timeParser(body, kind, request.runs, size_t{256} * 1024));
    }
    emit finished(result);
}

} // namespace upin::app
