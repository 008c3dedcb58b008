#pragma once
// An HTTP answer as a person reads it: the status line, a note on how it came, the header fields, a blank line
// and the body (JSON indented, text as text, binary said as such, the first 64 KiB). The Send tab's runs, and
// Inspect's Answer tab for a forwarded exchange (the upstream's answer), a capture of the listener's own (its
// answer) and a HAR entry (its response).

#include "capture/capture_record.h"
#include "capture/forward_record.h"
#include "inspect/har.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace upin::ui {

// note: a line under the status line, in parentheses (e.g. the TLS version), or empty. body: what was kept of it.
QString answerText(const QByteArray& statusLine, const QString& note,
                   const QList<QPair<QByteArray, QByteArray>>& headers, const QByteArray& body);
QString forwardAnswerText(const app::ForwardRecord& forward); // empty when the upstream gave none
// The listener's own answer to a capture's client, made again from its record as the listener made it (the JSON
// is the record's); empty when nothing was answered or the upstream answered (forward mode).
QString ownAnswerText(const app::CaptureRecord& record);
QString harAnswerText(const app::HarEntry& entry); // empty when the HAR file holds none

} // namespace upin::ui
