#include "forwarder/tunnel_relay.h"

#include "common/byte_size.h"
#include "common/socket_drain.h"
#include "common/unsent_bytes.h"

#include <utility>

namespace upin::app {

namespace {
constexpr qint64 kReadSize = qint64{64} * 1024;
} // namespace

TunnelRelay::TunnelRelay(QTcpSocket& client, const QString& host, quint16 port, int connectTimeoutMs, bool answered,
                         Opened opened, std::function<void(const Outcome&)> done, QObject* parent)
    : QObject(parent), m_client(client), m_opened(std::move(opened)), m_answered(answered), m_done(std::move(done))
{
    m_clock.start();
    m_server.setReadBufferSize(1); // its bytes wait in the kernel until the client can take them
    for (QTimer* timer : {&m_connectTimer, &m_idleTimer, &m_closingTimer, &m_quietTimer})
        timer->setSingleShot(true);
    connect(&m_connectTimer, &QTimer::timeout, this,
            [this, connectTimeoutMs] { drop(QStringLiteral("no connection within %1 ms").arg(connectTimeoutMs)); });
    connect(&m_idleTimer, &QTimer::timeout, this,
            [this] { drop(QStringLiteral("no byte either way for %1 s").arg(kIdleMs / 1000)); });
    connect(&m_closingTimer, &QTimer::timeout, this, [this] {
        drop(QStringLiteral("closed by one side; the other took nothing more for %1 s").arg(kClosingMs / 1000));
    });
    connect(&m_quietTimer, &QTimer::timeout, this, [this] {
        if (unsentBytes(m_client) + unsentBytes(m_server) > 0) { // stalled on a reader, not quiet: its bytes wait
            m_quietTimer.start();
            return;
        }
        m_quiet = true;
        if (m_quietChanged)
            m_quietChanged(true);
    });
    connect(&m_server, &QTcpSocket::connected, this, &TunnelRelay::open);
    connect(&m_server, &QTcpSocket::errorOccurred, this, [this] {
        if (!m_outcome.opened)
            drop(m_server.errorString());
        else
            onClosed(m_server);
    });
    connect(&m_server, &QTcpSocket::disconnected, this, [this] { onClosed(m_server); });
    m_connectTimer.start(connectTimeoutMs);
    m_server.connectToHost(host, port);
}

// Quiet: the connection being destroyed takes its sockets with it, and their last signals must find no one.
TunnelRelay::~TunnelRelay()
{
    m_finished = true;
    m_server.disconnect(this);
    m_client.disconnect(this);
    m_server.abort();
}

void TunnelRelay::offerSlotWhenQuiet(int quietMs, std::function<void(bool quiet)> quietChanged)
{
    m_quietTimer.setInterval(quietMs);
    m_quietChanged = std::move(quietChanged);
}

void TunnelRelay::dropForSlot()
{
    if (m_finished || !m_quiet)
        return; // bytes came since its slot was offered: a busy tunnel is not dropped (one client over the cap)
    drop(QStringLiteral("no byte either way for %1 while every connection slot was taken: its slot went to a new "
                        "client")
             .arg(formatSeconds(m_quietTimer.interval() / 1000.0)));
}

void TunnelRelay::drop(const QString& why)
{
    finish(why);
    m_server.abort();
    m_client.abort();
}

void TunnelRelay::bytesFlowed()
{
    if (m_idleTimer.isActive())
        m_idleTimer.start(kIdleMs);
    if (m_quietTimer.interval() > 0 && !m_clientClosed && !m_serverClosed)
        m_quietTimer.start();
    if (std::exchange(m_quiet, false) && m_quietChanged)
        m_quietChanged(false);
}

void TunnelRelay::open()
{
    m_connectTimer.stop();
    m_outcome.opened = true;
    m_server.setSocketOption(QAbstractSocket::LowDelayOption, 1); // a tunnel's writes out at once, as the client's

    const std::optional<QByteArray> early = m_opened(m_server); // the connection reads the client no more: ours
    if (!early) {
        finish(QStringLiteral("the client had gone"));
        m_server.abort();
        return;
    }
    if (!m_answered)
        m_client.write("HTTP/1.1 200 Connection established\r\n\r\n");
    if (!early->isEmpty()) {
        writeSocketDirect(m_server, early->constData(), early->size());
        m_outcome.bytesUp += quint64(early->size());
    }
    connect(&m_client, &QTcpSocket::readyRead, this, [this] { pump(m_client, m_server, m_outcome.bytesUp); });
    connect(&m_server, &QTcpSocket::readyRead, this, [this] { pump(m_server, m_client, m_outcome.bytesDown); });
    // Taken by a side (written to its kernel): the other side is read again.
    connect(&m_client, &QTcpSocket::bytesWritten, this, &TunnelRelay::pumpBoth);
    connect(&m_server, &QTcpSocket::bytesWritten, this, &TunnelRelay::pumpBoth);
    connect(&m_client, &QTcpSocket::disconnected, this, [this] { onClosed(m_client); });
    m_idleTimer.start(kIdleMs);
    bytesFlowed(); // the quiet clock starts with the tunnel
    pumpBoth();    // the client's first bytes may be waiting already
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
        bytesFlowed();
    }
}

void TunnelRelay::pumpBoth()
{
    pump(m_client, m_server, m_outcome.bytesUp);
    pump(m_server, m_client, m_outcome.bytesDown);
}

// One side closed: what it sent last goes on, and the other is closed once Qt has written it all (its own
// disconnected() then comes here too). The end is when both are closed, or kClosingMs after the first.
void TunnelRelay::onClosed(QTcpSocket& closed)
{
    if (m_finished)
        return;
    const bool client = &closed == &m_client;
    QTcpSocket& other = client ? m_server : m_client;
    pump(closed, other, client ? m_outcome.bytesUp : m_outcome.bytesDown);
    (client ? m_clientClosed : m_serverClosed) = true;
    if (m_clientClosed && m_serverClosed) {
        finish({});
        return;
    }
    m_idleTimer.stop();
    m_quietTimer.stop(); // closing: kClosingMs decides, and the slot is not offered
    if (std::exchange(m_quiet, false) && m_quietChanged)
        m_quietChanged(false);
    m_closingTimer.start(kClosingMs);
    other.disconnectFromHost();
    if (other.state() == QAbstractSocket::UnconnectedState) // nothing was left to write: closed at once
        onClosed(other);
}

void TunnelRelay::finish(const QString& error)
{
    if (std::exchange(m_finished, true))
        return;
    for (QTimer* timer : {&m_connectTimer, &m_idleTimer, &m_closingTimer, &m_quietTimer})
        timer->stop();
    if (std::exchange(m_quiet, false) && m_quietChanged)
        m_quietChanged(false);
    m_outcome.error = error;
    m_outcome.ms = double(m_clock.nsecsElapsed()) / 1e6;
    m_done(m_outcome);
}

} // namespace upin::app
