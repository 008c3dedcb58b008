#pragma once
// Configuration and published events of the HTTP listener. Events are owned values: they cross threads.

#include "capture/capture_types.h"
#include "common/limits.h"

#include "upin/core/event_recorder.h"

#include <QHostAddress>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <memory>
#include <optional>

namespace upin::app {

// How the listener protects itself and the user from slow, stuck and cross-site clients, as production servers do
// (nginx's timeouts, Kestrel's minimum data rate, dev servers' allowed hosts). kGuardSettings (listener_guards.h)
// makes each one a `listen` option and a Listen tab setting.
struct ListenerGuards {
    int headTimeoutMs = 10'000;      // the whole request head must arrive within this (408)
    int idleTimeoutMs = 30'000;      // no byte for this long drops the connection mid-request (408)
    int keepAliveTimeoutMs = 15'000; // an open connection may wait this long for its next request (closed quietly)
    int answerTimeoutMs = 30'000;    // the client must take the whole answer within this, or the connection goes
    // Minimum request-body rate, as Kestrel's MinRequestBodyDataRate: after bodyGraceMs of a body, one that brings
    // fewer than minBodyBytesPerSecond over each bodyRateWindowMs is answered 408 and dropped, so clients that
    // trickle their bodies cannot hold the connection slots. 0 turns it off.
    quint64 minBodyBytesPerSecond = 1024;
    int bodyGraceMs = 10'000;
    int bodyRateWindowMs = 10'000;
    // Web pages of other origins may not upload or read (403) unless listed here ("*": any). Requests must name
    // the listener by an IP address, localhost, or one of allowedHosts (421 otherwise): a DNS-rebinding page
    // reaches 127.0.0.1 under its own host name.
    QStringList allowedOrigins;
    QStringList allowedHosts;
};

// A client that hashes what it sends (our sender) names its hash in this request header, so that the listener's
// digests are comparable with its own; a ?hash= query still wins, and the listener's default applies without both.
inline constexpr char kHashHeader[] = "Upload-Inspector-Hash";
// A probe's request through our forwarder carries kProbeHeader; the answer relayed to it then carries
// kCaptureHeader, what the forwarder saw pass: "id=17; parts=3; bytes=67109234; parsed=ok; probe=NONCE" (parts
// whole, their content bytes, whether the body parsed without error so far, and the probe's value said back: the
// forwarder does not pass kProbeHeader on, so a server behind it never sees the value and cannot pass itself off as
// our forwarder; a server probed directly does see it). Other answers go back unchanged.
inline constexpr char kProbeHeader[] = "Upload-Inspector-Probe";
inline constexpr char kCaptureHeader[] = "Upload-Inspector-Capture";

// Forward mode (`forward UPSTREAM_URL`, the Listen tab's Forward panel): every request goes on to the user's own
// server, inspected on the way (forwarder/forward_connection.h).
struct ForwardSettings {
    // A forward proxy (`proxy`): each request's absolute-form URL names its upstream, and upstream is unused.
    bool proxy = false;
    QStringList noIntercept; // a proxy's hosts (names or globs) whose tunnels pass through unopened
    // A proxy's filters of what it records (the rest is relayed alike, and not kept): requests for these hosts
    // (names or globs; empty: all), and requests with a body only.
    QStringList onlyHosts;
    bool onlyUploads = false;
    // The networks a proxy serves; others get a 403. Empty: its own (proxy_clients.h), which Listener::start()
    // puts here.
    QList<QPair<QHostAddress, int>> allowedClients;
    QUrl upstream;                 // http:// or https://; its path, if any, is put before each request's
    bool preserveHost = false;     // pass the client's Host on instead of the upstream's
    bool saveParts = false;        // store the parts' bytes in the capture folder, as /file-part does
    bool keepBodies = false;       // keep a body that is not multipart (JSON, a PUT's file) as body.raw, with head.raw
    QString caCertificates;        // https upstream: also trust these (PEM)
    bool insecure = false;         // https upstream: check no certificate
    int connectTimeoutMs = 10'000; // connecting to the upstream (and its TLS handshake): else 502
    int answerTimeoutMs = 60'000;  // from the last request byte the upstream took to its answer's head: else 504
};

struct ListenerConfig {
    QHostAddress bindAddress = QHostAddress::LocalHost; // other interfaces only when the user says so
    quint16 port = 8080;                                // 0 picks a free port
    QString captureDir;                                 // empty: the app data folder's "captures"
    bool keepRaw = false;                               // /capture always keeps the raw body; this adds it elsewhere
    bool captureBodyOnly = false; // /capture keeps body.raw only (parts read from it), not file parts' files too
    core::HashKind hash = core::HashKind::Sha256; // for requests without ?hash=
    // HTTPS (listen --tls): the same endpoints over TLS 1.2/1.3 on tlsPort, beside plain HTTP on port unless plain
    // is off. The certificate: the user's own files, else a self-signed one kept in tlsFolder (tls_identity.h).
    bool tls = false;
    bool plain = true;
    quint16 tlsPort = 8443; // 0 picks a free port
    QString certificateFile;
    QString keyFile;
    QString tlsFolder; // empty: the app data folder's "tls"
    quint64 maxBodyBytes = 64ull << 30;
    int maxConnections = 64;
    ListenerGuards guards;     // deadlines, the slowest body, and which origins and host names are served
    RetentionPolicy retention; // how many finished capture folders are kept
    // Limits for parsing uploads: protective, since any client may send anything. Per-request ?matcher= overrides
    // the matcher; maxBodySize is maxBodyBytes above.
    core::Options parser = listenerLimits();
    int workerThreads = 2;
    std::optional<ForwardSettings> forward; // set: a forwarder, not a listener that answers itself
};

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

struct CaptureRecord;

// Which parts get PartStarted/PartFinished events, for the window's timeline: every part of a body's first
// kPartsAlwaysTimed, then a part when kPartTimingIntervalMs have passed since the last one timed, and a part still
// arriving that long after it began. A form of 10,000 fields would otherwise cost an event per part on the
// connection's thread and the window's, for a timeline no one reads part by part; Progress events count them all.
inline constexpr uint32_t kPartsAlwaysTimed = 100;
inline constexpr qint64 kPartTimingIntervalMs = 50;

struct ListenerEvent {
    // TlsHandshakeFailed: a client on the TLS port that did not complete its handshake (errorDetail says why).
    enum class Kind : uint8_t {
        CaptureStarted,
        PartStarted,
        PartFinished,
        Progress,
        CaptureFinished,
        TlsHandshakeFailed
    };
    Kind kind = Kind::Progress;
    quint64 captureId = 0;
    QString endpoint;       // "/file-part"
    QString method;         // "POST"; empty for a refused request whose request line did not parse
    bool fromProbe = false; // one of a probe's uploads (it carried kProbeHeader): the Listen list hides them
    QString client;         // "127.0.0.1:53312"
    QString tls;            // "TLSv1.3" over TLS (Transport::label), empty over plain HTTP
    QString matcher;
    CaptureState state = CaptureState::Receiving;
    quint64 bytes = 0; // body bytes so far
    qint64 elapsedMs = 0;
    QList<ThroughputSample> samples;  // Progress: samples since the previous event
    core::PartSummary part;           // PartStarted / PartFinished
    qint64 partBeganMs = -1;          // PartStarted: when the part began (it may be sent later: kPartsAlwaysTimed)
    std::optional<core::Error> error; // CaptureFinished when rejected, incomplete or failed
    QString errorDetail;              // failed: which file and the system's error text
    QString folder;                   // capture folder, when the endpoint stores one
    int partCount = 0;                // Progress: parts begun so far; CaptureFinished: parts in the record
    int diagnostics = 0; // CaptureFinished: the parser's remarks on a body it took (a malformed header, a preamble)
    std::optional<ForwardTimings> forward; // forward mode, CaptureFinished: the upstream's side
    // CaptureFinished: the status the listener answered with (UploadSession::answerStatus()); 0 in forward mode, and
    // when nothing was answered. Refused: errorDetail says why, in words.
    int answerStatus = 0;
    bool noTlsBegun = false; // TlsHandshakeFailed: the client sent no TLS at all (a tunnel's ClientHello never came)
    // CaptureFinished of a capture that stores no folder (/part-event, /discard): the record is all there is of
    // it, for Inspect to show its parts, headers and digests.
    std::shared_ptr<const CaptureRecord> record;
};

// How a request came: plain TCP, or TLS and what its handshake agreed (server/tls_handshake.h). capture.json keeps
// it as request.transport, and a forwarded request's TLS to its upstream as forward.upstream_tls.
struct Transport {
    bool tls = false;
    QString protocol; // "TLSv1.3"
    QString cipher;
    QString alpn; // empty: none negotiated
    bool clientCertificate = false;
    double handshakeMs = 0;
    QString serverName; // SNI: the name the client asked for (empty: none, or not known)
    // The certificate the server side showed (ours to a client; the upstream's to us), as distinguished names.
    QString certificateSubject, certificateIssuer;
    QString label() const { return tls ? protocol : QString(); } // as the captures list shows it
};

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::ListenerEvent)
Q_DECLARE_METATYPE(upin::app::ForwardSettings)
