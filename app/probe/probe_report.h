#pragma once
// What a probe of a user's server found (`upload-inspector-cli probe`, the Probe tab): values only, made by
// ProbeRunner and read by the CLI's table, --json and the window. Every figure is a ratio to something measured in
// the same sitting: a body shape's time to the baseline's for the same bytes (what the wire and our client allow
// on this machine), and to the plain shape's rate on the same server.

#include "probe/probe_settings.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>

namespace upin::app {

inline const QStringList kProbeFindingKinds{
    QStringLiteral("slow_shape"),          QStringLiteral("superlinear"), QStringLiteral("buffers_in_memory"),
    QStringLiteral("rejected_valid_body"), QStringLiteral("wrong_bytes"), QStringLiteral("concurrency_collapse")};

struct ShapeRow {
    QString shape;
    int parts = 0;       // of its body: 1, or a form shape's 10,000 fields or 1,000 files
    quint64 bytes = 0;   // the body
    double seconds = -1; // the target's, best of its runs
    double baselineSeconds = -1;
    int status = 0;
    QString statusLine;
    QString error;
    quint64 rssGrowth = 0; // of the watched process, during the upload
    double mbPerSecond() const { return seconds > 0 ? double(bytes) / 1e6 / seconds : 0; }
    double vsBaseline() const { return seconds > 0 && baselineSeconds > 0 ? seconds / baselineSeconds : 0; }
    double vsPlain = 0; // plain's rate / this shape's rate: how many times slower
    // The form shapes (many-fields, many-files) are not --size: plain of their body's size is timed too, and their
    // vs_plain is their time over its (1.84 MiB of fields against 64 MiB of plain would set a request's fixed cost
    // against a transfer).
    double plainSameSizeSeconds = -1;
    // A shape that looks slow is timed again right after plain (split-delimiters: after its baseline), and this is
    // that pair's ratio, per byte. 0: not timed again (it did not look slow, or the budget ran out).
    double recheckVsPlain = 0;
    quint64 forwarderCapture = 0; // through our forwarder: its capture of a run whose every part it saw whole
};

struct ScalingRow {
    QString shape;
    QList<quint64> sizes;
    QList<double> seconds;
    double exponent = 0; // time ~ size^exponent, least squares on the logs
    // Whether the fit can be a finding or a regression: three sizes at least, over a 4x span, the largest taking
    // 20 ms at least. Two points 1.25x apart, or times of a few ms, fit any exponent from noise (k = 1.75 and
    // -0.44 were seen for one streaming server).
    bool judgeable() const
    {
        return sizes.size() >= 3 && sizes.last() >= 4 * sizes.first() && !seconds.isEmpty() && seconds.last() >= 0.02;
    }
};

struct ConcurrencyRow {
    int clients = 0;
    double mbPerSecond = 0;  // all clients' bytes over the wall time of the round
    double baselineMBps = 0; // the same round to the baseline: what the client and the machine allow at this count
    // The target's share of what the wire allowed at this count (1 without a baseline figure).
    double ofBaseline() const { return baselineMBps > 0 ? mbPerSecond / baselineMBps : 1; }
    double p50 = 0, p95 = 0;
    int errors = 0;
    QString firstError;
    int uploads = 0; // in its rounds, errors among them
};

struct MemorySample {
    double seconds = 0; // since the probe began
    quint64 rss = 0;
};

struct ProbeFinding {
    QString kind; // slow_shape, superlinear, buffers_in_memory, rejected_valid_body, wrong_bytes, concurrency_collapse
    QString shape;
    QString message;
};

struct ProbeReport {
    QUrl target;
    QUrl baseline;
    QList<ShapeRow> shapes;
    QList<ScalingRow> scaling;
    QList<ConcurrencyRow> concurrency;
    qint64 pid = 0;
    int processes = 0;        // watched with it at most: the process and its workers
    QString processName;      // the watched process's program ("python3", "upload-inspector-cli")
    bool watchedSelf = false; // the server is the probe's own process (the window's listener): its memory is in it
    QString pidNote;          // why memory was not watched
    int cores = 0;            // this machine's, when the server is on it too and shares them with the probe; else 0
    QString watched() const;  // "process 42", "process 42 and its 4 children"
    QList<MemorySample> rss;
    quint64 peakGrowth = 0;
    double growthPerByte = 0;
    QString peakShape; // the upload it grew most during
    QList<ProbeFinding> findings;
    QStringList skipped;          // phases or shapes the budgets left out
    QStringList uncheckedAnswers; // shapes whose answer was longer than the 1 MiB kept, and not JSON within it
    QStringList expectMissing;    // shapes whose answer had no number at --expect's path: not checked by it
    bool cancelled = false;
    QString unreachable; // the warm-up had no answer, or one that says the probe is wrong: why; it stopped there
    QString redirect;    // the target answers uploads with a redirect ("HTTP/1.1 302 FOUND to /done"), taken as taken
    double seconds = 0;
    quint64 bytesSent = 0;

    QJsonObject toJson() const;
    static ProbeReport fromJson(const QJsonObject& json); // --against an earlier report
    QString text() const;                                 // the terminal's table and one line per finding
    const ShapeRow* shapeRow(const QString& shape) const; // nullptr: not in the probe
    // What the budgets left out, short: "7 steps: many-files, scaling plain, 8 parallel uploads"; empty: none.
    QString skippedSummary() const;
};

// A shape whose time is mostly the client's own pauses (split-delimiters waits a moment at each delimiter, to the
// baseline as to the server): its rate says nothing of the server, its time against the baseline's does.
inline bool judgedByBaseline(const QString& shape)
{
    return shape == QLatin1String("split-delimiters");
}

// "1,2,4,8,16" -> the concurrency rounds' client counts (0 alone: none); nullopt with *error naming the bad one.

// A rate for the tables ("12", "3.4"; "-" for none) and a ratio ("1.25x", "-").
QString mbps(double value);
QString times(double value);
// time ~ size^k fitted by least squares on log-log; 0 with fewer than two distinct sizes.
double fitExponent(const QList<quint64>& sizes, const QList<double>& seconds);
// The findings the figures show (rejections and wrong bytes are found while running, and kept).
void addFindings(ProbeReport& report);
// The shape's figures say it is slow: kSlowShapeRatio times plain's time per byte (a form shape: also
// kSlowShapeMinSeconds longer than plain of its size). It is a finding when its recheck says so too, or had none.
bool looksSlow(const ShapeRow& row);
bool slowShape(const ShapeRow& row);
// Sets every shape's vs_plain (its rate against plain's on the same server); returns plain's rate (0: none).
double measureAgainstPlain(ProbeReport& report);
// What got worse since an earlier report of the same target: a shape more than 20% slower, a new finding, an
// exponent that grew by more than 0.2. Empty: no regression.
QStringList regressions(const ProbeReport& earlier, const ProbeReport& now);
// The shapes the earlier report measured and this one did not (left out by --shapes or the budgets): said, since
// no regression of theirs could be seen. A shape refused this time is not among them: it is a new finding.
QStringList notCompared(const ProbeReport& earlier, const ProbeReport& now);

inline constexpr double kSlowShapeRatio = 2.0; // a shape this many times slower than plain
// and, for a form shape's small body, this much longer: 4 ms against 8 ms is our client's own cost per part
inline constexpr double kSlowShapeMinSeconds = 0.010;
inline constexpr double kSuperlinearExponent = 1.3; // time ~ size^k
inline constexpr double kBufferedShare = 0.5;       // RSS growth over this share of a body
// and at least this much: a garbage-collected runtime's heap grows by its minimum target (Go's is 4 MiB) over
// small bodies from per-part allocations alone, without holding the upload (Go's streaming reader was found so once
// in CI, probed at 8 MiB).
inline constexpr quint64 kBufferedFloor = quint64{8} << 20;
inline constexpr double kCollapseShare = 0.7; // aggregate rate below this share of the best with fewer clients

} // namespace upin::app
