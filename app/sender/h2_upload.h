#pragma once
// An HTTP/2 upload client on libnghttp2 (what curl and Node build on), for `send --http2`: over https it asks for h2
// by ALPN (and fails, saying so, when the server agrees to none), over http it speaks HTTP/2 from the first byte
// (prior knowledge, as curl --http2-prior-knowledge). One stream per connection. The body goes out as DATA frames
// as far as the server's windows allow, and the frame log (capture/h2_frame_log.h) records it from the sender's
// side: how long the upload waited for window, exactly, as the listener's capture records it from the other.
// Its interface is RawUpload's (raw_upload.h), so the sender runs either alike. Lives in the sender's thread.

#include "capture/h2_record.h"
#include "common/http_answer.h"

#include <QObject>
#include <QSslConfiguration>
#include <QTimer>
#include <QUrl>

#include <memory>
#include <optional>

class QIODevice;
class QTcpSocket;
struct nghttp2_session;

namespace upin::app {

class Http2ConnectionLog;
class Http2StreamLog;

class Http2Upload final : public QObject {
    Q_OBJECT
public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;
    Http2Upload(const QUrl& url, const Headers& headers, QIODevice* body, qint64 bodySize, const QSslConfiguration& tls,
                QObject* parent = nullptr);
    ~Http2Upload() override;

    void start();
    void abort();
    void setStallTimeout(int ms) { m_stallTimeoutMs = ms; }
    void setMethod(const QByteArray& method) { m_method = method; }
    int status() const { return m_status; }
    QByteArray statusLine() const;
    const HttpAnswer::Fields& responseHeaders() const { return m_fields; }
    const QByteArray& responseBody() const { return m_answerBody; } // its first 1 MiB
    bool answeredEarly() const { return m_answeredEarly; }
    QString tlsProtocol() const { return m_tlsProtocol; }
    std::optional<Http2Record> frames() const; // once the stream began

signals:
    void uploadProgress(qint64 sent);
    void responseHeadArrived();
    void finished(const QString& error); // empty error: an answer arrived

private:
    struct Callbacks; // nghttp2's, in h2_upload.cpp
    void startSession();
    void submitRequest();
    void flush();
    void onReadyRead();
    void finish(const QString& error);

    QUrl m_url;
    Headers m_headers;
    QIODevice* m_body;
    qint64 m_bodySize;
    QByteArray m_method = "POST";
    bool m_tls;
    QTcpSocket* m_socket;
    QString m_tlsProtocol;
    nghttp2_session* m_session = nullptr;
    std::shared_ptr<Http2ConnectionLog> m_log;
    std::shared_ptr<Http2StreamLog> m_streamLog;
    int32_t m_stream = -1;
    QTimer m_stallTimer;
    int m_stallTimeoutMs = 60'000;
    qint64 m_read = 0; // of the body, into DATA frames
    qint64 m_sent = 0; // in DATA frames sent
    int m_status = 0;
    HttpAnswer::Fields m_fields;
    QByteArray m_answerBody;
    bool m_answeredEarly = false;
    bool m_finished = false;
};

} // namespace upin::app
