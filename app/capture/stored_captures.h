#pragma once
// The captures an earlier session (or the other app sharing the folder) left in the captures folder, read back as
// the summaries the Listen tab lists (capture_summary.h). Reads files: call it off the GUI thread.

#include "capture/capture_summary.h"
#include "capture/refused_request.h"

#include <QDateTime>
#include <QList>

#include <functional>

namespace upin::app {

// The newest `limit` finished captures under root, oldest first, refused requests (the rolling refused.jsonl)
// among them; folders without a readable capture.json (still receiving, or damaged) are left out.
QList<CaptureSummary> storedCaptures(const QString& root, int limit);
// The same, handed out as they are read, newest first in batches of batchSize (each batch oldest first), so that
// a list shows the latest captures at once while older ones are still being read.
void storedCaptures(const QString& root, int limit, const std::function<void(const QList<CaptureSummary>&)>& batch,
                    int batchSize = 50);

// The record of refused request id, read from the rolling log; none once the log has rolled past it.
std::optional<RefusedRequest> findRefused(const QString& root, quint64 id);

} // namespace upin::app
