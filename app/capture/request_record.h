#pragma once
// A request as Upload Inspector records it: its head (method, target, version, fields), how its body was framed
// on the wire, and for a capture who sent it, to which host, when, and over what. One value type for capture.json's
// "request" and for an HTTP request file opened in Inspect or parse; toJson/fromJson (request_record.cpp) are the
// only code that knows its keys. Captures stored by earlier versions lack some of it: those members stay empty and
// say so (headRecorded(), the optionals).

#include "capture/capture_summary.h"

#include "upin/core/http.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>

namespace upin::app {

struct RequestRecord {
    QString method, target, version; // method empty: only the target was recorded (an early capture)
    std::optional<QList<QPair<QString, QString>>> headers;
    QString contentType;
    std::optional<quint64> headBytes;
    QString framing; // framingName(): "content-length", "chunked", "none"
    // For chunked bodies the chunks and the trailer's bytes (trailer fields are read, not kept); the body's bytes
    // as framed on the wire, once it was read whole.
    std::optional<quint64> contentLength, chunks, trailerBytes, wireBytes;
    // A capture's: who sent it, the Host it named, when its first byte came, how long its head took, the transport.
    QString client, host;
    QDateTime receivedAt;
    std::optional<double> headMs;
    std::optional<Transport> transport;

    bool isEmpty() const { return method.isEmpty() && target.isEmpty() && framing.isEmpty(); }
    bool headRecorded() const { return !method.isEmpty(); }

    static RequestRecord fromHead(const core::RequestHead& head, size_t headBytes);
    static RequestRecord fromRawHead(const QByteArray& rawHead); // empty when it does not parse whole
    // The body's framing, and once it was read (decoder), its chunks and bytes on the wire.
    void setWire(const core::BodyFraming& framing, const core::BodyDecoder* decoder);
    QJsonObject toJson() const;
    static RequestRecord fromJson(const QJsonObject& json);
};

// A transport as capture.json keeps it (request.transport, forward.upstream_tls).
QJsonObject transportToJson(const Transport& transport);
Transport transportFromJson(const QJsonObject& json);

} // namespace upin::app
