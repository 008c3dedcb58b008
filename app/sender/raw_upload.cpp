#include "sender/raw_upload.h"

#include "common/socket_drain.h"
#include "common/unsent_bytes.h"
#include "sender/run_types.h"

#include <QSslCipher>
#include <QSslSocket>

#include "upin/core/http.h"

#include <QIODevice>
#include <QTcpSocket>

#include <limits>

#include <algorithm>

namespace upin::app {

namespace {
constexpr qint64 kChunk = qint64{256} * 1024;
constexpr qint64 kMaxQueued = 1 << 20; // bytes waiting in the socket before reading more of the body
constexpr int kContinueWaitMs = 1000;  // like curl: send anyway if no 100 Continue arrives
// A server may answer with any amount: the body's first MiB is kept (runs show 64 KiB of it), the rest only
// read, so memory stays bounded whatever the server sends.
constexpr qsizetype kKeptAnswerBytes = (qsizetype{1} << 20) + qsizetype{64} * 1024;

HttpAnswer::Options answerOptions()
{
    HttpAnswer::Options options;
    options.strict = false; // a client takes what servers send, LF alone included
    options.keepBytes = kKeptAnswerBytes;
    return options;
}
} // namespace

// The request goes out once the connection is up: its head, then the body (after a 100 Continue, or a short wait
// for one, when it asks).
void RawUpload::startRequest()
{
    if (m_tls)
        m_tlsProtocol = static_cast<QSslSocket*>(m_socket)->sessionCipher().protocolString();
    if (!m_cuts.isEmpty()) // each piece leaves when written, not when Nagle's algorithm has gathered more
        m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    QByteArray target = m_url.path(QUrl::FullyEncoded).toUtf8();
    if (target.isEmpty())
        target = "/";
    if (m_url.hasQuery())
        target += '?' + m_url.query(QUrl::FullyEncoded).toUtf8();
    // An IPv6 address in brackets, as in the URL: Host: [::1]:8443.
    const QString host = m_url.host().contains(QLatin1Char(':')) ? '[' + m_url.host() + ']' : m_url.host();
    QByteArray head = m_method + ' ' + target + " HTTP/1.1\r\nHost: " + host.toUtf8() + ':' +
                      QByteArray::number(m_url.port(defaultPort())) + "\r\nConnection: close\r\n" +
                      (m_bodySize < 0 ? QByteArray("Transfer-Encoding: chunked\r\n")
                                      : "Content-Length: " + QByteArray::number(m_bodySize) + "\r\n");
    if (m_expectContinue)
        head += "Expect: 100-continue\r\n";
    for (const auto& [name, value] : m_headers)
        head += name + ": " + value + "\r\n";
    queue(head + "\r\n");
    if (m_expectContinue) {
        m_continueTimer.start(kContinueWaitMs);
    } else {
        m_sending = true;
        sendMore();
    }
}

RawUpload::RawUpload(const QUrl& url, const Headers& headers, QIODevice* body, qint64 bodySize, bool expectContinue,
                     const QSslConfiguration& tls, QObject* parent)
    : QObject(parent), m_url(url), m_headers(headers), m_body(body), m_bodySize(bodySize),
      m_expectContinue(expectContinue), m_tls(url.scheme() == QLatin1String("https")),
      m_socket(m_tls ? new QSslSocket(this) : new QTcpSocket(this)), m_answer(answerOptions()),
      m_lending(dynamic_cast<LendingBody*>(body))
{
    if (m_tls)
        static_cast<QSslSocket*>(m_socket)->setSslConfiguration(tls);
    m_continueTimer.setSingleShot(true);
    m_stallTimer.setSingleShot(true);
    connect(&m_stallTimer, &QTimer::timeout, this, [this] {
        // Said first: the abort's own disconnected() would say "connection closed" instead.
        finish(QStringLiteral("no progress for %1 s: the server neither took more of the body nor answered")
                   .arg(m_stallTimeoutMs / 1000.0));
        m_socket->abort();
    });
    connect(&m_continueTimer, &QTimer::timeout, this, [this] {
        m_sending = true;
        sendMore();
    });
    // The request goes out once the connection is up: over TLS, once the handshake is done.
    if (m_tls) {
        connect(static_cast<QSslSocket*>(m_socket), &QSslSocket::encrypted, this, &RawUpload::startRequest);
        // sslErrors with a certificate the configuration does not trust: the handshake fails, and errorOccurred
        // below reports why (e.g. "The issuer certificate of a locally looked up certificate could not be found").
    } else {
        connect(m_socket, &QTcpSocket::connected, this, &RawUpload::startRequest);
    }
    connect(m_socket, &QTcpSocket::bytesWritten, this, [this] { m_stallTimer.start(m_stallTimeoutMs); });
    connect(m_socket, &QTcpSocket::bytesWritten, this, &RawUpload::sendMore);
    if (m_tls) { // the encrypted bytes drain after bytesWritten: sending resumes as they do
        connect(static_cast<QSslSocket*>(m_socket), &QSslSocket::encryptedBytesWritten, this,
                [this] { m_stallTimer.start(m_stallTimeoutMs); });
        connect(static_cast<QSslSocket*>(m_socket), &QSslSocket::encryptedBytesWritten, this, &RawUpload::sendMore);
    }
    connect(m_socket, &QTcpSocket::readyRead, this, &RawUpload::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, [this] {
        onReadyRead();
        if (!m_answer.headRelayed())
            finish(QStringLiteral("connection closed before an answer"));
        endAtClose();
    });
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError error) {
        onReadyRead(); // takes what the kernel still holds, before Qt closes the socket
        // A server that answers early often closes with the body's rest unread, and the kernel then resets the
        // connection: the answer that came first is what counts, as curl reports it.
        if (m_answer.headRelayed())
            endAtClose();
        else if (error == QAbstractSocket::SslHandshakeFailedError)
            finish(withTrustHint(m_socket->errorString()));
        else if (error != QAbstractSocket::RemoteHostClosedError)
            finish(m_socket->errorString());
    });
}

quint16 RawUpload::defaultPort() const
{
    return m_tls ? 443 : 80;
}

void RawUpload::start()
{
    m_stallTimer.start(m_stallTimeoutMs); // connecting and the TLS handshake count too
    if (m_tls) {                          // Qt decrypts into its own buffer: the answer is read from there
        static_cast<QSslSocket*>(m_socket)->connectToHostEncrypted(m_url.host(), quint16(m_url.port(443)));
        return;
    }
    // The answer is read from the kernel here (takeUnreadAnswer), not by Qt into a buffer of its own: when a
    // write fails on a connection the server reset, Qt drops that buffer, and with it an early answer.
    m_socket->setReadBufferSize(1);
    m_socket->connectToHost(m_url.host(), quint16(m_url.port(80)));
}

void RawUpload::abort()
{
    m_socket->abort();
    finish(QStringLiteral("cancelled"));
}

void RawUpload::sendMore()
{
    if (!m_sending || m_bodyDone || m_finished || m_pausedAtCut)
        return;
    QByteArray chunk;
    releaseWritten();
    // m_finished is checked each round: a progress handler may cancel (abort) from inside this loop.
    while (!m_finished && m_socket->state() == QAbstractSocket::ConnectedState && unsentBytes(*m_socket) < kMaxQueued) {
        // As curl does: look for an answer before each write, so an early one stops the body before the server's
        // reset can end the connection.
        onReadyRead();
        if (m_bodyDone || m_finished)
            return;
        const qint64 upTo = m_cuts.isEmpty() ? kChunk : std::min(kChunk, m_cuts.first() - m_sent);
        LendingBody::Piece piece = takeBody(upTo, chunk);
        const qint64 got = piece.size;
        if (got < 0) { // a file failed or shrank: do not send a short body as if complete
            m_socket->abort();
            finish(m_body->errorString());
            return;
        }
        const bool chunked = m_bodySize < 0;
        if (got == 0) {
            if (chunked)
                queue("0\r\n\r\n");
            m_bodyDone = true;
            return;
        }
        if (chunked)
            queue(QByteArray::number(got, 16) + "\r\n");
        // A lent piece goes in by reference (Qt keeps a large QByteArray shallow), held until the socket is past it.
        if (piece.holder) {
            queue(QByteArray::fromRawData(piece.data, got));
            if (m_lent.empty() || m_lent.back().holder != piece.holder)
                ++m_lentBlocks; // a block's pieces come one after another
            m_lent.push_back({std::move(piece.holder), m_queued});
        } else {
            m_queued += got;
            m_socket->write(piece.data, got); // copied: the buffer is read into again
        }
        if (chunked)
            queue("\r\n");
        m_sent += got;
        emit uploadProgress(m_sent);
        if (!m_cuts.isEmpty() && m_sent == m_cuts.first()) {
            m_cuts.removeFirst();
            pauseAtCut();
            return;
        }
    }
}

RawUpload::~RawUpload()
{
    // The socket may still hold lent pieces by reference: it goes first, silently, before m_lent lets them go.
    m_socket->blockSignals(true);
    delete m_socket;
}

// The body's next bytes: lent where they lie, or read into buffer. Size 0 at the end, -1 when it failed.
LendingBody::Piece RawUpload::takeBody(qint64 upTo, QByteArray& buffer)
{
    if (m_lending && m_lentBlocks < m_lending->blocksToLend())
        return m_lending->lend(upTo);
    if (buffer.isEmpty())
        buffer.resize(kChunk);
    const qint64 got = m_body->read(buffer.data(), upTo);
    return {nullptr, buffer.constData(), got < 0 ? (m_body->atEnd() ? 0 : -1) : got};
}

void RawUpload::queue(const QByteArray& bytes)
{
    m_queued += bytes.size();
    m_socket->write(bytes);
}

// Lent pieces the socket has handed on. Over TLS the encrypted bytes waiting count too, and they outnumber the
// plain ones a little: pieces are let go a little late, never early.
void RawUpload::releaseWritten()
{
    const qint64 handedOn = m_queued - unsentBytes(*m_socket);
    while (!m_lent.empty() && m_lent.front().end <= handedOn) {
        const std::shared_ptr<const void> holder = std::move(m_lent.front().holder);
        m_lent.pop_front();
        if (m_lent.empty() || m_lent.front().holder != holder)
            --m_lentBlocks;
    }
}

// The write that ends at a cut leaves now, alone; the rest follows 2 ms after the kernel took it (loopback
// delivers at once, and a server's read then returns the piece by itself).
void RawUpload::pauseAtCut()
{
    m_pausedAtCut = true;
    m_socket->flush();
    QTimer::singleShot(2, this, [this] {
        m_pausedAtCut = false;
        sendMore();
    });
}

// Before each write and when Qt reports an error: what the server sent, taken before Qt could drop it
// (common/socket_drain.h says why).
void RawUpload::takeUnreadAnswer()
{
    drainSocket(*m_socket, std::numeric_limits<qint64>::max(),
                [this](const char* data, qint64 size) { keepAnswer(data, size); });
}

void RawUpload::keepAnswer(const char* data, qint64 size)
{
    if (size <= 0 || m_finished)
        return;
    m_stallTimer.start(m_stallTimeoutMs);
    const auto progress = m_answer.take(data, size);
    if (progress.continued && !m_sending) { // the server asks for the body: it goes now
        m_continueTimer.stop();
        m_sending = true;
        sendMore();
    }
    if (progress.finalHead) {
        // Early: before the whole body was handed over (401, 404, 413...); the server will not read the rest. A
        // Content-Length body counts as sent once its last byte is written, even before the read that ends it.
        const bool allSent = m_bodyDone || (m_bodySize >= 0 && m_sent >= m_bodySize);
        if (!allSent) {
            m_answeredEarly = true;
            m_continueTimer.stop();
        }
        m_bodyDone = true;
        emit responseHeadArrived();
    }
    // Once the answer is whole the exchange is over: the server of an early answer may keep waiting for the body
    // we stopped sending, and any server may keep the connection open despite our close.
    if (progress.complete || progress.error) {
        finish(progress.error ? QStringLiteral("bad answer from the server: %1").arg(*progress.error) : QString());
        m_socket->abort();
    }
}

// The connection ended after the answer's head: a close-delimited answer is whole now; any other that is not
// whole yet was cut off, and the run says so.
void RawUpload::endAtClose()
{
    const auto progress = m_answer.closed();
    finish(progress.error ? QStringLiteral("the answer was cut off: %1").arg(*progress.error) : QString());
}

void RawUpload::onReadyRead()
{
    takeUnreadAnswer();
}

void RawUpload::finish(const QString& error)
{
    if (m_finished)
        return;
    m_finished = true;
    m_stallTimer.stop();
    emit finished(error);
}

} // namespace upin::app
