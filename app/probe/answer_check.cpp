#include "probe/answer_check.h"

#include "common/qt_text.h"
#include "server/server_config.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace upin::app {

namespace {

// A JSON value by a dotted path ("files.file.size", "parts.0.size").
QJsonValue valueAt(QJsonValue value, const QString& path)
{
    for (const QString& key : path.split(QLatin1Char('.'), Qt::SkipEmptyParts)) {
        bool index = false;
        const int i = key.toInt(&index);
        value = index && value.isArray() ? value.toArray().at(i) : value.toObject().value(key);
    }
    return value;
}

// An httpbin-style echo ({"files": {"file": CONTENT}, "form": {"name": VALUE}}): the file part's content as text,
// or as a data: URL in base64 when it is not UTF-8, and each field's value as sent.
QString echoedWrong(const QJsonValue& answer, const RunResult& r, const QString& field)
{
    const QJsonValue echoed = answer[QStringLiteral("files")][field];
    if (echoed.isString()) {
        const QString text = echoed.toString();
        const qsizetype comma = text.indexOf(QLatin1Char(','));
        const quint64 size = text.startsWith(QLatin1String("data:")) && comma > 0
                                 ? quint64(QByteArray::fromBase64(text.mid(comma + 1).toLatin1()).size())
                                 : quint64(text.toUtf8().size());
        for (const PartCheck& check : r.parts)
            if (check.name == field && check.size != size)
                return QStringLiteral("'%1' was %2 bytes, the echo's files.%1 has %3")
                    .arg(field)
                    .arg(check.size)
                    .arg(size);
    }
    const QJsonObject form = answer[QStringLiteral("form")].toObject();
    for (const PartCheck& check : r.parts)
        if (form.contains(check.name) && form[check.name].isString() &&
            quint64(form[check.name].toString().toUtf8().size()) != check.size)
            return QStringLiteral("field '%1' was %2 bytes, the echo's form.%1 has %3")
                .arg(check.name)
                .arg(check.size)
                .arg(form[check.name].toString().toUtf8().size());
    return {};
}

} // namespace

QString wrongBytes(const RunResult& r, const QString& expectPath, const QString& field)
{
    for (const PartCheck& check : r.parts)
        if (check.state == PartCheck::State::Mismatch)
            return QStringLiteral("part '%1': the server's %2 digest differs from what was sent")
                .arg(check.name, toQString(core::kHashNames.name(r.hash)));
    const QJsonValue answer = QJsonDocument::fromJson(r.response).object();
    QList<QPair<QString, quint64>> reported;
    const QJsonArray parts = answer[QStringLiteral("parts")].toArray();
    for (const auto& v : parts)
        if (v[QStringLiteral("size")].isDouble())
            reported.append({v[QStringLiteral("name")].toString(), quint64(v[QStringLiteral("size")].toInteger())});
    // A list of parts with sizes, or an empty one (a server that found none of them), says how many arrived; but
    // not our own listener's /discard, which parses nothing ("matcher": "none") and lists no parts by design.
    const bool parsedNothing = answer[QStringLiteral("matcher")].toString() == QLatin1String("none");
    const bool counted = answer[QStringLiteral("parts")].isArray() && reported.size() == parts.size() && !parsedNothing;
    if (counted && reported.size() != r.parts.size())
        return QStringLiteral("%1 parts were sent, the server reports %2").arg(r.parts.size()).arg(reported.size());
    // Part by part in order only when the list is whole: a list with entries lacking a size says nothing by index.
    for (qsizetype i = 0; counted && i < std::min(reported.size(), r.parts.size()); ++i)
        if (reported[i].second != r.parts[i].size)
            return QStringLiteral("part %1 ('%2'): %3 bytes were sent, the server reports %4")
                .arg(i)
                .arg(r.parts[i].name)
                .arg(r.parts[i].size)
                .arg(reported[i].second);
    if (QString why = echoedWrong(answer, r, field); !why.isEmpty())
        return why;
    if (!expectPath.isEmpty()) {
        const QJsonValue size = valueAt(answer, expectPath);
        for (const PartCheck& check : r.parts)
            if (check.name == field && size.isDouble() && quint64(size.toInteger()) != check.size)
                return QStringLiteral("'%1' was %2 bytes, the answer's %3 is %4")
                    .arg(field)
                    .arg(check.size)
                    .arg(expectPath, QString::number(size.toInteger()));
    }
    return {};
}

bool expectedSizeFound(const RunResult& r, const QString& expectPath)
{
    return expectPath.isEmpty() || valueAt(QJsonDocument::fromJson(r.response).object(), expectPath).isDouble();
}

ForwarderSaw forwarderSaw(const RunResult& r, const QString& nonce)
{
    ForwarderSaw saw;
    QHash<QString, QString> fields; // "id=17; parts=3; bytes=67109234; parsed=ok"
    for (const auto& [name, value] : r.responseHeaders)
        if (name.compare(kCaptureHeader, Qt::CaseInsensitive) == 0)
            for (const QString& item : QString::fromLatin1(value).split(QLatin1Char(';'), Qt::SkipEmptyParts))
                fields.insert(item.section(QLatin1Char('='), 0, 0).trimmed(),
                              item.section(QLatin1Char('='), 1).trimmed());
    if (nonce.isEmpty() || fields.value(QStringLiteral("probe")) != nonce)
        return saw;
    saw.capture = fields.value(QStringLiteral("id")).toULongLong();
    if (saw.capture == 0)
        return saw;
    quint64 sent = 0;
    for (const PartCheck& check : r.parts)
        sent += check.size;
    const quint64 parts = fields.value(QStringLiteral("parts")).toULongLong();
    const quint64 bytes = fields.value(QStringLiteral("bytes")).toULongLong();
    if (fields.value(QStringLiteral("parsed")) != QLatin1String("ok") || parts != quint64(r.parts.size()) ||
        bytes != sent)
        saw.wrong =
            QStringLiteral("our forwarder on the way saw %1 parts of %2 bytes in all%3 (capture %4), where %5 "
                           "parts of %6 bytes were sent")
                .arg(parts)
                .arg(bytes)
                .arg(fields.value(QStringLiteral("parsed")) == QLatin1String("ok") ? QString()
                                                                                   : QStringLiteral(", not parsed"))
                .arg(saw.capture)
                .arg(r.parts.size())
                .arg(sent);
    return saw;
}

} // namespace upin::app
