#pragma once
// The record of one forwarded exchange (forward mode), kept in capture.json as "forward": where the request went,
// the head as sent, the upstream's answer, the moments, and the fault when there was one. One value type with
// one toJson/fromJson: the forwarder fills it, UploadSession stores it, and parse, the captures list and Inspect
// read it back, never by JSON keys of their own. Moments are ms from the request head's completion, -1 where a
// moment did not come (no answer, an answer before the body's end).

#include "capture/capture_summary.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>

namespace upin::app {

struct ForwardRecord {
    struct Moments {
        double clientLastByte = -1;       // the client's last body byte arrived
        double upstreamTookLastByte = -1; // the upstream's kernel acknowledged the last request byte
        double firstAnswerByte = -1;      // the upstream's first answer byte (an interim 100 included)
        double answerHead = -1;           // its final answer's head, complete
        double answerDone = -1;           // its answer's last byte, relayed
    };
    struct Fault {
        int status = 0; // what the client was answered (502, 504, 408), or would have been once answer bytes went
        QString error;  // "upstream too slow"
        QString detail;
    };

    QString upstream;      // the URL the request went on to
    QByteArray headAsSent; // the rewritten head
    bool reusedConnection = false;
    bool unverified = false;              // an https upstream whose certificate was not checked (--insecure)
    bool certificateRefused = false;      // an https upstream whose certificate was checked and not trusted
    std::optional<Transport> upstreamTls; // an https upstream: what its handshake agreed, and its certificate
    int status = 0;                       // the upstream's final answer; 0: none
    QByteArray statusLine;                // as the upstream wrote it: "HTTP/1.1 201 Created" (empty in older captures)
    QList<QPair<QByteArray, QByteArray>> headers;
    quint64 answerBytes = 0;
    QByteArray answerPreview; // its decoded body's first 64 KiB
    qint64 earlyAtByte = -1;  // it answered when its kernel had this many body bytes
    quint64 bodyBytesToUpstream = 0;
    Moments at;
    QList<ThroughputSample> upstreamThroughput; // body bytes it had taken over time
    QString bodyHashName, bodyDigest;           // a body that is not multipart, hashed whole
    std::optional<Fault> fault;
    struct Tunnel {
        quint64 bytesUp = 0, bytesDown = 0;
        bool opened = false; // the server was reached
        QString ended;       // why it ended when not by a close: idle, its slot given to a new client
    };
    std::optional<Tunnel> tunnel; // a proxy's tunnel passed through unopened: only its byte counts are known

    // The JSON the relay answered the client with itself, for a fault with a status (502 when the upstream could not
    // be reached); empty for none. The forwarder sends it, and Inspect shows it: one text for both.
    QByteArray faultAnswer() const;
    // From the moment the upstream had the whole request to its first answer byte; -1 for an early answer.
    double serverMs() const;
    ForwardTimings timings() const; // what the captures list shows of it
    QJsonObject toJson() const;
    static ForwardRecord fromJson(const QJsonObject& json);
};

} // namespace upin::app
