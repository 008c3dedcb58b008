#include "listener/endpoints.h"
#include "capture/outcome.h"
#include "common/qt_text.h"
#include "server/request_admission.h"

#include "capture/report_json.h"
#include "listener/form_page.h"

#include <QJsonDocument>

namespace upin::app {

namespace {

std::optional<Endpoint> endpointFor(const QString& path)
{
    return kEndpointPaths.find(path.toStdString());
}

} // namespace

Endpoints::Endpoints(Exchange& exchange) : ExchangeHandler(exchange) {}

Endpoints::~Endpoints()
{
    if (m_session) // the listener is stopping mid-upload: keep what arrived, marked incomplete
        m_session->finish(exchange().decoder(), false,
                          core::Error{core::Errc::UnexpectedEof, exchange().decoder().wireBytes()},
                          QStringLiteral("the listener stopped while the upload was arriving"));
    m_session.reset(); // its pipeline ends: no block comes back after this
}

void Endpoints::onRequest(const RequestAdmission& admission)
{
    const QString& method = admission.method;
    if (method == QLatin1String("GET") || method == QLatin1String("HEAD") || method == QLatin1String("OPTIONS")) {
        answerQuestion(admission);
        return;
    }
    auto endpoint = endpointFor(admission.path);
    if (!endpoint) {
        exchange().refuse(404, QStringLiteral("not found"));
        return;
    }
    if (method != QLatin1String("POST")) {
        exchange().refuse(405, QStringLiteral("use POST"), {}, {}, "Allow: POST\r\n");
        return;
    }
    if (exchange().framing().kind == core::BodyFraming::Kind::None) {
        exchange().refuse(411, QStringLiteral("Content-Length or Transfer-Encoding: chunked required"));
        return;
    }
    startUpload(*endpoint, admission);
}

void Endpoints::answerQuestion(const RequestAdmission& admission)
{
    const bool keepAlive = admission.framing && admission.framing->keepAlive;
    const QString& path = admission.path;
    if (admission.method == QLatin1String("OPTIONS")) {           // a CORS preflight (admitRequest set the allowing
        QByteArray allow = "Allow: GET, HEAD, POST, OPTIONS\r\n"; // headers), or a plain question
        const core::RequestHead& h = exchange().requestHead();
        if (!admission.corsHeaders.isEmpty())
            allow += "Access-Control-Allow-Methods: GET, HEAD, POST\r\nAccess-Control-Allow-Headers: " +
                     toQString(h.field("access-control-request-headers")).toUtf8() +
                     "\r\nAccess-Control-Max-Age: 600\r\n" +
                     // Chrome's Private Network Access: a public page may call a local address only when the
                     // local server says so, here because the user allowed the origin.
                     (h.field("access-control-request-private-network").empty()
                          ? QByteArray()
                          : QByteArray("Access-Control-Allow-Private-Network: true\r\n"));
        exchange().respond(204, "text/plain", QByteArrayList(), !keepAlive, allow);
        return;
    }
    if (path == QLatin1String("/"))
        exchange().respond(200, "text/html; charset=utf-8", formPage(exchange().shared().port), !keepAlive);
    else if (path == QLatin1String("/captures"))
        exchange().respond(200, "application/json",
                           QJsonDocument(exchange().shared().store.recent()).toJson(QJsonDocument::Compact),
                           !keepAlive);
    else if (path.startsWith(QLatin1String("/captures/"))) {
        auto report = exchange().shared().store.report(path.mid(QStringLiteral("/captures/").size()));
        if (report)
            exchange().respond(200, "application/json", *report, !keepAlive);
        else
            exchange().respond(404, "text/plain", "no such capture\n", !keepAlive);
    } else if (endpointFor(path))
        exchange().respond(405, "text/plain", "use POST\n", !keepAlive, "Allow: POST\r\n");
    else
        exchange().respond(404, "text/plain", "not found\n", !keepAlive);
}

void Endpoints::startUpload(Endpoint endpoint, const RequestAdmission& admission)
{
    const QUrlQuery query(admission.query);
    SessionRequest request = exchange().sessionRequest(admission);
    request.endpoint = endpoint;
    const QString matcher = query.queryItemValue(QStringLiteral("matcher"));
    const QString hash = requestedHashName(query.query(), exchange().requestHead());
    const QString answer = query.queryItemValue(QStringLiteral("answer"));
    auto kind = matcher.isEmpty() ? core::kDefaultMatcher : core::matcherFromName(matcher.toStdString());
    auto hashKind =
        hash.isEmpty() ? std::optional(exchange().shared().config.hash) : core::kHashNames.find(hash.toStdString());
    const bool answerKnown = answer.isEmpty() || answer == QLatin1String("full") || answer == QLatin1String("brief");
    if (!kind || !hashKind || !answerKnown) {
        exchange().refuse(
            400, QStringLiteral("matcher must be kmp, chunked or simd; hash (?hash= or %1) must be sha256, xxh3 "
                                "or none; answer must be full or brief")
                     .arg(QLatin1String(kHashHeader)));
        return;
    }
    request.briefAnswer = answer == QLatin1String("brief");
    request.parser.matcher = *kind;
    request.hash = *hashKind;
    auto session = UploadSession::start(request, exchange().shared().store, exchange().publisher());
    if (!session) {
        const core::Errc code = session.error().code;
        const bool notMultipart = code == core::Errc::NotMultipart || code == core::Errc::MissingBoundary;
        exchange().refuse(notMultipart ? 415 : 400, {}, session.error());
        return;
    }
    m_session = std::move(*session);
    exchange().markRecorded(); // its capture is its record
    if (m_session->failed()) { // e.g. the capture folder could not be created: say so before any body byte
        endUpload();
        return;
    }
    exchange().beginBody();
    if (exchange().framing().expectContinue)
        exchange().sendContinue();
    if (exchange().decoder().done())
        endUpload();
}

size_t Endpoints::onBody(core::ByteView data, const core::BlockPool::Block& block)
{
    m_session->setSource(block); // none for held-back bytes: the pipeline copies those
    auto used = exchange().decoder().feed(data, *m_session);
    m_session->flush();
    const quint64 maxBody = exchange().shared().config.maxBodyBytes;
    if (!used) {
        endUpload(used.error(), 400);
        return data.size();
    }
    if (exchange().decoder().bodyBytes() > maxBody) {
        endUpload(core::Error{core::Errc::BodyTooLarge, maxBody}, 413);
        return data.size();
    }
    if (m_session->failed()) { // the parser rejected the body or storing it failed: answer now, read no more
        endUpload();
        return data.size();
    }
    if (exchange().decoder().done())
        endUpload();
    return *used;
}

void Endpoints::endUpload(std::optional<core::Error> cutShort, int status, const QString& detail)
{
    QByteArrayList answer = m_session->finish(exchange().decoder(), !cutShort, cutShort, detail, nullptr, status);
    status = m_session->answerStatus(); // the capture's own outcome's, unless it was cut short
    m_session.reset();
    exchange().deadlines().stop();
    respondJson(status, std::move(answer), status != 200 || !exchange().framing().keepAlive);
}

// Too slow a body, or none for the idle timeout: answered 408 with the capture's JSON, which says why, as every
// upload is answered.
void Endpoints::onBodyDeadline(ClientDeadlines::Missed /*missed*/, const QString& why)
{
    if (m_session)
        endUpload(core::Error{core::Errc::UnexpectedEof, exchange().decoder().wireBytes()}, 408, why);
}

void Endpoints::onClientGone(const QString& how)
{
    if (!m_session)
        return;
    // Keep what arrived, marked incomplete, saying so.
    m_session->finish(exchange().decoder(), false,
                      core::Error{core::Errc::BodyCutShort, exchange().decoder().wireBytes()},
                      clientGoneInWords(how, exchange().decoder().bodyBytes(), expectedLength(exchange().framing())));
    m_session.reset();
}

void Endpoints::respondJson(int status, const QJsonObject& body, bool close)
{
    respondJson(status, QByteArrayList{QJsonDocument(body).toJson(QJsonDocument::Compact)}, close);
}

void Endpoints::respondJson(int status, QByteArrayList compact, bool close)
{
    if (compact.isEmpty())
        compact.append(QByteArray());
    compact.last().append('\n'); // in the room answerJson leaves for it
    exchange().respond(status, "application/json", compact, close);
}

} // namespace upin::app
