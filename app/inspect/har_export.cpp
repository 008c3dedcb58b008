#include "inspect/har_export.h"

#include "common/http_answer.h"
#include "common/json_writer.h"
#include "common/qt_text.h"
#include "inspect/inspect_worker.h"
#include "inspect/part_bytes.h"
#include "upin_version.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QUrlQuery>

namespace upin::app {

namespace {

using Fields = QList<QPair<QByteArray, QByteArray>>;

bool isUtf8(const QByteArray& bytes)
{
    return QString::fromUtf8(bytes).toUtf8() == bytes;
}

void writeFields(JsonWriter& w, const Fields& fields)
{
    w.beginArray();
    for (const auto& [name, value] : fields) {
        w.beginObject();
        w.key("name").string(std::string_view(name.constData(), size_t(name.size())));
        w.key("value").string(QString::fromUtf8(value));
        w.endObject();
    }
    w.endArray();
}

// text, or base64 with "encoding" when it is not UTF-8: as Chromium's export writes a binary body.
void writeText(JsonWriter& w, const QByteArray& bytes)
{
    if (isUtf8(bytes)) {
        w.key("text").string(std::string_view(bytes.constData(), size_t(bytes.size())));
        return;
    }
    const QByteArray base64 = bytes.toBase64();
    w.key("text").string(std::string_view(base64.constData(), size_t(base64.size())));
    w.key("encoding").string(std::string_view("base64"));
}

// The body as it came (body.raw), or made again from the parts kept; nullopt with why when neither can be had.
std::optional<QByteArray> bodyOf(const InspectResult& r, QString* why)
{
    if (r.storedBodySize > kMaxHarBody || r.capture->bytes > quint64(kMaxHarBody)) {
        *why = QObject::tr("its body of %1 bytes is over the %2 MiB a HAR entry holds")
                   .arg(std::max<quint64>(quint64(std::max<qint64>(r.storedBodySize, 0)), r.capture->bytes))
                   .arg(kMaxHarBody >> 20);
        return std::nullopt;
    }
    if (r.storedBodySize >= 0) {
        QFile raw(QDir(r.partsFolder).filePath(QStringLiteral("body.raw")));
        if (!raw.open(QIODevice::ReadOnly)) {
            *why = QObject::tr("body.raw could not be read: %1").arg(raw.errorString());
            return std::nullopt;
        }
        return raw.readAll();
    }
    if (r.report.parts.empty() || r.report.boundary.empty()) {
        *why = r.capture->bytes == 0 ? QString() : QObject::tr("neither its body nor its parts were kept");
        return r.capture->bytes == 0 ? std::optional(QByteArray()) : std::nullopt;
    }
    const QByteArray dashes = "--" + QByteArray::fromStdString(r.report.boundary);
    QByteArray body;
    for (const core::PartSummary& part : r.report.parts) {
        const PartBytes where = locatePart(r, part);
        if (!where.missing.isEmpty() || where.available < part.size || part.headersNotKept > 0 || !part.complete) {
            *why = !where.missing.isEmpty() ? QObject::tr("part %1's bytes were not kept").arg(part.index)
                                            : QObject::tr("part %1 was not kept whole").arg(part.index);
            return std::nullopt;
        }
        body += dashes + "\r\n";
        for (const auto& [name, value] : part.headers)
            body += QByteArray::fromStdString(name) + ": " + QByteArray::fromStdString(value) + "\r\n";
        body += "\r\n" + readPartBytes(where, 0, qint64(part.size)) + "\r\n";
    }
    return body + dashes + "--\r\n";
}

// What the HAR holds of a body it cannot hold: the parts by name (HAR's params), field values whole.
void writeParams(JsonWriter& w, const InspectResult& r)
{
    w.key("params").beginArray();
    for (const core::PartSummary& part : r.report.parts) {
        w.beginObject();
        w.key("name").string(std::string_view(part.name ? *part.name : std::string()));
        if (part.filename)
            w.key("fileName").string(std::string_view(*part.filename));
        if (part.contentType)
            w.key("contentType").string(std::string_view(*part.contentType));
        const PartBytes where = locatePart(r, part);
        if (!part.filename && where.inMemory)
            w.key("value").string(QString::fromUtf8(where.memory));
        w.endObject();
    }
    w.endArray();
}

QString writePostData(JsonWriter& w, const InspectResult& r)
{
    QString why;
    const std::optional<QByteArray> body = bodyOf(r, &why);
    if (body && body->isEmpty())
        return {};
    w.key("postData").beginObject();
    w.key("mimeType").string(r.request.contentType);
    if (body)
        writeText(w, *body);
    else
        writeParams(w, r);
    w.endObject();
    return why.isEmpty()
               ? why
               : QObject::tr("the body is not in this file, its parts listed without their bytes: %1").arg(why);
}

void writeResponse(JsonWriter& w, const CaptureRecord& record)
{
    int status = 0;
    QByteArray reason, answer;
    Fields fields;
    quint64 size = 0;
    if (record.forward && record.forward->status == 0 && record.forward->fault) { // our 502/504: what it got
        status = record.forward->fault->status;
        reason = reasonPhrase(status);
        answer = record.forward->fault->error.toUtf8() + '\n';
        fields = {{"Content-Type", "text/plain"}};
        size = quint64(answer.size());
    } else if (record.forward && record.forward->status != 0) {
        status = record.forward->status;
        // "HTTP/1.1 201 Created": what follows the status
        const QList<QByteArray> words = record.forward->statusLine.split(' ');
        reason = words.mid(2).join(' ').trimmed();
        fields = record.forward->headers;
        answer = record.forward->answerPreview;
        size = record.forward->answerBytes;
    } else if (!record.forward && record.answered) {
        status = record.answered->status;
        reason = reasonPhrase(status);
        answer = record.answerJson(record.answered->brief ? CaptureRecord::Detail::Brief : CaptureRecord::Detail::Full)
                     .join() +
                 '\n';
        fields = {{"Content-Type", "application/json"}, {"Content-Length", QByteArray::number(answer.size())}};
        size = quint64(answer.size());
    }
    QByteArray mime;
    for (const auto& [name, value] : fields)
        if (name.compare("content-type", Qt::CaseInsensitive) == 0)
            mime = value;
    w.key("response").beginObject();
    w.key("status").number(int64_t(status)); // 0: none came, as Chromium writes a failed request
    w.key("statusText").string(QString::fromLatin1(reason));
    // Ours went back as the request came; a forwarded exchange's, as the upstream spoke (HTTP/1.1 until the relay speaks HTTP/2).
    const bool http2 = !record.forward && record.request.version == QLatin1String("HTTP/2");
    w.key("httpVersion").string(std::string_view(!status ? "" : http2 ? "HTTP/2" : "HTTP/1.1"));
    w.key("cookies").beginArray().endArray();
    w.key("headers");
    writeFields(w, fields);
    w.key("content").beginObject();
    w.key("size").number(size);
    w.key("mimeType").string(QString::fromLatin1(mime));
    if (!answer.isEmpty())
        writeText(w, answer);
    w.endObject();
    w.key("redirectURL").string(std::string_view(""));
    w.key("headersSize").number(int64_t(-1));
    w.key("bodySize").number(size);
    w.endObject();
}

void writeRequest(JsonWriter& w, const InspectResult& r, QString* why)
{
    const RequestRecord& q = r.request;
    const bool tls = q.transport && q.transport->tls;
    const QUrl url(QStringLiteral("%1://%2%3").arg(tls ? "https" : "http", q.host, q.target));
    Fields fields;
    for (const auto& [name, value] : q.headers.value_or(QList<QPair<QString, QString>>{}))
        fields.append({name.toUtf8(), value.toUtf8()});
    w.key("request").beginObject();
    w.key("method").string(q.method.isEmpty() ? QStringLiteral("POST") : q.method);
    w.key("url").string(url.toString(QUrl::FullyEncoded));
    w.key("httpVersion").string(q.version.isEmpty() ? QStringLiteral("HTTP/1.1") : q.version);
    w.key("cookies").beginArray().endArray();
    w.key("headers");
    writeFields(w, fields);
    w.key("queryString").beginArray();
    for (const auto& [name, value] : QUrlQuery(url).queryItems(QUrl::FullyDecoded))
        w.beginObject().key("name").string(name).key("value").string(value).endObject();
    w.endArray();
    *why = writePostData(w, r);
    w.key("headersSize").number(q.headBytes ? int64_t(*q.headBytes) : int64_t(-1));
    w.key("bodySize").number(r.capture->bytes);
    w.endObject();
}

void writeEntry(JsonWriter& w, const InspectResult& r, QString* why)
{
    const CaptureRecord& record = *r.capture;
    const double wait = record.forward && record.forward->serverMs() >= 0 ? record.forward->serverMs() : 0;
    const double send = std::max(0.0, record.elapsedMs - wait);
    w.beginObject();
    w.key("startedDateTime").string(r.request.receivedAt.toUTC().toString(Qt::ISODateWithMs));
    const double head = r.request.headMs.value_or(0);
    w.key("time").number(head + send + wait);
    writeRequest(w, r, why);
    writeResponse(w, record);
    w.key("cache").beginObject().endObject();
    w.key("timings").beginObject();
    w.key("blocked").number(int64_t(-1)).key("dns").number(int64_t(-1)).key("connect").number(int64_t(-1));
    w.key("send").number(head + send).key("wait").number(wait).key("receive").number(int64_t(0));
    w.endObject();
    if (!why->isEmpty())
        w.key("comment").string(QObject::tr("Upload Inspector: %1").arg(*why));
    w.key("_captureId").string(QString::number(record.id)); // HAR's custom fields begin with an underscore
    w.key("_state").string(captureStateName(record.state));
    w.endObject();
}

} // namespace

HarExport writeHar(const QStringList& folders, const QString& path, const core::Options& limits)
{
    HarExport out;
    // A file is written whole or not at all (QSaveFile): a failed export leaves what was there. "-": stdout.
    QSaveFile file(path);
    QFile standardOutput;
    const bool toStdout = path == QLatin1String("-");
    QIODevice& device = toStdout ? static_cast<QIODevice&>(standardOutput) : file;
    if (!(toStdout ? standardOutput.open(stdout, QIODevice::WriteOnly) : file.open(QIODevice::WriteOnly))) {
        out.error = QObject::tr("%1: %2").arg(path, device.errorString());
        return out;
    }
    JsonWriter w(JsonWriter::Style::Indented,
                 [&device](const char* data, size_t size) { return device.write(data, qint64(size)) == qint64(size); });
    w.beginObject().key("log").beginObject();
    w.key("version").string(std::string_view("1.2"));
    w.key("creator").beginObject();
    w.key("name").string(std::string_view("Upload Inspector")).key("version").string(std::string_view(UPIN_VERSION));
    w.endObject();
    w.key("pages").beginArray().endArray();
    w.key("entries").beginArray();
    for (const QString& folder : folders) {
        const InspectResult r = inspectSource(folder, {}, limits);
        if (!r.capture || !r.error.isEmpty()) {
            out.notes.append(QObject::tr("%1: left out: %2")
                                 .arg(folder, r.error.isEmpty() ? QObject::tr("not a capture folder") : r.error));
            continue;
        }
        QString why;
        writeEntry(w, r, &why);
        ++out.entries;
        if (!why.isEmpty())
            out.notes.append(QObject::tr("capture %1: %2").arg(r.capture->id).arg(why));
    }
    w.endArray().endObject().endObject();
    const bool written = w.finish() && device.write("\n", 1) == 1;
    if (!written)
        out.error = QObject::tr("%1: %2").arg(path, device.errorString());
    else if (out.entries == 0)
        out.error = QObject::tr("none of the captures could be read: nothing written");
    if (!toStdout && (!out.error.isEmpty() ? (file.cancelWriting(), false) : !file.commit()))
        out.error = QObject::tr("%1: %2").arg(path, file.errorString());
    return out;
}

} // namespace upin::app
