#pragma once
// What every mode's connection does with its client between and after requests, written once: the slot it holds
// (given up to a new client while it waits for its next request), the keep-alive wait, the client's deadline to
// take an answer, and the lingering close with its caps (Linger). ServerConnection holds one, after its socket, on
// its thread.

#include "server/connection_guards.h"
#include "server/server_shared.h"

#include <QObject>
#include <QTcpSocket>
#include <QTimer>

#include <functional>

namespace upin::app {

class ClientSide final : public QObject {
    Q_OBJECT
public:
    // closeIfWaiting: the connection's own close while it waits for a next request (when its slot is given to a
    // new client, or the keep-alive time is up); it may decline if a request has begun.
    // admitted: the slot the accept thread decided (ServerShared::takeSlot), released when this ends.
    ClientSide(QTcpSocket& socket, ServerShared& shared, QObject& connection, bool admitted,
               std::function<void()> closeIfWaiting);
    ~ClientSide() override;

    // False when every slot is taken and no waiting connection gave its own: answer 503, then closeAfterAnswer().
    bool admitted() const { return m_admitted; }
    // Writes an answer of ours: the status line, Content-Type and Content-Length (none for a 204), extraFields,
    // Connection: close when closing; the body, in the pieces it was made in, unless it answers a HEAD (headOnly).
    // Then answerWritten().
    void writeAnswer(int status, const QByteArray& contentType, const QByteArrayList& body,
                     const QByteArray& extraFields, bool close, bool headOnly = false);
    // The head writeAnswer writes for a body of length bytes (a refusal's record keeps it as sent).
    static QByteArray answerHead(int status, const QByteArray& contentType, qsizetype length,
                                 const QByteArray& extraFields, bool close);
    // An answer was written: while it is not all sent, each answerTimeoutMs must see progress, or the connection
    // is dropped (a client that never reads would hold the slot and the answer's memory for ever).
    void answerWritten();
    void waitForNextRequest();
    void requestBegins(); // the next request's first byte: no longer waiting
    bool waiting() const { return m_waiting; }
    void stopWaiting();
    // The answer goes out, our sending side is shut, and what the client still sends is dropped (dropped()) until
    // it closes, pauses for Linger::kQuietMs, or a cap is reached. The slot is given up at once. endsAtClose: the
    // answer has no length, so over TLS it ends only with our close_notify, sent once it is out rather than after
    // the linger (a relayed close-delimited answer reached the client 5 s late).
    void closeAfterAnswer(bool endsAtClose = false);
    bool closing() const { return m_closing; }
    // Lingering: `bytes` more arrived and were dropped. False when that ends the connection (it is dropped).
    bool dropped(quint64 bytes);
    // Lingering: reads what the client still sends and drops it, within the caps. Called on each readyRead.
    void dropArriving();
    void drop(const QString& why = {}); // at once, without lingering; why: goneInWords's, when it was our doing
    // How the client went, for a request it cut: "the client closed the connection", or why it was dropped.
    QString goneInWords() const;

private:
    void releaseSlot();
    void shutdownWhenSent();
    void endLinger();

    QTcpSocket& m_socket;
    ServerShared& m_shared;
    QObject& m_connection;
    std::function<void()> m_waitingClose;
    QTimer m_keepAliveTimer;
    QTimer m_answerTimer;
    QTimer m_lingerTimer; // a pause this long in what the client still sends ends the linger
    Linger m_linger;
    bool m_admitted = true;
    bool m_holdsSlot = true;
    bool m_waiting = false;
    bool m_closing = false;
    bool m_endsAtClose = false; // the answer has no length (closeAfterAnswer)
    bool m_lingering = false;   // counted in ServerShared::lingeringConnections
    QString m_droppedWhy;       // drop()'s
};

} // namespace upin::app
