#include "bench/shootout_worker.h"
#include "common/qt_text.h"

#include "upin/core/errors.h"
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
        if (quint64(file.size()) > kMaxFileBytes) { // cut, it would read as a body that ends early
            result.error = tr("%1 is over %2 MiB: the shoot-out times a body in memory")
                               .arg(QFileInfo(request.path).fileName())
                               .arg(kMaxFileBytes >> 20);
            emit finished(result);
            return;
        }
        QByteArray bytes = file.readAll();
        body.body.assign(bytes.constData(), size_t(bytes.size()));
        std::string boundary =
            request.contentType.isEmpty() ? core::MultipartParser::guessBoundary(body.body) : std::string();
        body.contentType = request.contentType.isEmpty() ? "multipart/form-data; boundary=" + boundary
                                                         : request.contentType.toStdString();
        // The parts count that every strategy must reproduce, from one parse.
        auto parser =
            core::MultipartParser::fromContentType(body.contentType, core::benchParserOptions(core::kDefaultMatcher));
        if (!parser) {
            result.error = tr("%1: no usable boundary").arg(request.path);
            emit finished(result);
            return;
        }
        core::ParseReport report = core::parseBuffer(*parser, body.body, {core::HashKind::None, false, {}});
        // A file that is not a whole multipart body (a photo, a body cut short) would time an error path, not a parse:
        // said, with where it stops, rather than drawn as figures.
        if (report.error || report.parts.empty()) {
            result.error =
                report.error
                    ? tr("%1 is not a multipart body: %2 (byte %3)")
                          .arg(QFileInfo(request.path).fileName(), toQString(core::describe(report.error->code)))
                          .arg(report.error->offset)
                    : tr("%1 is not a multipart body: it has no part").arg(QFileInfo(request.path).fileName());
            emit finished(result);
            return;
        }
        body.parts = uint32_t(report.parts.size());
        result.label = QFileInfo(request.path).fileName();
    }
    result.bytes = body.body.size();
    auto add = [&](const QString& strategy, const core::BenchTiming& t) {
        result.entries.append({strategy, t.gbps, t.parsedOk});
    };
    const std::vector<core::MatcherKind> matchers(std::begin(core::kAllMatchers), std::end(core::kAllMatchers));
    const auto timings = core::timeAgainstMemchr(body, matchers, request.runs, size_t{256} * 1024);
    add(QStringLiteral("memchr"), timings.front());
    for (size_t i = 0; i < matchers.size(); ++i)
        add(toQString(core::matcherName(matchers[i])), timings[i + 1]);
    emit finished(result);
}

} // namespace upin::app
