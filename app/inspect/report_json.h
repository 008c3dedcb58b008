#pragma once
// JSON form of a core ParseReport, both ways: written by the CLI (`parse --json`), the listener's answers and
// capture.json; read back when a capture stored without its raw body is opened.

#include "upin/core/event_recorder.h"
#include "upin/core/http.h"

#include <QJsonObject>

namespace upin::app {

QJsonObject errorToJson(const core::Error& error);
// extraPerPart[i], when given, is merged into top-level part i's object (what the listener kept of it), in the
// same pass: merging afterwards would copy every part's object once more.
QJsonObject reportToJson(const core::ParseReport& report, const QList<QJsonObject>& extraPerPart = {});
// capture.json's parts and diagnostics back into a report.
core::ParseReport reportFromJson(const QJsonObject& json);

// How a body came on the wire, as records name it: "content-length", "chunked" or "none".
QString framingName(core::BodyFraming::Kind kind);

} // namespace upin::app
