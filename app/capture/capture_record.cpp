#include "capture/capture_record.h"
#include "capture/report_json.h"
#include "common/upin_headers.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>

namespace upin::app {

namespace {

std::optional<double> optionalMs(const QJsonValue& value)
{
    return value.isDouble() ? std::optional(value.toDouble()) : std::nullopt;
}

} // namespace

QString CaptureRecord::errorInWords() const
{
    return writeFailure ? QStringLiteral("%1: %2").arg(writeFailure->file, writeFailure->systemMessage) : detail;
}

void CaptureRecord::writeAnswer(JsonWriter& w, Detail detail) const
{
    w.key("ok").boolean(ok());
    w.key("state").string(captureStateName(state));
    w.key("error");
    writeOutcomeError(w);
    w.key("capture_id").string(QString::number(id)); // a string, as JavaScript reads 64-bit ids whole
    w.key("endpoint").string(endpoint);
    w.key("matcher").string(matcher);
    w.key("hash").string(hash);
    w.key("bytes").number(bytes);
    w.key("framing").string(framing);
    w.key("elapsed_ms").number(elapsedMs);
    w.key("cpu_ms").beginObject();
    w.key("read_parse").number(cpuMs.readParse);
    w.key("hash");
    cpuMs.hash ? w.number(*cpuMs.hash) : w.null();
    w.key("store");
    cpuMs.store ? w.number(*cpuMs.store) : w.null();
    w.endObject();
    if (forward)
        w.key("forward").json(forward->toJson());
    if (detail == Detail::Brief) {
        writeBriefParts(w, report, [this](JsonWriter& part, uint32_t index) {
            if (qsizetype(index) < kept.size() && !kept[qsizetype(index)].savedAs.isEmpty())
                part.key("saved_as").string(kept[qsizetype(index)].savedAs);
        });
        return;
    }
    writeReportParts(w, report, [this](JsonWriter& part, uint32_t index) {
        if (qsizetype(index) < kept.size())
            kept[qsizetype(index)].writeTo(part);
    });
}

// The capture's error, which is not always the parser's (a failed write, a client gone).
void CaptureRecord::writeOutcomeError(JsonWriter& w) const
{
    if (!error) {
        w.null();
        return;
    }
    w.beginObject();
    writeError(w, *error);
    if (writeFailure) {
        w.key("file").string(writeFailure->file);
        w.key("system_message").string(writeFailure->systemMessage);
    } else if (!detail.isEmpty()) {
        w.key("detail").string(detail);
    }
    w.endObject();
}

QByteArrayList CaptureRecord::answerJson(Detail detail) const
{
    QByteArrayList pieces;
    JsonWriter w(JsonWriter::Style::Compact, [&pieces](const char* data, size_t size) {
        QByteArray piece;
        piece.reserve(qsizetype(size) + 1); // the answer's closing newline goes in the last, not in a write of its own
        piece.append(data, qsizetype(size));
        pieces.append(std::move(piece));
        return true;
    });
    w.beginObject();
    writeAnswer(w, detail);
    w.endObject();
    w.finish();
    return pieces;
}

QByteArray CaptureRecord::toJson() const
{
    JsonWriter w(JsonWriter::Style::Indented);
    writeJson(w);
    QByteArray json = w.take();
    json.append('\n'); // in place: capture.json of 10,000 parts is megabytes
    return json;
}

void CaptureRecord::writeJson(JsonWriter& w) const
{
    w.beginObject();
    writeAnswer(w, Detail::Full);
    if (answered) {
        w.key("answer").beginObject();
        w.key("status").number(int64_t(answered->status));
        w.key("detail").string(std::string_view(answered->brief ? "brief" : "full"));
        w.endObject();
    }
    w.key("request").json(request.toJson());
    if (http2)
        w.key("http2").json(http2->toJson());
    w.key("throughput").beginArray();
    for (const auto& s : throughput)
        w.beginArray().number(int64_t(s.msSinceStart)).number(uint64_t(s.bytes)).endArray();
    w.endArray();
    w.key("raw_body");
    rawBodyKept ? w.string(std::string_view("body.raw")) : w.null();
    w.endObject();
}

quint64 CaptureRecord::idInAnswer(const QByteArray& answer)
{
    return QJsonDocument::fromJson(answer).object().value(QLatin1String("capture_id")).toString().toULongLong();
}

CaptureSummary CaptureRecord::summary(const QString& folder) const
{
    CaptureSummary c;
    c.id = id;
    c.received = request.receivedAt;
    c.client = request.client;
    c.method = request.method;
    c.endpoint = endpoint;
    c.matcher = matcher;
    c.folder = folder;
    for (const auto& [name, value] : request.headers.value_or(QList<QPair<QString, QString>>{}))
        c.fromProbe = c.fromProbe || name.compare(QLatin1String(kProbeHeader), Qt::CaseInsensitive) == 0;
    c.tls = request.transport ? request.transport->label() : QString();
    if (http2 && http2->stalls > 0)
        c.flowStalls = http2->stallsInWords();
    c.state = state;
    c.bytes = bytes;
    c.parts = int(report.parts.size());
    c.diagnostics = int(report.diagnostics.size());
    // Rounded up: a capture that took a fraction of a millisecond has a rate, not a duration of 0 ms.
    c.elapsedMs = qint64(std::ceil(elapsedMs));
    c.error = error;
    c.errorDetail = errorInWords();
    c.answerStatus = answered ? answered->status : 0;
    if (forward)
        c.forward = forward->timings();
    return c;
}

CaptureRecord CaptureRecord::fromJson(const QJsonObject& json)
{
    CaptureRecord r;
    r.id = json["capture_id"].toString().toULongLong();
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
    if (const QJsonObject answer = json["answer"].toObject(); !answer.isEmpty())
        r.answered = Answered{answer["status"].toInt(), answer["detail"].toString() == QLatin1String("brief")};
    r.request = RequestRecord::fromJson(json["request"].toObject());
    if (json.contains("http2"))
        r.http2 = Http2Record::fromJson(json["http2"].toObject());
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
