#pragma once
// The frame log of an HTTP/2 connection and its streams (capture/h2_record.h says what it keeps), on either side
// of an upload: the listener's session (server/h2_session.h), which receives it, and the sender's
// (sender/h2_upload.h), which sends it. The session hands every frame it receives and sends to its connection's
// log, which keeps what the connection said (SETTINGS, PING's round trip) and the uploader's window for the
// connection, and passes the frame on to the streams it concerns: a stream's own frames, and the connection's
// while the stream is open.
//
// The windows are the uploader's, as the receiver grants them: a stream's starts at what the receiver's SETTINGS
// said (INITIAL_WINDOW_SIZE) once the uploader has them, 65,535 before (a later value moves every open stream's
// by the difference, RFC 9113 6.9.2), the
// connection's at 65,535 bytes; each upload DATA frame spends its length (padding counted), each WINDOW_UPDATE
// from the receiver gives its increment. The uploader can send on a stream the smaller of the two; when a DATA
// frame leaves it nothing and the stream goes on, the uploader waits, and the wait ends at its next DATA frame
// (sent once the receiver's WINDOW_UPDATE reached it): that is a stall, as the uploader lived it, round trip
// included. The receiver counts a window as granted when it sends the update, the sender when it reads it: the
// receiver never counts a stall where the sender could send, and the sender's figures are the exact ones.
// Everything runs on the connection's thread. A stream's log may outlive its stream and the session (its capture
// or run reads it at the end), and keeps the connection's log for that.

#include "capture/h2_record.h"

#include <QElapsedTimer>

#include <nghttp2/nghttp2.h> // nghttp2_frame: a typedef of an unnamed union, which cannot be declared ahead

#include <deque>
#include <map>
#include <memory>
#include <optional>

namespace upin::app {

// A header field as nghttp2 takes it (it copies the bytes when the frame is submitted): the session's and the
// sender's one way to write it.
inline nghttp2_nv http2Field(const QByteArray& name, const QByteArray& value)
{
    return {const_cast<uint8_t*>(reinterpret_cast<const uint8_t*>(name.constData())),
            const_cast<uint8_t*>(reinterpret_cast<const uint8_t*>(value.constData())), size_t(name.size()),
            size_t(value.size()), NGHTTP2_NV_FLAG_NONE};
}

class Http2StreamLog;

class Http2ConnectionLog : public std::enable_shared_from_this<Http2ConnectionLog> {
public:
    enum class Side : uint8_t { Receiver, Sender }; // of the upload: we receive its DATA, or we send it
    Http2ConnectionLog(Side side, QString http, QString windowUpdates);
    // Every frame, as nghttp2 received (sent = false) or sent it.
    void frame(const nghttp2_frame& frame, bool sent);
    // A stream begins (its HEADERS); its log is shared with its capture or run, and fed until the stream closes.
    std::shared_ptr<Http2StreamLog> open(int32_t stream);
    void close(int32_t stream) { m_streams.erase(stream); }
    void pingSent() { m_pingSentMs = ms(); }
    bool pingOutstanding() const { return m_pingSentMs.has_value(); }

    double ms() const { return double(m_clock.nsecsElapsed()) / 1e6; }
    bool weSend() const { return m_side == Side::Sender; }
    // The uploader has the receiver's first SETTINGS (read them, or acknowledged ours): until then it has the
    // protocol's first 65,535 bytes of connection window, and a wait for more is the connection's start (a round
    // trip every HTTP/2 upload pays, whatever the windows), not a stall.
    bool receiverSpoke() const { return m_receiverSpoke; }
    qint64 connectionWindow() const { return m_connectionWindow; }
    void fill(Http2Record& record) const; // what the connection said

private:
    void settingsFrame(const nghttp2_settings& settings, bool ack, bool sent, bool byReceiver);
    void applyInitialWindow(qint64 window); // the receiver's INITIAL_WINDOW_SIZE, now the uploader's

    Side m_side;
    QElapsedTimer m_clock;
    QString m_http, m_windowUpdates;
    qint64 m_initialWindow = 65'535;       // a stream's, as the receiver's SETTINGS said last
    std::optional<qint64> m_pendingWindow; // said by the receiver, not yet the uploader's
    bool m_receiverSpoke = false;          // the uploader has the receiver's SETTINGS
    QList<Http2Record::Setting> m_settingsSent, m_settingsReceived;
    std::optional<double> m_rttMs;
    std::optional<double> m_pingSentMs;
    qint64 m_connectionWindow = 65'535;
    std::map<int32_t, std::weak_ptr<Http2StreamLog>> m_streams; // open, and still read by their captures
};

class Http2StreamLog {
public:
    Http2StreamLog(std::shared_ptr<const Http2ConnectionLog> connection, qint64 initialWindow);
    void frame(const Http2Frame& facts, bool endStream);
    void moveWindow(qint64 delta) { m_window += delta; } // the receiver's INITIAL_WINDOW_SIZE changed
    Http2Record record() const;

private:
    void keep(const Http2Frame& frame);
    void uploadData(const Http2Frame& frame, bool endStream);
    void sampleWindow(double ms);

    std::shared_ptr<const Http2ConnectionLog> m_connection;
    double m_startMs;
    qint64 m_window; // the stream's, as the uploader has it
    Http2Record m_record;
    std::deque<Http2Frame> m_last;
    quint64 m_frames = 0;
    std::optional<double> m_waitFrom; // the client has no window since
    // The stalls listed are thinned as they fill (every stride-th kept); the window's stretches are merged in
    // pairs, each `stretch` samples long.
    struct Thinning {
        quint64 stride = 1, seen = 0;
    } m_stallThinning;
    quint64 m_stretch = 1, m_inStretch = 0;
};

} // namespace upin::app
