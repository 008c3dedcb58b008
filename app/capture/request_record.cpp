#include "capture/request_record.h"
#include "capture/report_json.h"
#include "common/qt_text.h"

#include <QJsonArray>

namespace upin::app {

namespace {

std::optional<quint64> optionalCount(const QJsonObject& json, QLatin1String key)
{
    return json.contains(key) ? std::optional(quint64(json[key].toInteger())) : std::nullopt;
}

void putCount(QJsonObject& json, const char* key, const std::optional<quint64>& value)
{
    if (value)
        json[QLatin1String(key)] = qint64(*value);
}

} // namespace

QJsonObject transportToJson(const Transport& t)
{
    auto orNull = [](const QString& text) { return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text); };
    if (!t.tls)
        return t.http.isEmpty() ? QJsonObject{{"tls", false}} : QJsonObject{{"tls", false}, {"http", t.http}};
    return QJsonObject{{"tls", true},
                       {"http", orNull(t.http)},
                       {"protocol", t.protocol},
                       {"cipher", t.cipher},
                       {"alpn", orNull(t.alpn)},
                       {"client_certificate", t.clientCertificate},
                       {"handshake_ms", t.handshakeMs},
                       {"server_name", orNull(t.serverName)},
                       {"certificate_subject", orNull(t.certificateSubject)},
                       {"certificate_issuer", orNull(t.certificateIssuer)}};
}

Transport transportFromJson(const QJsonObject& json)
{
    Transport t;
    t.tls = json[QLatin1String("tls")].toBool();
    t.http = json[QLatin1String("http")].toString();
    t.protocol = json[QLatin1String("protocol")].toString();
    t.cipher = json[QLatin1String("cipher")].toString();
    t.alpn = json[QLatin1String("alpn")].toString();
    t.clientCertificate = json[QLatin1String("client_certificate")].toBool();
    t.handshakeMs = json[QLatin1String("handshake_ms")].toDouble();
    t.serverName = json[QLatin1String("server_name")].toString();
    t.certificateSubject = json[QLatin1String("certificate_subject")].toString();
    t.certificateIssuer = json[QLatin1String("certificate_issuer")].toString();
    return t;
}

RequestRecord RequestRecord::fromHead(const core::RequestHead& head, size_t headBytes)
{
    RequestRecord r;
    r.method = toQString(head.method);
    r.target = toQString(head.target);
    r.version = QStringLiteral("HTTP/1.%1").arg(head.minorVersion);
    r.headers.emplace();
    for (const auto& f : head.fields)
        r.headers->append({toQString(f.name), toQString(f.value)});
    r.contentType = toQString(head.field("content-type"));
    r.headBytes = headBytes;
    return r;
}

RequestRecord RequestRecord::fromRawHead(const QByteArray& rawHead)
{
    // The connection read it with at least these limits, so it reads again whatever its size.
    core::HttpLimits limits;
    limits.maxHeadBytes = std::max<size_t>(limits.maxHeadBytes, size_t(rawHead.size()));
    core::HeadReader reader(limits);
    const auto used = reader.feed(core::ByteView(rawHead.constData(), size_t(rawHead.size())));
    return used && reader.complete() ? fromHead(reader.head(), reader.headBytes()) : RequestRecord{};
}

void RequestRecord::setWire(const core::BodyFraming& bodyFraming, const core::BodyDecoder* decoder)
{
    framing = framingName(bodyFraming.kind);
    if (bodyFraming.kind == core::BodyFraming::Kind::ContentLength)
        contentLength = bodyFraming.contentLength;
    if (!decoder) // the body was not read
        return;
    if (bodyFraming.kind == core::BodyFraming::Kind::Chunked) {
        chunks = decoder->chunks();
        trailerBytes = decoder->trailerBytes();
    }
    if (!decoder->failed()) // a failed read's bytes are not counted: the error's offset says where it stopped
        wireBytes = decoder->wireBytes();
}

QJsonObject RequestRecord::toJson() const
{
    QJsonObject json{{"target", target}, {"content_type", contentType}};
    if (!method.isEmpty()) {
        json["method"] = method;
        json["version"] = version;
    }
    if (headers) {
        QJsonArray fields;
        for (const auto& [name, value] : *headers)
            fields.append(QJsonObject{{"name", name}, {"value", value}});
        json["headers"] = fields;
    }
    putCount(json, "head_bytes", headBytes);
    if (!framing.isEmpty())
        json["framing"] = framing;
    putCount(json, "content_length", contentLength);
    putCount(json, "chunks", chunks);
    putCount(json, "trailer_bytes", trailerBytes);
    putCount(json, "wire_bytes", wireBytes);
    if (!client.isEmpty())
        json["client"] = client;
    if (!host.isEmpty())
        json["host"] = host;
    if (receivedAt.isValid())
        json["received_at"] = receivedAt.toString(Qt::ISODateWithMs);
    if (headMs)
        json["head_ms"] = *headMs;
    if (transport)
        json["transport"] = transportToJson(*transport);
    return json;
}

RequestRecord RequestRecord::fromJson(const QJsonObject& json)
{
    RequestRecord r;
    r.method = json[QLatin1String("method")].toString();
    r.target = json[QLatin1String("target")].toString();
    r.version = json[QLatin1String("version")].toString();
    if (json.contains(QLatin1String("headers"))) {
        r.headers.emplace();
        for (const auto& field : json[QLatin1String("headers")].toArray())
            r.headers->append({field[QLatin1String("name")].toString(), field[QLatin1String("value")].toString()});
    }
    r.contentType = json[QLatin1String("content_type")].toString();
    r.headBytes = optionalCount(json, QLatin1String("head_bytes"));
    r.framing = json[QLatin1String("framing")].toString();
    r.contentLength = optionalCount(json, QLatin1String("content_length"));
    r.chunks = optionalCount(json, QLatin1String("chunks"));
    r.trailerBytes = optionalCount(json, QLatin1String("trailer_bytes"));
    r.wireBytes = optionalCount(json, QLatin1String("wire_bytes"));
    r.client = json[QLatin1String("client")].toString();
    r.host = json[QLatin1String("host")].toString();
    if (json.contains(QLatin1String("received_at")))
        r.receivedAt = QDateTime::fromString(json[QLatin1String("received_at")].toString(), Qt::ISODateWithMs);
    if (json.contains(QLatin1String("head_ms")))
        r.headMs = json[QLatin1String("head_ms")].toDouble();
    if (json.contains(QLatin1String("transport")))
        r.transport = transportFromJson(json[QLatin1String("transport")].toObject());
    return r;
}

} // namespace upin::app
