#pragma once
// What Copy as curl and `upload-inspector-cli curl` send again, from any source: a capture's kept part files and
// field values, or the parts of a body, a whole request or a HAR file's request written out first; a capture that
// kept only its body (body.raw) is sent as that body.

#include "inspect/inspect_types.h"
#include "sender/upload_plan.h"

#include <optional>

namespace upin::app {

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
// Where resendPlanFor writes the parts it sends when not told: SOURCE.parts (a HAR file's: SOURCE.parts/requestN),
// or a capture folder's "parts".
QString defaultPartsDir(const InspectResult& source, int harEntry = -1);
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

// Resend (the window's, and `upload-inspector-cli resend`): resendPlanFor's plan with the captured request's
// method (when it is an upload's: POST, PUT, PATCH) and the header fields its client chose, in order, to be edited
// and sent. Fields the sender writes itself (framing, Host, the Content-Type with its boundary, Connection, our
// hash header: headerProblem() names them), the probe's marker and HTTP/2 pseudo-fields are left out. May write parts: off the GUI
// thread.
std::optional<UploadPlan> resendAsCaptured(const InspectResult& source, const QString& to, QString* why,
                                           const QString& fallback = QStringLiteral("http://127.0.0.1:8080"),
                                           int harEntry = -1);

// The curl command that sends the source again, as `upload-inspector-cli curl` prints it and Copy as curl copies
// it: resendPlanFor's, or for a capture that kept only its body, `curl --data-binary @body.raw` with the captured
// Content-Type (the very bytes that came, and no copy of them written). May write parts: off the GUI thread.
std::optional<QString> resendCommandFor(const InspectResult& source, const QString& to, const QString& partsDir,
                                        QString* why, const QString& fallback = QStringLiteral("http://127.0.0.1:8080"),
                                        int harEntry = -1);
// Why a capture cannot be sent again, from its record alone (reads nothing: a view asks it); empty when it can.
QString whyCaptureCannotBeResent(const InspectResult& capture);

} // namespace upin::app
