#include "forwarder/tunnel_relay.h"

#include "common/socket_drain.h"
#include "common/unsent_bytes.h"

namespace upin::app {

namespace {
constexpr qint64 kReadSize = qint64{64} * 1024;
} // namespace

TunnelRelay::TunnelRelay(QTcpSocket& client, const QString& host, quint16 port, int connectTimeoutMs, int idleMs,
                         std::function<QByteArray()> opened, std::function<void(const Outcome&)> done, QObject* parent)
    : QObject(parent), m_client(client), m_opened(std::move(opened)), m_done(std::move(done))
{
    m_clock.start();
    m_server.setReadBufferSize(1); // its bytes wait in the kernel until the client can take them
    m_connectTimer.setSingleShot(true);
    connect(&m_connectTimer, &QTimer::timeout, this, [this, connectTimeoutMs] {
        m_server.abort();
        finish(QStringLiteral("no connection within %1 ms").arg(connectTimeoutMs));
    });
    m_idleTimer.setSingleShot(true);
    m_idleTimer.setInterval(idleMs);
    connect(&m_idleTimer, &QTimer::timeout, this, [this, idleMs] {
        finish(QStringLiteral("no byte either way for %1 s").arg(idleMs / 1000));
        m_server.abort();
        m_client.abort();
    });
    connect(&m_server, &QTcpSocket::connected, this, &TunnelRelay::open);
    connect(&m_server, &QTcpSocket::errorOccurred, this, [this] {
        if (!m_outcome.opened)
            finish(m_server.errorString());
        else
            onClosed(m_server);
    });
    connect(&m_server, &QTcpSocket::disconnected, this, [this] { onClosed(m_server); });
    m_connectTimer.start(connectTimeoutMs);
    m_server.connectToHost(host, port);
}

void TunnelRelay::open()
{
    m_connectTimer.stop();
    m_outcome.opened = true;
    const QByteArray early = m_opened(); // the connection stops reading the client: its bytes are ours from here
    if (!early.isEmpty()) {
        writeSocketDirect(m_server, early.constData(), early.size());
        m_outcome.bytesUp += quint64(early.size());
    }
    m_client.write("HTTP/1.1 200 Connection established\r\n\r\n");
    connect(&m_client, &QTcpSocket::readyRead, this, [this] { pump(m_client, m_server, m_outcome.bytesUp); });
    connect(&m_server, &QTcpSocket::readyRead, this, [this] { pump(m_server, m_client, m_outcome.bytesDown); });
    connect(&m_client, &QTcpSocket::bytesWritten, this, &TunnelRelay::pumpBoth); // taken: the other side resumes
    connect(&m_server, &QTcpSocket::bytesWritten, this, &TunnelRelay::pumpBoth);
    connect(&m_client, &QTcpSocket::disconnected, this, [this] { onClosed(m_client); });
    m_idleTimer.start();
    pumpBoth(); // the client's first bytes may be waiting already
}

// While `to` holds less than kMaxBacklog unsent, from's bytes go on; the rest waits in from's kernel.
void TunnelRelay::pump(QTcpSocket& from, QTcpSocket& to, quint64& count)
{
    char buffer[kReadSize];
    while (!m_finished && to.state() == QAbstractSocket::ConnectedState && unsentBytes(to) <= kMaxBacklog) {
        const qint64 got = readSocketInto(from, buffer, kReadSize);
        if (got <= 0)
            return;
        writeSocketDirect(to, buffer, got);
        count += quint64(got);
        m_idleTimer.start();
    }
}

void TunnelRelay::pumpBoth()
{
    pump(m_client, m_server, m_outcome.bytesUp);
    pump(m_server, m_client, m_outcome.bytesDown);
}

// One side closed: what it sent last goes on, then the other side is closed once Qt has written it all.
void TunnelRelay::onClosed(QTcpSocket& closed)
{
    if (m_finished)
        return;
    QTcpSocket& other = &closed == &m_client ? m_server : m_client;
    pump(closed, other, &closed == &m_client ? m_outcome.bytesUp : m_outcome.bytesDown);
    finish({});
    other.disconnectFromHost();
}

void TunnelRelay::finish(const QString& error)
{
    if (std::exchange(m_finished, true))
        return;
    m_connectTimer.stop();
    m_idleTimer.stop();
    m_outcome.error = error;
    m_outcome.ms = double(m_clock.nsecsElapsed()) / 1e6;
    m_done(m_outcome);
}

} // namespace upin::app
