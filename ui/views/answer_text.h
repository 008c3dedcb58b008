#pragma once
// An HTTP answer as a person reads it: the status line, a note on how it came, the header fields, a blank line
// and the body (JSON indented, text as text, binary said as such, the first 64 KiB). The Send tab's runs use it;
// Inspect's forwarded exchanges and HAR responses still have wordings of their own (request_text.cpp), which
// should move onto this one.

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace upin::ui {

// note: a line under the status line (e.g. the TLS version), or empty. body: what was kept of it.
QString answerText(const QByteArray& statusLine, const QString& note,
                   const QList<QPair<QByteArray, QByteArray>>& headers, const QByteArray& body);

} // namespace upin::ui
