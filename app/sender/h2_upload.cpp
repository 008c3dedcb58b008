#include "sender/h2_upload.h"

#include "capture/h2_frame_log.h"
#include "sender/run_types.h"

#include <QIODevice>
#include <QSslCipher>
#include <QSslSocket>

namespace upin::app {

namespace {
constexpr qsizetype kKeptAnswerBytes = qsizetype{1} << 20; // of the answer's body: the rest is read, not kept
// Frames are taken from nghttp2 (and with them the body, read as DATA is made) while the socket holds less than
// this unsent: the body is read as the connection takes it, not ahead of it.
constexpr qint64 kMaxUnsent = qint64{1} << 20;
constexpr uint32_t kAnswerWindow = 16 << 20; // the answer's: never the sender's limit

// Fields HTTP/2 forbids or says otherwise (RFC 9113 8.2.2): the plan's Host is :authority, the rest dropped.
bool connectionSpecific(const QByteArray& lowerName)
{
    return lowerName == "host" || lowerName == "connection" || lowerName == "keep-alive" ||
           lowerName == "proxy-connection" || lowerName == "transfer-encoding" || lowerName == "upgrade" ||
           lowerName == "content-length";
}
} // namespace

struct Http2Upload::Callbacks {
    static Http2Upload& self(void* userData) { return *static_cast<Http2Upload*>(userData); }

    static ssize_t readBody(nghttp2_session* /*session*/, int32_t /*streamId*/, uint8_t* buffer, size_t length,
                            uint32_t* flags, nghttp2_data_source* /*source*/, void* userData)
    {
        Http2Upload& s = self(userData);
        const qint64 n = s.m_body->read(reinterpret_cast<char*>(buffer), qint64(length));
        if (n < 0)
            return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE; // the stream is reset; the run says why
        s.m_read += n;
        if (s.m_read >= s.m_bodySize || (n == 0 && s.m_body->atEnd()))
            *flags |= NGHTTP2_DATA_FLAG_EOF;
        return n;
    }
    static int onFrameSent(nghttp2_session* /*session*/, const nghttp2_frame* frame, void* userData)
    {
        Http2Upload& s = self(userData);
        s.m_log->frame(*frame, true);
        if (frame->hd.type == NGHTTP2_DATA && frame->hd.stream_id == s.m_stream) {
            s.m_sent += qint64(frame->hd.length);
            s.m_stallTimer.start(s.m_stallTimeoutMs);
            emit s.uploadProgress(s.m_sent);
        }
        return 0;
    }
    static int onFrameReceived(nghttp2_session* /*session*/, const nghttp2_frame* frame, void* userData)
    {
        Http2Upload& s = self(userData);
        s.m_log->frame(*frame, false);
        s.m_stallTimer.start(s.m_stallTimeoutMs);
        if (frame->hd.type == NGHTTP2_HEADERS && frame->hd.stream_id == s.m_stream && s.m_status >= 200 &&
            frame->headers.cat == NGHTTP2_HCAT_RESPONSE) {
            s.m_answeredEarly = s.m_sent < s.m_bodySize;
            emit s.responseHeadArrived();
        }
        return 0;
    }
    static int onHeader(nghttp2_session* /*session*/, const nghttp2_frame* frame, const uint8_t* name,
                        size_t nameLength, const uint8_t* value, size_t valueLength, uint8_t /*flags*/, void* userData)
    {
        Http2Upload& s = self(userData);
        if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_RESPONSE)
            return 0; // a 1xx's fields and trailers are not the answer's
        const QByteArray n(reinterpret_cast<const char*>(name), qsizetype(nameLength));
        const QByteArray v(reinterpret_cast<const char*>(value), qsizetype(valueLength));
        if (n == ":status")
            s.m_status = v.toInt();
        else
            s.m_fields.append({n, v});
        return 0;
    }
    static int onDataChunk(nghttp2_session* /*session*/, uint8_t /*flags*/, int32_t streamId, const uint8_t* data,
                           size_t length, void* userData)
    {
        Http2Upload& s = self(userData);
        if (streamId == s.m_stream && s.m_answerBody.size() < kKeptAnswerBytes)
            s.m_answerBody.append(reinterpret_cast<const char*>(data),
                                  std::min(qsizetype(length), kKeptAnswerBytes - s.m_answerBody.size()));
        return 0;
    }
    static int onStreamClose(nghttp2_session* /*session*/, int32_t streamId, uint32_t errorCode, void* userData)
    {
        Http2Upload& s = self(userData);
        if (streamId != s.m_stream)
            return 0;
        // An answer that came is the run's outcome, whatever reset followed it (a server that answered early resets
        // the rest of the upload with NO_ERROR, RFC 9113 8.1).
        if (s.m_status >= 200)
            QMetaObject::invokeMethod(
                &s, [&s] { s.finish({}); }, Qt::QueuedConnection);
        else
            QMetaObject::invokeMethod(
                &s,
                [&s, errorCode] {
                    s.finish(QStringLiteral("the server reset the stream (%1) before an answer")
                                 .arg(QString::fromLatin1(nghttp2_http2_strerror(errorCode))));
                },
                Qt::QueuedConnection);
        return 0;
    }
};

Http2Upload::Http2Upload(const QUrl& url, const Headers& headers, QIODevice* body, qint64 bodySize,
                         const QSslConfiguration& tls, QObject* parent)
    : QObject(parent), m_url(url), m_headers(headers), m_body(body), m_bodySize(bodySize),
      m_tls(url.scheme() == QLatin1String("https")), m_socket(m_tls ? new QSslSocket(this) : new QTcpSocket(this))
{
    if (m_tls) {
        QSslConfiguration offered = tls;
        offered.setAllowedNextProtocols({QByteArrayLiteral("h2")});
        static_cast<QSslSocket*>(m_socket)->setSslConfiguration(offered);
        connect(static_cast<QSslSocket*>(m_socket), &QSslSocket::encrypted, this, &Http2Upload::startSession);
        connect(static_cast<QSslSocket*>(m_socket), &QSslSocket::encryptedBytesWritten, this, &Http2Upload::flush);
    } else {
        connect(m_socket, &QTcpSocket::connected, this, &Http2Upload::startSession);
    }
    m_stallTimer.setSingleShot(true);
    connect(&m_stallTimer, &QTimer::timeout, this, [this] {
        finish(QStringLiteral("no progress for %1 s: the server neither took more of the body nor answered")
                   .arg(m_stallTimeoutMs / 1000.0));
        m_socket->abort();
    });
    connect(m_socket, &QTcpSocket::bytesWritten, this, &Http2Upload::flush);
    connect(m_socket, &QTcpSocket::readyRead, this, &Http2Upload::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, [this] {
        onReadyRead();
        finish(m_status >= 200 ? QString() : QStringLiteral("connection closed before an answer"));
    });
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError error) {
        onReadyRead();
        if (error == QAbstractSocket::SslHandshakeFailedError)
            finish(withTrustHint(m_socket->errorString()));
        else if (error != QAbstractSocket::RemoteHostClosedError)
            finish(m_status >= 200 ? QString() : m_socket->errorString());
    });
}

Http2Upload::~Http2Upload()
{
    nghttp2_session_del(m_session);
}

void Http2Upload::start()
{
    m_stallTimer.start(m_stallTimeoutMs); // connecting and the TLS handshake count too
    if (m_tls)
        static_cast<QSslSocket*>(m_socket)->connectToHostEncrypted(m_url.host(), quint16(m_url.port(443)));
    else
        m_socket->connectToHost(m_url.host(), quint16(m_url.port(80)));
}

void Http2Upload::abort()
{
    m_socket->abort();
    finish(QStringLiteral("cancelled"));
}

QByteArray Http2Upload::statusLine() const
{
    return m_status > 0 ? "HTTP/2 " + QByteArray::number(m_status) : QByteArray();
}

std::optional<Http2Record> Http2Upload::frames() const
{
    return m_streamLog ? std::optional(m_streamLog->record()) : std::nullopt;
}

// The connection is up (over TLS, the handshake done): the session, our SETTINGS, the request and a PING.
void Http2Upload::startSession()
{
    // Frames go out as written: a window's last DATA frame held by Nagle's algorithm until the server's delayed
    // ACK (40 ms) made a 64 KiB window upload crawl at 1.5 MB/s on 127.0.0.1.
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    if (m_tls) {
        auto* tls = static_cast<QSslSocket*>(m_socket);
        m_tlsProtocol = tls->sessionCipher().protocolString();
        if (tls->sslConfiguration().nextNegotiatedProtocol() != "h2") {
            finish(QStringLiteral("the server did not agree HTTP/2 by ALPN (--http1.1 sends over HTTP/1.1)"));
            m_socket->abort();
            return;
        }
    }
    nghttp2_session_callbacks* callbacks = nullptr;
    nghttp2_session_callbacks_new(&callbacks);
    nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, &Callbacks::onFrameSent);
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &Callbacks::onFrameReceived);
    nghttp2_session_callbacks_set_on_header_callback(callbacks, &Callbacks::onHeader);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &Callbacks::onDataChunk);
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &Callbacks::onStreamClose);
    nghttp2_session_client_new(&m_session, callbacks, this);
    nghttp2_session_callbacks_del(callbacks);
    m_log = std::make_shared<Http2ConnectionLog>(Http2ConnectionLog::Side::Sender,
                                                 m_tls ? QStringLiteral("h2") : QStringLiteral("h2c"), QString());
    const nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
                                               {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, kAnswerWindow}};
    nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, settings, std::size(settings));
    submitRequest();
    nghttp2_submit_ping(m_session, NGHTTP2_FLAG_NONE, nullptr);
    m_log->pingSent();
    flush();
}

void Http2Upload::submitRequest()
{
    QByteArray path = m_url.path(QUrl::FullyEncoded).toUtf8();
    if (path.isEmpty())
        path = "/";
    if (m_url.hasQuery())
        path += '?' + m_url.query(QUrl::FullyEncoded).toUtf8();
    const QString host = m_url.host().contains(QLatin1Char(':')) ? '[' + m_url.host() + ']' : m_url.host();
    const QByteArray authority = host.toUtf8() + ':' + QByteArray::number(m_url.port(m_tls ? 443 : 80));
    const QByteArray scheme = m_tls ? "https" : "http", length = QByteArray::number(m_bodySize);
    Headers lowered; // kept alive while nghttp2 copies them
    for (const auto& [name, value] : m_headers)
        if (!connectionSpecific(name.toLower()))
            lowered.append({name.toLower(), value});
    static const QByteArray method(":method"), schemeName(":scheme"), authorityName(":authority"), pathName(":path"),
        lengthName("content-length");
    std::vector<nghttp2_nv> nva{http2Field(method, m_method), http2Field(schemeName, scheme),
                                http2Field(authorityName, authority), http2Field(pathName, path),
                                http2Field(lengthName, length)};
    for (const auto& [name, value] : lowered)
        nva.push_back(http2Field(name, value));
    nghttp2_data_provider provider{};
    provider.read_callback = &Callbacks::readBody;
    m_stream = nghttp2_submit_request(m_session, nullptr, nva.data(), nva.size(), &provider, nullptr);
    m_streamLog = m_log->open(m_stream);
}

void Http2Upload::flush()
{
    if (!m_session || m_finished)
        return;
    const uint8_t* frames = nullptr;
    for (ssize_t n; m_socket->bytesToWrite() < kMaxUnsent && (n = nghttp2_session_mem_send(m_session, &frames)) > 0;)
        m_socket->write(reinterpret_cast<const char*>(frames), n);
}

void Http2Upload::onReadyRead()
{
    const QByteArray data = m_socket->readAll();
    if (!m_session || data.isEmpty())
        return;
    const ssize_t used =
        nghttp2_session_mem_recv(m_session, reinterpret_cast<const uint8_t*>(data.constData()), size_t(data.size()));
    if (used < 0) {
        finish(QStringLiteral("the server broke HTTP/2: %1").arg(QString::fromLatin1(nghttp2_strerror(int(used)))));
        m_socket->abort();
        return;
    }
    flush();
}

void Http2Upload::finish(const QString& error)
{
    if (std::exchange(m_finished, true))
        return;
    m_stallTimer.stop();
    if (m_session && m_socket->state() == QAbstractSocket::ConnectedState) { // a GOAWAY, then the close
        nghttp2_session_terminate_session(m_session, NGHTTP2_NO_ERROR);
        const uint8_t* frames = nullptr;
        for (ssize_t n; (n = nghttp2_session_mem_send(m_session, &frames)) > 0;)
            m_socket->write(reinterpret_cast<const char*>(frames), n);
        m_socket->disconnectFromHost();
    }
    emit finished(error);
}

} // namespace upin::app
