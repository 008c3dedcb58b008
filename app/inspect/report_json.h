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

// A request as capture.json's "request" and `parse --json` keep it (what Inspect's Request row shows): method,
// target, version, the header fields in order as sent, content_type, head_bytes; then how its body came on the
// wire: framing ("content-length", "chunked" or "none"), content_length, and for chunked bodies chunks and
// trailer_bytes (trailer fields are skipped, not kept), and wire_bytes.
QJsonObject requestHeadToJson(const core::RequestHead& head, size_t headBytes);
QString framingName(core::BodyFraming::Kind kind);
// decoder: what reading the body counted; nullptr when the body was not read (framing only).
void addWireToJson(QJsonObject& request, const core::BodyFraming& framing, const core::BodyDecoder* decoder);

} // namespace upin::app
