#include "capture/forward_record.h"
#include "capture/request_record.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

namespace upin::app {

namespace {

QJsonValue moment(double ms)
{
    return ms >= 0 ? QJsonValue(ms) : QJsonValue(QJsonValue::Null);
}

} // namespace

QByteArray ForwardRecord::faultAnswer() const
{
    if (!fault || fault->status == 0)
        return {};
    return QJsonDocument(QJsonObject{{"error", fault->error},
                                     {"detail", fault->detail},
                                     {"upstream", upstream},
                                     {"body_bytes_to_upstream", qint64(bodyBytesToUpstream)}})
               .toJson(QJsonDocument::Compact) +
           '\n';
}

double ForwardRecord::serverMs() const
{
    const bool timed = earlyAtByte < 0 && at.upstreamTookLastByte >= 0 && at.firstAnswerByte >= 0;
    return timed ? std::max(0.0, at.firstAnswerByte - at.upstreamTookLastByte) : -1;
}

ForwardTimings ForwardRecord::timings() const
{
    ForwardTimings t;
    t.status = status;
    t.clientLastByte = at.clientLastByte;
    t.upstreamTookLastByte = at.upstreamTookLastByte;
    t.firstAnswerByte = at.firstAnswerByte;
    t.serverMs = serverMs();
    t.earlyAtByte = earlyAtByte;
    t.unverified = unverified;
    if (fault) {
        t.faultStatus = fault->status;
        t.faultError = fault->error;
    }
    // Our listener's answer begins as answerJson writes it: {"ok":…,"state":…,"error":…,"capture_id":"17…",
    // "endpoint":"/…". Read from its start, not parsed whole: the preview of a large form's answer is cut at 64 KiB.
    static const QRegularExpression ours(QString::fromLatin1(R"re(^\{"ok":(?:true|false),"state":"[a-z]+","error":)re"
                                                             R"re(.{0,4096}?"capture_id":"(\d+)","endpoint":"/)re"));
    if (answerPreview.startsWith("{\"ok\":"))
        if (const QRegularExpressionMatch m = ours.match(QString::fromUtf8(answerPreview.left(8192))); m.hasMatch())
            t.upstreamCaptureId = m.captured(1).toULongLong();
    return t;
}

QJsonObject ForwardRecord::toJson() const
{
    QJsonArray fields;
    for (const auto& [name, value] : headers)
        fields.append(QJsonArray{QString::fromLatin1(name), QString::fromUtf8(value)});
    QJsonArray samples;
    for (const ThroughputSample& s : upstreamThroughput)
        samples.append(QJsonArray{s.msSinceStart, qint64(s.bytes)});
    const bool text = QString::fromUtf8(answerPreview).toUtf8() == answerPreview;
    QJsonObject json{
        {"upstream", upstream},
        {"request_head", QString::fromUtf8(headAsSent)},
        {"reused_connection", reusedConnection},
        {"certificate_checked",
         upstream.startsWith(QLatin1String("https:")) ? QJsonValue(!unverified) : QJsonValue(QJsonValue::Null)},
        {"status", status > 0 ? QJsonValue(status) : QJsonValue(QJsonValue::Null)},
        {"status_line", QString::fromLatin1(statusLine)},
        {"headers", fields},
        {"answer_bytes", qint64(answerBytes)},
        {"answer_preview", text ? QString::fromUtf8(answerPreview) : QString::fromLatin1(answerPreview.toBase64())},
        {"answer_preview_encoding", text ? "utf-8" : "base64"},
        {"early_at_byte", earlyAtByte >= 0 ? QJsonValue(earlyAtByte) : QJsonValue(QJsonValue::Null)},
        {"body_bytes_to_upstream", qint64(bodyBytesToUpstream)},
        {"timings_ms", QJsonObject{{"client_last_byte", moment(at.clientLastByte)},
                                   {"upstream_took_last_byte", moment(at.upstreamTookLastByte)},
                                   {"first_answer_byte", moment(at.firstAnswerByte)},
                                   {"answer_head", moment(at.answerHead)},
                                   {"answer_done", moment(at.answerDone)}}},
        // Transfer time: from the request's head to the moment the upstream had all of it.
        {"server_ms", moment(serverMs())},
        {"transfer_ms", moment(at.upstreamTookLastByte)},
        {"upstream_throughput", samples},
    };
    if (!bodyDigest.isEmpty())
        json["body_" + bodyHashName] = bodyDigest;
    if (upstreamTls)
        json["upstream_tls"] = transportToJson(*upstreamTls);
    if (certificateRefused)
        json["certificate_refused"] = true;
    if (tunnel)
        json["tunnel"] = QJsonObject{{"bytes_up", qint64(tunnel->bytesUp)},
                                     {"bytes_down", qint64(tunnel->bytesDown)},
                                     {"reached", tunnel->opened},
                                     {"ended", tunnel->ended.isEmpty() ? QJsonValue() : tunnel->ended}};
    if (fault)
        json["error"] = QJsonObject{{"status", fault->status}, {"error", fault->error}, {"detail", fault->detail}};
    return json;
}

ForwardRecord ForwardRecord::fromJson(const QJsonObject& json)
{
    ForwardRecord r;
    r.upstream = json[QLatin1String("upstream")].toString();
    r.headAsSent = json[QLatin1String("request_head")].toString().toUtf8();
    r.reusedConnection = json[QLatin1String("reused_connection")].toBool();
    r.unverified = json[QLatin1String("certificate_checked")] == QJsonValue(false);
    r.certificateRefused = json[QLatin1String("certificate_refused")].toBool();
    r.status = json[QLatin1String("status")].toInt();
    r.statusLine = json[QLatin1String("status_line")].toString().toLatin1();
    for (const auto& field : json[QLatin1String("headers")].toArray())
        r.headers.append({field[0].toString().toLatin1(), field[1].toString().toUtf8()});
    r.answerBytes = quint64(json[QLatin1String("answer_bytes")].toInteger());
    const QString preview = json[QLatin1String("answer_preview")].toString();
    r.answerPreview = json[QLatin1String("answer_preview_encoding")].toString() == QLatin1String("base64")
                          ? QByteArray::fromBase64(preview.toLatin1())
                          : preview.toUtf8();
    r.earlyAtByte = json[QLatin1String("early_at_byte")].toInteger(-1);
    r.bodyBytesToUpstream = quint64(json[QLatin1String("body_bytes_to_upstream")].toInteger());
    const QJsonObject at = json[QLatin1String("timings_ms")].toObject();
    r.at.clientLastByte = at[QLatin1String("client_last_byte")].toDouble(-1);
    r.at.upstreamTookLastByte = at[QLatin1String("upstream_took_last_byte")].toDouble(-1);
    r.at.firstAnswerByte = at[QLatin1String("first_answer_byte")].toDouble(-1);
    r.at.answerHead = at[QLatin1String("answer_head")].toDouble(-1);
    r.at.answerDone = at[QLatin1String("answer_done")].toDouble(-1);
    for (const auto& s : json[QLatin1String("upstream_throughput")].toArray())
        r.upstreamThroughput.append({s[0].toInteger(), quint64(s[1].toInteger())});
    for (auto it = json.begin(); it != json.end(); ++it)
        if (it.key().startsWith(QLatin1String("body_")) && it.key() != QLatin1String("body_bytes_to_upstream")) {
            r.bodyHashName = it.key().mid(5);
            r.bodyDigest = it.value().toString();
        }
    if (json.contains(QLatin1String("upstream_tls")))
        r.upstreamTls = transportFromJson(json[QLatin1String("upstream_tls")].toObject());
    const QJsonObject fault = json[QLatin1String("error")].toObject();
    if (!fault.isEmpty())
        r.fault = Fault{fault[QLatin1String("status")].toInt(), fault[QLatin1String("error")].toString(),
                        fault[QLatin1String("detail")].toString()};
    return r;
}

} // namespace upin::app
