#pragma once
// Where one part's body bytes can be read, whatever the source kept: a range of a body file (a raw body, a raw
// HTTP request with Content-Length framing, a capture's body.raw), a part file in a capture folder, a form field's
// value kept inline in capture.json, or a request body held in a HAR file. Shared by the Inspect tab's previews,
// Save part and Copy as curl, and by `upload-inspector-cli extract`.

#include "inspect/inspect_types.h"

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

} // namespace upin::app
