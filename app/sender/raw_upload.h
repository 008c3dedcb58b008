#pragma once
// A minimal HTTP/1.1 upload client over QTcpSocket, for what QNetworkAccessManager cannot do well in Qt 6.4:
//  - Transfer-Encoding: chunked (Qt's HTTP/1 stack always sends Content-Length);
//  - fast streaming: QNAM pulls an upload device across threads 16 KiB per round trip (performance-network.md); this
//    client writes 256 KiB at a time, and a body that lends its bytes (lending_body.h) is written without a copy.
// http and https (a QSslSocket); one request per connection (Connection: close). Lives in the sender's thread.

#include "common/http_answer.h"
#include "sender/lending_body.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPair>
#include <QSslConfiguration>
#include <QTimer>
#include <QUrl>

#include <deque>

class QIODevice;
class QTcpSocket;

namespace upin::app {

class RawUpload final : public QObject {
    Q_OBJECT
public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;
    // bodySize < 0: chunked framing; otherwise Content-Length: bodySize. An https URL is sent over TLS with tls
    // (which certificates are trusted), by a QSslSocket.
    RawUpload(const QUrl& url, const Headers& headers, QIODevice* body, qint64 bodySize, bool expectContinue,
              const QSslConfiguration& tls, QObject* parent = nullptr);
    ~RawUpload() override;

    void start();
    void abort();
    // No byte of the body taken and no byte of an answer for this long: the run ends with an error.
    void setStallTimeout(int ms) { m_stallTimeoutMs = ms; }
    void setMethod(const QByteArray& method) { m_method = method; } // POST unless set, before start()
    // Body offsets at which a write must end, ascending: each write up to one goes out at once (TCP_NODELAY),
    // and the next starts a moment after it has left, so that the server reads the two apart. Before start().
    void setCuts(QList<qint64> offsets) { m_cuts = std::move(offsets); }
    int status() const { return m_answer.status(); }
    const QByteArray& statusLine() const { return m_answer.statusLine(); }
    const HttpAnswer::Fields& responseHeaders() const { return m_answer.fields(); }
    const QByteArray& responseBody() const { return m_answer.body(); } // decoded, its first 1 MiB
    bool answeredEarly() const { return m_answeredEarly; }
    QString tlsProtocol() const { return m_tlsProtocol; } // "TLSv1.3"; empty over plain http

signals:
    void uploadProgress(qint64 sent);
    void responseHeadArrived();
    void finished(const QString& error); // empty error: an answer arrived

private:
    void startRequest();
    void sendMore();
    LendingBody::Piece takeBody(qint64 upTo, QByteArray& buffer);
    void queue(const QByteArray& bytes); // to the socket, counted
    void releaseWritten();
    void pauseAtCut();
    void onReadyRead();
    void takeUnreadAnswer();
    void endAtClose();
    void finish(const QString& error);
    void keepAnswer(const char* data, qint64 size);
    quint16 defaultPort() const;

    QUrl m_url;
    Headers m_headers;
    QIODevice* m_body;
    qint64 m_bodySize;
    bool m_expectContinue;
    QByteArray m_method = "POST";
    bool m_tls;
    QTcpSocket* m_socket; // a QSslSocket for https
    QString m_tlsProtocol;
    QTimer m_continueTimer;
    QTimer m_stallTimer;
    int m_stallTimeoutMs = 60'000;
    HttpAnswer m_answer;
    qint64 m_sent = 0;
    LendingBody* m_lending = nullptr; // the body, when it lends its bytes
    qint64 m_queued = 0;              // bytes given to the socket, the head included
    struct Lent {
        std::shared_ptr<const void> holder;
        qint64 end = 0; // m_queued just past the piece
    };
    std::deque<Lent> m_lent; // pieces the socket may still read from
    int m_lentBlocks = 0;    // the blocks they lie in
    QList<qint64> m_cuts;    // ahead of m_sent
    bool m_pausedAtCut = false;
    bool m_sending = false;
    bool m_bodyDone = false;
    bool m_finished = false;
    bool m_answeredEarly = false;
};

} // namespace upin::app
