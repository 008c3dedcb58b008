#include "capture/stored_captures.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace upin::app {

QList<StoredCapture> storedCaptures(const QString& root, int limit)
{
    struct Found {
        QString folder;
        QDateTime finished;
    };
    std::vector<Found> found;
    for (const QFileInfo& dir : QDir(root).entryInfoList({QStringLiteral("capture-*")}, QDir::Dirs)) {
        const QFileInfo json(QDir(dir.filePath()).filePath(QStringLiteral("capture.json")));
        if (json.isFile())
            found.push_back({dir.filePath(), json.lastModified()});
    }
    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.finished > b.finished; });
    if (found.size() > size_t(limit))
        found.resize(size_t(limit));
    QList<StoredCapture> out;
    for (auto it = found.rbegin(); it != found.rend(); ++it) {
        QFile file(QDir(it->folder).filePath(QStringLiteral("capture.json")));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        if (json.isEmpty())
            continue;
        StoredCapture c;
        c.id = json[QStringLiteral("capture_id")].toString().toULongLong();
        c.folder = it->folder;
        c.finished = it->finished;
        // Rounded up: a capture that took a fraction of a millisecond has a rate, not a duration of 0 ms.
        c.elapsedMs = qint64(std::ceil(json[QStringLiteral("elapsed_ms")].toDouble()));
        c.started = c.finished.addMSecs(-c.elapsedMs);
        c.client = json[QStringLiteral("request")].toObject()[QStringLiteral("client")].toString();
        c.endpoint = json[QStringLiteral("endpoint")].toString();
        c.matcher = json[QStringLiteral("matcher")].toString();
        c.bytes = quint64(json[QStringLiteral("bytes")].toInteger());
        c.parts = int(json[QStringLiteral("parts")].toArray().size());
        const QString state = json[QStringLiteral("state")].toString();
        c.state = kCaptureStateNames.find(state.toStdString()).value_or(CaptureState::Incomplete);
        const QJsonObject error = json[QStringLiteral("error")].toObject();
        if (!error.isEmpty()) {
            auto code = core::codeFromName(error[QStringLiteral("code")].toString().toStdString());
            if (code)
                c.error = core::Error{*code, quint64(error[QStringLiteral("offset")].toInteger())};
            c.errorDetail = error.contains(QStringLiteral("file"))
                                ? QStringLiteral("%1: %2").arg(error[QStringLiteral("file")].toString(),
                                                               error[QStringLiteral("system_message")].toString())
                                : error[QStringLiteral("detail")].toString();
        }
        out.append(c);
    }
    return out;
}

} // namespace upin::app
