#pragma once
// Configuration of the server in each of its modes (listen, forward, proxy).

#include "capture/capture_types.h"
#include "common/limits.h"
#include "common/upin_headers.h"

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
    // HTTP/2 flow control, the windows we grant a client, to reproduce a server's (haproxy's 65,535-byte window
    // held a 10 MB upload to 12 s). The defaults never hold a local upload back: 16 MiB windows, updated once half is
    // used (nghttp2's rule, and most servers'), against the protocol's 65,535 bytes, at which an upload waits a
    // round trip per 64 KiB. Memory is not bounded by them but by the read blocks: while the pipelines hold every
    // block, the connection is not read.
    struct Http2Flow {
        qint32 streamWindow = 16 << 20;     // SETTINGS_INITIAL_WINDOW_SIZE
        qint32 connectionWindow = 16 << 20; // raised from 65,535 by a WINDOW_UPDATE at the start
        qint32 maxFrameSize = 16'384;       // SETTINGS_MAX_FRAME_SIZE: the largest DATA frame a client may send
        bool updateAtOnce = false;          // a WINDOW_UPDATE for each DATA received, else once half is used
    } http2;
};

// Forward mode (`forward UPSTREAM_URL`, the Listen tab's Forward panel): every request goes on to the user's own
// server, inspected on the way (forwarder/relay.h).
struct ForwardSettings {
    // A forward proxy (`proxy`): each request's absolute-form URL names its upstream, and upstream is unused.
    bool proxy = false;
    QStringList noIntercept; // a proxy's hosts (names or globs) whose tunnels pass through unopened
    // A proxy's filters of what it records (the rest is relayed alike, and not kept): requests for these hosts
    // (names or globs; empty: all), and requests with a body only.
    QStringList onlyHosts;
    bool onlyUploads = false;
    // The networks a proxy serves; others get a 403. Empty: its own (proxy_clients.h), which Server::start()
    // puts here.
    QList<QPair<QHostAddress, int>> allowedClients;
    QUrl upstream;                 // http:// or https://; its path, if any, is put before each request's
    bool preserveHost = false;     // pass the client's Host on instead of the upstream's
    bool saveParts = false;        // store the parts' bytes in the capture folder, as /file-part does
    bool keepBodies = false;       // keep a body that is not multipart (JSON, a PUT's file) as body.raw, with head.raw
    QString caCertificates;        // https upstream: also trust these (PEM)
    bool insecure = false;         // https upstream: check no certificate
    int connectTimeoutMs = 10'000; // connecting to the upstream (and its TLS handshake): else 502
    // From the last request byte the upstream took to its answer's head: else 504 (--upstream-timeout). Not the
    // guards' answerTimeoutMs, which is the client's time to take our answer.
    int upstreamAnswerTimeoutMs = 60'000;
};

struct ServerConfig {
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

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::ForwardSettings)
