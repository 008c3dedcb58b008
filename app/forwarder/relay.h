#pragma once
// The relay: forward mode (`forward UPSTREAM_URL`) and the forward proxy (`proxy`), one exchange handler
// (server/exchange.h) whose upstream comes from the configuration or from the request (a proxy's absolute URL, or
// its CONNECT tunnel's host): each request is passed on to that server. For each request the head is rewritten (hop-by-hop fields
// dropped, Host set to the upstream's unless preserved, X-Forwarded-For/-Proto/-Host added), a connection to the
// upstream is opened on the same thread (or the previous request's reused), and the body goes on as it arrives,
// its bytes unchanged (Content-Length or chunked, as sent). While the upstream has not taken what was sent (1 MiB), the client is not read: a slow server
// slows the client through TCP, and memory stays flat. The answer streams back unchanged, the same way.
//
// On the way the body is parsed (UploadSession: parts, hashes, diagnostics, a capture folder; a body that is not
// multipart is counted and hashed whole) and the exchange is recorded in capture.json's "forward": the upstream's
// status, answer headers and first 64 KiB of its answer body, and the timings from the request head's arrival:
// when the client's last byte came, when the upstream took the last request byte (its kernel acknowledged it),
// when the first answer byte came, so the server time (the last two apart) beside the transfer time.
//
// Faults, each answered in JSON saying which (if the client has not had an answer yet): upstream unreachable or
// closed before answering -> 502, no answer within upstreamAnswerTimeoutMs -> 504. An upstream that answers before the
// body's end (a 413 after 1 MiB) gets no more of it; its answer reaches the client whole, the client's remaining
// body is read and dropped (so that the client sees the answer instead of a reset), and the capture says at which
// byte. A client that goes away aborts the upstream request.

#include "capture/forward_record.h"
#include "capture/upload_session.h"
#include "common/http_answer.h"
#include "forwarder/tunnel_relay.h"
#include "server/exchange.h"

#include "upin/core/digest.h"

#include <QElapsedTimer>
#include <QTimer>

#include <memory>

class QSslSocket;

namespace upin::app {

// A proxy's host patterns (--no-intercept, --only-host): a name, or a glob ("*.bank.example"), in any case, matched
// against the host as a certificate names it, in ACE and in Unicode form.
bool hostMatches(const QString& host, const QStringList& patterns);

class Relay final : public ExchangeHandler {
    Q_OBJECT
public:
    explicit Relay(Exchange& exchange);
    ~Relay() override;

private:
    // Connecting: to the upstream, the client not read meanwhile. Sending: passing the body on. Answer: the request
    // went whole; relaying the answer (the next request waits).
    enum class Phase : uint8_t { Connecting, Sending, Answer };
    // Bytes waiting in one side's socket before the other side is read no more: the backpressure that keeps
    // memory flat whatever the sizes and speeds.
    static constexpr qint64 kMaxBacklog = qint64{1} << 20;
    bool upstreamBacklogged() const;

    // The client's side (relay.cpp), from the exchange.
    void onRequest(const RequestAdmission& admission) override;
    bool takesBody() override;
    size_t onBody(core::ByteView data, const core::BlockPool::Block& block) override;
    void onBodyDeadline(ClientDeadlines::Missed missed, const QString& why) override;
    void onClientClosed() override;
    void recordWhatWasRead();
    void onClientGone(const QString& how) override;
    void onClosing() override;
    void onAnswerTaken() override;
    void startSession(const RequestAdmission& admission);
    bool leftOutByFilters(const QString& host, bool hasBody) const; // a proxy's --only-host, --only-uploads
    QString upstreamPeerName() const;
    // relay_tunnel.cpp: a proxy's CONNECT.
    void openTunnelTo(const RequestAdmission& admission);
    void interceptTunnel(const RequestAdmission& admission);
    // connectRequest: the CONNECT's; answered: the client was told 200 already (passed through on its SNI).
    void passThrough(SessionRequest connectRequest, const QString& tunnelTo, bool answered);
    void endPassThrough(const QString& target, const TunnelRelay::Outcome& outcome, bool answered);
    QByteArray captureField(const QString& probe) const;
    bool relayHead(); // m_upstreamHead made from the client's; false once refused
    void bodyWhole();

    // The upstream's side (relay_upstream.cpp): connecting, the answer, the record.
    void connectUpstream();
    void onUpstreamProgress(const QTcpSocket* upstream);
    void connectTls(QSslSocket* tls);
    bool connectedToSelf();
    bool leadsHere(const QTcpSocket& upstream) const; // a connection to this proxy's (forwarder's) own port
    void sendHead();
    void onUpstreamReadyRead();
    void takeAnswer(const char* data, qint64 size);
    void onFinalHead();
    void onUpstreamGone(const QString& why);
    bool mayRetry() const;
    void checkDelivered();
    quint64 bytesUpstreamHas() const;
    void endExchange();
    // cause: why a body that is not whole stopped (default: it ended early, unexpected_eof where it stopped).
    void finishSession(const QString& detail, const ForwardRecord& forward,
                       std::optional<core::Error> cause = std::nullopt);
    ForwardRecord record() const;
    void failExchange(int status, const QString& error, const QString& detail,
                      std::optional<core::Error> cause = std::nullopt);
    void dropUpstream();
    double msSinceHead() const;
    void sampleUpstream(bool force);

    const ForwardSettings& m_settings;
    QUrl m_target;                    // the exchange's upstream: the forwarder's, or the one a proxy's client named
    QString m_upstreamOrigin;         // scheme, host and port m_upstream is connected to
    QString m_tunnelTo;               // a proxy's tunnel: the CONNECT's host:port, the server of every request in it
    QString m_tunnelServerName;       // and the name the client's SNI gave it, when not the CONNECT's host
    TunnelRelay* m_relay = nullptr;   // a tunnel passed through (--no-intercept)
    bool m_relayLoop = false;         // its server was this proxy itself
    QTcpSocket* m_upstream = nullptr; // kept between requests while both sides allow
    std::optional<Transport> m_upstreamTls; // its TLS, when https: kept with it
    bool m_upstreamRefused = false;         // its certificate was checked and not trusted
    double m_upstreamConnectedMs = 0;       // its TCP connection was made (its TLS handshake began)
    QTimer m_connectTimer;
    QTimer m_answerTimer;
    QTimer m_deliveredTimer; // polls the upstream socket's send queue once the body is written
    Phase m_phase = Phase::Connecting;

    // The exchange under way.
    // The body's bytes go to the session (multipart: parts, hashes; else only counted) and, for a body that is not
    // multipart, to a digest of the whole.
    struct BodyTap final : core::BodySink {
        UploadSession* session = nullptr;
        std::optional<core::Digest> digest; // a body that is not multipart: hashed whole
        QString digestHex;                  // once the body is whole
        void onBody(core::ByteView data) override
        {
            session->onBody(data);
            if (digest)
                digest->update(data);
        }
    };
    std::unique_ptr<UploadSession> m_session;
    std::unique_ptr<BodyTap> m_tap;
    std::optional<HttpAnswer> m_answer;
    QByteArray m_upstreamHead;                 // the rewritten head, as sent
    QElapsedTimer m_clock;                     // from the request head's completion
    quint64 m_wireIn = 0;                      // request body bytes (as framed) from the client
    quint64 m_wireOut = 0;                     // of them, handed to the upstream socket
    quint64 m_answerLookAt = 0;                // m_wireOut when takesBody last looked for an early answer
    QList<ThroughputSample> m_upstreamSamples; // body bytes the upstream had taken, every 50 ms
    qint64 m_lastUpstreamSampleMs = -1;
    ForwardRecord::Moments m_at; // the exchange's moments, as its record names them
    double m_writtenMs = -1;     // the last request byte went to our kernel
    double m_queuedSeenMs = -1;  // the last moment request bytes were seen still unacknowledged
    qint64 m_earlyAtByte = -1;   // the answer came when this many body bytes had gone on
    bool m_requestKeepAlive = true;
    bool m_recordOnly = false; // the request went no further: what was read of it is parsed for the record only
    bool m_closedBeforeBodyWentOn = false; // m_recordOnly: its client closed after the head went on, not before
    bool m_upstreamReused = false;
};

} // namespace upin::app
