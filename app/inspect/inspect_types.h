#pragma once
// What the inspect worker hands the GUI: one opened source's parse report and where its bytes are. Owned values.

#include "upin/core/event_recorder.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

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

// One part to copy out of a body file into a file of its own (Save part / Save all parts).
struct PartCopy {
    qint64 fileOffset = 0; // where the part's bytes start in the source file
    quint64 size = 0;
    QString target;
};

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::InspectResult)
Q_DECLARE_METATYPE(QList<upin::app::PartCopy>)
