#include "capture/capture_record.h"
#include "inspect/report_json.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace upin::app {

namespace {

QJsonValue optionalMs(const std::optional<double>& ms)
{
    return ms ? QJsonValue(*ms) : QJsonValue(QJsonValue::Null);
}

std::optional<double> optionalMs(const QJsonValue& value)
{
    return value.isDouble() ? std::optional(value.toDouble()) : std::nullopt;
}

} // namespace

QString CaptureRecord::errorInWords() const
{
    return writeFailure ? QStringLiteral("%1: %2").arg(writeFailure->file, writeFailure->systemMessage) : detail;
}

QJsonObject CaptureRecord::answerJson() const
{
    QList<QJsonObject> perPart;
    for (const KeptPart& k : kept) {
        QJsonObject part;
        k.addTo(part);
        perPart.append(part);
    }
    QJsonObject json = reportToJson(report, perPart);
    json["capture_id"] = id;
    json["endpoint"] = endpoint;
    json["matcher"] = matcher;
    json["hash"] = hash;
    json["bytes"] = qint64(bytes);
    json["framing"] = framing;
    json["cpu_ms"] = QJsonObject{
        {"read_parse", cpuMs.readParse}, {"hash", optionalMs(cpuMs.hash)}, {"store", optionalMs(cpuMs.store)}};
    json["ok"] = ok();
    json["state"] = captureStateName(state);
    json["elapsed_ms"] = elapsedMs;
    QJsonValue errorJson(QJsonValue::Null);
    if (error) {
        QJsonObject e = errorToJson(*error);
        if (writeFailure) {
            e["file"] = writeFailure->file;
            e["system_message"] = writeFailure->systemMessage;
        } else if (!detail.isEmpty()) {
            e["detail"] = detail;
        }
        errorJson = e;
    }
    json["error"] = errorJson;
    if (forward)
        json["forward"] = forward->toJson();
    return json;
}

QJsonObject CaptureRecord::toJson() const
{
    QJsonObject json = answerJson();
    json["request"] = request.toJson();
    QJsonArray samples;
    for (const auto& s : throughput)
        samples.append(QJsonArray{s.msSinceStart, qint64(s.bytes)});
    json["throughput"] = samples;
    json["raw_body"] = rawBodyKept ? QJsonValue(QStringLiteral("body.raw")) : QJsonValue(QJsonValue::Null);
    return json;
}

CaptureRecord CaptureRecord::fromJson(const QJsonObject& json)
{
    CaptureRecord r;
    r.id = json["capture_id"].toString();
    r.endpoint = json["endpoint"].toString();
    r.matcher = json["matcher"].toString();
    r.hash = json["hash"].toString();
    r.report = reportFromJson(json);
    for (const auto& part : json["parts"].toArray())
        r.kept.append(KeptPart::fromJson(part.toObject()));
    r.bytes = quint64(json["bytes"].toInteger());
    r.framing = json["framing"].toString();
    r.state = kCaptureStateNames.find(json["state"].toString().toStdString()).value_or(CaptureState::Incomplete);
    const QJsonObject error = json["error"].toObject();
    if (!error.isEmpty()) {
        if (auto code = core::codeFromName(error["code"].toString().toStdString()))
            r.error = core::Error{*code, quint64(error["offset"].toInteger())};
        if (error.contains("file"))
            r.writeFailure = WriteFailure{error["file"].toString(), error["system_message"].toString()};
        r.detail = error["detail"].toString();
    }
    r.elapsedMs = json["elapsed_ms"].toDouble();
    const QJsonObject cpu = json["cpu_ms"].toObject();
    r.cpuMs = CpuMs{cpu["read_parse"].toDouble(), optionalMs(cpu["hash"]), optionalMs(cpu["store"])};
    if (json.contains("forward"))
        r.forward = ForwardRecord::fromJson(json["forward"].toObject());
    r.request = RequestRecord::fromJson(json["request"].toObject());
    if (r.request.framing.isEmpty()) // captures stored before the request kept its own
        r.request.framing = r.framing;
    for (const auto& s : json["throughput"].toArray())
        r.throughput.append({s.toArray().at(0).toInteger(), quint64(s.toArray().at(1).toInteger())});
    r.rawBodyKept = json["raw_body"].isString();
    return r;
}

std::optional<CaptureRecord> CaptureRecord::read(const QString& folder, QString* why)
{
    QFile file(QDir(folder).filePath(QStringLiteral("capture.json")));
    if (!file.open(QIODevice::ReadOnly)) {
        if (why)
            *why = QStringLiteral("%1: not a capture folder (no readable capture.json)").arg(folder);
        return std::nullopt;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (!doc.isObject()) {
        if (why)
            *why = QStringLiteral("%1: capture.json is not valid JSON (%2 at byte %3)")
                       .arg(folder, error.errorString())
                       .arg(error.offset);
        return std::nullopt;
    }
    return fromJson(doc.object());
}

} // namespace upin::app
