#include "server/h2_stream.h"

#include "capture/h2_frame_log.h"
#include "common/qt_text.h"
#include "server/h2_session.h"
#include "server/refusal_record.h"
#include "server/request_admission.h"

namespace upin::app {

namespace {

core::ByteView view(const QByteArray& data)
{
    return {data.constData(), size_t(data.size())};
}

// Our extra answer fields, written as HTTP/1.1 lines ("Allow: POST\r\n"), as HTTP/2 name and value pairs.
QList<QPair<QByteArray, QByteArray>> fieldsOf(const QByteArray& lines)
{
    QList<QPair<QByteArray, QByteArray>> fields;
    for (const QByteArray& line : lines.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            fields.append({line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed()});
    }
    return fields;
}

} // namespace

Http2Stream::Http2Stream(Http2Session& session, int32_t id, std::shared_ptr<Http2StreamLog> log)
    : m_session(session), m_id(id), m_log(std::move(log)), m_head(session.context().httpLimits),
      m_deadlines(
          session.context().shared->config.guards, [this] { return m_decoder.bodyBytes(); },
          [this](ClientDeadlines::Missed missed, const QString& why) {
              if (m_admitted && !m_answered)
                  m_handler->onBodyDeadline(missed, why);
          })
{
    m_deadlines.headArrives(); // received_at: when the stream's HEADERS began
    m_handler = session.context().makeHandler(*this);
}

Http2Stream::~Http2Stream()
{
    m_handler.reset(); // it may end a capture in progress, with this stream's decoder
}

void Http2Stream::addField(const QByteArray& name, const QByteArray& value)
{
    // Bounded as HTTP/1.1's head is, while it is decoded: HPACK lets a few bytes stand for a long field again and
    // again (an HPACK bomb), so what is kept is counted here, not once the list is whole.
    const core::HttpLimits& limits = m_session.context().httpLimits;
    m_listBytes += size_t(name.size() + value.size()) + 4; // as the head line "name: value\r\n" would
    if (++m_listFields > limits.maxHeaderFields || m_listBytes > limits.maxHeadBytes) {
        m_listTooLarge = true;
        return;
    }
    if (name == ":method")
        m_method = value;
    else if (name == ":path")
        m_path = value;
    else if (name == ":authority")
        m_authority = value;
    else if (!name.startsWith(':'))
        m_fields += name + ": " + value + "\r\n";
}

void Http2Stream::headersDone(bool endStream)
{
    m_clientDone = endStream;
    if (m_listTooLarge) {
        const core::HttpLimits& limits = m_session.context().httpLimits;
        const bool tooMany = m_listFields > limits.maxHeaderFields;
        refuse(431, QStringLiteral("bad request head"),
               core::Error{tooMany ? core::Errc::TooManyHeaderFields : core::Errc::HeadTooLarge,
                           tooMany ? limits.maxHeaderFields : limits.maxHeadBytes});
        return;
    }
    // :authority stands for Host (RFC 9113 8.3.1); a Host field beside it is read as sent, and two that
    // disagree are refused as any two Host fields are.
    const QByteArray head = m_method + ' ' + m_path + " HTTP/1.1\r\n" +
                            (m_authority.isEmpty() ? QByteArray() : "Host: " + m_authority + "\r\n") + m_fields +
                            "\r\n";
    auto used = m_head.feed(view(head));
    if (!used || !m_head.complete()) {
        const core::Error error = used ? core::Error{core::Errc::HeadTooLarge, m_head.headBytes()} : used.error();
        const bool tooLarge = error.code == core::Errc::HeadTooLarge || error.code == core::Errc::TooManyHeaderFields;
        refuse(tooLarge ? 431 : 400, QStringLiteral("bad request head"), error);
        return;
    }
    admit();
}

void Http2Stream::admit()
{
    m_deadlines.headDone();
    const Http2Session::Context& context = m_session.context();
    const RequestAdmission admission =
        admitRequest(m_head.head(), context.shared->config.guards, context.modeName, tls());
    m_headOnly = admission.headOnly;
    m_corsHeaders = admission.corsHeaders;
    if (const auto refusal = headRefusal(admission, context.shared->config.maxBodyBytes)) {
        refuse(refusal->status, refusal->reason, refusal->error);
        return;
    }
    m_framing = *admission.framing;
    if (m_framing.kind == core::BodyFraming::Kind::None && !m_clientDone) // its body ends with the stream
        m_framing.kind = core::BodyFraming::Kind::UntilClose;
    m_decoder = core::BodyDecoder(m_framing, context.httpLimits);
    m_admitted = true;
    m_handler->onRequest(admission);
}

void Http2Stream::data(core::ByteView payload, const core::BlockPool::Block& block)
{
    if (!m_admitted || m_answered)
        return; // a refused or answered request's: flow control was given back, the bytes are dropped
    m_deadlines.clientSent();
    m_handler->onBody(payload, block); // a Content-Length the DATA passes is nghttp2's stream error
}

void Http2Stream::endStream()
{
    m_clientDone = true;
    if (!m_admitted || m_answered)
        return;
    m_decoder.closed(); // a body without a length is whole; one short of its Content-Length is not
    m_handler->onBody({}, {});
}

void Http2Stream::closed(const QString& how)
{
    m_deadlines.stop();
    if (m_admitted && !m_answered)
        m_handler->onClientGone(how);
    m_answered = true;
}

SessionRequest Http2Stream::sessionRequest(const RequestAdmission& admission) const
{
    const Http2Session::Context& context = m_session.context();
    SessionRequest request = sessionRequestFor(m_head, admission, m_framing, *context.shared, context.client,
                                               m_deadlines, context.transport);
    request.http2 = [log = m_log] { return log->record(); };
    return request;
}

QHostAddress Http2Stream::peerAddress() const
{
    return m_session.context().peer;
}

QHostAddress Http2Stream::localAddress() const
{
    return m_session.context().local;
}

bool Http2Stream::tls() const
{
    return m_session.context().transport.tls;
}

ServerShared& Http2Stream::shared() const
{
    return *m_session.context().shared;
}

const UploadSession::Publish& Http2Stream::publisher() const
{
    return m_session.context().publish;
}

void Http2Stream::beginBody()
{
    m_deadlines.bodyBegins();
}

void Http2Stream::sendContinue()
{
    m_session.submitContinue(m_id);
}

void Http2Stream::resumeReading()
{
    m_session.resumeReading();
}

void Http2Stream::respond(int status, const QByteArray& contentType, const QByteArrayList& body, bool /*close*/,
                          const QByteArray& extraHeaders, std::optional<core::Error> error)
{
    answer(status, contentType, body, extraHeaders, error,
           error ? toQString(core::describe(error->code)) : refusalReason(body.value(0)));
}

void Http2Stream::refuse(int status, const QString& reason, std::optional<core::Error> error, const QString& detail,
                         const QByteArray& extraHeaders)
{
    const RefusalAnswer refusal = refusalAnswer(reason, error, detail, m_session.context().jsonRefusals);
    answer(status, refusal.contentType, {refusal.body}, extraHeaders, error, refusal.recorded);
}

// As ServerConnection::answer: a request no capture recorded, answered 400 or more, leaves a refusal record.
void Http2Stream::answer(int status, const QByteArray& contentType, const QByteArrayList& body,
                         const QByteArray& extraHeaders, std::optional<core::Error> error, const QString& reason)
{
    if (m_answered)
        return;
    m_answered = true;
    m_deadlines.stop();
    const QByteArray joined = body.join();
    if (status >= 400 && !std::exchange(m_recorded, true))
        recordRefusal(reason, status, error, joined.left(RefusedRequest::kMaxAnswerKept));
    auto fields = fieldsOf(extraHeaders + m_corsHeaders);
    if (status != 204)
        fields.prepend({"content-type", contentType});
    fields.append({"content-length", QByteArray::number(joined.size())});
    // A body the answer came before the end of is reset after it; one whose last byte came (its END_STREAM is in
    // the same frame, being read) is not.
    const bool bodyArriving = !m_clientDone && !(m_admitted && m_decoder.done());
    m_session.submitAnswer(m_id, status, fields, m_headOnly ? QByteArray() : joined, bodyArriving);
}

void Http2Stream::recordRefusal(const QString& reason, int status, std::optional<core::Error> error,
                                const QByteArray& sent)
{
    RefusedRequest refused = RefusedRequest::fromHead(m_head, status, reason, error);
    refused.answer = sent;
    refused.receivedAt = m_deadlines.headStartedAt();
    refused.client = m_session.context().client;
    refused.tls = m_session.context().transport.label();
    app::recordRefusal(m_session.context().shared->store, m_session.context().publish, std::move(refused));
}

void Http2Stream::writeAnswer(const char* /*data*/, qint64 /*size*/)
{
    qFatal("Http2Stream::writeAnswer: a relayed answer over HTTP/2 is not offered yet");
}

void Http2Stream::openTunnel(TunnelTls /*tlsFor*/)
{
    qFatal("Http2Stream::openTunnel: CONNECT over HTTP/2 is not offered");
}

QTcpSocket& Http2Stream::tunnelClient()
{
    qFatal("Http2Stream::tunnelClient: CONNECT over HTTP/2 is not offered");
}

} // namespace upin::app
