#pragma once
// Opens a source through the real InspectWorker, as the window does, and hands back its result.

#include "inspect/inspect_worker.h"

#include <QSignalSpy>

namespace upin::test {

inline app::InspectResult inspectFile(const QString& path)
{
    app::InspectWorker worker;
    QSignalSpy finished(&worker, &app::InspectWorker::finished);
    worker.open(path);
    return finished.first().first().value<app::InspectResult>();
}

} // namespace upin::test
