#pragma once
// What happened to a capture or an opened request, in words, the cause first: the captures list, Inspect's title
// line, and the CLI's line log and `parse` all say it the same way. A cause that is not the multipart content
// (the client went away, the listener stopped, the upstream, a deadline, the disk, a limit, a Content-Length that
// promised more than came) is named as such, so that nobody goes looking for a parser problem that is not there.

#include "capture/capture_record.h"
#include "common/limit_hint.h"

#include "upin/core/event_recorder.h"
#include "upin/core/http.h"

#include <QString>

#include <optional>

namespace upin::app {

// "complete"; "incomplete: the client closed the connection after 1.33 GiB of the body (byte 1428000000)";
// "rejected: the body has no delimiter line for this boundary (byte 3)"; "failed: body.raw: No space left on
// device". detail, when given, is the cause in words and comes before the code's own description. how: the words
// for raising a limit the error names.
QString outcomeInWords(CaptureState state, const std::optional<core::Error>& error, const QString& detail,
                       LimitHint how);

// A client that closed its connection mid-body: "the client closed the connection after 1.33 GiB of the body
// (of 2.00 GiB)". expected: the Content-Length, when the body had one.
QString clientGoneInWords(const QString& how, quint64 bodyBytes, std::optional<quint64> expected);
// A forwarded request without an answer of the upstream's: what was answered instead ("no answer: 502 upstream
// unreachable"), or why none could be ("no answer: client gone"), or only "no answer" when the record says neither.
QString noAnswerInWords(int faultStatus, const QString& faultError);
// A relayed upload the server failed: "refused by the server: 404", whatever the relay's own state (a 404 answered
// early left the body incomplete), and "no answer from the server: 502" (what we answered for it) for a body taken
// whole, which "complete" alone said was fine (an incomplete one says why it stopped). Empty when the server took
// it. The Listen list's State and Inspect's verdict alike.
QString serverFailedInWords(int status, int faultStatus, CaptureState state);
// The Content-Length a body was framed with, if it was.
inline std::optional<quint64> expectedLength(const core::BodyFraming& framing)
{
    return framing.kind == core::BodyFraming::Kind::ContentLength ? std::optional(quint64(framing.contentLength))
                                                                  : std::nullopt;
}

// A parse of a body or request file (no capture): "ok", "ok, 2 diagnostics", "incomplete: …", "rejected: …",
// and for a request whose body ended before its Content-Length, what is missing and whether the multipart body
// itself is whole: "13 bytes missing: Content-Length 205, the file has 192 (the body itself is whole)".
QString parseOutcomeInWords(const core::ParseReport& report, std::optional<quint64> contentLength, LimitHint how);

// How much a diagnostic matters, as Wireshark's expert levels (the report's error is the third, Error): a note for
// what is only unusual (a preamble, a boundary guessed, diagnostics or header lines not all kept), a warning for
// the rest, which some servers refuse or read otherwise (a bare LF, a control byte, a name from name*).
enum class Severity : uint8_t { Warning, Note };
Severity severityOf(core::Errc code);
QString severityName(Severity severity); // "warning", "note": the CLI's word before a diagnostic

// One diagnostic as the CLI and the window list it: "body_cut_short: the body ended before … (13 bytes missing)".
QString diagnosticInWords(const core::Diagnostic& diagnostic, LimitHint how);
// What a code's value says, " (13 bytes missing)", " (the byte is 0x1b)"; empty for a code that carries none.
QString valueInWords(core::Errc code, quint64 value);
// Whether a diagnostic only repeats the report's error (same code, same byte): listed once, as the error.
bool repeatsError(const core::ParseReport& report, const core::Diagnostic& diagnostic);

} // namespace upin::app
