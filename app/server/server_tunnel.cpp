// ServerConnection's TLS beginnings: the client's ClientHello read (peeked) before the handshake. On the TLS port,
// for the protocols it offers: HTTP/2 to a client that asks for it. In a proxy's CONNECT tunnel (after its 200),
// for the name it asks: the handshake ended here with a certificate for it, or the socket handed to the mode's
// relay (passed through).

#include "server/server_connection.h"

#include "common/qt_text.h"
#include "upin/core/tls_client_hello.h"

#include <QSslSocket>

namespace upin::app {

void ServerConnection::openTunnel(TunnelTls tlsFor)
{
    m_tunnelPending = std::move(tlsFor); // once consume() knows whether bytes followed the head in the same read
}

// Bytes the client sent after CONNECT without waiting for its answer were read with it, out of the TLS engine's
// reach: refused (as curl and browsers wait, only a client that does not would see it).
void ServerConnection::beginTunnel(bool bytesFollowed)
{
    m_tunnelTls = std::exchange(m_tunnelPending, {});
    if (bytesFollowed) {
        refuse(400, QStringLiteral("bytes after CONNECT"), std::nullopt,
               QStringLiteral("the client sent bytes after CONNECT before its answer"));
        return;
    }
    m_requestRecorded = true; // by the requests inside it
    // Written as it is: a 2xx to CONNECT has no Content-Length (RFC 9110 9.3.6), and no answer of ours can follow.
    m_socket->write("HTTP/1.1 200 Connection established\r\n\r\n");
    m_tunnel = true;
    m_tls = true;
    m_state = State::Hello;
    m_head.reset();
    m_socket->setReadBufferSize(m_mode.readChunk); // Qt decrypts into a buffer of one read, as on the TLS port
    m_deadlines.headDeadline(); // the ClientHello and the handshake have the head's deadline, as on the TLS port
    if (m_socket->bytesAvailable() > 0)
        resumeReading();
}

// The client's first bytes in the tunnel, peeked (Qt's TLS engine reads them from the socket next): the server
// name they ask for picks the certificate, or passes the tunnel through. Bytes that are no TLS record are read as
// plain HTTP; any other TLS record begins the handshake, which says what is wrong with it.
void ServerConnection::readClientHello()
{
    const QByteArray bytes = m_socket->peek(qint64(core::kMaxClientHelloBytes));
    const core::ClientHello hello = core::readClientHello({bytes.constData(), size_t(bytes.size())});
    if (hello.status == core::ClientHello::Status::NeedMore && bytes.size() < qsizetype(core::kMaxClientHelloBytes))
        return; // called again as more comes, until the head deadline
    if (!m_tunnel) {
        startPortTls(hello);
        return;
    }
    if (hello.status == core::ClientHello::Status::NotTls) {
        // Plain HTTP in the tunnel (curl --proxytunnel to an http:// URL, a WebSocket client behind a proxy): its
        // requests are read as the plain port reads them, and go on over plain HTTP.
        m_tunnelTls = {};
        m_tls = false;
        m_socket->setReadBufferSize(1); // as on the plain port: what is not read waits in the kernel
        m_state = State::Head;
        resumeReading();
        return;
    }
    const QString name = hello.status == core::ClientHello::Status::Found ? toQString(hello.name) : QString();
    m_state = State::Request; // the CONNECT's still, should the mode pass the tunnel through
    const std::optional<QSslConfiguration> config = std::exchange(m_tunnelTls, {})(name);
    if (!config)
        return; // passed through: the mode's relay takes the socket (handOver) once the server is reached
    m_state = State::Head;
    // Once the tunnel's TLS is up, the connection waits for its first request as a kept-alive one waits for its
    // next: a new client may have its slot (64 tunnels that sent nothing after the handshake held every slot).
    m_handshake.emplace(
        *static_cast<QSslSocket*>(m_socket), *m_shared, m_publish, m_client, *config,
        [this] {
            m_deadlines.stop(); // from here the keep-alive wait's, as after a request; the head's at its first byte
            m_clientSide.waitForNextRequest();
        },
        [this] {
            m_state = State::Closing;
            m_clientSide.drop();
        },
        name);
}

// ALPN: h2 when the client offers it, else http/1.1 when it offers that, else nothing; one protocol, so that
// OpenSSL has no order to choose by (Qt's server, offered none of its protocols, would agree its first anyway,
// and the client's TLS would refuse the handshake). Not h2 to a client over the connection limit, whose 503 is
// HTTP/1.1. Whatever the bytes are, the handshake begins: what is wrong with them, TLS says.
void ServerConnection::startPortTls(const core::ClientHello& hello)
{
    QSslConfiguration config = m_shared->tlsConfiguration;
    if (m_mode.http2 && m_clientSide.admitted() && hello.offers("h2"))
        config.setAllowedNextProtocols({QByteArrayLiteral("h2")});
    else if (hello.offers("http/1.1"))
        config.setAllowedNextProtocols({QByteArrayLiteral("http/1.1")});
    m_state = State::Head;
    m_handshake.emplace(
        *static_cast<QSslSocket*>(m_socket), *m_shared, m_publish, m_client, config,
        [this] {
            if (std::exchange(m_busyAnswerPending, false))
                respondBusy();
        },
        [this] {
            m_state = State::Closing;
            m_clientSide.drop();
        },
        hello.status == core::ClientHello::Status::Found ? toQString(hello.name) : QString());
}

std::optional<QByteArray> ServerConnection::handOver()
{
    if (m_state != State::Request)
        return std::nullopt;
    m_state = State::HandedOver;
    m_requestRecorded = true; // by the tunnel's record
    m_deadlines.stop();       // the relay's own idle deadline holds
    return std::exchange(m_held, {});
}

void ServerConnection::endHandOver()
{
    m_state = State::Closing;
    m_socket->abort(); // both sides closed already, or dropped by the relay's deadline
    deleteLater();
}

} // namespace upin::app
