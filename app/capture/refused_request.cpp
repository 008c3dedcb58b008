#include "capture/refused_request.h"

#include "common/qt_text.h"

#include "upin/core/http.h"

namespace upin::app {

QString RefusedRequest::label() const
{
    return method.isEmpty() ? QStringLiteral("(no request line)") : method + QLatin1Char(' ') + target;
}

CaptureSummary RefusedRequest::summary() const
{
    CaptureSummary c;
    c.id = id;
    c.received = receivedAt;
    c.client = client;
    c.method = method;
    c.tls = tls;
    c.endpoint = label();
    c.matcher = QStringLiteral("none");
    c.state = CaptureState::Refused;
    c.error = error;
    c.errorDetail = reason;
    c.answerStatus = status;
    return c;
}

QJsonObject RefusedRequest::toJson() const
{
    QJsonObject json{{"id", QString::number(id)},
                     {"capture_id", QString::number(id)},
                     {"state", QStringLiteral("refused")},
                     {"received_at", receivedAt.toString(Qt::ISODateWithMs)},
                     {"client", client},
                     {"method", method},
                     {"target", target},
                     {"endpoint", label()},
                     {"head", QString::fromLatin1(head)},
                     {"status", status},
                     {"reason", reason},
                     {"answer", QString::fromLatin1(answer)},
                     {"bytes", 0},
                     {"parts", 0},
                     {"folder", QString()}};
    if (!tls.isEmpty())
        json["tls"] = tls;
    json["error"] = error ? QJsonValue(QJsonObject{{"code", toQString(core::codeName(error->code))},
                                                   {"offset", qint64(error->offset)},
                                                   {"message", toQString(core::describe(error->code))}})
                          : QJsonValue(QJsonValue::Null);
    return json;
}

std::optional<RefusedRequest> RefusedRequest::fromJson(const QJsonObject& json)
{
    if (json[QLatin1String("state")].toString() != QLatin1String("refused"))
        return std::nullopt;
    RefusedRequest r;
    r.id = json[QLatin1String("id")].toString().toULongLong();
    r.receivedAt = QDateTime::fromString(json[QLatin1String("received_at")].toString(), Qt::ISODateWithMs);
    r.client = json[QLatin1String("client")].toString();
    r.tls = json[QLatin1String("tls")].toString();
    r.method = json[QLatin1String("method")].toString();
    r.target = json[QLatin1String("target")].toString();
    r.head = json[QLatin1String("head")].toString().toLatin1();
    r.status = json[QLatin1String("status")].toInt();
    r.reason = json[QLatin1String("reason")].toString();
    r.answer = json[QLatin1String("answer")].toString().toLatin1();
    const QJsonObject error = json[QLatin1String("error")].toObject();
    if (auto code = core::codeFromName(error[QLatin1String("code")].toString().toStdString()))
        r.error = core::Error{*code, quint64(error[QLatin1String("offset")].toInteger())};
    return r;
}

RefusedRequest RefusedRequest::fromHead(const core::HeadReader& head, int status, QString reason,
                                        std::optional<core::Error> error)
{
    RefusedRequest r;
    r.status = status;
    r.reason = std::move(reason);
    r.error = error;
    const core::ByteView raw = head.raw();
    r.head = QByteArray(raw.data(), qsizetype(std::min<size_t>(raw.size(), size_t(kMaxHeadKept))));
    if (head.complete()) {
        r.method = toQString(head.head().method);
        r.target = toQString(head.head().target);
        return r;
    }
    // Not parsed: the head as far as its blank line (the body's first bytes came in the same read: they are not
    // the head), then the first line's first two words, as far as they came, shown as sent.
    for (const QByteArray& blank : {QByteArrayLiteral("\r\n\r\n"), QByteArrayLiteral("\n\n")})
        if (const qsizetype end = r.head.indexOf(blank); end >= 0)
            r.head.truncate(end + blank.size());
    const QByteArray line = r.head.left(r.head.indexOf('\n')).trimmed();
    const QList<QByteArray> words = line.split(' ');
    if (words.size() >= 2) {
        r.method = printable(QString::fromLatin1(words[0].left(32)));
        r.target = printable(QString::fromLatin1(words[1].left(512)));
    }
    return r;
}

} // namespace upin::app
