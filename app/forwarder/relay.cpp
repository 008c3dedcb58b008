#include "forwarder/relay.h"
#include "capture/outcome.h"
#include "forwarder/tunnel_relay.h"
#include "proxy/proxy_clients.h"

#include "common/qt_text.h"
#include "common/socket_drain.h"
#include "common/unsent_bytes.h"
#include "server/request_admission.h"

#include "upin/core/http_relay.h"

#include <QHostAddress>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTcpSocket>

namespace upin::app {

Relay::Relay(Exchange& exchange) : ExchangeHandler(exchange), m_settings(*exchange.shared().config.forward)
{
    // Held back now, the upstream not having taken what it has: not the client's fault.
    exchange.deadlines().setHeldBackNow([this] { return m_upstream && upstreamBacklogged(); });
    for (QTimer* timer : {&m_connectTimer, &m_answerTimer})
        timer->setSingleShot(true);
    connect(&m_connectTimer, &QTimer::timeout, this, [this] {
        // A server that took the connection and never answered TLS was "no connection" too: not what to look for.
        const bool tcpUp = m_upstream && m_upstream->state() == QAbstractSocket::ConnectedState;
        failExchange(502, QStringLiteral("upstream unreachable"),
                     (tcpUp ? QStringLiteral("%1 took the connection but finished no TLS handshake within %2 ms")
                            : QStringLiteral("no connection to %1 within %2 ms"))
                         .arg(m_target.authority())
                         .arg(m_settings.connectTimeoutMs));
    });
    connect(&m_answerTimer, &QTimer::timeout, this, [this] {
        if (m_answer && m_answer->headRelayed()) { // mid-answer: the upstream stopped sending, or the client
            failExchange(504, QStringLiteral("answer stalled"), // stopped taking it
                         QStringLiteral("no progress for %1 ms after %2 bytes of the answer")
                             .arg(m_settings.upstreamAnswerTimeoutMs)
                             .arg(m_answer->bytes()));
            return;
        }
        if (m_phase == Phase::Sending && m_earlyAtByte < 0) { // the upstream took nothing more of the body
            failExchange(504, QStringLiteral("upstream stopped taking the body"),
                         QStringLiteral("%1 took nothing more of the body for %2 ms, after %3 bytes of it")
                             .arg(m_target.authority())
                             .arg(m_settings.upstreamAnswerTimeoutMs)
                             .arg(bytesUpstreamHas()));
            return;
        }
        if (m_answer && m_answer->started() && !m_answer->interimOnly()) { // bytes came, never a whole head
            failExchange(502, QStringLiteral("bad answer from upstream"),
                         QStringLiteral("its head did not end within %1 ms").arg(m_settings.upstreamAnswerTimeoutMs));
            return;
        }
        failExchange(504, QStringLiteral("upstream too slow"),
                     QStringLiteral("no answer from %1 within %2 ms of the request's end")
                         .arg(m_target.authority())
                         .arg(m_settings.upstreamAnswerTimeoutMs));
    });
    m_answerTimer.setTimerType(Qt::PreciseTimer); // a 504 says "within N ms": not 5% early
    m_connectTimer.setTimerType(Qt::PreciseTimer);
    m_deliveredTimer.setInterval(1);
    m_deliveredTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_deliveredTimer, &QTimer::timeout, this, &Relay::checkDelivered);
}

void Relay::onAnswerTaken()
{
    if (m_answerTimer.isActive() && m_answer && m_answer->headRelayed()) // the client takes the answer
        m_answerTimer.start(m_settings.upstreamAnswerTimeoutMs);
    if (m_upstream && exchange().answerBacklog() <= kMaxBacklog) // the answer's relay resumes
        onUpstreamReadyRead();
}

Relay::~Relay()
{
    exchange().shared().waiting.remove(this); // a quiet tunnel's offer of its slot (relay_tunnel.cpp)
    delete std::exchange(m_relay, nullptr);   // quietly: its sockets go with the connection
    if (m_session)                            // the forwarder stopped mid-exchange
        finishSession(QStringLiteral("the forwarder stopped"), record());
}

void Relay::onRequest(const RequestAdmission& admission)
{
    if (m_settings.proxy && !exchange().inTunnel() &&
        !clientAllowed(exchange().peerAddress(), m_settings.allowedClients)) {
        exchange().refuse(
            403, QStringLiteral("client not allowed"), std::nullopt,
            QStringLiteral("%1 is not on the networks the proxy serves (--allow-client NETWORK names them)")
                .arg(exchange().peerAddress().toString()));
        return;
    }
    if (!admission.tunnelTo.isEmpty()) {
        openTunnelTo(admission);
        return;
    }
    // A proxy's client names the server in each request's URL (admitted only so), or in its CONNECT for the
    // requests in the tunnel (https, or http when its client spoke plain HTTP in it); the forwarder has its one.
    m_target = exchange().inTunnel()
                   ? QUrl((exchange().tls() ? QStringLiteral("https://") : QStringLiteral("http://")) + m_tunnelTo)
               : m_settings.proxy ? QUrl(admission.scheme + QStringLiteral("://") + admission.host)
                                  : m_settings.upstream;
    if (m_target.host().isEmpty()) {
        exchange().refuse(400, QStringLiteral("no host in the request's URL"));
        return;
    }
    if (!relayHead())
        return;
    m_clock.start();
    m_requestKeepAlive = exchange().framing().keepAlive;
    HttpAnswer::Options answer;
    answer.answersHead = admission.headOnly;
    // Said back as it came, if it is a plain token (a probe's nonce): nothing of a request's own goes into the head.
    static const QRegularExpression token(QStringLiteral("^[A-Za-z0-9]{1,64}$"));
    if (const QString probe = toQString(exchange().requestHead().field(kProbeHeader)); // names match in any case
        token.match(probe).hasMatch())
        answer.addedFields = [this, probe] { return captureField(probe); };
    m_answer.emplace(answer);
    m_wireIn = m_wireOut = m_answerLookAt = 0;
    m_upstreamSamples = {};
    m_lastUpstreamSampleMs = -1;
    m_at = {};
    m_writtenMs = m_queuedSeenMs = -1;
    m_earlyAtByte = -1;
    startSession(admission);
    connectUpstream();
}

// The head as it goes on to m_target (core::relayHead's rules); false once refused (a Connection list that names
// the framing: passing the body on would smuggle a request).
bool Relay::relayHead()
{
    core::RelayTarget target;
    const QByteArray prefix = m_target.path(QUrl::FullyEncoded).toUtf8();
    const QByteArray upstreamHost = m_target.authority(QUrl::FullyEncoded).toUtf8();
    const QByteArray client = exchange().peerAddress().toString().toLatin1();
    target.pathPrefix = {prefix.constData(), size_t(prefix.size())};
    target.upstreamHost = {upstreamHost.constData(), size_t(upstreamHost.size())};
    // In a tunnel the client's Host goes on as it wrote it (a signed request, a virtual host): the CONNECT named
    // the server, not the Host.
    target.preserveHost = m_settings.preserveHost || exchange().inTunnel();
    target.forwardedFields = !m_settings.proxy; // a forward proxy relays the request as the client made it
    target.clientAddress = {client.constData(), size_t(client.size())};
    target.proto = exchange().tls() ? "https" : "http";
    // A probe's token is for us: the server behind never sees it, so cannot say it back as if it were us.
    static constexpr std::string_view ownFields[] = {kProbeHeader};
    target.ownFields = ownFields;
    auto relayed = core::relayHead(exchange().requestHead(), target);
    if (!relayed) {
        exchange().refuse(400, QStringLiteral("bad request head"), relayed.error());
        return false;
    }
    m_upstreamHead = QByteArray::fromStdString(*relayed);
    return true;
}

// What passed, for a probe that asks (common/upin_headers.h): the capture's id and its parts so far.
QByteArray Relay::captureField(const QString& probe) const
{
    if (!m_session) // not multipart: nothing was parsed
        return {};
    const UploadSession::PartTally tally = m_session->tally();
    return QStringLiteral("%1: id=%2; parts=%3; bytes=%4; parsed=%5; probe=%6\r\n")
        .arg(QLatin1String(kCaptureHeader))
        .arg(m_session->id())
        .arg(tally.parts)
        .arg(tally.bytes)
        .arg(tally.parsed ? QStringLiteral("ok") : QStringLiteral("error"), probe)
        .toLatin1();
}

// Inspected on the way: a multipart body parsed as /part-event parses it (or stored as /file-part with
// --save-parts), any other body counted and hashed whole (and kept with --keep-bodies).
void Relay::startSession(const RequestAdmission& admission)
{
    QString prefix = m_target.path(QUrl::FullyEncoded);
    if (prefix.endsWith(QLatin1Char('/')))
        prefix.chop(1);
    SessionRequest request = exchange().sessionRequest(admission);
    // The hash as the listener chooses it: ?hash=, else the client's Upload-Inspector-Hash (our sender's), else
    // --hash; both go on unchanged, so an upstream listener computes the same digests.
    const QString hash = requestedHashName(admission.query, exchange().requestHead());
    request.hash = core::kHashNames.find(hash.toStdString()).value_or(exchange().shared().config.hash);
    QUrl shown = m_target;
    shown.setPath(prefix + admission.path);
    shown.setQuery(admission.query);
    request.forwardedTo = shown.toString();
    request.proxied = m_settings.proxy;
    request.unlisted =
        leftOutByFilters(m_target.host(QUrl::FullyEncoded), exchange().framing().kind != core::BodyFraming::Kind::None);
    if (request.unlisted) // relayed only: nothing of it is kept, so nothing is parsed or hashed
        request.hash = core::HashKind::None;
    m_tap = std::make_unique<BodyTap>();
    if (!request.unlisted && request.contentType.startsWith(QLatin1String("multipart/"), Qt::CaseInsensitive)) {
        request.endpoint = request.keepRaw        ? Endpoint::Capture
                           : m_settings.saveParts ? Endpoint::FilePart
                                                  : Endpoint::PartEvent;
        auto session = UploadSession::start(request, exchange().shared().store, exchange().publisher());
        if (session)
            m_session = std::move(*session);
    }
    if (!m_session) { // not multipart, or a multipart type the parser cannot use: still forwarded
        request.endpoint = Endpoint::Discard;
        // Kept whole when asked (--keep-bodies, or whole requests kept): body.raw beside head.raw.
        request.keepRaw = !request.unlisted && (request.keepRaw || m_settings.keepBodies) &&
                          exchange().framing().kind != core::BodyFraming::Kind::None;
        m_session = std::move(*UploadSession::start(request, exchange().shared().store, exchange().publisher()));
        if (exchange().framing().kind != core::BodyFraming::Kind::None && request.hash != core::HashKind::None)
            m_tap->digest.emplace(request.hash);
    }
    m_tap->session = m_session.get();
    exchange().markRecorded(); // its capture is its record
}

// In a tunnel the server is named twice, by CONNECT and by SNI: either name matching keeps the request, so that no
// choice of the other hides an upload.
bool Relay::leftOutByFilters(const QString& host, bool hasBody) const
{
    const auto named = [this, &host](const QStringList& patterns) {
        return hostMatches(host, patterns) ||
               (exchange().inTunnel() && !m_tunnelServerName.isEmpty() && hostMatches(m_tunnelServerName, patterns));
    };
    return m_settings.proxy &&
           ((!m_settings.onlyHosts.isEmpty() && !named(m_settings.onlyHosts)) || (m_settings.onlyUploads && !hasBody));
}

// Reads wait while the upstream has not taken what it has (kMaxBacklog), and while it connects or answers.
bool Relay::takesBody()
{
    if (m_recordOnly)
        return !exchange().decoder().done();
    if (m_phase != Phase::Sending || exchange().closing())
        return false; // connecting, or the body is whole: the next request waits
    if (m_earlyAtByte >= 0)
        return true; // the answer came early: the rest is read and dropped, so the client sees it, not a reset
    if (!m_upstream || upstreamBacklogged()) {
        exchange()
            .deadlines()
            .waitingOnUs();            // waiting for the upstream, not the client: a slow server is no slow client
        if (!m_answerTimer.isActive()) // but the upstream has as long as for an answer to take more
            m_answerTimer.start(m_settings.upstreamAnswerTimeoutMs);
        return false; // resumes when the upstream takes what it has
    }
    // As curl does: look for an answer before each write, so that an early one stops the body at once rather
    // than after whatever could be passed on before the event loop came round to it. Once for each write: asked
    // again before anything more went, the kernel's answer would be the same (and an answer arriving meanwhile
    // wakes the event loop).
    if (std::exchange(m_answerLookAt, m_wireOut) != m_wireOut || m_wireOut == 0)
        onUpstreamReadyRead();
    return m_phase == Phase::Sending && !exchange().closing();
}

size_t Relay::onBody(core::ByteView data, const core::BlockPool::Block& block)
{
    m_session->setSource(block);
    auto used = exchange().decoder().feed(data, *m_tap);
    m_session->flush();
    if (!used) { // the client's framing is broken: what came before went on; the upstream request is cut off
        failExchange(400, QStringLiteral("bad request body framing"),
                     QStringLiteral("%1 at byte %2 of the body")
                         .arg(toQString(core::codeName(used.error().code)))
                         .arg(used.error().offset),
                     used.error()); // the capture says the same code and byte
        return data.size();
    }
    const size_t n = *used;
    m_wireIn += n;
    if (m_earlyAtByte < 0 && m_upstream) {
        writeSocketDirect(*m_upstream, data.data(), qint64(n));
        m_wireOut += n;
        sampleUpstream(false);
    } else if (m_earlyAtByte >= 0 && !exchange().dropBody(n)) { // read only to be dropped: the linger caps hold
        return data.size();
    }
    if (exchange().decoder().done())
        bodyWhole();
    return n; // what follows is the next request's: it waits for this exchange's end
}

void Relay::bodyWhole()
{
    m_at.clientLastByte = msSinceHead();
    exchange().deadlines().stop();
    if (m_tap->digest)
        m_tap->digestHex = toQString(m_tap->digest->finishHex());
    m_phase = Phase::Answer;
    if (m_earlyAtByte >= 0) // the answer went first; the body was only being dropped
        return;
    if (!m_answer->headRelayed()) // no final answer yet: it has this long from here
        m_answerTimer.start(m_settings.upstreamAnswerTimeoutMs);
    if (m_upstream && unsentBytes(*m_upstream) == 0) {
        m_writtenMs = msSinceHead();
        m_deliveredTimer.start();
    }
}

void Relay::onBodyDeadline(ClientDeadlines::Missed missed, const QString& why)
{
    if (m_phase == Phase::Sending && m_earlyAtByte < 0)
        failExchange(
            408, QStringLiteral("client too slow"),
            missed == ClientDeadlines::Missed::Idle ? why + QStringLiteral("; the upstream request was cut off") : why);
}

// Qt ends a connection once it reads the client's end, so no answer can reach a client whose end came first. A
// request still waiting for its upstream goes no further, as nginx ends such a request (499): connecting, or
// connected with none of its body gone on (the head still in Qt's buffer holds the body back, so a client that
// sent its whole request and half-closed, as `nc -N` does, found this with a local upstream). One already under way
// takes what was read of it on, as before (onClientGone then aborts it).
void Relay::onClientClosed()
{
    if (m_relay || !m_session)
        return;
    if (m_phase == Phase::Connecting || (m_phase == Phase::Sending && m_wireOut == 0)) {
        m_closedBeforeBodyWentOn = m_phase == Phase::Sending;
        recordWhatWasRead();
    }
}

// The request ends before it went on (its client closed, its upstream is unreachable): the body read with its head
// and held back while the upstream connected is parsed, so that the record has what was received.
void Relay::recordWhatWasRead()
{
    dropUpstream();
    m_recordOnly = true;
    exchange().takeWhatWasRead();
}

void Relay::onClientGone(const QString& how)
{
    if (!m_session)
        return;
    if (m_relay) { // a tunnel to pass through, its server not reached yet
        delete std::exchange(m_relay, nullptr);
        ForwardRecord tunnel = record();
        tunnel.tunnel = ForwardRecord::Tunnel{};
        finishSession(QStringLiteral("%1 before the server was reached").arg(how), tunnel);
        return;
    }
    dropUpstream(); // mid-exchange: the upstream request is aborted with it
    if (!exchange().decoder().done()) {
        finishSession(clientGoneInWords(how, exchange().decoder().bodyBytes(), expectedLength(exchange().framing())),
                      record(), core::Error{core::Errc::BodyCutShort, exchange().decoder().wireBytes()});
        return;
    }
    // The body is whole, so the capture has no error: the record's fault says why there is no answer.
    const QString why = !m_recordOnly ? QStringLiteral("%1 before the whole answer").arg(how)
                        : m_closedBeforeBodyWentOn
                            ? QStringLiteral("the client closed the connection after its whole request, before "
                                             "its body went on to the upstream: it went no further")
                            : QStringLiteral("the client closed the connection after its whole request, before "
                                             "the upstream was reached: it went no further");
    ForwardRecord forward = record();
    forward.fault = ForwardRecord::Fault{0, QStringLiteral("client gone"), why};
    finishSession(why, forward);
}

void Relay::onClosing()
{
    dropUpstream(); // nothing more goes on once the client's connection ends
}

} // namespace upin::app
