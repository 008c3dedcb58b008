#include "views/answer_text.h"

#include "common/http_answer.h"
#include "common/qt_text.h"
#include "sender/run_types.h"

#include <QJsonDocument>
#include <QObject>

namespace upin::ui {

namespace {
// JSON laid out with a line per member and four spaces an indent, byte for byte otherwise: the keys in the
// server's order, duplicates and numbers as written (QJsonDocument would sort the keys, drop a duplicate and
// round a 64-bit integer, and a debugging tool must not misstate what the server sent).
QByteArray indentJson(const QByteArray& json)
{
    QByteArray out;
    int depth = 0;
    bool inString = false, escaped = false;
    const auto newline = [&] { out += '\n' + QByteArray(qsizetype(depth) * 4, ' '); };
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            out += c;
            if (escaped)
                escaped = false; // this byte was escaped: a quote here does not end the string
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            out += c;
            break;
        case '{':
        case '[': {
            const char close = c == '{' ? '}' : ']';
            qsizetype next = i + 1; // an empty object or array stays on its line
            while (next < json.size() && QByteArrayView(" \t\r\n").contains(json[next]))
                ++next;
            if (next < json.size() && json[next] == close) {
                out += c;
                out += close;
                i = next;
                break;
            }
            out += c;
            ++depth;
            newline();
            break;
        }
        case '}':
        case ']':
            --depth;
            newline();
            out += c;
            break;
        case ',':
            out += c;
            newline();
            break;
        case ':': out += ": "; break;
        case ' ':
        case '\t':
        case '\r':
        case '\n': break; // the layout is ours
        default: out += c;
        }
    }
    return out;
}
} // namespace

QString answerText(const QByteArray& statusLine, const QString& note,
                   const QList<QPair<QByteArray, QByteArray>>& headers, const QByteArray& body)
{
    QString text = QString::fromUtf8(statusLine) + QLatin1Char('\n');
    if (!note.isEmpty()) // in parentheses: not to be read as a header field
        text += QLatin1Char('(') + note + QStringLiteral(")\n");
    for (const auto& [name, value] : headers)
        text += QString::fromLatin1(name) + QStringLiteral(": ") + QString::fromUtf8(value) + QLatin1Char('\n');
    const QByteArray shown = body.left(app::kShownResponseBytes);
    const QJsonDocument json = QJsonDocument::fromJson(shown);
    const QString decoded = QString::fromUtf8(shown);
    text += QLatin1Char('\n') + (!json.isNull()              ? QString::fromUtf8(indentJson(shown))
                                 : decoded.toUtf8() == shown ? decoded
                                                             : QObject::tr("(binary, %1 bytes)").arg(body.size()));
    if (body.size() > app::kShownResponseBytes)
        text += QObject::tr("\n… the first %1 KiB are shown").arg(app::kShownResponseBytes / 1024);
    // A client's filename echoed in the JSON: a right-to-left mark made "evil\u202egnp.exe" read "evilexe.png".
    return app::spellOut(
        text, [](char16_t c) { return app::reordersText(c) || (c < 0x20 && c != u'\n' && c != u'\t') || c == 0x7f; });
}

QString forwardAnswerText(const app::ForwardRecord& forward)
{
    if (forward.status == 0) { // no answer from the upstream: the relay's own, when it gave one (a 502 was blank)
        const QByteArray own = forward.faultAnswer();
        if (own.isEmpty())
            return {};
        const int status = forward.fault->status;
        return answerText("HTTP/1.1 " + QByteArray::number(status) + ' ' + app::reasonPhrase(status),
                          QObject::tr("the relay's own answer: %1 gave none").arg(forward.upstream),
                          {{"Content-Type", "application/json"}}, own);
    }
    // The status line as the upstream wrote it; a capture from before it was kept has the status alone.
    const QString note = QObject::tr("from %1: %2 bytes%3")
                             .arg(forward.upstream)
                             .arg(forward.answerBytes)
                             .arg(forward.answerBytes > quint64(forward.answerPreview.size())
                                      ? QObject::tr(", the first %1 kept").arg(forward.answerPreview.size())
                                      : QString());
    const QByteArray statusLine =
        forward.statusLine.isEmpty() ? "HTTP/1.1 " + QByteArray::number(forward.status) : forward.statusLine;
    return answerText(statusLine, note, forward.headers, forward.answerPreview);
}

QString ownAnswerText(const app::CaptureRecord& record)
{
    if (!record.answered)
        return {};
    using Detail = app::CaptureRecord::Detail;
    const QByteArray json = record.answerJson(record.answered->brief ? Detail::Brief : Detail::Full).join();
    const int status = record.answered->status;
    return answerText(
        "HTTP/1.1 " + QByteArray::number(status) + ' ' + app::reasonPhrase(status),
        QObject::tr("the listener's own answer, %1 bytes of JSON%2, made again from capture.json")
            .arg(json.size() + 1) // and its closing newline
            .arg(record.answered->brief ? QObject::tr(" listing the parts briefly (?answer=brief)") : QString()),
        {{"Content-Type", "application/json"}, {"Content-Length", QByteArray::number(json.size() + 1)}}, json);
}

QString harAnswerText(const app::HarEntry& entry)
{
    if (entry.status == 0)
        return {};
    QList<QPair<QByteArray, QByteArray>> headers;
    for (const auto& [name, value] : entry.responseHeaders)
        headers.append({name.toUtf8(), value.toUtf8()});
    const QString note = entry.responseBody.isEmpty() && entry.responseSize > 0
                             ? QObject::tr("the HAR file kept none of its %1-byte body").arg(entry.responseSize)
                         : entry.responseCut ? QObject::tr("the first %1 of its %2 bytes, as the HAR file holds them")
                                                   .arg(entry.responseBody.size())
                                                   .arg(entry.responseSize)
                                             : QString();
    return answerText(QStringLiteral("%1 %2").arg(entry.status).arg(entry.statusText).toUtf8(), note, headers,
                      entry.responseBody);
}

} // namespace upin::ui
