#pragma once
// JSON form of a core ParseReport, shared by the CLI (`parse --json`) and, later, capture.json and the listener.

#include "upin/core/event_recorder.h"

#include <QJsonObject>

namespace upin::app {

QJsonObject errorToJson(const core::Error& error);
QJsonObject reportToJson(const core::ParseReport& report);

} // namespace upin::app
