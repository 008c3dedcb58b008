#pragma once
// The values a send produces, one RunResult per request sent: timings, the answer, per-part integrity checks.
// Owned values: they cross from the sender's thread to the GUI thread.

#include "capture/capture_summary.h"
#include "capture/h2_record.h"

#include "upin/core/digest.h"

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
    QString sentDigest;     // of RunResult::hash
    QString receivedDigest; // what the server reported under the same hash; empty when it reported none
    State state = State::NotChecked;
};

// The part of an answer's body that reports and the Send tab show (the whole first MiB is kept for the checks).
inline constexpr qsizetype kShownResponseBytes = qsizetype{64} * 1024;
// The part of an answer's body kept at all (RunResult::response): what the probe's answer checks can read.
inline constexpr qsizetype kKeptResponseBytes = qsizetype{1} << 20;

// Said after an https server's certificate was refused: how to trust it, on the command line and in the window.
inline QString withTrustHint(const QString& error)
{
    return error + QStringLiteral(" (to trust it: --cacert FILE with its certificate, or --insecure; in the window, "
                                  "Don't check https certificates)");
}

struct RunResult {
    QUrl target;
    QString method = QStringLiteral("POST"); // runs of one URL by two methods are two targets in Compare
    int targetIndex = 0;
    int run = 0;
    qint64 startedAtMs = 0; // wall clock, ms since the epoch
    quint64 bodyBytes = 0;
    quint64 bytesSent = 0;          // of bodyBytes, handed to the network
    QList<ThroughputSample> upload; // bytes handed to the network over time
    double lastByteSeconds = -1;    // when the last body byte was handed over
    double responseHeadSeconds = -1;
    double totalSeconds = -1;
    QString protocol;                 // "HTTP/1.1" or "HTTP/2", once connected
    std::optional<Http2Record> http2; // the raw engine over HTTP/2: its frames, from the sender's side
    QString tls;                      // "TLSv1.3" over https; empty over http
    QByteArray statusLine;            // "HTTP/1.1 404 Not Found"
    QList<QPair<QByteArray, QByteArray>> responseHeaders; // as the server sent them
    QString error;       // transport error or cancellation; empty when the exchange completed
    QByteArray response; // first 1 MiB of the answer's body
    QList<PartCheck> parts;
    int httpStatus = 0;
    core::HashKind hash = core::HashKind::Sha256; // what the part checks compare
    bool insecure = false;                        // https without checking the server's certificate
    bool answeredEarly = false; // the server answered before the whole body was sent; sending stopped there
    // CPU time per thread, ms (-1: the thread did not run): reading the files ahead (and making synthetic bytes),
    // hashing, this thread (sending, for the raw engine), and the whole process, which for the QNAM engine includes
    // Qt's HTTP thread. Where the time went, and what a core per thread would give (scripts/bench-e2e).
    struct Cpu {
        double readMs = -1;
        double hashMs = -1;
        double sendMs = -1;
        double processMs = -1;
    } cpu;
    bool cancelled = false;
    bool bodySent() const { return lastByteSeconds >= 0; }
    // The server took the upload: a 2xx, or 303 See Other (the usual answer to a form POST it took). Not other 3xx:
    // a 302 to a login page is how an expired session answers.
    bool accepted() const
    {
        return error.isEmpty() && !cancelled && ((httpStatus >= 200 && httpStatus < 300) || httpStatus == 303);
    }
    // Only for a run that sent its whole body and was accepted: a rate of an upload cut short, or of one the
    // server refused (a 405 may read the body only to discard it), is not the rate of an upload.
    double mbPerSecond() const
    {
        return bodySent() && totalSeconds > 0 && accepted() ? double(bodyBytes) / 1e6 / totalSeconds : 0;
    }
    bool integrityOk() const; // every part matched (false when nothing could be checked)
};

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::RunResult)
