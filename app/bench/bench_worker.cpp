#include "bench/bench_worker.h"
#include "common/qt_text.h"

#include "upin/core/errors.h"
#include "upin/core/event_recorder.h"

#include <QFile>
#include <QFileInfo>

namespace upin::app {

namespace {

// A user's file as a body to time: the parts count every strategy must reproduce, from one parse. Empty, with
// why in *error, when it cannot be read or is not a whole multipart body.
std::optional<core::BenchBody> fileBody(const BenchRequest& request, QString* error)
{
    QFile file(request.path);
    const QString name = QFileInfo(request.path).fileName();
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return std::nullopt;
    }
    if (quint64(file.size()) > BenchWorker::kMaxFileBytes) { // cut, it would read as a body that ends early
        *error = BenchWorker::tr("%1 is over %2 MiB: the bench times a body in memory")
                     .arg(name)
                     .arg(BenchWorker::kMaxFileBytes >> 20);
        return std::nullopt;
    }
    core::BenchBody body;
    const QByteArray bytes = file.readAll();
    body.body.assign(bytes.constData(), size_t(bytes.size()));
    const std::string boundary =
        request.contentType.isEmpty() ? core::MultipartParser::guessBoundary(body.body) : std::string();
    body.contentType =
        request.contentType.isEmpty() ? "multipart/form-data; boundary=" + boundary : request.contentType.toStdString();
    auto parser =
        core::MultipartParser::fromContentType(body.contentType, core::benchParserOptions(core::kDefaultMatcher));
    if (!parser) {
        *error = BenchWorker::tr("%1: no usable boundary").arg(request.path);
        return std::nullopt;
    }
    const core::ParseReport report = core::parseBuffer(*parser, body.body, {core::HashKind::None, false, {}});
    // A file that is not a whole multipart body (a photo, a body cut short) would time an error path, not a parse:
    // said, with where it stops, rather than drawn as figures.
    if (report.error || report.parts.empty()) {
        *error = report.error ? BenchWorker::tr("%1 is not a multipart body: %2 (byte %3)")
                                    .arg(name, toQString(core::describe(report.error->code)))
                                    .arg(report.error->offset)
                              : BenchWorker::tr("%1 is not a multipart body: it has no part").arg(name);
        return std::nullopt;
    }
    body.parts = uint32_t(report.parts.size());
    return body;
}

} // namespace

void BenchWorker::run(const BenchRequest& request)
{
    BenchResult result;
    core::BenchBody body;
    if (request.path.isEmpty()) {
        body = core::makeBenchBody(request.shape, request.size);
        auto name = core::benchInputName(request.shape);
        result.label = tr("%1, %2 MiB generated").arg(toQString(name)).arg(request.size >> 20);
    } else {
        std::optional<core::BenchBody> read = fileBody(request, &result.error);
        if (!read) {
            emit finished(result);
            return;
        }
        body = std::move(*read);
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
