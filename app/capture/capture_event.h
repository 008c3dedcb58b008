#pragma once
// What the server publishes as captures arrive, for the window and `listen`'s line log: owned values, made on the
// connections' threads and read on the GUI thread. Each carries its capture as it stands (capture_summary.h).

#include "capture/capture_summary.h"

#include "upin/core/event_recorder.h"

#include <QList>
#include <QMetaType>

#include <memory>

namespace upin::app {

struct CaptureRecord;

// Which parts get PartStarted/PartFinished events, for the window's timeline: every part of a body's first
// kPartsAlwaysTimed, then a part when kPartTimingIntervalMs have passed since the last one timed, and a part still
// arriving that long after it began. A form of 10,000 fields would otherwise cost an event per part on the
// connection's thread and the window's, for a timeline no one reads part by part; Progress events count them all.
inline constexpr uint32_t kPartsAlwaysTimed = 100;
inline constexpr qint64 kPartTimingIntervalMs = 50;

struct CaptureEvent {
    // TlsHandshakeFailed: a client on the TLS port that did not complete its handshake, and so never became a
    // capture (capture.errorDetail says why; capture.client and capture.received are all else it has).
    enum class Kind : uint8_t {
        CaptureStarted,
        PartStarted,
        PartFinished,
        Progress,
        CaptureFinished,
        TlsHandshakeFailed
    };
    Kind kind = Kind::Progress;
    CaptureSummary capture;
    QList<ThroughputSample> samples; // Progress: samples since the previous event
    core::PartSummary part;          // PartStarted / PartFinished
    qint64 partBeganMs = -1;         // PartStarted: when the part began (it may be sent later: kPartsAlwaysTimed)
    bool noTlsBegun = false; // TlsHandshakeFailed: the client sent no TLS at all (a tunnel's ClientHello never came)
    // CaptureFinished of a capture that stores no folder (/part-event, /discard): the record is all there is of
    // it, for Inspect to show its parts, headers and digests.
    std::shared_ptr<const CaptureRecord> record;
};

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::CaptureEvent)
