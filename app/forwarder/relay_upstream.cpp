// Forward mode's upstream side: the connection to the user's server, its answer (read by HttpAnswer, relayed
// as it comes), the faults, and the exchange's record.

#include "forwarder/relay.h"

#include "common/qt_text.h"
#include "common/socket_drain.h"
#include "common/unsent_bytes.h"
#include "server/tls_handshake.h"

#include <QNetworkInterface>
#include <QSslCertificate>
#include <QSslSocket>

#include <algorithm>
#include <array>

#include <linux/sockios.h>
#include <sys/ioctl.h>

namespace upin::app {

namespace {
constexpr qint64 kAnswerRead = qint64{1024} * 1024;
constexpr int kSampleIntervalMs = 50;

} // namespace

// The name an https upstream's certificate is checked for, and its SNI: in a tunnel whose client named the server
// by SNI, that name; else the URL's host.
QString Relay::upstreamPeerName() const
{
    return exchange().inTunnel() && !m_tunnelServerName.isEmpty() ? m_tunnelServerName : m_target.host();
}

double Relay::msSinceHead() const
{
    return double(m_clock.nsecsElapsed()) / 1e6;
}

void Relay::connectUpstream()
{
    m_phase = Phase::Connecting;
    // With the name its certificate was checked for: a tunnel's client may name another in SNI than an earlier
    // request on the same connection did for the same address, and must not be relayed over that one's check.
    const QString origin = m_target.adjusted(QUrl::RemovePath).toString() + QLatin1Char(' ') + upstreamPeerName();
    if (m_upstream && m_upstreamOrigin != origin) // a proxy's client asked for another server: a connection each
        dropUpstream();
    if (m_upstream && m_upstream->state() == QAbstractSocket::ConnectedState) {
        m_upstreamReused = true;
        sendHead();
        return;
    }
    if (m_upstream)
        m_upstream->deleteLater();
    m_upstreamReused = false;
    m_upstreamOrigin = origin;
    m_upstreamTls.reset();
    m_upstreamRefused = false;
    const bool https = m_target.scheme() == QLatin1String("https");
    m_upstream = https ? new QSslSocket(this) : new QTcpSocket(this);
    // Plain: Qt keeps almost nothing, drainSocket reads the kernel (an early answer survives the reset that may
    // follow it). TLS: Qt decrypts into a bounded buffer.
    m_upstream->setReadBufferSize(https ? kAnswerRead : 1);
    QTcpSocket* upstream = m_upstream;
    connect(upstream, &QTcpSocket::readyRead, this, &Relay::onUpstreamReadyRead);
    connect(upstream, &QTcpSocket::bytesWritten, this, [this, upstream] { onUpstreamProgress(upstream); });
    connect(upstream, &QTcpSocket::errorOccurred, this, [this, upstream] {
        if (upstream != m_upstream)
            return;
        drainSocket(*upstream, std::numeric_limits<qint64>::max(),
                    [this](const char* data, qint64 size) { takeAnswer(data, size); });
        if (m_upstream == upstream) // the answer may have ended the exchange and let the socket go
            onUpstreamGone(upstream->errorString());
    });
    connect(upstream, &QTcpSocket::disconnected, this, [this, upstream] {
        if (upstream == m_upstream)
            onUpstreamGone(QStringLiteral("the upstream closed the connection"));
    });
    m_connectTimer.start(m_settings.connectTimeoutMs);
    if (https) {
        connectTls(static_cast<QSslSocket*>(upstream));
    } else {
        connect(upstream, &QTcpSocket::connected, this, [this, upstream] {
            if (upstream == m_upstream && !connectedToSelf())
                sendHead();
        });
        upstream->connectToHost(m_target.host(), quint16(m_target.port(80)));
    }
}

// Bytes the upstream's socket wrote on: the body's reading resumes, and the deadlines count from here.
void Relay::onUpstreamProgress(const QTcpSocket* upstream)
{
    if (upstream != m_upstream)
        return;
    sampleUpstream(false);
    if (m_phase == Phase::Sending && !upstreamBacklogged())
        exchange().resumeReading();
    if (m_phase == Phase::Answer && m_at.upstreamTookLastByte < 0 && unsentBytes(*m_upstream) == 0) {
        if (m_writtenMs < 0)
            m_writtenMs = msSinceHead(); // the last request byte went to the kernel
        m_deliveredTimer.start();
    }
    // A stalled answer's deadline, and the one for taking the body, count from progress.
    if (m_answerTimer.isActive() && (m_answer->headRelayed() || m_phase == Phase::Sending))
        m_answerTimer.start(m_settings.upstreamAnswerTimeoutMs);
}

// An https upstream: what it is trusted with, what its handshake agreed, and the head once it is encrypted.
void Relay::connectTls(QSslSocket* tls)
{
    QTcpSocket* upstream = tls;
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    if (m_settings.insecure)
        config.setPeerVerifyMode(QSslSocket::VerifyNone);
    if (!m_settings.caCertificates.isEmpty())
        config.addCaCertificates(QSslCertificate::fromPath(m_settings.caCertificates, QSsl::Pem));
    config.setAllowedNextProtocols({QByteArrayLiteral("http/1.1")}); // what is passed on is HTTP/1.1
    tls->setSslConfiguration(config);
    connect(tls, &QSslSocket::connected, this, [this, upstream] {
        if (upstream == m_upstream && !connectedToSelf())
            m_upstreamConnectedMs = msSinceHead();
    });
    // What the handshake agreed, and the certificate the server showed: kept with the connection, and also
    // when its certificate was refused (the record says whose).
    auto agreed = [this, tls] { m_upstreamTls = tlsTransport(*tls, msSinceHead() - m_upstreamConnectedMs); };
    connect(tls, &QSslSocket::sslErrors, this, [upstream, this, agreed] {
        if (upstream != m_upstream)
            return;
        agreed();
        m_upstreamRefused = true; // not ignored: the handshake ends here (--insecure checks nothing, so no errors)
    });
    connect(tls, &QSslSocket::encrypted, this, [this, upstream, agreed] {
        if (upstream != m_upstream)
            return;
        agreed();
        sendHead();
    });
    connect(tls, &QSslSocket::encryptedBytesWritten, this, [this, upstream] { onUpstreamProgress(upstream); });
    tls->connectToHostEncrypted(m_target.host(), quint16(m_target.port(443)), upstreamPeerName());
}

bool Relay::leadsHere(const QTcpSocket& upstream) const
{
    const quint16 port = upstream.peerPort();
    const QHostAddress peer = upstream.peerAddress();
    const bool ownPort =
        port == exchange().shared().port || (exchange().shared().tlsPort != 0 && port == exchange().shared().tlsPort);
    return ownPort &&
           (peer.isLoopback() || peer == exchange().localAddress() || QNetworkInterface::allAddresses().contains(peer));
}

// A proxy asked for its own address and port (by any name that leads here) would relay to itself for ever: the
// exchange fails instead, before a byte goes.
bool Relay::connectedToSelf()
{
    if (!leadsHere(*m_upstream))
        return false;
    failExchange(
        508, QStringLiteral("loop"),
        QStringLiteral("%1 is this %2 itself")
            .arg(m_target.authority(), m_settings.proxy ? QLatin1String("proxy") : QLatin1String("forwarder")));
    return true;
}

void Relay::sendHead()
{
    m_connectTimer.stop();
    // Each write goes out at once (server_connection.cpp says why); set once connected, as Qt drops it before.
    m_upstream->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    m_upstream->write(m_upstreamHead);
    m_phase = Phase::Sending;
    if (exchange().decoder().done()) { // no body
        m_at.clientLastByte = msSinceHead();
        m_phase = Phase::Answer;
        m_answerTimer.start(m_settings.upstreamAnswerTimeoutMs);
        return;
    }
    exchange().deadlines().bodyBegins();
    exchange().resumeReading();
}

void Relay::sampleUpstream(bool force)
{
    const qint64 now = qint64(msSinceHead());
    const quint64 body = m_wireOut - std::min<quint64>(m_wireOut, quint64(unsentBytes(*m_upstream)));
    if (force || m_lastUpstreamSampleMs < 0 || now - m_lastUpstreamSampleMs >= kSampleIntervalMs) {
        m_upstreamSamples.append({now, quint64(body)});
        m_lastUpstreamSampleMs = now;
    }
}

// Whether the upstream holds enough unsent that the client is not read. A plain one is read for only once Qt
// holds nothing unsent, so that each read goes straight from its block to the kernel (writeSocketDirect); with a
// backlog allowed, Qt's buffer was never empty again after the first short write, and every MiB was copied into it
// first. Over TLS every byte goes through Qt's buffers anyway: a backlog keeps the encryption busy.
bool Relay::upstreamBacklogged() const
{
    return unsentBytes(*m_upstream) > (carriesTls(*m_upstream) ? kMaxBacklog : 0);
}

// Body bytes the upstream's kernel has acknowledged: those handed on, less what Qt and our kernel still hold.
quint64 Relay::bytesUpstreamHas() const
{
    int queued = 0;
    const qintptr fd = m_upstream ? m_upstream->socketDescriptor() : -1;
    if (fd >= 0 && ::ioctl(int(fd), SIOCOUTQ, &queued) != 0)
        queued = 0;
    const quint64 held = quint64(queued) + quint64(m_upstream ? unsentBytes(*m_upstream) : 0);
    return m_wireOut - std::min(m_wireOut, held);
}

// The moment the upstream's kernel has acknowledged every byte of the request: Qt's buffer empty is not enough,
// the kernel's send queue may still hold megabytes a slow server has not taken.
void Relay::checkDelivered()
{
    if (!m_upstream || m_at.upstreamTookLastByte >= 0) {
        m_deliveredTimer.stop();
        return;
    }
    int queued = 0;
    const qintptr fd = m_upstream->socketDescriptor();
    if (unsentBytes(*m_upstream) > 0 || (fd >= 0 && ::ioctl(int(fd), SIOCOUTQ, &queued) == 0 && queued > 0)) {
        m_queuedSeenMs = msSinceHead(); // not yet: it came after this
        return;
    }
    m_at.upstreamTookLastByte = msSinceHead();
    m_deliveredTimer.stop();
    sampleUpstream(true);
}

void Relay::onUpstreamReadyRead()
{
    if (!m_upstream || exchange().answerBacklog() > kMaxBacklog)
        return; // resumes when the client takes what it has
    drainSocket(*m_upstream, kAnswerRead, [this](const char* data, qint64 size) { takeAnswer(data, size); });
}

void Relay::takeAnswer(const char* data, qint64 size)
{
    if (size <= 0 || !m_session || !m_answer || m_answer->complete())
        return;
    if (m_at.firstAnswerByte < 0)
        m_at.firstAnswerByte = msSinceHead();
    const auto progress = m_answer->take(data, size, [this](const char* d, qint64 n) { exchange().writeAnswer(d, n); });
    // What the client has not taken yet has the guards' answer deadline, as our own answers have (ClientSide drops
    // a client that takes nothing for that long), not the upstream's much longer one.
    exchange().answerProgress();
    if (m_answer->interimOnly())
        m_at.firstAnswerByte = -1; // the final answer's first byte is yet to come
    if (progress.finalHead)
        onFinalHead();
    if (progress.error) {
        failExchange(502, QStringLiteral("bad answer from upstream"), *progress.error);
        return;
    }
    if (!progress.complete) {
        if (m_answer->headRelayed()) // the rest has as long, from this progress
            m_answerTimer.start(m_settings.upstreamAnswerTimeoutMs);
        return;
    }
    endExchange();
}

// The final answer's head went to the client: its moment, and whether it came before the body's end.
void Relay::onFinalHead()
{
    m_at.answerHead = msSinceHead();
    m_answerTimer.stop();
    if (m_at.upstreamTookLastByte < 0 && m_phase == Phase::Answer) {
        // A whole answer means the upstream had the whole request: at the latest now, and not before the last
        // moment we saw bytes of it still unacknowledged (or our last write to its kernel).
        m_at.upstreamTookLastByte = std::max(m_writtenMs, m_queuedSeenMs);
        if (m_at.upstreamTookLastByte < 0)
            m_at.upstreamTookLastByte = m_at.firstAnswerByte;
        m_deliveredTimer.stop();
        sampleUpstream(true); // the upstream had every byte: the throughput ends there, as when the poll sees it
    }
    if (m_phase == Phase::Sending || m_phase == Phase::Connecting) { // before the body's end: it goes no further
        m_earlyAtByte = qint64(bytesUpstreamHas());
        m_requestKeepAlive = false;
        exchange().deadlines().stop();
        sampleUpstream(true);
    }
}

void Relay::onUpstreamGone(const QString& why)
{
    if (!m_session) { // between exchanges: a kept connection the upstream closed
        m_upstream->deleteLater();
        m_upstream = nullptr;
        return;
    }
    if (m_upstreamReused && !m_answer->started() && m_wireOut == 0 && mayRetry()) {
        // A kept connection the upstream closed as we used it (its idle timeout): the request goes again on a new
        // one, once.
        QTcpSocket* stale = std::exchange(m_upstream, nullptr);
        stale->deleteLater();
        if (m_phase == Phase::Answer) // no body: the head goes again
            m_phase = Phase::Connecting;
        connectUpstream();
        return;
    }
    if (m_phase == Phase::Connecting && !m_answer->started()) {
        // Its certificate, when OpenSSL's verification gave errors; any other failed handshake (a protocol alert)
        // is the server's being unreachable over TLS.
        const auto* tls = qobject_cast<QSslSocket*>(m_upstream);
        const bool untrusted = tls && !tls->sslHandshakeErrors().isEmpty() && !m_settings.insecure;
        failExchange(502,
                     untrusted ? QStringLiteral("upstream certificate not trusted")
                               : QStringLiteral("upstream unreachable"),
                     QStringLiteral("%1%2: %3")
                             .arg(m_target.authority(),
                                  untrusted && upstreamPeerName() != m_target.host()
                                      ? QStringLiteral(" (checked as %1)").arg(upstreamPeerName())
                                      : QString(),
                                  why) +
                         (untrusted ? QStringLiteral(" (start the %1 with --cacert FILE holding its authority, or "
                                                     "--insecure)")
                                          .arg(m_settings.proxy ? QLatin1String("proxy") : QLatin1String("forwarder"))
                                    : QString()));
        return;
    }
    const auto progress = m_answer->closed();
    if (progress.complete) { // the close ends such an answer
        endExchange();
        return;
    }
    failExchange(502, QStringLiteral("upstream closed the connection"),
                 m_answer->headRelayed()
                     ? QStringLiteral("in the middle of its answer, after %1 bytes of it").arg(m_answer->bytes())
                     : QStringLiteral("before answering, after %1 bytes of the body: %2 (%3)")
                           .arg(m_wireOut)
                           .arg(why, progress.error.value_or(QString())));
}

// Whether a request the upstream may have had goes again, as RFC 9110 9.2.2 allows a relay: when nothing of its
// body went (the upstream never had a whole request), or when its method is idempotent. A POST without a body
// may have been acted on: sending it twice could submit twice (nginx does not retry it either).
bool Relay::mayRetry() const
{
    if (!exchange().decoder().done())
        return true;
    static const std::array<std::string_view, 6> idempotent{"GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"};
    return std::find(idempotent.begin(), idempotent.end(), exchange().requestHead().method) != idempotent.end();
}

ForwardRecord Relay::record() const
{
    ForwardRecord r;
    r.upstream = m_target.toString();
    r.headAsSent = m_upstreamHead;
    r.reusedConnection = m_upstreamReused;
    r.unverified = m_settings.insecure && m_target.scheme() == QLatin1String("https");
    r.upstreamTls = m_upstreamTls;
    r.certificateRefused = m_upstreamRefused;
    if (m_answer) { // none yet for a proxy's tunnel
        r.status = m_answer->status();
        r.statusLine = r.status ? m_answer->statusLine() : QByteArray();
        r.headers = m_answer->fields();
        r.answerBytes = m_answer->bytes();
        r.answerPreview = m_answer->body();
    }
    r.earlyAtByte = m_earlyAtByte;
    r.bodyBytesToUpstream = m_wireOut;
    r.at = m_at;
    r.upstreamThroughput = m_upstreamSamples;
    if (m_tap && m_tap->digest && !m_tap->digestHex.isEmpty()) {
        r.bodyHashName = toQString(core::kHashNames.name(m_tap->digest->kind()));
        r.bodyDigest = m_tap->digestHex;
    }
    return r;
}

// Ends the exchange's capture with the body's own outcome: whole (complete; what went wrong, if anything, is in
// forward), or cut off at the byte where it stopped. detail says why in words.
void Relay::finishSession(const QString& detail, const ForwardRecord& forward, std::optional<core::Error> cause)
{
    const bool whole = exchange().decoder().done();
    if (!whole && !cause)
        cause = core::Error{core::Errc::UnexpectedEof, exchange().decoder().wireBytes()};
    m_session->finish(exchange().decoder(), whole, whole ? std::nullopt : cause, detail, &forward);
    m_session.reset();
    m_tap.reset();
}

void Relay::endExchange()
{
    m_at.answerDone = msSinceHead();
    m_answerTimer.stop();
    m_deliveredTimer.stop();
    const bool early = m_earlyAtByte >= 0;
    const QString detail = exchange().decoder().done()
                               ? QString()
                               : QStringLiteral("the upstream answered %1 after %2 bytes of the body")
                                     .arg(m_answer->status())
                                     .arg(m_wireOut);
    const ForwardRecord forward = record();
    const bool upstreamReusable = m_answer->keepAlive() && !m_answer->untilClose() && !early;
    if (!upstreamReusable)
        dropUpstream();
    exchange().answerProgress(); // the client must take the answer within the deadline
    // The slot is free for others before the capture is written (that waits for the pipelines and the disk).
    if (m_requestKeepAlive && upstreamReusable && exchange().decoder().done())
        exchange().waitForNextRequest();
    else // early, the client may still be sending the body no one reads: dropped, within the linger caps
        exchange().closeAfterAnswer(m_answer->untilClose() &&
                                    exchange().decoder().done()); // a body still coming lingers, as it must
    finishSession(detail, forward);
}

// A fault: the client gets our JSON answer saying which when it has had nothing of the upstream's final answer;
// when it has, the connection is closed after what it had (the answer cut off) and the record says where and why.
void Relay::failExchange(int status, const QString& error, const QString& detail, std::optional<core::Error> cause)
{
    if (!m_session)
        return;
    if (m_phase == Phase::Connecting && !m_recordOnly) {
        recordWhatWasRead();
        if (!m_session) // its framing was broken: that failed the exchange first
            return;
    }
    exchange().deadlines().stop();
    for (QTimer* timer : {&m_connectTimer, &m_answerTimer, &m_deliveredTimer})
        timer->stop();
    const bool answerRelayed = m_answer && m_answer->headRelayed();
    ForwardRecord forward = record();
    forward.fault = ForwardRecord::Fault{status, error, detail};
    // Stored before the client hears of it, as the listener's captures are: its answer means the record is there.
    finishSession(QStringLiteral("%1: %2").arg(error, detail), forward, cause);
    dropUpstream();
    if (answerRelayed) { // what went to the client goes out, then our side closes: the cut answer ends at the
        exchange().closeAfterAnswer(); // close (its framing says it is short); the client may still be sending: dropped
        return;
    }
    exchange().respond(status, "application/json", forward.faultAnswer(), true);
}

// Closes the upstream connection at once. m_upstream is cleared first: the signals the abort sends find it gone.
void Relay::dropUpstream()
{
    if (QTcpSocket* upstream = std::exchange(m_upstream, nullptr)) {
        upstream->abort();
        upstream->deleteLater();
    }
}

} // namespace upin::app
