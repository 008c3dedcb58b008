#include "forwarder/upstream_answer.h"

#include "common/qt_text.h"

namespace upin::app {

namespace {

core::HttpLimits relayLimits()
{
    core::HttpLimits limits;
    limits.strictLineEnds = true;
    return limits;
}

QString describeError(const char* where, core::Error error)
{
    return QStringLiteral("%1: %2 (%3, at byte %4 of it)")
        .arg(QLatin1String(where), toQString(core::describe(error.code)), toQString(core::codeName(error.code)))
        .arg(error.offset);
}

struct NoSink final : core::BodySink {
    void onBody(core::ByteView) override {}
};

} // namespace

UpstreamAnswer::UpstreamAnswer(bool answersHead)
    : m_answersHead(answersHead), m_head(relayLimits(), core::HeadReader::Kind::Response)
{}

UpstreamAnswer::Progress UpstreamAnswer::takeHead(const char*& data, qint64& size, const Relay& relay)
{
    Progress progress;
    while (size > 0 && m_status == 0) {
        auto used = m_head.feed({data, size_t(size)});
        if (!used) {
            m_failed = true;
            progress.error = describeError("its head", used.error());
            return progress;
        }
        data += *used;
        size -= qint64(*used);
        if (!m_head.complete())
            return progress;
        const core::ResponseHead& head = m_head.response();
        if (head.status == 101) { // the forwarder passes no Upgrade on: a switch is not an answer to relay
            m_failed = true;
            progress.error = QStringLiteral("it switched protocols (101), which the forwarder does not relay");
            return progress;
        }
        if (head.status < 200) { // interim: passed on as it came, the final answer follows
            if (++m_interim > kMaxInterim) {
                m_failed = true;
                progress.error = QStringLiteral("more than %1 interim (1xx) answers").arg(kMaxInterim);
                return progress;
            }
            relay(m_head.raw().data(), qint64(m_head.raw().size()));
            m_head.reset();
            continue;
        }
        auto framing = core::responseFraming(head, m_answersHead);
        if (!framing) {
            m_failed = true;
            progress.error = describeError("its framing", framing.error());
            return progress;
        }
        m_framing = *framing;
        m_decoder = core::BodyDecoder(m_framing, relayLimits());
        m_status = head.status;
        m_keepAlive = framing->keepAlive;
        for (const core::HttpField& field : head.fields)
            m_headers.append(QJsonArray{toQString(field.name), toQString(field.value)});
        relay(m_head.raw().data(), qint64(m_head.raw().size()));
        progress.finalHead = true;
        m_complete = m_decoder.done();
    }
    return progress;
}

UpstreamAnswer::Progress UpstreamAnswer::take(const char* data, qint64 size, const Relay& relay)
{
    Progress progress;
    if (size <= 0 || m_complete || m_failed)
        return progress;
    m_firstByte = true;
    if (m_status == 0) {
        progress = takeHead(data, size, relay);
        if (progress.error || m_complete || size == 0) {
            progress.complete = m_complete;
            return progress;
        }
    }
    NoSink none;
    const uint64_t before = m_decoder.wireBytes();
    auto used = m_decoder.feed({data, size_t(size)}, none);
    if (!used) { // what came before the error goes on; the rest does not
        relay(data, qint64(std::min<uint64_t>(quint64(size), used.error().offset - before)));
        m_failed = true;
        progress.error = describeError("its body", used.error());
        return progress;
    }
    const qint64 n = qint64(*used);
    relay(data, n);
    m_bytes += quint64(n);
    if (m_preview.size() < kPreviewBytes)
        m_preview.append(data, qsizetype(std::min<qint64>(n, kPreviewBytes - m_preview.size())));
    if (m_decoder.done()) {
        m_complete = true;
        m_keepAlive = m_keepAlive && n == size; // bytes past its end: the connection is not reused
    }
    progress.complete = m_complete;
    return progress;
}

UpstreamAnswer::Progress UpstreamAnswer::closed()
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
        m_failed = true;
        progress.error = QStringLiteral("it closed the connection in the middle of its answer's body, after %1 "
                                        "bytes of it")
                             .arg(m_decoder.wireBytes());
        return progress;
    }
    m_failed = true;
    progress.error = m_head.headBytes() > 0
                         ? QStringLiteral("it closed the connection in the middle of its answer's head, after %1 "
                                          "bytes of it")
                               .arg(m_head.headBytes())
                         : QStringLiteral("it closed the connection before answering");
    return progress;
}

} // namespace upin::app
