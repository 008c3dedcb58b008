#pragma once
// Statistics and exports of sender runs: per-target median, min, max and mean of time and MB/s; CSV and JSON.

#include "sender/run_types.h"

#include <QJsonArray>

namespace upin::app {

// The runs of one group: one target, by one method, with one body size, so that a 2 KB run and a 20 MB run to one
// URL are two groups (the first measures the round trip, the second the transfer).
struct TargetStats {
    QUrl target;
    QString method;        // "POST": one URL sent by two methods is two targets
    quint64 bodyBytes = 0; // the body every run of the group sent
    int partCount = 0;     // its parts (0 when no run got as far as making the body)
    bool holds(const RunResult& run) const
    {
        return run.target == target && run.method == method && run.bodyBytes == bodyBytes;
    }
    int count = 0;       // completed runs (HTTP status received)
    int failures = 0;    // transport errors, cancellations, non-2xx answers
    QString lastFailure; // why the last failed run failed: "404 Not Found", "Connection refused", "cancelled"
    int integrityFailures = 0;
    int notChecked = 0; // runs that hashed, answered 2xx, and whose answer carried no digests of that hash
    double medianSeconds = 0, minSeconds = 0, maxSeconds = 0, meanSeconds = 0;
    double medianMBps = 0, minMBps = 0, maxMBps = 0, meanMBps = 0;
    // Our listener's CPU time reading and parsing, and hashing, as shares of the run's time (its answer's cpu_ms
    // over the time the client measured), medians; -1 when the answers did not say (another server).
    double parseShare = -1, hashShare = -1, storeShare = -1;
    // This side's hashing thread's CPU time as a share of the run's time, median; -1 when the runs did not hash.
    double ownHashShare = -1;
};
// What set the pace of a target's runs, in words: "parsing (72% of the time)" where the parser's CPU time is most of
// it (the matcher shows there), "hashing (…)", "storing (…)" (writing parts to disk), else "the transfer (parsing
// 8%, hashing 20%, storing 5%)": the wire or the client. "not reported (…)" when the answers did not say. Before
// those, "hashing on this side (…)" when the sender's own hashing took most of the time, whatever the server.
QString boundBy(const TargetStats& stats);

// The target's URL, after its method when that is not POST: "PUT http://…/upload".
QString targetText(const TargetStats& stats);
// The group's body: "20.0 MiB in 2 parts", "2.0 KiB in 1 part".
QString bodyText(const TargetStats& stats);
QList<TargetStats> statsByTarget(const QList<RunResult>& runs);
// "3 of 3 failed (404 Not Found)", "1 mismatched", "ok": a target's checks in words.
QString checksText(const TargetStats& stats);
QString runsToCsv(const QList<RunResult>& runs);
QJsonArray runsToJson(const QList<RunResult>& runs);
QString statsTable(const QList<TargetStats>& stats); // aligned text, one row per target

} // namespace upin::app
