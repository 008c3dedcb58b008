#pragma once
// A minimal HTTP/1.1 client for the one upload QNetworkAccessManager cannot make: a body with
// Transfer-Encoding: chunked (Qt 6's HTTP/1 stack always sends Content-Length). Plain http only; one request
// per connection (Connection: close). Lives in the sender's thread.

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPair>
#include <QTimer>
#include <QUrl>

class QIODevice;
class QTcpSocket;

namespace upin::app {

class ChunkedUpload final : public QObject {
    Q_OBJECT
public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;
    ChunkedUpload(const QUrl& url, const Headers& headers, QIODevice* body, bool expectContinue, QObject* parent = nullptr);

    void start();
    void abort();
    int status() const { return m_status; }
    QByteArray responseBody() const;

signals:
    void uploadProgress(qint64 sent);
    void responseHead();
    void finished(const QString& error); // empty error: an answer arrived

private:
    void sendMore();
    void onReadyRead();
    void finish(const QString& error);

    QUrl m_url;
    Headers m_headers;
    QIODevice* m_body;
    bool m_expectContinue;
    QTcpSocket* m_socket;
    QTimer m_continueTimer;
    QByteArray m_response;
    qsizetype m_headEnd = -1;
    qint64 m_sent = 0;
    int m_status = 0;
    bool m_sending = false;
    bool m_bodyDone = false;
    bool m_finished = false;
};

} // namespace upin::app
