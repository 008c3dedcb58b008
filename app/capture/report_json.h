#pragma once
// JSON form of a core ParseReport, both ways: written by the CLI (`parse --json`), the listener's answers and
// capture.json; read back when a capture stored without its raw body is opened.

#include "upin/core/event_recorder.h"
#include "upin/core/http.h"

#include "common/json_writer.h"

#include <QJsonObject>

#include <functional>

namespace upin::app {

QJsonObject errorToJson(const core::Error& error);
void writeError(JsonWriter& w, const core::Error& error); // its members (code, offset, message) into an open object

// Members for a top-level part's entry, given its index: what the listener kept of it.
using PerPart = std::function<void(JsonWriter&, uint32_t index)>;
// The report's members (ok, error, bytes, hash, boundary, parts, diagnostics), written into an open object.
void writeReport(JsonWriter& w, const core::ParseReport& report);
// Its boundary, parts and diagnostics only, for a record that says the rest itself (the listener's answers and
// capture.json, however many parts).
void writeReportParts(JsonWriter& w, const core::ParseReport& report, const PerPart& perPart = {});
// A brief list for answers to big forms (?answer=brief): each top-level part's index, name, filename, size, digest,
// completeness and text_cut (and perPart's members), no headers, offsets or nested parts; the diagnostics in full.
void writeBriefParts(JsonWriter& w, const core::ParseReport& report, const PerPart& perPart = {});
// The same as a QJsonObject, for `parse --json`, which adds to it.
QJsonObject reportToJson(const core::ParseReport& report);
// capture.json's parts and diagnostics back into a report.
core::ParseReport reportFromJson(const QJsonObject& json);

// How a body came on the wire, as records name it: "content-length", "chunked" or "none".
QString framingName(core::BodyFraming::Kind kind);

} // namespace upin::app
