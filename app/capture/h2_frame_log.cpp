#include "capture/h2_frame_log.h"

#include <algorithm>

namespace upin::app {

namespace {

QString typeName(uint8_t type)
{
    static const char* const names[] = {"DATA",         "HEADERS", "PRIORITY", "RST_STREAM",    "SETTINGS",
                                        "PUSH_PROMISE", "PING",    "GOAWAY",   "WINDOW_UPDATE", "CONTINUATION"};
    if (type < std::size(names))
        return QString::fromLatin1(names[type]);
    return QStringLiteral("0x%1").arg(type, 2, 16, QLatin1Char('0'));
}

QString settingName(int32_t id)
{
    switch (id) {
    case NGHTTP2_SETTINGS_HEADER_TABLE_SIZE: return QStringLiteral("HEADER_TABLE_SIZE");
    case NGHTTP2_SETTINGS_ENABLE_PUSH: return QStringLiteral("ENABLE_PUSH");
    case NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS: return QStringLiteral("MAX_CONCURRENT_STREAMS");
    case NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE: return QStringLiteral("INITIAL_WINDOW_SIZE");
    case NGHTTP2_SETTINGS_MAX_FRAME_SIZE: return QStringLiteral("MAX_FRAME_SIZE");
    case NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE: return QStringLiteral("MAX_HEADER_LIST_SIZE");
    case NGHTTP2_SETTINGS_ENABLE_CONNECT_PROTOCOL: return QStringLiteral("ENABLE_CONNECT_PROTOCOL");
    case NGHTTP2_SETTINGS_NO_RFC7540_PRIORITIES: return QStringLiteral("NO_RFC7540_PRIORITIES");
    default: return QStringLiteral("0x%1").arg(id, 2, 16, QLatin1Char('0'));
    }
}

QList<Http2Record::Setting> settingsOf(const nghttp2_settings& settings)
{
    QList<Http2Record::Setting> out;
    for (size_t i = 0; i < settings.niv; ++i)
        out.append({settingName(settings.iv[i].settings_id), settings.iv[i].value});
    return out;
}

QString flagsInWords(const nghttp2_frame& frame)
{
    const uint8_t type = frame.hd.type, flags = frame.hd.flags;
    QStringList words;
    if ((type == NGHTTP2_SETTINGS || type == NGHTTP2_PING) && (flags & NGHTTP2_FLAG_ACK))
        words << QStringLiteral("ACK");
    if ((type == NGHTTP2_DATA || type == NGHTTP2_HEADERS) && (flags & NGHTTP2_FLAG_END_STREAM))
        words << QStringLiteral("END_STREAM");
    if ((type == NGHTTP2_DATA || type == NGHTTP2_HEADERS) && (flags & NGHTTP2_FLAG_PADDED))
        words << QStringLiteral("PADDED");
    return words.join(QLatin1Char(' '));
}

// The frame's values in words (see Http2Frame::detail).
QString detailOf(const nghttp2_frame& frame)
{
    QString flags = flagsInWords(frame);
    auto with = [&flags](const QString& value) { return flags.isEmpty() ? value : value + QLatin1Char(' ') + flags; };
    switch (frame.hd.type) {
    case NGHTTP2_WINDOW_UPDATE: return QStringLiteral("+%1").arg(frame.window_update.window_size_increment);
    case NGHTTP2_RST_STREAM: return QString::fromLatin1(nghttp2_http2_strerror(frame.rst_stream.error_code));
    case NGHTTP2_GOAWAY:
        return QStringLiteral("%1, last stream %2")
            .arg(QString::fromLatin1(nghttp2_http2_strerror(frame.goaway.error_code)))
            .arg(frame.goaway.last_stream_id);
    case NGHTTP2_SETTINGS: {
        QStringList values;
        for (const auto& s : settingsOf(frame.settings))
            values << QStringLiteral("%1=%2").arg(s.name).arg(s.value);
        return values.isEmpty() ? flags : with(values.join(QStringLiteral(", ")));
    }
    default: return flags;
    }
}

// Keeps every stride-th item of a list that may hold `most`: when it is full, every other one is dropped and the
// stride doubles, so that the list spans the whole upload evenly, however long, at the resolution that fits.
template <typename T, typename Thinning>
void thinned(QList<T>& list, Thinning& thinning, qsizetype most, const T& item)
{
    if (thinning.seen++ % thinning.stride != 0)
        return;
    if (list.size() >= most) {
        for (qsizetype i = 1; i < list.size() / 2; ++i)
            list[i] = list[2 * i];
        list.resize(list.size() / 2);
        thinning.stride *= 2;
    }
    list.append(item);
}

} // namespace

Http2ConnectionLog::Http2ConnectionLog(Side side, QString http, QString windowUpdates)
    : m_side(side), m_http(std::move(http)), m_windowUpdates(std::move(windowUpdates))
{
    m_clock.start();
}

void Http2ConnectionLog::frame(const nghttp2_frame& frame, bool sent)
{
    Http2Frame facts{ms(),
                     sent,
                     typeName(frame.hd.type),
                     frame.hd.flags,
                     frame.hd.stream_id,
                     quint32(frame.hd.length),
                     detailOf(frame),
                     0};
    const bool ack = (frame.hd.flags & NGHTTP2_FLAG_ACK) != 0;
    const bool byReceiver = sent != weSend(); // sent by the upload's receiver (a grant), else by its uploader
    if (frame.hd.type == NGHTTP2_SETTINGS)
        settingsFrame(frame.settings, ack, sent, byReceiver);
    if (frame.hd.type == NGHTTP2_PING && ack && !sent && m_pingSentMs)
        m_rttMs = facts.ms - *std::exchange(m_pingSentMs, std::nullopt);
    if (frame.hd.type == NGHTTP2_WINDOW_UPDATE && byReceiver) {
        facts.increment = frame.window_update.window_size_increment;
        if (frame.hd.stream_id == 0)
            m_connectionWindow += facts.increment;
    }
    if (frame.hd.type == NGHTTP2_DATA && !byReceiver)
        m_connectionWindow -= qint64(frame.hd.length);
    const bool endStream = (frame.hd.flags & NGHTTP2_FLAG_END_STREAM) != 0 &&
                           (frame.hd.type == NGHTTP2_DATA || frame.hd.type == NGHTTP2_HEADERS);
    if (frame.hd.stream_id != 0) {
        const auto found = m_streams.find(frame.hd.stream_id);
        if (found != m_streams.end())
            if (const auto stream = found->second.lock())
                stream->frame(facts, endStream && !byReceiver);
        return;
    }
    for (const auto& [id, weak] : m_streams)
        if (const auto stream = weak.lock())
            stream->frame(facts, false);
}

// Each side's latest value per setting is kept, once (a client may send thousands of SETTINGS frames). The
// receiver's INITIAL_WINDOW_SIZE holds once the uploader has it (RFC 9113 6.5.3): on the sender's side when it is
// read, on the receiver's when the uploader acknowledges it; until then a stream has 65,535 bytes, which a client
// may spend before our SETTINGS reach it.
void Http2ConnectionLog::settingsFrame(const nghttp2_settings& settings, bool ack, bool sent, bool byReceiver)
{
    if (ack) {
        if (!byReceiver && !weSend()) { // the uploader acknowledged ours
            if (m_pendingWindow)
                applyInitialWindow(*std::exchange(m_pendingWindow, std::nullopt));
            m_receiverSpoke = true;
        }
        return;
    }
    auto& said = sent ? m_settingsSent : m_settingsReceived;
    for (const auto& setting : settingsOf(settings)) {
        const auto same = std::find_if(said.begin(), said.end(), [&](const auto& s) { return s.name == setting.name; });
        if (same == said.end())
            said.append(setting);
        else
            same->value = setting.value;
    }
    if (!byReceiver)
        return;
    for (size_t i = 0; i < settings.niv; ++i)
        if (settings.iv[i].settings_id == NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE)
            m_pendingWindow = settings.iv[i].value;
    if (weSend()) { // read: it holds now
        if (m_pendingWindow)
            applyInitialWindow(*std::exchange(m_pendingWindow, std::nullopt));
        m_receiverSpoke = true;
    }
}

void Http2ConnectionLog::applyInitialWindow(qint64 window)
{
    const qint64 delta = window - m_initialWindow;
    m_initialWindow = window;
    for (const auto& [id, weak] : m_streams)
        if (const auto stream = weak.lock())
            stream->moveWindow(delta);
}

std::shared_ptr<Http2StreamLog> Http2ConnectionLog::open(int32_t stream)
{
    auto log = std::make_shared<Http2StreamLog>(shared_from_this(), m_initialWindow);
    m_streams[stream] = log;
    return log;
}

void Http2ConnectionLog::fill(Http2Record& record) const
{
    record.http = m_http;
    record.windowUpdates = m_windowUpdates;
    record.settingsSent = m_settingsSent;
    record.settingsReceived = m_settingsReceived;
    record.rttMs = m_rttMs;
}

Http2StreamLog::Http2StreamLog(std::shared_ptr<const Http2ConnectionLog> connection, qint64 initialWindow)
    : m_connection(std::move(connection)), m_startMs(m_connection->ms()), m_window(initialWindow)
{
    m_record.initialWindow = std::min(initialWindow, m_connection->connectionWindow());
    sampleWindow(m_startMs);
}

void Http2StreamLog::frame(const Http2Frame& facts, bool endStream)
{
    Http2Frame frame = facts;
    frame.ms -= m_startMs;
    keep(frame);
    ++m_record.counts[frame.type + (frame.sent ? QStringLiteral(" sent") : QStringLiteral(" received"))];
    if (frame.type == QLatin1String("DATA") && frame.sent == m_connection->weSend())
        uploadData(frame, endStream);
    else if (frame.increment != 0) { // a WINDOW_UPDATE the receiver sent, the stream's or the connection's
        if (frame.stream != 0)
            m_window += frame.increment;
        sampleWindow(facts.ms);
    }
}

void Http2StreamLog::keep(const Http2Frame& frame)
{
    ++m_frames;
    if (m_record.firstFrames.size() < Http2Record::kFramesKept) {
        m_record.firstFrames.append(frame);
        return;
    }
    m_last.push_back(frame);
    if (m_last.size() > size_t(Http2Record::kFramesKept))
        m_last.pop_front();
}

void Http2StreamLog::uploadData(const Http2Frame& frame, bool endStream)
{
    const double now = frame.ms;
    if (m_waitFrom) { // the uploader had no window: this DATA is the first since the window came back
        const double stalled = now - *std::exchange(m_waitFrom, std::nullopt);
        ++m_record.stalls;
        m_record.stalledMs += stalled;
        thinned(m_record.stallList, m_stallThinning, Http2Record::kStallsKept, {now - stalled, stalled});
    }
    m_window -= qint64(frame.length);
    const quint32 payload = frame.length;
    if (m_record.dataFrames++ == 0 || payload < m_record.dataMin)
        m_record.dataMin = payload;
    m_record.dataMax = std::max(m_record.dataMax, payload);
    m_record.dataBytes += payload;
    const auto bound = std::lower_bound(Http2Record::kSizeBounds.begin(), Http2Record::kSizeBounds.end(), payload);
    ++m_record.dataBySize[size_t(bound - Http2Record::kSizeBounds.begin())];
    sampleWindow(now + m_startMs);
    if (!endStream && m_connection->receiverSpoke() && std::min(m_window, m_connection->connectionWindow()) <= 0)
        m_waitFrom = now;
}

// A sample per change, into the current stretch; when the list is full, neighbouring stretches are merged and
// each new one is twice as long: the whole upload stays on the list, with every low and high.
void Http2StreamLog::sampleWindow(double ms)
{
    auto& window = m_record.window;
    const qint64 now = std::min(m_window, m_connection->connectionWindow());
    if (m_inStretch > 0 && m_inStretch < m_stretch && !window.isEmpty()) {
        window.last().least = std::min(window.last().least, now);
        window.last().most = std::max(window.last().most, now);
        ++m_inStretch;
        return;
    }
    if (window.size() >= Http2Record::kWindowSamples) {
        for (qsizetype i = 0; i < window.size() / 2; ++i)
            window[i] = {window[2 * i].ms, std::min(window[2 * i].least, window[2 * i + 1].least),
                         std::max(window[2 * i].most, window[2 * i + 1].most)};
        window.resize(window.size() / 2);
        m_stretch *= 2;
    }
    window.append({ms - m_startMs, now, now});
    m_inStretch = 1;
}

Http2Record Http2StreamLog::record() const
{
    Http2Record r = m_record;
    m_connection->fill(r);
    r.lastFrames = QList<Http2Frame>(m_last.begin(), m_last.end());
    r.framesOmitted = m_frames - quint64(r.firstFrames.size()) - quint64(r.lastFrames.size());
    return r;
}

} // namespace upin::app
