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
std::optional<CaptureSummary> readStored(const QString& folder, const QDateTime& finished)
{
    const std::optional<CaptureRecord> record = CaptureRecord::read(folder);
    if (!record)
        return std::nullopt;
    CaptureSummary c = record->summary(folder);
    if (!c.received.isValid()) // written before capture.json kept request.received_at
        c.received = finished.addMSecs(-c.elapsedMs);
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

QList<CaptureSummary> refusedCaptures(const QString& root)
{
    QList<CaptureSummary> out;
    forEachRefused(root, [&](const RefusedRequest& refused) { out.append(refused.summary()); });
    return out;
}

} // namespace

QList<CaptureSummary> storedCaptures(const QString& root, int limit)
{
    std::vector<QList<CaptureSummary>> batches; // newest batch first
    storedCaptures(root, limit, [&](const QList<CaptureSummary>& batch) { batches.push_back(batch); });
    QList<CaptureSummary> all;
    for (auto it = batches.rbegin(); it != batches.rend(); ++it)
        all += *it;
    return all;
}

void storedCaptures(const QString& root, int limit, const std::function<void(const QList<CaptureSummary>&)>& batch,
                    int batchSize)
{
    struct Found {
        QString folder;
        QDateTime finished;
        std::optional<CaptureSummary> refused; // read already, from the refused log
    };
    std::vector<Found> found;
    for (const QFileInfo& dir : QDir(root).entryInfoList({QStringLiteral("capture-*")}, QDir::Dirs)) {
        const QFileInfo json(QDir(dir.filePath()).filePath(QStringLiteral("capture.json")));
        if (json.isFile())
            found.push_back({dir.filePath(), json.lastModified(), std::nullopt});
    }
    for (const CaptureSummary& c : refusedCaptures(root))
        found.push_back({QString(), c.received, c});
    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.finished > b.finished; });
    if (found.size() > size_t(limit))
        found.resize(size_t(limit));
    // Newest first, batch by batch: the folder names and times are known already, capture.json is what takes time.
    for (size_t from = 0; from < found.size(); from += size_t(batchSize)) {
        QList<CaptureSummary> out;
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
