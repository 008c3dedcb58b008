#pragma once
// Where captures live: one folder per stored upload (capture.json, saved parts, optional raw body), a retention
// policy, and an in-memory list of recent captures for GET /captures. Shared by the listener's worker threads.

#include "capture/capture_summary.h"
#include "capture/capture_types.h"
#include "capture/refused_request.h"
#include "common/json_writer.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QMutex>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <optional>
#include <string>

namespace upin::app {

class CaptureStore {
public:
    CaptureStore(QString root, RetentionPolicy retention);

    const QString& root() const { return m_root; }
    static quint64 nextId(); // unique in the process, whichever store asks (capture_store.cpp says how)
    // Creates the folder of a capture that starts receiving; retention leaves it alone until endCapture().
    // Empty string, with the system's reason in *error, when it could not be created.
    QString beginCapture(quint64 id, const QString& endpoint, QString* error);
    // A capture finished (folder empty for endpoints that store nothing): recorded in the recent list; then the
    // oldest finished folders beyond the retention policy are deleted on a low-priority thread of the store's
    // own, so neither the upload's answer nor nextId() waits for it.
    void endCapture(const CaptureSummary& capture);
    // Writes capture.json as writeJson makes it (indented, in pieces: it is megabytes for 10,000 parts), with a
    // newline after, to a file of its own that is then renamed: a failed write (or a process killed) leaves the
    // previous version or none, never an empty or half file; a power loss may (it is not synced, as the parts
    // beside it are not). On failure *error says what went wrong.
    static bool writeCaptureJson(const QString& folder, const std::function<void(JsonWriter&)>& writeJson,
                                 QString* error);
    // Sets disk space aside in a new capture folder for its capture.json, so that a capture that fills the disk
    // can still say what happened to it: writeCaptureJson writes capture.json over it. The file also
    // marks the folder as receiving for other processes that share the captures folder (a CLI and a window).
    static void reserveCaptureJsonSpace(const QString& folder);
    // Writes all of data to file, writing again after a short write: the kernel reports a full disk or the file
    // size limit only on the write that stores nothing, and only that one gives file.errorString() its reason.
    static bool writeWhole(QFile& file, const char* data, qint64 size);
    // A request refused before its body (refused_request.h): given an id, listed in the recent list (with a
    // quota of its own, keepCaptures), and appended as one line to refusedLog() in the captures folder, on the
    // store's own thread; the log rolls over to refusedLog() + ".1" past kRefusedLogBytes, so refusals take at
    // most about twice that on disk whatever their number. A failed write is dropped: the refusal's answer
    // matters more than its record.
    void recordRefused(RefusedRequest& refused);
    static constexpr qint64 kRefusedLogBytes = qint64{1} << 20;
    QString refusedLog() const;
    // A refusal among the recent ones, from memory: one the log has not been written with yet too.
    std::optional<RefusedRequest> recentRefused(quint64 id) const;
    QJsonArray recent() const;
    // The finished captures' total size on disk, as the last retention pass found it (one runs at start and after
    // each capture); nullopt before the first has ended.
    std::optional<quint64> keptBytes() const;
    // One capture's report for GET /captures/ID, as JSON: capture.json of a finished capture as it was written (not
    // parsed and made again: for 10,000 parts that took 110-190 ms of the connection's thread, and sorted the
    // members), a short summary of one still receiving, nullopt when there is no such capture.
    std::optional<QByteArray> report(const QString& id) const;

    // A file name for a part that is safe inside the capture folder whatever the client sent: the last path
    // component (the field's name for an empty filename), control characters and anything outside [A-Za-z0-9._-]
    // replaced, no leading dots, at most 100 characters, prefixed with the part index so names never collide. Save
    // all parts names its files so too.
    static QString safePartFileName(uint32_t index, const std::optional<std::string>& filename,
                                    const std::optional<std::string>& fieldName);
    // The name a save dialog suggests for a part: the client's, its letters kept (non-ASCII too), less its path,
    // control characters, marks that reorder text and leading dots, at most 200 characters, its extension kept.
    static QString suggestedFileName(const std::optional<std::string>& filename,
                                     const std::optional<std::string>& fieldName);
    static QString defaultRoot();

private:
    void deleteOldFolders();
    bool stillReceiving(const QString& name) const;

    QString m_root;
    RetentionPolicy m_retention;
    mutable QMutex m_mutex;
    QList<CaptureSummary> m_recent;
    QList<RefusedRequest> m_recentRefused;
    QHash<QString, quint64> m_receiving; // folder name -> capture id
    std::atomic<bool> m_cleanupQueued{false};
    std::atomic<qint64> m_keptBytes{-1}; // -1: not measured yet
    // The clean-up thread's: the size of a kept folder's own files, measured once (walking a folder of 10,000 part
    // files at every capture's end cost more than the captures), until its capture.json's time changes. Its
    // subfolders (parts/, which Send again writes later) are measured on every pass.
    struct MeasuredFolder {
        QDateTime finished;
        quint64 bytes = 0;
    };
    QHash<QString, MeasuredFolder> m_measured;
    void flushRefused();
    QMutex m_refusedMutex;       // m_refusedPending
    QByteArray m_refusedPending; // lines for the refused log, waiting for the store's thread
    std::atomic<bool> m_refusedFlushQueued{false};
    QThreadPool m_cleaner; // last member: destroyed (and waited for) first
};

} // namespace upin::app
