#pragma once
// Where captures live: one folder per stored upload (capture.json, saved parts, optional raw body), a retention
// limit, and an in-memory list of recent captures for GET /captures. Shared by the listener's worker threads.

#include <QJsonArray>
#include <QJsonObject>
#include <QMutex>
#include <QString>

#include <optional>
#include <string>

namespace upin::app {

class CaptureStore {
public:
    CaptureStore(QString root, int retain);

    const QString& root() const { return m_root; }
    quint64 nextId();
    // Creates a new capture folder; empty string when it could not be created.
    QString createFolder(quint64 id, const QString& endpoint);
    // Writes capture.json atomically (temp file + rename), so a reader never sees half a file.
    bool writeCaptureJson(const QString& folder, const QJsonObject& capture);
    // Records a finished capture in the recent list and deletes the oldest folders beyond the retention limit.
    void remember(const QJsonObject& summary);
    QJsonArray recent() const;

    // A file name for a part that is safe inside the capture folder whatever the client sent: the last path
    // component, control characters and anything outside [A-Za-z0-9._-] replaced, no leading dots, at most 100
    // characters, prefixed with the part index so names never collide.
    static QString safePartFileName(uint32_t index, const std::optional<std::string>& filename,
                                    const std::optional<std::string>& fieldName);
    static QString defaultRoot();

private:
    void enforceRetention();

    QString m_root;
    int m_retain;
    mutable QMutex m_mutex;
    quint64 m_lastId = 0;
    QJsonArray m_recent;
};

} // namespace upin::app
