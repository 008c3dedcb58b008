#pragma once
// Opens things to inspect on a worker thread: raw bodies, whole HTTP requests, capture folders. Reports progress
// and can be cancelled; results come back as owned values.

#include "inspect/inspect_types.h"

#include <QObject>

#include <atomic>

namespace upin::app {

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
    // In the worker's thread: copies each part out of source (parts may be gigabytes), then emits partsSaved.
    void saveParts(const QString& source, const QList<upin::app::PartCopy>& copies);

signals:
    void progress(qint64 done, qint64 total);
    void finished(const upin::app::InspectResult& result);
    void partsSaved(int count, int failures);

private:
    std::atomic<bool> m_cancel{false};
};

// The multipart requests of a HAR file, each as a top-level node ("POST url") whose children are its parts.
core::ParseReport reportFromHar(const QJsonObject& har, QString* error);

} // namespace upin::app
