#include "common/http_answer.h"

#include "common/qt_text.h"

namespace upin::app {

namespace {

core::HttpLimits limitsFor(const HttpAnswer::Options& options)
{
    core::HttpLimits limits;
    limits.strictLineEnds = options.strict;
    return limits;
}

QString describeError(const char* where, core::Error error)
{
    return QStringLiteral("%1: %2 (%3, at byte %4 of it)")
        .arg(QLatin1String(where), toQString(core::describe(error.code)), toQString(core::codeName(error.code)))
        .arg(error.offset);
}

// The decoded body's first bytes, for the record and for checks of what the server said.
struct KeepFirst final : core::BodySink {
    QByteArray& out;
    qsizetype limit;
    KeepFirst(QByteArray& o, qsizetype l) : out(o), limit(l) {}
    void onBody(core::ByteView data) override
    {
        if (out.size() < limit)
            out.append(data.data(), std::min(qsizetype(data.size()), limit - out.size()));
    }
};

QByteArray toBytes(core::ByteView view)
{
    return {view.data(), qsizetype(view.size())};
}

} // namespace

HttpAnswer::HttpAnswer(Options options)
    : m_options(std::move(options)), m_head(limitsFor(m_options), core::HeadReader::Kind::Response)
{}

HttpAnswer::Progress HttpAnswer::fail(QString why)
{
    m_failed = true;
    Progress progress;
    progress.error = std::move(why);
    return progress;
}

HttpAnswer::Progress HttpAnswer::takeHead(const char*& data, qint64& size, const Relay& relay)
{
    Progress progress;
    while (size > 0 && m_status == 0) {
        // Every answer starts "HTTP/": anything else (HTTP/0.9, another protocol, garbage) is said at once, not
        // when a blank line that may never come arrives.
        for (qint64 i = 0; m_head.headBytes() + size_t(i) < 5 && i < size; ++i)
            if (data[i] != "HTTP/"[m_head.headBytes() + size_t(i)])
                return fail(describeError(
                    "its head", core::Error{core::Errc::MalformedStatusLine, m_head.headBytes() + uint64_t(i)}));
        auto used = m_head.feed({data, size_t(size)});
        if (!used)
            return fail(describeError("its head", used.error()));
        data += *used;
        size -= qint64(*used);
        if (!m_head.complete())
            return progress;
        const core::ResponseHead& head = m_head.response();
        if (head.status == 101) // no Upgrade is ever asked for: a switch is not an answer to take
            return fail(QStringLiteral("it switched protocols (101), which was not asked for"));
        if (head.status < 200) { // interim: passed on as it came, the final answer follows
            if (++m_interim > kMaxInterim)
                return fail(QStringLiteral("more than %1 interim (1xx) answers").arg(kMaxInterim));
            if (relay)
                relay(m_head.raw().data(), qint64(m_head.raw().size()));
            progress.continued = progress.continued || head.status == 100;
            m_head.reset();
            continue;
        }
        auto framing = core::responseFraming(head, m_options.answersHead);
        if (!framing)
            return fail(describeError("its framing", framing.error()));
        m_framing = *framing;
        m_decoder = core::BodyDecoder(m_framing, limitsFor(m_options));
        m_status = head.status;
        m_keepAlive = framing->keepAlive;
        const core::ByteView raw = m_head.raw();
        m_statusLine = toBytes(raw.substr(0, raw.find_first_of("\r\n")));
        for (const core::HttpField& field : head.fields)
            m_fields.append({toBytes(field.name), toBytes(field.value)});
        progress.finalHead = true; // relayed by take(), with the body bytes it came with once they prove valid
        m_complete = m_decoder.done();
    }
    return progress;
}

void HttpAnswer::relayFinalHead(const Relay& relay) const
{
    const QByteArray added = m_options.addedFields ? m_options.addedFields() : QByteArray();
    const core::ByteView raw = m_head.raw();
    if (added.isEmpty()) {
        relay(raw.data(), qint64(raw.size()));
        return;
    }
    const qint64 end = raw.ends_with("\r\n") ? 2 : 1; // the empty line that ends the head
    relay(raw.data(), qint64(raw.size()) - end);
    relay(added.constData(), added.size());
    relay(raw.data() + raw.size() - end, end);
}

HttpAnswer::Progress HttpAnswer::take(const char* data, qint64 size, const Relay& relay)
{
    Progress progress;
    if (size <= 0 || m_complete || m_failed)
        return progress;
    m_firstByte = true;
    if (m_status == 0) {
        progress = takeHead(data, size, relay);
        if (progress.error || !progress.finalHead)
            return progress;
    }
    KeepFirst keep(m_body, m_options.keepBytes);
    const uint64_t before = m_decoder.wireBytes();
    auto used = size > 0 ? m_decoder.feed({data, size_t(size)}, keep) : core::Result<size_t>(size_t(0));
    if (!used) {
        // A head with broken body bytes in hand goes nowhere (the client can still get a 502); once the head
        // went, what came before the error goes on, the rest does not.
        if (relay && !progress.finalHead)
            relay(data, qint64(std::min<uint64_t>(quint64(size), used.error().offset - before)));
        if (progress.finalHead)
            m_status = 0; // not relayed: as if no answer had come
        return fail(describeError("its body", used.error()));
    }
    if (progress.finalHead && relay) // valid, and so are the bytes that came with it: it may go on
        relayFinalHead(relay);
    if (relay)
        relay(data, qint64(*used));
    if (m_decoder.done()) {
        m_complete = true;
        m_keepAlive = m_keepAlive && qint64(*used) == size; // bytes past its end: the connection is not reused
    }
    progress.complete = m_complete;
    return progress;
}

HttpAnswer::Progress HttpAnswer::closed()
{
    Progress progress;
    if (m_complete || m_failed)
        return progress;
    if (m_status != 0) {
        m_decoder.closed();
        if (m_decoder.done()) {
            m_complete = true;
            m_keepAlive = false;
            progress.complete = true;
            return progress;
        }
        return fail(QStringLiteral("it closed the connection in the middle of its answer's body, after %1 bytes of "
                                   "it")
                        .arg(m_decoder.wireBytes()));
    }
    return fail(m_head.headBytes() > 0
                    ? QStringLiteral("it closed the connection in the middle of its answer's head, after %1 bytes "
                                     "of it")
                          .arg(m_head.headBytes())
                    : QStringLiteral("it closed the connection before answering"));
}

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 415: return "Unsupported Media Type";
    case 421: return "Misdirected Request";
    case 431: return "Request Header Fields Too Large";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 508: return "Loop Detected";
    case 507: return "Insufficient Storage";
    }
    return "Status";
}

} // namespace upin::app
