#pragma once
// A proxy's tunnel that is not opened (`proxy --no-intercept HOST`): the client's bytes go to host:port and the
// server's back, as they are, the TLS between them untouched (the client sees the real server's certificate).
// Only the byte counts are known. Bounded as every relay here: while one side has not taken 1 MiB, the other is
// not read, so a slow reader slows the sender through TCP. A tunnel with no byte either way for kIdleMs is closed;
// once one side has closed, the other has kClosingMs to take what is left before both are dropped.

#include <QElapsedTimer>
#include <QObject>
#include <QTcpSocket>
#include <QTimer>

#include <functional>
#include <optional>

namespace upin::app {

class TunnelRelay final : public QObject {
    Q_OBJECT
public:
    // As nginx's stream proxy_timeout: a browser keeps a connection open between a page's requests.
    static constexpr int kIdleMs = 600'000;
    static constexpr int kClosingMs = 10'000;

    struct Outcome {
        quint64 bytesUp = 0;   // client to server
        quint64 bytesDown = 0; // server to client
        bool opened = false;   // the server was reached (and the client told 200)
        QString error;         // why it ended, when not by a close: unreachable, idle
        double ms = 0;         // from the CONNECT to the end
    };
    // opened: the server (that socket) answered the connect; the caller hands the client's socket over, with any
    // of its bytes it read already (the server gets them first), or nullopt when it cannot or will not (the relay
    // then ends). answered: the client was told 200 already (the tunnel was passed through on its ClientHello's
    // name), else the relay tells it once the server is reached. done: once, at the end, both sides closed,
    // whatever it was; never from the destructor.
    using Opened = std::function<std::optional<QByteArray>(const QTcpSocket& server)>;
    TunnelRelay(QTcpSocket& client, const QString& host, quint16 port, int connectTimeoutMs, bool answered,
                Opened opened, std::function<void(const Outcome&)> done, QObject* parent);
    ~TunnelRelay() override;
    // A tunnel with no byte either way for quietMs says so (quiet true), and again when a byte comes (false): while
    // quiet, its connection's slot may go to a new client, as an idle keep-alive connection's does, by
    // dropForSlot(). 64 quiet tunnels had held every slot for the ten minutes of kIdleMs.
    void offerSlotWhenQuiet(int quietMs, std::function<void(bool quiet)> quietChanged);
    void dropForSlot();

private:
    static constexpr qint64 kMaxBacklog = qint64{1} << 20;
    void open();
    void pump(QTcpSocket& from, QTcpSocket& to, quint64& count);
    void pumpBoth();
    void onClosed(QTcpSocket& closed);
    void finish(const QString& error);
    void drop(const QString& why); // finish, both sockets closed at once
    void bytesFlowed();            // the idle and quiet clocks start again

    QTcpSocket& m_client;
    QTcpSocket m_server;
    QTimer m_connectTimer;
    QTimer m_idleTimer;
    QTimer m_closingTimer;
    QTimer m_quietTimer;
    std::function<void(bool)> m_quietChanged;
    bool m_quiet = false;
    QElapsedTimer m_clock;
    Opened m_opened;
    bool m_answered;
    std::function<void(const Outcome&)> m_done;
    Outcome m_outcome;
    bool m_clientClosed = false;
    bool m_serverClosed = false;
    bool m_finished = false;
};

} // namespace upin::app
