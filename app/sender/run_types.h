#pragma once
// The values a send produces, one RunResult per request sent: timings, the answer, per-part integrity checks.
// Owned values: they cross from the sender's thread to the GUI thread.

#include "listener/listener_types.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QUrl>

namespace upin::app {

struct PartCheck {
    enum class State : uint8_t { Match, Mismatch, NotChecked };
    QString name;
    quint64 size = 0;
    QString sentSha256;
    QString receivedSha256;
    State state = State::NotChecked;
};

struct RunResult {
    QUrl target;
    int targetIndex = 0;
    int run = 0;
    qint64 startedAtMs = 0; // wall clock, ms since the epoch
    quint64 bodyBytes = 0;
    QList<ThroughputSample> upload; // bytes handed to the network over time
    double lastByteSeconds = -1;    // when the last body byte was handed over
    double responseHeadSeconds = -1;
    double totalSeconds = -1;
    int httpStatus = 0;
    QString error;       // transport error or cancellation; empty when the exchange completed
    QByteArray response; // first 1 MiB of the answer
    QList<PartCheck> parts;
    bool cancelled = false;
    double mbPerSecond() const
    {
        return totalSeconds > 0 && httpStatus > 0 ? double(bodyBytes) / 1e6 / totalSeconds : 0;
    }
    bool integrityOk() const; // every part matched (false when nothing could be checked)
};

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::RunResult)
