#pragma once
// Opens things to inspect on a worker thread: raw bodies, whole HTTP requests, capture folders. Reports progress
// and can be cancelled; results come back as owned values.

#include "common/limits.h"
#include "inspect/inspect_types.h"

#include <QObject>

#include <atomic>
#include <functional>

namespace upin::app {

// What a file looks like: a capture folder, a HAR file (browser devtools export), a whole HTTP request (starts
// with a request line) or a body.
enum class SourceKind : uint8_t { CaptureFolder, Har, RawHttp, Body };
SourceKind detectSource(const QString& path);

class InspectWorker final : public QObject {
    Q_OBJECT
public:
    // In the worker's thread. contentType, when given, names the boundary instead of the request head or a guess.
    void open(const QString& path, const QString& contentType = {}, const core::Options& limits = inspectLimits());
    void cancel() { m_cancel = true; } // from any thread
    // In the worker's thread: writes each part into its file (parts may be gigabytes), then emits partsSaved.
    void saveParts(const QList<upin::app::PartCopy>& copies);

signals:
    void progress(qint64 done, qint64 total);
    void finished(const upin::app::InspectResult& result);
    void partsSaved(int count, const QStringList& failures); // one line per part that could not be written

private:
    std::atomic<bool> m_cancel{false};
};

// A capture as its record tells it, reading nothing: a folder without body.raw, or a capture that kept no folder
// (/part-event), which the window opens from the record the listener handed it.
InspectResult inspectRecord(const CaptureRecord& record);

// Opens any source: a capture folder, a HAR file, a whole HTTP request or a body. Blocking: the worker, the CLI.
// contentType, when given, names the boundary instead of the request head or a guess. progress may cancel.
InspectResult inspectSource(const QString& path, const QString& contentType, const core::Options& limits,
                            const std::function<bool(qint64 done, qint64 total)>& progress = {});

} // namespace upin::app
