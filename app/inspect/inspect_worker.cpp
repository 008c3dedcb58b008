#include "inspect/inspect_worker.h"

#include "capture/report_json.h"
#include "common/limits.h"
#include "inspect/body_file.h"
#include "inspect/har.h"
#include "inspect/part_bytes.h"

#include "upin/core/digest.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace upin::app {

SourceKind detectSource(const QString& path)
{
    if (QFileInfo(path).isDir())
        return SourceKind::CaptureFolder;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return SourceKind::Body;
    if (path.endsWith(QLatin1String(".har"), Qt::CaseInsensitive) || file.peek(64).trimmed().startsWith("{"))
        return SourceKind::Har;
    QByteArray line = file.readLine(8192).trimmed();
    return line.endsWith(" HTTP/1.1") || line.endsWith(" HTTP/1.0") ? SourceKind::RawHttp : SourceKind::Body;
}

void InspectWorker::saveParts(const QList<PartCopy>& copies)
{
    QStringList failures;
    for (const auto& copy : copies) {
        QString error;
        if (!copyPartBytes(copy.source, copy.target, &error, copy.encoding))
            failures << error;
    }
    emit partsSaved(int(copies.size()), failures);
}

void InspectWorker::open(const QString& path, const QString& contentType, const core::Options& limits)
{
    m_cancel = false;
    emit finished(inspectSource(path, contentType, limits, [this](qint64 done, qint64 total) {
        emit progress(done, total);
        return !m_cancel.load();
    }));
}

InspectResult inspectRecord(const CaptureRecord& record)
{
    InspectResult result;
    result.capture = record;
    result.request = record.request;
    result.report = record.report;
    // Shorter than the folder's name, which the title would otherwise be (the path is in its tooltip).
    result.title = QObject::tr("capture %1 (%2)").arg(record.id).arg(record.endpoint);
    return result;
}

namespace {

// A HAR file's entries, each multipart one parsed, into result (its path set).
void readHarSource(InspectResult& result, const core::Options& limits)
{
    QFile file(result.path);
    if (!file.open(QIODevice::ReadOnly)) {
        result.error = QObject::tr("%1: %2").arg(result.path, file.errorString());
        return;
    }
    QString why;
    if (auto entries = readHar(file.readAll(), &why)) {
        result.harEntries = std::move(*entries);
        result.report = reportFromHar(result.harEntries, limits);
        if (result.harEntries.isEmpty())
            result.error = QObject::tr("%1: the HAR file has no requests").arg(result.path);
    } else {
        result.error = QObject::tr("%1: %2").arg(result.path, why);
    }
}

// A capture folder as its capture.json recorded it, with what else it kept: head.raw, and body.raw's size.
InspectResult inspectCaptureFolder(const QString& path, const CaptureRecord& capture)
{
    const QDir dir(path);
    InspectResult result = inspectRecord(capture);
    result.path = path;
    result.partsFolder = dir.absolutePath(); // part files are named by it, e.g. in curl commands
    QFile head(dir.filePath(QStringLiteral("head.raw")));
    result.headKept = head.open(QIODevice::ReadOnly);
    result.storedHead = result.headKept ? head.read(qint64{1} << 20) : QByteArray(); // the head limit bounds it
    const QFileInfo body(dir.filePath(QStringLiteral("body.raw")));
    result.storedBodySize = body.exists() ? body.size() : -1;
    return result;
}

} // namespace

InspectResult inspectSource(const QString& path, const QString& contentType, const core::Options& limits,
                            const std::function<bool(qint64, qint64)>& progress)
{
    InspectResult result;
    result.path = path;
    result.title = QFileInfo(path).fileName();
    if (!QFileInfo::exists(path)) { // a mistyped path, or a capture deleted since it was listed
        result.error = QObject::tr("%1 does not exist").arg(path);
        return result;
    }
    BodyFileRequest request;
    request.progress = progress;
    request.settings.parser = limits;
    const SourceKind kind = detectSource(path);
    if (kind == SourceKind::Har) { // JSON is read whole: HAR files hold their bodies as text anyway
        readHarSource(result, limits);
        return result;
    }
    if (kind == SourceKind::CaptureFolder) {
        QDir dir(path);
        QString why;
        result.capture = CaptureRecord::read(path, &why);
        if (!result.capture) {
            result.error = why;
            return result;
        }
        result = inspectCaptureFolder(path, *result.capture);
        if (!dir.exists(QStringLiteral("body.raw"))) // parts only: show what capture.json recorded
            return result;
        request.path = dir.filePath(QStringLiteral("body.raw"));
        request.contentType = result.capture->request.contentType.toStdString();
        // The digests the listener reported, so that a part reads the same here (SHA-256 where it had none).
        const auto hash = core::kHashNames.find(result.capture->hash.toStdString());
        request.settings.hash = hash && *hash != core::HashKind::None ? *hash : core::HashKind::Sha256;
    } else {
        result.error = emptyFileError(path);
        if (!result.error.isEmpty())
            return result;
        request.path = path;
        result.sourceSize = QFileInfo(path).size();
        request.rawHttp = kind == SourceKind::RawHttp;
        request.keepDecodedBody = true; // a chunked request's parts are then readable too
    }
    if (!contentType.isEmpty())
        request.contentType = contentType.toStdString();
    BodyFileResult parsed = parseBodyFile(request);
    result.report = std::move(parsed.report);
    if (request.rawHttp)
        result.request = parsed.request;
    if (!parsed.ioError.isEmpty())
        result.error = QObject::tr("%1: %2").arg(request.path, parsed.ioError);
    result.cancelled = parsed.cancelled;
    result.bodyFile = parsed.decodedBody ? parsed.decodedBody->fileName() : request.path;
    result.bodyFileOwner = parsed.decodedBody;
    if (!parsed.decodedBodyError.isEmpty())
        result.unmappedReason = QObject::tr("this body was sent chunked, and its de-chunked copy could not be written "
                                            "to the temporary folder (%1)")
                                    .arg(parsed.decodedBodyError);
    result.bodyFileOffset = parsed.bodyFileOffset;
    return result;
}

} // namespace upin::app
