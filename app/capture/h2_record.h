#pragma once
// The record of one HTTP/2 stream's frames, kept in capture.json as "http2": what was said on the connection
// (SETTINGS both ways, the round trip a PING measured), the stream's frames both ways (the first and the last
// kFramesKept each, every frame counted by type), and what flow control did to the upload: the window the client
// had left over time, each time it had none (a stall: from the DATA that spent it to the next DATA, which came
// only after our WINDOW_UPDATE had reached it) and the DATA frames' sizes. One value type with one
// toJson/fromJson, as ForwardRecord: the frame log (h2_frame_log.h) fills it on either side, UploadSession
// stores it, Inspect and parse read it back. Times are ms from the stream's HEADERS.

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

#include <array>
#include <optional>

namespace upin::app {

struct Http2Frame {
    double ms = 0;
    bool sent = false; // by us; else received from the client
    QString type;      // "DATA", "WINDOW_UPDATE", … ("0x0b" for a type HTTP/2 does not define)
    quint8 flags = 0;
    qint32 stream = 0; // 0: the connection's
    quint32 length = 0;
    // In words, where the frame carries values: "+32768" (WINDOW_UPDATE), "INITIAL_WINDOW_SIZE=65535, …"
    // (SETTINGS), "CANCEL" (RST_STREAM, GOAWAY), "END_STREAM" and the like for flags.
    QString detail;
    qint64 increment = 0; // WINDOW_UPDATE's
};

struct Http2Record {
    static constexpr int kFramesKept = 100;    // the first and the last this many, each
    static constexpr int kStallsKept = 200;    // stalls listed, thinned evenly over the upload; all are counted
    static constexpr int kWindowSamples = 512; // stretches of the window over time, merged in pairs as it fills

    struct Setting {
        QString name; // "INITIAL_WINDOW_SIZE"
        quint32 value = 0;
    };
    struct Stall {
        double atMs = 0;
        double ms = 0;
    };
    // What the client could send (the stream's window or the connection's, the smaller) over a stretch of time
    // from ms: its least and its most. A saw thinned to one value per stretch would show one phase of it only.
    struct WindowSample {
        double ms = 0;
        qint64 least = 0, most = 0;
    };
    // DATA frames by payload size: up to 1 KiB, 4 KiB, 16 KiB (the default largest frame), and larger.
    static constexpr std::array<quint32, 3> kSizeBounds{1024, 4096, 16384};

    QString http;          // "h2" (TLS) or "h2c"
    QString windowUpdates; // when we sent WINDOW_UPDATE: "half" (of the window used) or "at-once"
    QList<Setting> settingsSent, settingsReceived;
    std::optional<double> rttMs; // PING's round trip on the connection
    QList<Http2Frame> firstFrames, lastFrames;
    quint64 framesOmitted = 0;     // between the two lists
    QMap<QString, quint64> counts; // "DATA received", "WINDOW_UPDATE sent": frames of each
    quint64 dataFrames = 0, dataBytes = 0;
    quint32 dataMin = 0, dataMax = 0;
    std::array<quint64, kSizeBounds.size() + 1> dataBySize{};
    qint64 initialWindow = 0; // the client's at the stream's start
    quint64 stalls = 0;
    double stalledMs = 0;
    QList<Stall> stallList;
    QList<WindowSample> window;

    // "blocked by flow control: 1.84 s in 312 waits", or "never blocked by flow control".
    QString stallsInWords() const;
    QJsonObject toJson() const;
    static Http2Record fromJson(const QJsonObject& json);
};

} // namespace upin::app
