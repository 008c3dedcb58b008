#pragma once
// The captures an earlier session (or the other app sharing the folder) left in the captures folder, read back as
// the summaries the Listen tab lists. Reads files: call it off the GUI thread.

#include "listener/listener_types.h"

#include <QDateTime>
#include <QList>

namespace upin::app {

struct StoredCapture {
    quint64 id = 0;
    QDateTime finished; // capture.json's time
    QDateTime started;
    QString client, endpoint, matcher, folder;
    quint64 bytes = 0;
    int parts = 0;
    qint64 elapsedMs = 0;
    CaptureState state = CaptureState::Incomplete;
    std::optional<core::Error> error;
    QString errorDetail;
};

// The newest `limit` finished captures under root, oldest first; folders without a readable capture.json (still
// receiving, or damaged) are left out.
QList<StoredCapture> storedCaptures(const QString& root, int limit);

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::StoredCapture)
