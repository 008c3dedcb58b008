#include "sender/sender.h"

#include "common/option_rules.h"
#include "sender/h2_upload.h"
#include "sender/multipart_body.h"
#include "sender/raw_upload.h"

#include "common/qt_text.h"
#include "common/same_core.h"
#include "common/upin_headers.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QSslCipher>
#include <QSslSocket>

#include <algorithm>

namespace upin::app {

namespace {
constexpr qint64 kSampleIntervalMs = 20;

double seconds(const QElapsedTimer& clock)
{
    return double(clock.nsecsElapsed()) / 1e9;
}

// Qt's "Unknown error" is what QNAM says when the server resets the connection while the body goes out: a server
// that refuses an upload early (a 413 or a 401 before the whole body) and closes at once, its answer unread by Qt.
// Seen with a Python server that answers after the head and closes; the raw engine reads that answer when it
// reads it before a write fails on the reset (in about half the runs here it did not).
QString unknownQnamError(const QString& qtSays)
{
    return QStringLiteral(
               "the connection failed while the body was being sent, and no answer reached Qt (Qt says "
               "\"%1\"): a server that answers early (a 413 or 401 before the whole body) and resets the "
               "connection loses its answer this way; the raw engine (--engine raw) reads it when it comes before "
               "the reset")
        .arg(qtSays);
}

// Where the writes end for UploadPlan::splitDelimiters: inside the delimiter after part i ("\r\n--" and the
// boundary), i + 1 bytes in, wrapping, so that across the parts every offset inside a delimiter is a cut. The
// closing delimiter's cut is there too, which is the last part's.
QList<qint64> delimiterCuts(const MultipartBody& body, const QString& boundary)
{
    const qint64 length = 4 + boundary.size();
    QList<qint64> cuts;
    const std::vector<quint64> starts = body.delimiterOffsets();
    for (size_t i = 0; i < starts.size(); ++i)
        cuts.append(qint64(starts[i]) + 1 + qint64(i) % (length - 1));
    std::sort(cuts.begin(), cuts.end());
    return cuts;
}

// Compares what was sent with the listener's JSON answer, part by part in order, where the answer carries digests
// of the same hash (its parts' "sha256" or "xxh3").
QList<PartCheck> checkParts(const std::vector<MultipartBody::PartInfo>& sent, core::HashKind hash,
                            const QByteArray& response)
{
    QJsonArray received = QJsonDocument::fromJson(response).object()["parts"].toArray();
    const QString key = toQString(core::kHashNames.name(hash));
    QList<PartCheck> checks;
    for (size_t i = 0; i < sent.size(); ++i) {
        PartCheck c{sent[i].name, sent[i].size, sent[i].digest, {}, PartCheck::State::NotChecked};
        if (qsizetype(i) < received.size() && hash != core::HashKind::None) {
            QJsonObject got = received[qsizetype(i)].toObject();
            c.receivedDigest = got[key].toString();
            if (!c.sentDigest.isEmpty() && !c.receivedDigest.isEmpty())
                c.state = c.sentDigest == c.receivedDigest && got["name"].toString() == c.name
                              ? PartCheck::State::Match
                              : PartCheck::State::Mismatch;
        }
        checks.append(c);
    }
    return checks;
}
} // namespace

QString randomBoundary()
{
    static constexpr char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    QString b = QStringLiteral("----UploadInspector");
    for (int i = 0; i < 24; ++i)
        b += QLatin1Char(kChars[QRandomGenerator::global()->bounded(62)]);
    return b;
}

bool RunResult::integrityOk() const
{
    if (parts.isEmpty())
        return false;
    for (const auto& p : parts)
        if (p.state != PartCheck::State::Match)
            return false;
    return true;
}

Sender::Sender(QObject* parent) : QObject(parent), m_heldProgress(this)
{
    m_heldProgress.setSingleShot(true);
    connect(&m_heldProgress, &QTimer::timeout, this, &Sender::reportProgress);
    qRegisterMetaType<upin::app::RunResult>();
    qRegisterMetaType<QList<upin::app::RunResult>>();
    qRegisterMetaType<upin::app::UploadPlan>();
}

Sender::~Sender() = default;

void Sender::start(const UploadPlan& plan)
{
    m_plan = plan;
    m_results.clear();
    // Over https: the system's certificates and the plan's --cacert, or nothing checked (--insecure).
    m_tls = QSslConfiguration::defaultConfiguration();
    m_tlsError.clear();
    if (plan.insecure)
        m_tls.setPeerVerifyMode(QSslSocket::VerifyNone);
    if (!plan.caCertificates.isEmpty()) {
        if (const QString wrong = checkCaFile(plan.caCertificates); !wrong.isEmpty())
            m_tlsError = QStringLiteral("--cacert %1: %2").arg(plan.caCertificates, wrong);
        m_tls.addCaCertificates(QSslCertificate::fromPath(plan.caCertificates, QSsl::Pem));
    }
    m_next = 0;
    m_cancelled = false;
    startNext();
}

void Sender::cancel()
{
    m_cancelled = true;
    if (m_reply)
        m_reply->abort();
    if (m_raw)
        m_raw->abort();
    if (m_http2)
        m_http2->abort();
}

void Sender::startNext()
{
    const int targets = int(m_plan.targets.size());
    if (m_cancelled || targets == 0 || m_next >= targets * m_plan.runs) {
        emit finished(m_results);
        return;
    }
    m_current = RunResult{};
    m_current.targetIndex = m_next % targets; // interleaved: A B A B ...
    m_current.run = m_next / targets;
    m_current.target = m_plan.targets[m_current.targetIndex];
    m_current.method = m_plan.method;
    ++m_next;

    const QString boundary = m_plan.boundary.isEmpty() ? randomBoundary() : m_plan.boundary;
    auto* body = new MultipartBody(m_plan, boundary, this);
    if (!body->openBody()) {
        m_current.error = body->errorString();
        m_results.append(m_current);
        emit runFinished(m_current);
        body->deleteLater();
        QMetaObject::invokeMethod(this, &Sender::startNext, Qt::QueuedConnection);
        return;
    }
    m_current.bodyBytes = quint64(body->totalSize());
    m_current.hash = m_plan.hash;
    const bool https = m_current.target.scheme() == QLatin1String("https");
    m_current.insecure = https && m_plan.insecure;
    if (https && !m_tlsError.isEmpty()) {
        m_current.error = m_tlsError;
        m_results.append(m_current);
        emit runFinished(m_current);
        body->deleteLater();
        QMetaObject::invokeMethod(this, &Sender::startNext, Qt::QueuedConnection);
        return;
    }
    m_current.startedAtMs = QDateTime::currentMSecsSinceEpoch();
    m_clock.start();
    m_runCpuStartNs = core::threadCpuNanoseconds();
    m_processCpuStartNs = core::processCpuNanoseconds();
    m_lastProgressMs = -1'000'000;
    m_latestSample = {};
    const QString contentType = QStringLiteral("multipart/form-data; boundary=") + boundary;
    if (m_plan.http2 && m_plan.usesRawClient())
        startHttp2(body, contentType);
    else if (m_plan.usesRawClient())
        startRaw(body, boundary, contentType);
    else
        startQnam(body, contentType);
}

QList<QPair<QByteArray, QByteArray>> Sender::requestHeaders(const QString& contentType) const
{
    RawUpload::Headers headers{{"Content-Type", contentType.toUtf8()}};
    if (m_plan.hash != core::HashKind::None)
        headers.append({kHashHeader, QByteArray(core::kHashNames.name(m_plan.hash).data())});
    for (const auto& h : m_plan.headers)
        if (h.enabled)
            headers.append({h.name.toUtf8(), h.value.toUtf8()});
    return headers;
}

// Over HTTP/2, the raw engine's way (startRaw's, on libnghttp2): the run also keeps the frames as sent.
void Sender::startHttp2(MultipartBody* body, const QString& contentType)
{
    auto* upload = new Http2Upload(m_current.target, requestHeaders(contentType), body, body->totalSize(), m_tls, this);
    upload->setMethod(m_plan.method.toLatin1());
    body->setParent(upload);
    upload->setStallTimeout(m_plan.stallTimeoutMs);
    m_http2 = upload;
    connect(upload, &Http2Upload::uploadProgress, this, [this](qint64 sent) { onUploadProgress(sent); });
    connect(upload, &Http2Upload::responseHeadArrived, this, &Sender::onResponseHead);
    connect(upload, &Http2Upload::finished, this, [this, upload, body](const QString& error) {
        m_current.statusLine = upload->statusLine();
        m_current.responseHeaders = upload->responseHeaders();
        m_current.answeredEarly = upload->answeredEarly();
        m_current.tls = upload->tlsProtocol();
        m_current.http2 = upload->frames();
        if (upload->status() > 0)
            m_current.protocol = QStringLiteral("HTTP/2");
        completeRun(upload->status(), upload->responseBody(), error, *body);
        upload->deleteLater();
        m_http2 = nullptr;
    });
    upload->start();
}

void Sender::startRaw(MultipartBody* body, const QString& boundary, const QString& contentType)
{
    auto* upload = new RawUpload(m_current.target, requestHeaders(contentType), body,
                                 m_plan.chunked ? -1 : body->totalSize(), m_plan.expectContinue, m_tls, this);
    upload->setMethod(m_plan.method.toLatin1());
    if (m_plan.splitDelimiters)
        upload->setCuts(delimiterCuts(*body, boundary));
    body->setParent(upload);
    upload->setStallTimeout(m_plan.stallTimeoutMs);
    m_raw = upload;
    connect(upload, &RawUpload::uploadProgress, this, [this](qint64 sent) { onUploadProgress(sent); });
    connect(upload, &RawUpload::responseHeadArrived, this, &Sender::onResponseHead);
    connect(upload, &RawUpload::finished, this, [this, upload, body](const QString& error) {
        m_current.statusLine = upload->statusLine();
        m_current.responseHeaders = upload->responseHeaders();
        m_current.answeredEarly = upload->answeredEarly();
        m_current.tls = upload->tlsProtocol();
        if (upload->status() > 0)
            m_current.protocol = QStringLiteral("HTTP/1.1");
        completeRun(upload->status(), upload->responseBody(), error, *body);
        upload->deleteLater();
        m_raw = nullptr;
    });
    upload->start();
}

void Sender::startQnam(MultipartBody* body, const QString& contentType)
{
    const bool https = m_current.target.scheme() == QLatin1String("https");
    // A manager per run, made while this thread keeps to one core, so that its HTTP thread starts on that core too
    // and the two take turns there (same_core.h says why); both are let go when the run ends.
    m_sameCore = std::make_unique<SameCore>();
    m_nam = new QNetworkAccessManager(this);
    QNetworkRequest request(m_current.target);
    request.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    request.setHeader(QNetworkRequest::ContentLengthHeader, body->totalSize());
    request.setAttribute(QNetworkRequest::DoNotBufferUploadDataAttribute, true);
    request.setTransferTimeout(m_plan.stallTimeoutMs); // Qt's own: no bytes either way for this long
    // A redirect is reported, as the raw client and curl report it: Qt would follow a 302 with a GET, and fail on a
    // 307 or 308, which would have it send the body again from a device that cannot rewind.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    // HTTP/2 where a server offers it over TLS (ALPN); over plain http QNAM would try an h2c upgrade, so it is
    // asked for only with --http2, and then by prior knowledge (Qt's Http2DirectAttribute).
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, https || m_plan.http2);
    if (!https && m_plan.http2)
        request.setAttribute(QNetworkRequest::Http2DirectAttribute, true);
    if (https)
        request.setSslConfiguration(m_tls);
    if (m_plan.expectContinue)
        request.setRawHeader("Expect", "100-continue");
    if (m_plan.hash != core::HashKind::None)
        request.setRawHeader(kHashHeader, QByteArray(core::kHashNames.name(m_plan.hash).data()));
    for (const auto& h : m_plan.headers)
        if (h.enabled)
            request.setRawHeader(h.name.toUtf8(), h.value.toUtf8());
    m_reply = m_nam->sendCustomRequest(request, m_plan.method.toLatin1(), body);
    body->setParent(m_reply);
    // Qt's total is no help for a sequential body (ours, made as it is read): Qt knows no size for it, reports each
    // 16 KiB as sent of as many, and 0 of 0 once done. The body's size is the plan's.
    connect(m_reply, &QNetworkReply::uploadProgress, this, [this](qint64 sent, qint64) { onUploadProgress(sent); });
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &Sender::onResponseHead);
    connect(m_reply, &QNetworkReply::readyRead, this, [this] { appendResponse(m_reply->readAll()); });
    connect(m_reply, &QNetworkReply::finished, this, [this, body] { finishQnamRun(*body); });
}

void Sender::finishQnamRun(const MultipartBody& body)
{
    if (m_reply->isOpen()) // an aborted reply is closed: nothing more to read
        appendResponse(m_reply->readAll());
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    QString error;
    if (m_reply->error() == QNetworkReply::OperationCanceledError && !m_cancelled) // Qt's transfer timeout
        error = QStringLiteral("no progress for %1 s: the server neither took more of the body nor answered")
                    .arg(m_plan.stallTimeoutMs / 1000.0);
    else if (m_reply->error() == QNetworkReply::SslHandshakeFailedError)
        error = withTrustHint(m_reply->errorString());
    else if (m_reply->error() == QNetworkReply::UnknownNetworkError && status == 0)
        error = unknownQnamError(m_reply->errorString());
    else if (m_reply->error() != QNetworkReply::NoError && status == 0)
        error = m_reply->errorString();
    if (status > 0) {
        const bool http2 = m_reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool();
        m_current.protocol = http2 ? QStringLiteral("HTTP/2") : QStringLiteral("HTTP/1.1");
        if (m_current.target.scheme() == QLatin1String("https"))
            m_current.tls = m_reply->sslConfiguration().sessionCipher().protocolString();
        // Qt has parsed the answer: its status, reason and fields are taken as they are.
        m_current.statusLine = (http2 ? "HTTP/2 " : "HTTP/1.1 ") + QByteArray::number(status) + ' ' +
                               m_reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray();
        m_current.responseHeaders = m_reply->rawHeaderPairs();
        m_current.answeredEarly = m_current.lastByteSeconds < 0;
    }
    m_reply->deleteLater();
    m_reply = nullptr;
    m_nam->deleteLater(); // after the reply; its HTTP thread ends
    m_nam = nullptr;
    m_sameCore.reset();
    const QByteArray response = m_response; // completeRun clears m_response
    completeRun(status, response, error, body);
}

void Sender::onResponseHead()
{
    if (m_current.responseHeadSeconds < 0)
        m_current.responseHeadSeconds = seconds(m_clock);
}

void Sender::appendResponse(const QByteArray& chunk)
{
    m_response += chunk.left(kKeptResponseBytes - m_response.size());
}

void Sender::onUploadProgress(qint64 sent)
{
    if (sent <= 0 || quint64(sent) < m_current.bytesSent)
        return; // nothing new: Qt's closing 0 of 0
    const qint64 now = m_clock.elapsed();
    const auto total = qint64(m_current.bodyBytes);
    m_current.bytesSent = quint64(sent);
    m_latestSample = {now, quint64(sent)};
    if (m_current.upload.isEmpty() || now - m_current.upload.last().msSinceStart >= kSampleIntervalMs || sent == total)
        m_current.upload.append(m_latestSample);
    if (sent == total && m_current.lastByteSeconds < 0)
        m_current.lastByteSeconds = seconds(m_clock);
    // At most one report per kProgressIntervalMs, and the last: the socket reports every write, faster than a
    // window (whose chart times them as they arrive) or a terminal needs, and a queue of them would make the window
    // lag behind. One held back is sent when the interval is up, so a transfer that pauses shows where it paused.
    const qint64 wait = kProgressIntervalMs - (now - m_lastProgressMs);
    if (wait > 0 && sent != total) {
        if (!m_heldProgress.isActive())
            m_heldProgress.start(int(wait));
        return;
    }
    reportProgress();
}

void Sender::reportProgress()
{
    m_heldProgress.stop();
    m_lastProgressMs = m_clock.elapsed();
    emit progress(m_current.targetIndex, m_current.run, m_current.bytesSent, m_current.bodyBytes);
}

void Sender::completeRun(int status, const QByteArray& response, const QString& error, const MultipartBody& body)
{
    m_current.totalSeconds = seconds(m_clock);
    m_heldProgress.stop();
    if (!m_current.upload.isEmpty() && m_current.upload.last().bytes < m_latestSample.bytes)
        m_current.upload.append(m_latestSample); // where it stopped, if after the last sample
    m_current.httpStatus = status;
    m_current.response = response.left(kKeptResponseBytes);
    m_current.error = m_cancelled ? QStringLiteral("cancelled") : error;
    m_current.cancelled = m_cancelled;
    m_current.parts = checkParts(body.parts(), m_current.hash, m_current.response);
    m_current.cpu = {body.readCpuMs(), body.hashCpuMs(), double(core::threadCpuNanoseconds() - m_runCpuStartNs) / 1e6,
                     double(core::processCpuNanoseconds() - m_processCpuStartNs) / 1e6};
    m_response.clear();
    m_results.append(m_current);
    emit runFinished(m_current);
    QMetaObject::invokeMethod(this, &Sender::startNext, Qt::QueuedConnection);
}

} // namespace upin::app
