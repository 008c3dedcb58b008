#pragma once
// Where one part's body bytes can be read, whatever the source kept: a range of a body file (a raw body, a raw
// HTTP request with Content-Length framing, a capture's body.raw), a part file in a capture folder, a form field's
// value kept inline in capture.json, or a request body held in a HAR file. Shared by the Inspect tab's previews,
// Save part and Copy as curl, and by `upload-inspector-cli extract`.

#include "inspect/inspect_types.h"
#include "sender/upload_plan.h"

#include "upin/core/part_decoding.h"

#include <optional>

namespace upin::app {

// part must point into result.report, or into report when given (a view's copy of the same report): parts are
// found by address, so that equal-looking parts of different HAR requests are never mixed up.
PartBytes locatePart(const InspectResult& result, const core::PartSummary& part);
PartBytes locatePart(const InspectResult& result, const core::ParseReport& report, const core::PartSummary& part);
// The whole request as stored, from its first byte: a raw HTTP file itself (chunk framing included), or a
// capture's head.raw then body.raw (a chunked body as one chunk); missing says why when the source kept none.
PartBytes locateRequest(const InspectResult& result);
// Up to length bytes from offset (relative to the part's first body byte). Blocking file I/O of at most length.
QByteArray readPartBytes(const PartBytes& where, quint64 offset, qint64 length);
// Writes the part's available bytes to target ("-": standard output), in 1 MiB pieces, with its transfer
// encoding undone when encoding says one (extract --decoded, Save part of a decoded view). False with *error set
// when reading or writing fails, fewer bytes than expected were available, or the encoding is invalid (what
// decoded before the bad byte is written). Blocking: off the GUI thread.
bool copyPartBytes(const PartBytes& where, const QString& target, QString* error,
                   core::PartEncoding encoding = core::PartEncoding::Identity);
// "the part's base64 is invalid at byte N of its body: …": the words for a decoder's error.
QString decodingError(const core::Error& error, core::PartEncoding encoding);

// The innermost part whose body holds a body offset (its end included: an error may point just past the last
// byte); withHeaders: or whose header block does. Null for a byte in no part (the preamble, a delimiter).
const core::PartSummary* partHolding(const std::vector<core::PartSummary>& parts, quint64 offset,
                                     bool withHeaders = false);

// The parts a user numbers (extract --part N, Copy as curl): the body's top-level parts; for a HAR file, the parts
// of its request number `harEntry`, by default of its first multipart request (none when it has none).
const std::vector<core::PartSummary>& numberedParts(const InspectResult& source, int harEntry = -1);
// A plan that sends a capture's parts again as they arrived (names, file names, types, bytes), to base + the
// captured request target; nullopt with *why set when the capture did not keep every part whole.
std::optional<UploadPlan> resendPlan(const InspectResult& capture, const QString& base, QString* why);
// The same for any source (a raw body, an HTTP request, a HAR file's first multipart request): each part's bytes
// are written to partsDir as NNN-<name> and sent from there; text fields (UTF-8 without NUL, up to 64 KiB) go
// inline. For a capture, resendPlan's files and values are used and nothing is written.
std::optional<UploadPlan> resendPlanFromParts(const InspectResult& source, const QUrl& target, const QString& partsDir,
                                              QString* why, int harEntry = -1);
// A capture that kept its body once (/capture with --capture-body-only): no file holds a part of it, so its parts
// are sent as any body's are, written out of body.raw by resendPlanFromParts. Reads nothing.
bool partsOnlyInBody(const InspectResult& source);
// Where resendPlanFor writes the parts it sends when not told: SOURCE.parts, or a capture folder's "parts".
QString defaultPartsDir(const InspectResult& source);
// Why resendPlanFromParts would refuse this source (no parts, a part not whole or not kept); empty when it would
// not. Reads nothing but the report: a view can ask before anything is written.
QString whyPartsCannotBeResent(const InspectResult& source, int harEntry = -1);
// One of the two, as `upload-inspector-cli curl` and the window's Copy as curl choose: to is a base
// (http://host:port, the captured path is kept) or a whole URL; empty: the listener that stored the capture, as
// its client named it, else fallback. The path is the captured one, a whole request's own, else /file-part.
// partsDir empty: defaultPartsDir. harEntry: which request of a HAR file (numberedParts), sent to its own path.
std::optional<UploadPlan> resendPlanFor(const InspectResult& source, const QString& to, const QString& partsDir,
                                        QString* why, const QString& fallback = QStringLiteral("http://127.0.0.1:8080"),
                                        int harEntry = -1);

} // namespace upin::app
