#pragma once
// Configuration and published events of the HTTP listener. Events are owned values: they cross threads.

#include "upin/core/event_recorder.h"

#include <QHostAddress>
#include <QList>
#include <QMetaType>
#include <QString>

namespace upin::app {

struct ListenerConfig {
    QHostAddress bindAddress = QHostAddress::LocalHost; // other interfaces only when the user says so
    quint16 port = 8080;                                // 0 picks a free port
    QString captureDir;                                 // empty: the app data folder's "captures"
    bool keepRaw = false;                               // /capture always keeps the raw body; this adds it elsewhere
    quint64 maxBodyBytes = 64ull << 30;
    int maxConnections = 64;
    int headTimeoutMs = 10'000; // the whole request head must arrive within this
    int idleTimeoutMs = 30'000; // no byte for this long drops the connection
    int retainCaptures = 200;   // capture folders kept; older ones are deleted
    int workerThreads = 2;
};

enum class CaptureState : uint8_t { Receiving, Complete, Incomplete, Rejected };
inline constexpr core::EnumNames<CaptureState, 4> kCaptureStateNames{{{{CaptureState::Receiving, "receiving"},
                                                                       {CaptureState::Complete, "complete"},
                                                                       {CaptureState::Incomplete, "incomplete"},
                                                                       {CaptureState::Rejected, "rejected"}}}};
QString captureStateName(CaptureState state);

// One throughput sample: body bytes received by msSinceStart.
struct ThroughputSample {
    qint64 msSinceStart = 0;
    quint64 bytes = 0;
};

struct ListenerEvent {
    enum class Kind : uint8_t { CaptureStarted, PartStarted, PartFinished, Progress, CaptureFinished };
    Kind kind = Kind::Progress;
    quint64 captureId = 0;
    QString endpoint; // "/file-part"
    QString client;   // "127.0.0.1:53312"
    QString matcher;
    CaptureState state = CaptureState::Receiving;
    quint64 bytes = 0; // body bytes so far
    qint64 elapsedMs = 0;
    QList<ThroughputSample> samples;  // Progress: samples since the previous event
    core::PartSummary part;           // PartStarted / PartFinished
    std::optional<core::Error> error; // CaptureFinished when rejected or incomplete
    QString folder;                   // capture folder, when the endpoint stores one
    int partCount = 0;
};

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::ListenerEvent)
