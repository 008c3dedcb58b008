#pragma once
// One capture as every list knows it: the value the server's events carry (capture_event.h), the captures list
// wraps, the store keeps for GET /captures, and a stored capture is read back as. Made from what is known of it:
// UploadSession::event while it arrives, CaptureRecord::summary once it finished (and when its capture.json is read
// back, storedCaptures()), RefusedRequest::summary for a request refused before its body. Its JSON, for GET
// /captures, is summaryToJson's (capture_summary.cpp).

#include "upin/core/enum_names.h"
#include "upin/core/errors.h"

#include <QDateTime>
#include <QJsonObject>
#include <QMetaType>
#include <QString>

#include <optional>

namespace upin::app {

// Failed: the listener could not store what arrived (disk full, file size limit): see the io_error.
// Refused: turned away before its body was taken (a wrong path or method, a bad head, a guard): no parts, a
// RefusedRequest record (capture/refused_request.h) instead of a folder.
enum class CaptureState : uint8_t { Receiving, Complete, Incomplete, Rejected, Failed, Refused };
inline constexpr core::EnumNames<CaptureState, 6> kCaptureStateNames{{{{CaptureState::Receiving, "receiving"},
                                                                       {CaptureState::Complete, "complete"},
                                                                       {CaptureState::Incomplete, "incomplete"},
                                                                       {CaptureState::Rejected, "rejected"},
                                                                       {CaptureState::Failed, "failed"},
                                                                       {CaptureState::Refused, "refused"}}}};
QString captureStateName(CaptureState state);

// How a request came: plain TCP, or TLS and what its handshake agreed (server/tls_handshake.h). capture.json keeps
// it as request.transport, and a forwarded request's TLS to its upstream as forward.upstream_tls.
struct Transport {
    bool tls = false;
    QString http;     // "h2" (over TLS) or "h2c" (plain, prior knowledge); empty: HTTP/1.x, as the head says
    QString protocol; // "TLSv1.3"
    QString cipher;
    QString alpn; // empty: none negotiated
    bool clientCertificate = false;
    double handshakeMs = 0;
    QString serverName; // SNI: the name the client asked for (empty: none, or not known)
    // The certificate the server side showed (ours to a client; the upstream's to us), as distinguished names.
    QString certificateSubject, certificateIssuer;
    // As the captures list shows it beside the client: "TLSv1.3", "TLSv1.3, h2", "h2c"; empty for plain HTTP/1.x.
    QString label() const
    {
        const QString security = tls ? protocol : QString();
        return security.isEmpty() ? http : http.isEmpty() ? security : security + QStringLiteral(", ") + http;
    }
};

// One throughput sample: body bytes received by msSinceStart.
struct ThroughputSample {
    qint64 msSinceStart = 0;
    quint64 bytes = 0;
};

// Forward mode: what the captures list shows of an exchange's record (ForwardRecord::timings(), in
// capture/forward_record.h): the upstream's answer and the moments, in ms from the request's head; -1 where a
// moment did not come (no answer, an answer before the body's end).
struct ForwardTimings {
    int status = 0;                   // the upstream's answer; 0: none (a fault: 502, 504, 508)
    int faultStatus = 0;              // what we answered instead (502, 504, 408), with faultError in words
    double clientLastByte = -1;       // the client's last body byte arrived
    double upstreamTookLastByte = -1; // the upstream's kernel acknowledged the last request byte
    double firstAnswerByte = -1;      // the upstream's first answer byte
    double serverMs = -1;             // the last two apart
    qint64 earlyAtByte = -1;          // it answered when its kernel had this many body bytes
    QString faultError;
    bool unverified = false; // an https upstream whose certificate was not checked (--insecure)
    // The upstream was one of our own listeners (its answer is a capture's JSON): that capture's id, the far side
    // of this exchange, which the window lists beside it. 0: another server.
    quint64 upstreamCaptureId = 0;
};

struct CaptureSummary {
    quint64 id = 0;
    QDateTime received;     // when its request head's first byte arrived (UTC)
    QString client;         // "127.0.0.1:53312"
    QString method;         // "POST"; empty for a refused request whose request line did not parse
    QString endpoint;       // "/file-part", "→ http://upstream/…", "proxy → …", or a refusal's label
    QString matcher;        // "chunked"; "none" where nothing was parsed
    QString folder;         // the capture folder, when the endpoint stores one
    bool fromProbe = false; // one of a probe's uploads (it carried kProbeHeader): the Listen list hides them
    QString tls;            // Transport::label: "TLSv1.3", "h2c"; empty over plain HTTP/1.x
    // Over HTTP/2, when the client waited for its window: "blocked by flow control: 1.84 s in 312 waits".
    QString flowStalls;
    CaptureState state = CaptureState::Receiving;
    quint64 bytes = 0;   // body bytes so far
    int parts = 0;       // parts begun so far; once finished, parts in the record
    int diagnostics = 0; // the parser's remarks on a body it took (a malformed header, a preamble)
    // Whole milliseconds begun from the head's end: a sub-millisecond capture reads 1 ms, with a rate.
    qint64 elapsedMs = 0;
    std::optional<core::Error> error; // when rejected, incomplete, failed or refused
    QString errorDetail;              // why, in words (errorInWords(), a refusal's reason)
    // The status the listener answered with; 0 in forward mode, and when nothing was answered.
    int answerStatus = 0;
    std::optional<ForwardTimings> forward; // forward mode: the upstream's side

    // The status the client got: the listener's own, or forward mode's upstream's (our 502/504 when it gave none).
    int status() const;
};

// GET /captures's entry for it: id, endpoint, client, state, bytes, parts, elapsed_ms, folder.
QJsonObject summaryToJson(const CaptureSummary& capture);

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::CaptureSummary)
