// ServerConnection's switch to HTTP/2 (h2_session.h): on the plain port a client may speak HTTP/2 from its first
// byte (prior knowledge, as `curl --http2-prior-knowledge` and gRPC do), and over TLS one that agreed h2 by ALPN
// (startPortTls) must. Either says so with the connection preface, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n". No
// HTTP/1.1 method is PRI, so its first four bytes decide.

#include "server/h2_session.h"
#include "server/server_connection.h"

#include <QTcpSocket>

namespace upin::app {

namespace {
constexpr std::string_view kPrefaceStart = "PRI ";
} // namespace

bool ServerConnection::startsHttp2(core::ByteView data)
{
    if (!m_mode.http2 || m_admittedOne || m_tunnel || (m_tls && transport().alpn != QLatin1String("h2")))
        return false;
    // The first bytes may have come in an earlier read, held by the head reader.
    std::string start(m_head.raw().substr(0, kPrefaceStart.size()));
    start.append(data.substr(0, kPrefaceStart.size() - start.size()));
    if (start != kPrefaceStart)
        return false;
    m_deadlines.stop(); // each stream keeps its own
    m_state = State::Http2;
    Http2Session::Context context;
    context.shared = m_shared.get();
    context.publish = m_publish;
    context.makeHandler = m_makeHandler;
    context.httpLimits = m_mode.httpLimits;
    context.modeName = m_mode.name;
    context.jsonRefusals = m_mode.jsonRefusals;
    context.client = m_client;
    context.transport = transport();
    context.transport.http = m_tls ? QStringLiteral("h2") : QStringLiteral("h2c");
    context.peer = m_socket->peerAddress();
    context.local = m_socket->localAddress();
    m_http2 = std::make_unique<Http2Session>(*m_socket, std::move(context), nullptr);
    connect(m_http2.get(), &Http2Session::readingResumed, this, &ServerConnection::resumeReading);
    connect(m_http2.get(), &Http2Session::ended, this, [this] { closeAfterAnswer(); });
    const std::string before(m_head.raw());
    m_head.reset();
    if (!before.empty())
        receiveHttp2({before.data(), before.size()}, {});
    return true;
}

size_t ServerConnection::receiveHttp2(core::ByteView data, const core::BlockPool::Block& block)
{
    if (m_state == State::Http2 && !m_http2->receive(data, block))
        closeAfterAnswer(); // what nghttp2 queued (a GOAWAY) goes out, then the close
    return data.size();
}

} // namespace upin::app
