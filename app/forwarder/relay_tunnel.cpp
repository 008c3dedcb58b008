// A proxy's tunnels (CONNECT host:port): opened and inspected, or passed through as they are (--no-intercept).

#include "forwarder/relay.h"
#include "forwarder/tunnel_relay.h"
#include "server/request_admission.h"

#include <QHash>
#include <QJsonDocument>
#include <QPointer>
#include <QRegularExpression>

namespace upin::app {

bool hostMatches(const QString& host, const QStringList& patterns)
{
    const QString ace = certificateHostName(host); // lower case, no trailing dot, no brackets
    const QString unicode = QUrl::fromAce(ace.toLatin1());
    // Each pattern compiled once per thread: a browser's hundreds of requests are each matched against them all.
    // Bounded by the patterns the user gave.
    static thread_local QHash<QString, QRegularExpression> compiled;
    for (const QString& pattern : patterns) {
        auto found = compiled.constFind(pattern);
        if (found == compiled.constEnd())
            found =
                compiled.insert(pattern, QRegularExpression(QRegularExpression::wildcardToRegularExpression(pattern),
                                                            QRegularExpression::CaseInsensitiveOption));
        const QRegularExpression& glob = *found;
        if (glob.match(ace).hasMatch() || glob.match(unicode).hasMatch())
            return true;
    }
    return false;
}

void Relay::openTunnelTo(const RequestAdmission& admission)
{
    // On the proxy's TLS port (not one the CLI opens) TLS cannot begin again, and a relay would need the encrypted
    // side's progress: CONNECT goes to the plain port.
    if (exchange().tls()) {
        exchange().refuse(400, QStringLiteral("CONNECT over TLS"), std::nullopt,
                          QStringLiteral("send CONNECT to the proxy's plain port"));
        return;
    }
    const QUrl authority(QStringLiteral("//") + admission.tunnelTo);
    if (hostMatches(authority.host(QUrl::FullyEncoded), m_settings.noIntercept))
        passThrough(exchange().sessionRequest(admission), admission.tunnelTo, false);
    else
        interceptTunnel(admission);
}

// CONNECT host:port to the proxy: the client's TLS ends here, with a certificate signed by the proxy's authority for
// the name its ClientHello asks for (SNI), else for the CONNECT's host; each request in the tunnel goes on to
// https://host:port, whose certificate is checked, as forward mode checks an upstream's, for that same name (a
// client that connects to an address and names the server in SNI gets the server it named, checked as such).
// A name --no-intercept lists, in the CONNECT or in SNI, is not opened: the tunnel is passed through.
void Relay::interceptTunnel(const RequestAdmission& admission)
{
    QString error;
    const QString host = QUrl(QStringLiteral("//") + admission.tunnelTo).host(QUrl::FullyEncoded); // IDN: as ACE
    const auto leaf =
        exchange().shared().proxyCa->leafFor(host, &error); // the CONNECT's host is checked before the 200
    if (!leaf) {
        exchange().refuse(400, QStringLiteral("no certificate for the tunnel"), std::nullopt, error);
        return;
    }
    m_tunnelTo = admission.tunnelTo;
    m_tunnelServerName.clear();
    exchange().openTunnel([this, host, connectLeaf = *leaf, connectRequest = exchange().sessionRequest(admission)](
                              const QString& clientServerName) -> std::optional<QSslConfiguration> {
        const bool named = !clientServerName.isEmpty() && clientServerName != host; // by SNI, another name
        // Either name listed leaves the tunnel unopened: opening one the user asked not to is the worse mistake.
        if (named && hostMatches(clientServerName, m_settings.noIntercept)) {
            m_tunnelServerName = clientServerName; // for --only-host, and the record
            passThrough(connectRequest, m_tunnelTo, true);
            return std::nullopt;
        }
        auto chosen = connectLeaf;
        if (named) {
            QString ignored; // a name no certificate can carry: the CONNECT's host's, and the handshake says the rest
            if (auto named = exchange().shared().proxyCa->leafFor(clientServerName, &ignored)) {
                chosen = *named;
                m_tunnelServerName = clientServerName;
            }
        }
        QSslConfiguration config = serverTlsConfiguration(chosen);
        // Not even queried: a browser with client certificates would ask its user to pick one on every site, and
        // none would reach the server.
        config.setPeerVerifyMode(QSslSocket::VerifyNone);
        return config;
    });
}

// Not opened: the client's TLS goes to the server as it is. Recorded as a capture of the CONNECT with the bytes
// each way, and why it ended when not by a close.
void Relay::passThrough(SessionRequest connectRequest, const QString& tunnelTo, bool answered)
{
    // Nothing of an earlier request on this connection may act on the tunnel: its upstream, answer and timers.
    dropUpstream();
    m_answer.reset();
    m_upstreamHead.clear();
    for (QTimer* timer : {&m_connectTimer, &m_answerTimer, &m_deliveredTimer})
        timer->stop();
    const QUrl authority(QStringLiteral("//") + tunnelTo);
    connectRequest.endpoint = Endpoint::Discard;
    connectRequest.hash = core::HashKind::None;
    connectRequest.forwardedTo =
        tunnelTo + (answered ? QStringLiteral(" (passed through: SNI %1)").arg(m_tunnelServerName)
                             : QStringLiteral(" (passed through)"));
    // Its bytes are not seen, so they may carry an upload: --only-uploads keeps it.
    connectRequest.unlisted = leftOutByFilters(authority.host(QUrl::FullyEncoded), true);
    m_session = std::move(*UploadSession::start(connectRequest, exchange().shared().store, exchange().publisher()));
    exchange().markRecorded();
    m_phase = Phase::Connecting; // the client is not read: its bytes wait in the kernel for the relay
    m_relayLoop = false;
    auto opened = [this](const QTcpSocket& server) -> std::optional<QByteArray> {
        m_relayLoop = leadsHere(server); // CONNECT to the proxy's own port would relay to itself for ever
        return m_relayLoop ? std::nullopt : exchange().handOver();
    };
    auto done = [this, tunnelTo, answered](const TunnelRelay::Outcome& outcome) {
        endPassThrough(tunnelTo, outcome, answered);
    };
    m_relay = new TunnelRelay(exchange().tunnelClient(), authority.host(QUrl::FullyEncoded), quint16(authority.port()),
                              m_settings.connectTimeoutMs, answered, opened, done, this);
    // Quiet as long as a kept-alive connection may wait, its slot is one a new client can have (server_shared.h).
    m_relay->offerSlotWhenQuiet(exchange().shared().config.guards.keepAliveTimeoutMs, [this](bool quiet) {
        if (!quiet) {
            exchange().shared().waiting.remove(this);
            return;
        }
        exchange().shared().waiting.add(this, [relay = QPointer<TunnelRelay>(m_relay)] {
            if (relay)
                relay->dropForSlot();
        });
    });
}

void Relay::endPassThrough(const QString& target, const TunnelRelay::Outcome& outcome, bool answered)
{
    if (!m_session)
        return;
    const bool relayed = outcome.opened && !m_relayLoop;
    ForwardRecord record;
    record.upstream = target;
    record.tunnel = ForwardRecord::Tunnel{outcome.bytesUp, outcome.bytesDown, relayed,
                                          relayed ? outcome.error : QString()}; // else the fault says it
    QString detail = relayed ? QStringLiteral("passed through: %1 bytes up, %2 down%3")
                                   .arg(outcome.bytesUp)
                                   .arg(outcome.bytesDown)
                                   .arg(outcome.error.isEmpty() ? QString() : QStringLiteral("; ") + outcome.error)
                     : m_relayLoop ? QStringLiteral("%1 is this proxy itself").arg(target)
                                   : QStringLiteral("%1 unreachable: %2").arg(target, outcome.error);
    if (!relayed && answered) // the 200 went already: no answer of ours could follow
        detail += QStringLiteral("; the client had its 200, so its connection was closed");
    const int status = m_relayLoop ? 508 : 502;
    const QString error = m_relayLoop ? QStringLiteral("loop") : QStringLiteral("upstream unreachable");
    if (!relayed)
        record.fault = ForwardRecord::Fault{status, error, detail};
    m_session->finish(exchange().decoder(), true, std::nullopt, detail, &record);
    m_session.reset();
    if (relayed || answered) // told 200 already: no answer of ours can follow, the connection just ends
        exchange().endHandOver();
    else
        exchange().respond(
            status, "application/json",
            QJsonDocument(QJsonObject{{"error", error}, {"detail", detail}}).toJson(QJsonDocument::Compact) + '\n',
            true);
}

} // namespace upin::app
