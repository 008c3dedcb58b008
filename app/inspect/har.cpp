#include "inspect/har.h"

#include "upin/core/header_params.h"

#include "upin/core/digest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>

namespace upin::app {

namespace {

// An HTTP/2 entry's header list as Chromium writes it starts with the pseudo-header fields (":method",
// ":authority"…): the request line and the URL already say them, and no HTTP/1.1 request (Send again, Copy as
// curl) may carry them as fields.
HeaderList headersOf(const QJsonArray& array)
{
    HeaderList out;
    for (const auto& h : array)
        if (const QString name = h[QLatin1String("name")].toString(); !name.startsWith(QLatin1Char(':')))
            out.append({name, h[QLatin1String("value")].toString()});
    return out;
}

QString headerValue(const HeaderList& headers, QLatin1String name)
{
    for (const auto& [n, v] : headers)
        if (n.compare(name, Qt::CaseInsensitive) == 0)
            return v;
    return {};
}

// HAR keeps text as text, and binary bodies as base64 where the exporter says so.
QByteArray bodyOf(const QJsonObject& content)
{
    const QString text = content[QLatin1String("text")].toString();
    return content[QLatin1String("encoding")].toString() == QLatin1String("base64")
               ? QByteArray::fromBase64(text.toLatin1())
               : text.toUtf8();
}

// A multipart body made again from postData's params (name, value, fileName, contentType), for exporters that
// list a form's fields there and keep no text: what the HAR holds of each field, file contents included when it
// kept them (often it keeps none, and a file part is then empty).
QByteArray bodyFromParams(const QJsonArray& params, const QString& contentType)
{
    const auto parsed = core::parseHeaderValue(contentType.toStdString());
    const std::string* boundary = parsed.param("boundary");
    if (!boundary || params.isEmpty())
        return {};
    const QByteArray dashes = "--" + QByteArray::fromStdString(*boundary);
    QByteArray body;
    for (const auto& value : params) {
        const QJsonObject param = value.toObject();
        body += dashes + "\r\nContent-Disposition: form-data; name=\"" + param["name"].toString().toUtf8() + '"';
        if (param.contains(QLatin1String("fileName")))
            body += "; filename=\"" + param["fileName"].toString().toUtf8() + '"';
        if (param.contains(QLatin1String("contentType")))
            body += "\r\nContent-Type: " + param["contentType"].toString().toUtf8();
        body += "\r\n\r\n" + param["value"].toString().toUtf8() + "\r\n";
    }
    return body + dashes + "--\r\n";
}

HarEntry entryOf(const QJsonObject& entry)
{
    HarEntry e;
    const QJsonObject request = entry[QLatin1String("request")].toObject();
    e.method = request[QLatin1String("method")].toString();
    e.url = request[QLatin1String("url")].toString();
    e.httpVersion = request[QLatin1String("httpVersion")].toString();
    e.requestHeaders = headersOf(request[QLatin1String("headers")].toArray());
    const QJsonObject post = request[QLatin1String("postData")].toObject();
    if (!post.isEmpty()) {
        e.body = bodyOf(post);
        // Exporters differ: some keep the boundary in postData's mimeType, some only in the header.
        const QString mime = post[QLatin1String("mimeType")].toString();
        const QString header = headerValue(e.requestHeaders, QLatin1String("content-type"));
        e.contentType = mime.contains(QLatin1String("boundary=")) || header.isEmpty() ? mime : header;
        if (e.body.isEmpty() && post.contains(QLatin1String("params"))) {
            e.body = bodyFromParams(post[QLatin1String("params")].toArray(), e.contentType);
            e.bodyFromParams = !e.body.isEmpty();
        }
    }
    e.multipart = e.contentType.startsWith(QLatin1String("multipart/"), Qt::CaseInsensitive);
    const QJsonObject response = entry[QLatin1String("response")].toObject();
    e.status = response[QLatin1String("status")].toInt();
    e.statusText = response[QLatin1String("statusText")].toString();
    e.responseHeaders = headersOf(response[QLatin1String("headers")].toArray());
    const QJsonObject content = response[QLatin1String("content")].toObject();
    e.responseType = content[QLatin1String("mimeType")].toString();
    e.responseBody = bodyOf(content);
    e.responseSize = quint64(std::max<qint64>(content[QLatin1String("size")].toInteger(), e.responseBody.size()));
    e.responseCut = e.responseBody.size() > HarEntry::kMaxResponseBody;
    e.responseBody.truncate(HarEntry::kMaxResponseBody);
    return e;
}

} // namespace

std::optional<QList<HarEntry>> readHar(const QByteArray& json, QString* error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (doc.isNull()) {
        *error = QObject::tr("not valid JSON (%1 at byte %2)").arg(parseError.errorString()).arg(parseError.offset);
        return std::nullopt;
    }
    const QJsonValue entries = doc.object()[QLatin1String("log")].toObject()[QLatin1String("entries")];
    if (!entries.isArray()) {
        *error = QObject::tr("not a HAR file (no log.entries)");
        return std::nullopt;
    }
    QList<HarEntry> out;
    for (const auto& entry : entries.toArray())
        out.append(entryOf(entry.toObject()));
    return out;
}

core::ParseReport reportFromHar(QList<HarEntry>& entries, const core::Options& limits)
{
    core::ParseReport combined;
    combined.ok = true;
    combined.hash = core::HashKind::Sha256;
    for (qsizetype i = 0; i < entries.size(); ++i) {
        HarEntry& e = entries[i];
        core::PartSummary node;
        node.index = uint32_t(i);
        // A body made again from params says so where the request is named, in the window as in parse.
        node.name = (e.method + QLatin1Char(' ') + e.url +
                     (e.bodyFromParams ? QObject::tr(" (body made again from the HAR's params: file contents only "
                                                     "where the HAR kept them)")
                                       : QString()))
                        .toStdString();
        if (!e.contentType.isEmpty())
            node.contentType = e.contentType.toStdString();
        for (const auto& [name, value] : e.requestHeaders)
            node.headers.emplace_back(name.toStdString(), value.toStdString());
        node.size = quint64(e.body.size());
        node.complete = true;
        const core::ByteView body(e.body.constData(), size_t(e.body.size()));
        if (!e.body.isEmpty())
            node.digest = core::Digest::hex(core::HashKind::Sha256, body);
        combined.bytes += node.size;
        if (e.multipart && !e.body.isEmpty()) { // an empty one was not kept (harSummary says so), not malformed
            auto parser = core::MultipartParser::fromContentType(e.contentType.toStdString(), limits);
            if (!parser) {
                e.bodyError = core::Error{parser.error().code, 0};
                combined.ok = false;
            } else {
                core::ParseReport report = core::parseBuffer(*parser, body, {core::HashKind::Sha256, false, limits});
                node.children = std::move(report.parts);
                combined.diagnostics.insert(combined.diagnostics.end(), report.diagnostics.begin(),
                                            report.diagnostics.end());
                e.bodyError = report.error;
                combined.ok = combined.ok && report.ok;
            }
        }
        combined.parts.push_back(std::move(node));
    }
    return combined;
}

int firstUpload(const QList<HarEntry>& entries)
{
    for (qsizetype i = 0; i < entries.size(); ++i)
        if (entries[i].multipart)
            return int(i);
    return -1;
}

QString harSummary(const QList<HarEntry>& entries, const core::ParseReport& report)
{
    qsizetype uploads = 0;
    size_t parts = 0;
    for (qsizetype i = 0; i < entries.size(); ++i)
        if (entries[i].multipart) {
            ++uploads;
            parts += size_t(i) < report.parts.size() ? report.parts[size_t(i)].children.size() : 0;
        }
    const QString requests =
        entries.size() == 1 ? QObject::tr("1 request") : QObject::tr("%1 requests").arg(entries.size());
    if (uploads == 0)
        return QObject::tr("%1, no multipart upload").arg(requests);
    QStringList rejected, empty;
    for (qsizetype i = 0; i < entries.size(); ++i)
        if (entries[i].bodyError)
            rejected << QObject::tr("entry %1").arg(i);
        else if (entries[i].multipart && entries[i].body.isEmpty())
            empty << QObject::tr("entry %1").arg(i);
    return QObject::tr("%1, %2 with %3%4%5")
        .arg(requests, uploads == 1 ? QObject::tr("1 upload") : QObject::tr("%1 uploads").arg(uploads),
             parts == 1 ? QObject::tr("1 part") : QObject::tr("%1 parts").arg(parts),
             rejected.isEmpty() ? QString()
                                : QObject::tr(", %1 did not parse").arg(rejected.join(QStringLiteral(", "))),
             empty.isEmpty() ? QString()
                             : QObject::tr(", %1 without a body (not kept)").arg(empty.join(QStringLiteral(", "))));
}

} // namespace upin::app
