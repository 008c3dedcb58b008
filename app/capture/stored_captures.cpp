#include "capture/stored_captures.h"
#include "capture/capture_record.h"
#include "capture/refused_request.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace upin::app {

namespace {
std::optional<StoredCapture> readStored(const QString& folder, const QDateTime& finished)
{
    const std::optional<CaptureRecord> record = CaptureRecord::read(folder);
    if (!record)
        return std::nullopt;
    StoredCapture c;
    c.id = record->id.toULongLong();
    c.folder = folder;
    c.finished = finished;
    // Rounded up: a capture that took a fraction of a millisecond has a rate, not a duration of 0 ms.
    c.elapsedMs = qint64(std::ceil(record->elapsedMs));
    c.started = c.finished.addMSecs(-c.elapsedMs);
    c.client = record->request.client;
    c.method = record->request.method;
    for (const auto& [name, value] : record->request.headers.value_or(QList<QPair<QString, QString>>{}))
        c.fromProbe = c.fromProbe || name.compare(QLatin1String(kProbeHeader), Qt::CaseInsensitive) == 0;
    c.answerStatus = record->answered ? record->answered->status : 0;
    c.tls = record->request.transport ? record->request.transport->label() : QString();
    if (record->forward)
        c.forward = record->forward->timings();
    c.endpoint = record->endpoint;
    c.matcher = record->matcher;
    c.bytes = record->bytes;
    c.parts = int(record->report.parts.size());
    c.diagnostics = int(record->report.diagnostics.size());
    c.state = record->state;
    c.error = record->error;
    c.errorDetail = record->errorInWords();
    return c;
}
// The refused requests of the rolling log (CaptureStore::recordRefused), the older file first: at most two small
// files whatever their number.
void forEachRefused(const QString& root, const std::function<void(const RefusedRequest&)>& take)
{
    const QString log = QDir(root).filePath(QStringLiteral("refused.jsonl"));
    for (const QString& path : {log + QStringLiteral(".1"), log}) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        while (!file.atEnd())
            if (const auto refused = RefusedRequest::fromJson(QJsonDocument::fromJson(file.readLine()).object()))
                take(*refused);
    }
}

QList<StoredCapture> refusedCaptures(const QString& root)
{
    QList<StoredCapture> out;
    forEachRefused(root, [&](const RefusedRequest& refused) {
        StoredCapture c;
        c.id = refused.id;
        c.finished = c.started = refused.receivedAt;
        c.client = refused.client;
        c.method = refused.method;
        c.tls = refused.tls;
        c.endpoint = refused.label();
        c.matcher = QStringLiteral("none");
        c.state = CaptureState::Refused;
        c.error = refused.error;
        c.errorDetail = refused.reason;
        c.answerStatus = refused.status;
        out.append(c);
    });
    return out;
}

} // namespace

QList<StoredCapture> storedCaptures(const QString& root, int limit)
{
    std::vector<QList<StoredCapture>> batches; // newest batch first
    storedCaptures(root, limit, [&](const QList<StoredCapture>& batch) { batches.push_back(batch); });
    QList<StoredCapture> all;
    for (auto it = batches.rbegin(); it != batches.rend(); ++it)
        all += *it;
    return all;
}

void storedCaptures(const QString& root, int limit, const std::function<void(const QList<StoredCapture>&)>& batch,
                    int batchSize)
{
    struct Found {
        QString folder;
        QDateTime finished;
        std::optional<StoredCapture> refused; // read already, from the refused log
    };
    std::vector<Found> found;
    for (const QFileInfo& dir : QDir(root).entryInfoList({QStringLiteral("capture-*")}, QDir::Dirs)) {
        const QFileInfo json(QDir(dir.filePath()).filePath(QStringLiteral("capture.json")));
        if (json.isFile())
            found.push_back({dir.filePath(), json.lastModified(), std::nullopt});
    }
    for (const StoredCapture& c : refusedCaptures(root))
        found.push_back({QString(), c.finished, c});
    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.finished > b.finished; });
    if (found.size() > size_t(limit))
        found.resize(size_t(limit));
    // Newest first, batch by batch: the folder names and times are known already, capture.json is what takes time.
    for (size_t from = 0; from < found.size(); from += size_t(batchSize)) {
        QList<StoredCapture> out;
        const size_t to = std::min(found.size(), from + size_t(batchSize));
        for (size_t i = to; i-- > from;) // oldest first within the batch
            if (auto c = found[i].refused ? found[i].refused : readStored(found[i].folder, found[i].finished))
                out.append(*c);
        if (!out.isEmpty())
            batch(out);
    }
}

std::optional<RefusedRequest> findRefused(const QString& root, quint64 id)
{
    std::optional<RefusedRequest> found;
    forEachRefused(root, [&](const RefusedRequest& refused) {
        if (refused.id == id)
            found = refused;
    });
    return found;
}

} // namespace upin::app
