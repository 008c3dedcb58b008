#pragma once
// The captures an earlier session (or the other app sharing the folder) left in the captures folder, read back as
// the summaries the Listen tab lists. Reads files: call it off the GUI thread.

#include "capture/refused_request.h"
#include "server/listener_types.h"

#include <QDateTime>
#include <QList>

#include <functional>

namespace upin::app {

struct StoredCapture {
    quint64 id = 0;
    QDateTime finished; // capture.json's time
    QDateTime started;
    QString client, method, endpoint, matcher, folder;
    bool fromProbe = false;                // its request carried kProbeHeader
    QString tls;                           // "TLSv1.3", or empty over plain HTTP
    std::optional<ForwardTimings> forward; // forward mode's exchanges
    quint64 bytes = 0;
    int parts = 0;
    int diagnostics = 0;
    qint64 elapsedMs = 0;
    CaptureState state = CaptureState::Incomplete;
    std::optional<core::Error> error;
    QString errorDetail;
    int answerStatus = 0; // what the listener answered (capture.json's answer.status, a refusal's status); 0: none
};

// The newest `limit` finished captures under root, oldest first, refused requests (the rolling refused.jsonl)
// among them; folders without a readable capture.json (still receiving, or damaged) are left out.
QList<StoredCapture> storedCaptures(const QString& root, int limit);
// The same, handed out as they are read, newest first in batches of batchSize (each batch oldest first), so that
// a list shows the latest captures at once while older ones are still being read.
void storedCaptures(const QString& root, int limit, const std::function<void(const QList<StoredCapture>&)>& batch,
                    int batchSize = 50);

// The record of refused request id, read from the rolling log; none once the log has rolled past it.
std::optional<RefusedRequest> findRefused(const QString& root, quint64 id);

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::StoredCapture)
