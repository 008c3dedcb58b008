#pragma once
// Opens things to inspect on a worker thread: raw bodies, whole HTTP requests, capture folders. Reports progress
// and can be cancelled; results come back as owned values.

#include "upin/core/event_recorder.h"

#include <QJsonObject>
#include <QMetaType>
#include <QObject>

#include <atomic>

namespace upin::app {

struct InspectResult {
    QString path;
    QString title;
    core::ParseReport report;
    QString bodyFile;          // file the hex view reads; empty when none
    qint64 bodyFileOffset = 0; // file offset of body offset 0; -1 when offsets do not map
    QString partsFolder;       // capture folder whose saved parts can be opened
    QJsonObject capture;       // capture.json, for captures
    QString error;
    bool cancelled = false;
};

// What a file looks like: a capture folder, a HAR file (browser devtools export), a whole HTTP request (starts
// with a request line) or a body.
enum class SourceKind : uint8_t { CaptureFolder, Har, RawHttp, Body };
SourceKind detectSource(const QString& path);

class InspectWorker final : public QObject {
    Q_OBJECT
public:
    // In the worker's thread. contentType, when given, names the boundary instead of the request head or a guess.
    void open(const QString& path, const QString& contentType = {});
    void cancel() { m_cancel = true; } // from any thread

signals:
    void progress(qint64 done, qint64 total);
    void finished(const upin::app::InspectResult& result);

private:
    std::atomic<bool> m_cancel{false};
};

// capture.json's parts and diagnostics back into a report (for captures stored without their raw body).
core::ParseReport reportFromJson(const QJsonObject& json);
// The multipart requests of a HAR file, each as a top-level node ("POST url") whose children are its parts.
core::ParseReport reportFromHar(const QJsonObject& har, QString* error);

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::InspectResult)
