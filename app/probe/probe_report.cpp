#include "probe/probe_report.h"

#include "common/byte_size.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace upin::app {

namespace {

QJsonValue figure(double value, int decimals = 3)
{
    return value > 0 ? QJsonValue(std::round(value * std::pow(10, decimals)) / std::pow(10, decimals))
                     : QJsonValue(QJsonValue::Null);
}

} // namespace

QString mbps(double value)
{
    return value > 0 ? QString::number(value, 'f', value < 10 ? 1 : 0) : QStringLiteral("-");
}

QString times(double value)
{
    return value > 0 ? QString::number(value, 'f', 2) + QLatin1Char('x') : QStringLiteral("-");
}

double fitExponent(const QList<quint64>& sizes, const QList<double>& seconds)
{
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (qsizetype i = 0; i < std::min(sizes.size(), seconds.size()); ++i) {
        if (sizes[i] == 0 || seconds[i] <= 0)
            continue;
        const double x = std::log(double(sizes[i])), y = std::log(seconds[i]);
        n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    const double denominator = n * sxx - sx * sx;
    return n >= 2 && denominator > 1e-12 ? (n * sxy - sx * sy) / denominator : 0;
}

double measureAgainstPlain(ProbeReport& report)
{
    const ShapeRow* plain = report.shapeRow(QStringLiteral("plain"));
    const double plainRate = plain ? plain->mbPerSecond() : 0;
    const double plainVsBaseline = plain ? plain->vsBaseline() : 0;
    for (ShapeRow& row : report.shapes)
        if (row.plainSameSizeSeconds > 0)
            row.vsPlain = row.seconds > 0 ? row.seconds / row.plainSameSizeSeconds : 0;
        else if (judgedByBaseline(row.shape))
            row.vsPlain = plainVsBaseline > 0 && row.vsBaseline() > 0 ? row.vsBaseline() / plainVsBaseline : 0;
        else
            row.vsPlain = plainRate > 0 && row.mbPerSecond() > 0 ? plainRate / row.mbPerSecond() : 0;
    return plainRate;
}

bool looksSlow(const ShapeRow& row)
{
    if (row.vsPlain < kSlowShapeRatio || row.seconds <= 0)
        return false;
    // And longer by a time a person would notice than plain's for the same bytes: 5 ms against 2 ms is a ratio of
    // a shared machine's moments, not of a server's parser.
    return row.seconds * (1 - 1 / row.vsPlain) >= kSlowShapeMinSeconds;
}

bool slowShape(const ShapeRow& row)
{
    return looksSlow(row) && (row.recheckVsPlain <= 0 || row.recheckVsPlain >= kSlowShapeRatio);
}

namespace {

// A form shape's slowness in words: a cost per part, which a form of a few fields never meets.
QString perPartCost(const ShapeRow& row)
{
    const double us = (row.seconds - row.plainSameSizeSeconds) * 1e6 / std::max(row.parts, 1);
    return row.parts < 2 || us <= 0 ? QString()
                                    : QStringLiteral(": %1 µs more for each of its %2 parts, a cost per part")
                                          .arg(us, 0, 'f', us < 10 ? 1 : 0)
                                          .arg(row.parts);
}

QString slowShapeMessage(const ShapeRow& row, double plainRate, bool cancelled)
{
    const QString how =
        judgedByBaseline(row.shape)
            ? QStringLiteral("%1 takes %2x the baseline's time for the same bytes, %3x what plain takes against its "
                             "baseline")
                  .arg(row.shape)
                  .arg(row.vsBaseline(), 0, 'f', 1)
                  .arg(row.vsPlain, 0, 'f', 1)
        : row.plainSameSizeSeconds > 0
            ? QStringLiteral("%1 is %2x slower than plain of the same size on this server (%3 s against %4 s for %5)")
                      .arg(row.shape)
                      .arg(row.vsPlain, 0, 'f', 1)
                      .arg(row.seconds, 0, 'f', 3)
                      .arg(row.plainSameSizeSeconds, 0, 'f', 3)
                      .arg(formatBytes(row.bytes)) +
                  perPartCost(row)
            : QStringLiteral("%1 is %2x slower than plain on this server (%3 MB/s against %4 MB/s)")
                  .arg(row.shape)
                  .arg(row.vsPlain, 0, 'f', 1)
                  .arg(mbps(row.mbPerSecond()), mbps(plainRate));
    return row.recheckVsPlain > 0
               ? how + QStringLiteral("; %1x again when timed right after plain").arg(row.recheckVsPlain, 0, 'f', 1)
           : cancelled ? how + QStringLiteral("; not timed again (the probe was cancelled first)")
                       : how + QStringLiteral("; not timed again (left out by the budgets)");
}

void addShapeFindings(ProbeReport& report)
{
    const double plainRate = measureAgainstPlain(report);
    for (ShapeRow& row : report.shapes) {
        if (slowShape(row))
            report.findings.append(
                {QStringLiteral("slow_shape"), row.shape, slowShapeMessage(row, plainRate, report.cancelled)});
        // Half the body, and at least kBufferedFloor: a form's 1.84 MiB that costs tens of MiB is found too, while
        // an allocator's few MiB over a small body are not.
        // Not when the process is the probe's own (the window's listener): the probe's buffers are in the figures.
        if (report.pid > 0 && !report.watchedSelf && row.rssGrowth >= kBufferedFloor &&
            double(row.rssGrowth) >= kBufferedShare * double(row.bytes))
            report.findings.append(
                {QStringLiteral("buffers_in_memory"), row.shape,
                 QStringLiteral("RSS of %1 grew %2 during a %3 upload (%4)")
                     .arg(report.watched(), formatBytes(row.rssGrowth), formatBytes(row.bytes), row.shape)});
    }
}

void addScalingFindings(ProbeReport& report)
{
    for (const ScalingRow& row : report.scaling)
        if (row.judgeable() && row.exponent >= kSuperlinearExponent)
            report.findings.append({QStringLiteral("superlinear"), row.shape,
                                    QStringLiteral("%1: time grows as size^%2 (%3 to %4: %5 s to %6 s)")
                                        .arg(row.shape)
                                        .arg(row.exponent, 0, 'f', 2)
                                        .arg(formatBytes(row.sizes.first()), formatBytes(row.sizes.last()))
                                        .arg(row.seconds.first(), 0, 'f', 3)
                                        .arg(row.seconds.last(), 0, 'f', 3)});
}

// A collapse is the server's aggregate rate falling below kCollapseShare of its best with fewer clients, and its
// share of the baseline's rate at the same count falling as far: on loopback the client's own threads take
// cores from the server as clients are added, which is no fault of the server's, and a round of 8 MiB each is
// short enough that the baseline's own figure jumps. Both of its rounds must have run: the better counts, and a
// round the budget left out leaves one, which on a shared machine is not a finding.
// Failed uploads are a collapse when plain alone was taken: refused alone too, they are plain's finding, said once.
void addConcurrencyFindings(ProbeReport& report)
{
    const bool plainRefused = std::any_of(report.findings.cbegin(), report.findings.cend(), [](const ProbeFinding& f) {
        return f.kind == QLatin1String("rejected_valid_body") && f.shape == QLatin1String("plain");
    });
    const ConcurrencyRow* best = nullptr;
    double bestShare = 0;
    // The cores a server of one thread keeps beside the probe's clients, when they share this machine: clients + 1
    // busy threads on fewer cores get cores / (clients + 1) of one each. A fall to that share is no fault of the
    // server's: Node (busboy) from 1 to 2 clients on two cores keeps 2/3, and CI saw it at 0.54x.
    const auto cpuShare = [&report](int clients) {
        return report.cores > 0 ? std::min(1.0, double(report.cores) / double(clients + 1)) : 1.0;
    };
    for (const ConcurrencyRow& row : report.concurrency) {
        if (row.errors > 0 && plainRefused)
            continue;
        const double floor = best ? kCollapseShare * cpuShare(row.clients) / cpuShare(best->clients) : 0;
        if (row.errors > 0)
            report.findings.append({QStringLiteral("concurrency_collapse"), QStringLiteral("plain"),
                                    QStringLiteral("%1 of %2 uploads failed in rounds of %3 parallel: %4")
                                        .arg(row.errors)
                                        .arg(std::max(row.uploads, row.errors))
                                        .arg(row.clients)
                                        .arg(row.firstError)});
        else if (best && row.uploads >= 2 * row.clients && row.mbPerSecond < floor * best->mbPerSecond &&
                 row.ofBaseline() < floor * bestShare)
            report.findings.append({QStringLiteral("concurrency_collapse"), QStringLiteral("plain"),
                                    QStringLiteral("%1 parallel uploads move %2 MB/s in all (%3% of the baseline's), "
                                                   "%4 moved %5 MB/s (%6%)")
                                        .arg(row.clients)
                                        .arg(mbps(row.mbPerSecond))
                                        .arg(qRound(100 * row.ofBaseline()))
                                        .arg(best->clients)
                                        .arg(mbps(best->mbPerSecond))
                                        .arg(qRound(100 * best->ofBaseline()))});
        if (row.errors == 0 && (!best || row.mbPerSecond > best->mbPerSecond))
            best = &row;
        if (row.errors == 0)
            bestShare = std::max(bestShare, row.ofBaseline());
    }
}

} // namespace

void addFindings(ProbeReport& report)
{
    addShapeFindings(report);
    addScalingFindings(report);
    addConcurrencyFindings(report);
}

const ShapeRow* ProbeReport::shapeRow(const QString& shape) const
{
    const auto found =
        std::find_if(shapes.cbegin(), shapes.cend(), [&](const ShapeRow& row) { return row.shape == shape; });
    return found == shapes.cend() ? nullptr : &*found;
}

QString ProbeReport::skippedSummary() const
{
    if (skipped.isEmpty())
        return {};
    // A step's label up to its run ("plain: run 1 of 2" -> "plain"), with how many of its steps were left when
    // more than one: "11 steps" beside three names read as if eight were missing.
    QStringList names;
    QList<int> counts;
    for (const QString& label : skipped) {
        const QString name = label.section(QLatin1Char(':'), 0, 0).section(QLatin1Char(','), 0, 0);
        if (const qsizetype at = names.indexOf(name); at >= 0) {
            ++counts[at];
        } else {
            names << name;
            counts << 1;
        }
    }
    QStringList what;
    for (qsizetype i = 0; i < names.size(); ++i)
        what << (counts[i] == 1 ? names[i] : QStringLiteral("%1 (%2)").arg(names[i]).arg(counts[i]));
    return QStringLiteral("%1 %2: %3")
        .arg(skipped.size())
        .arg(skipped.size() == 1 ? QStringLiteral("step") : QStringLiteral("steps"), what.join(QStringLiteral(", ")));
}

QString ProbeReport::watched() const
{
    if (watchedSelf)
        return QStringLiteral("this program, the probe included"); // short: a chart title (its pid in the legend)
    QString process = processName.isEmpty() ? QStringLiteral("process %1").arg(pid)
                                            : QStringLiteral("process %1 (%2)").arg(pid).arg(processName);
    if (processes <= 1)
        return process;
    return processes == 2 ? QStringLiteral("%1 and its child").arg(process)
                          : QStringLiteral("%1 and its %2 children").arg(process).arg(processes - 1);
}

namespace {

QJsonArray shapesJson(const ProbeReport& report)
{
    QJsonArray rows;
    for (const ShapeRow& row : report.shapes)
        rows.append(QJsonObject{
            {"name", row.shape},
            {"bytes", qint64(row.bytes)},
            {"seconds", figure(row.seconds, 4)},
            {"mb_per_s", figure(row.mbPerSecond(), 1)},
            {"status", row.status},
            {"status_line", row.statusLine},
            {"error", row.error.isEmpty() ? QJsonValue() : QJsonValue(row.error)},
            {"baseline_seconds", figure(row.baselineSeconds, 4)},
            {"vs_baseline", figure(row.vsBaseline(), 2)},
            {"vs_plain", figure(row.vsPlain, 2)},
            {"recheck_vs_plain", figure(row.recheckVsPlain, 2)},
            {"forwarder_capture", row.forwarderCapture > 0 ? QJsonValue(qint64(row.forwarderCapture)) : QJsonValue()},
            {"rss_growth_bytes",
             report.pid > 0 && row.seconds > 0 ? QJsonValue(qint64(row.rssGrowth)) : QJsonValue()}});
    return rows;
}

QJsonArray scalingJson(const QList<ScalingRow>& scaling)
{
    QJsonArray rows;
    for (const ScalingRow& row : scaling) {
        QJsonArray sizeList, secondList;
        for (quint64 s : row.sizes)
            sizeList.append(qint64(s));
        for (double s : row.seconds)
            secondList.append(figure(s, 4));
        rows.append(QJsonObject{
            {"shape", row.shape}, {"sizes", sizeList}, {"seconds", secondList}, {"exponent", figure(row.exponent, 2)}});
    }
    return rows;
}

QJsonArray concurrencyJson(const QList<ConcurrencyRow>& concurrency)
{
    QJsonArray rows;
    for (const ConcurrencyRow& row : concurrency)
        rows.append(QJsonObject{{"clients", row.clients},
                                {"mb_per_s", figure(row.mbPerSecond, 1)},
                                {"baseline_mb_per_s", figure(row.baselineMBps, 1)},
                                {"p50_s", figure(row.p50, 4)},
                                {"p95_s", figure(row.p95, 4)},
                                {"errors", row.errors},
                                {"first_error", row.firstError}});
    return rows;
}

QJsonObject memoryJson(const ProbeReport& report)
{
    QJsonArray samples;
    for (const MemorySample& s : report.rss)
        samples.append(QJsonArray{figure(s.seconds, 3), qint64(s.rss)});
    const bool watched = report.pid > 0;
    return {{"pid", watched ? QJsonValue(report.pid) : QJsonValue()},
            {"processes", watched ? QJsonValue(std::max(report.processes, 1)) : QJsonValue()},
            {"note", report.pidNote},
            {"self", report.watchedSelf},
            {"name", report.processName},
            {"samples", samples},
            {"peak_growth_bytes", watched ? QJsonValue(qint64(report.peakGrowth)) : QJsonValue()},
            {"growth_per_byte", watched ? QJsonValue(figure(report.growthPerByte, 3)) : QJsonValue()},
            {"peak_shape", report.peakShape}};
}

} // namespace

QJsonObject ProbeReport::toJson() const
{
    QJsonArray found;
    for (const ProbeFinding& f : findings)
        found.append(QJsonObject{{"kind", f.kind}, {"shape", f.shape}, {"message", f.message}});
    return {{"target", target.toString()},
            {"baseline", baseline.toString()},
            {"shapes", shapesJson(*this)},
            {"scaling", scalingJson(scaling)},
            {"concurrency", concurrencyJson(concurrency)},
            {"memory", memoryJson(*this)},
            {"findings", found},
            {"skipped", QJsonArray::fromStringList(skipped)},
            {"unchecked_answers", QJsonArray::fromStringList(uncheckedAnswers)},
            {"expect_missing", QJsonArray::fromStringList(expectMissing)},
            {"cancelled", cancelled},
            {"unreachable", unreachable.isEmpty() ? QJsonValue() : QJsonValue(unreachable)},
            {"redirect", redirect.isEmpty() ? QJsonValue() : QJsonValue(redirect)},
            {"cores", cores > 0 ? QJsonValue(cores) : QJsonValue()},
            {"seconds", figure(seconds, 1)},
            {"bytes_sent", qint64(bytesSent)}};
}

ProbeReport ProbeReport::fromJson(const QJsonObject& json)
{
    ProbeReport report;
    report.target = QUrl(json["target"].toString());
    report.unreachable = json["unreachable"].toString();
    for (const auto& v : json["shapes"].toArray()) {
        const QJsonObject o = v.toObject();
        ShapeRow row;
        row.shape = o["name"].toString();
        row.bytes = quint64(o["bytes"].toInteger());
        row.seconds = o["seconds"].toDouble(-1);
        row.baselineSeconds = o["baseline_seconds"].toDouble(-1);
        report.shapes.append(row);
    }
    for (const auto& v : json["scaling"].toArray()) {
        const QJsonObject o = v.toObject();
        report.scaling.append({o["shape"].toString(), {}, {}, o["exponent"].toDouble()});
    }
    for (const auto& v : json["findings"].toArray()) {
        const QJsonObject o = v.toObject();
        report.findings.append({o["kind"].toString(), o["shape"].toString(), o["message"].toString()});
    }
    return report;
}

namespace {

// A shape more than 20% slower than before: by its time against the baseline's when both reports have one (the
// machine's own pace taken out: the CI runner of last week is not today's), else by MB/s.
QString slower(const ShapeRow& before, const ShapeRow& after)
{
    // Slower by the same bytes' time a person would notice: a 20% swing of a 20 ms run is a shared machine's.
    if (before.seconds <= 0 || after.seconds <= 0 || before.bytes == 0 || after.bytes == 0 ||
        after.seconds - before.seconds * double(after.bytes) / double(before.bytes) < kSlowShapeMinSeconds)
        return {};
    const bool rateFell = after.mbPerSecond() < before.mbPerSecond() / 1.2;
    // With baseline figures, slower against the baseline too: a slower machine all over is no regression, and
    // neither is a baseline run that happened to be quick.
    if (before.vsBaseline() > 0 && after.vsBaseline() > 0)
        return rateFell && after.vsBaseline() > before.vsBaseline() * 1.2
                   ? QStringLiteral("%1: %2 MB/s, was %3 MB/s; %4x the baseline's time, was %5x")
                         .arg(after.shape, mbps(after.mbPerSecond()), mbps(before.mbPerSecond()))
                         .arg(after.vsBaseline(), 0, 'f', 2)
                         .arg(before.vsBaseline(), 0, 'f', 2)
                   : QString();
    return rateFell ? QStringLiteral("%1: %2 MB/s, was %3 MB/s (%4% slower)")
                          .arg(after.shape, mbps(after.mbPerSecond()), mbps(before.mbPerSecond()))
                          .arg(qRound(100 * (1 - after.mbPerSecond() / before.mbPerSecond())))
                    : QString();
}

} // namespace

QStringList regressions(const ProbeReport& earlier, const ProbeReport& now)
{
    QStringList out;
    for (const ShapeRow& before : earlier.shapes)
        for (const ShapeRow& after : now.shapes)
            if (after.shape == before.shape)
                if (const QString worse = slower(before, after); !worse.isEmpty())
                    out << worse;
    for (const ScalingRow& before : earlier.scaling)
        for (const ScalingRow& after : now.scaling)
            if (after.shape == before.shape && after.judgeable() && after.exponent >= kSuperlinearExponent &&
                after.exponent > before.exponent + 0.2) // 0.66 to 1.01 through three points is still linear
                out << QStringLiteral("%1: time now grows as size^%2, was size^%3")
                           .arg(after.shape)
                           .arg(after.exponent, 0, 'f', 2)
                           .arg(before.exponent, 0, 'f', 2);
    for (const ProbeFinding& f : now.findings) {
        const bool known = std::any_of(earlier.findings.cbegin(), earlier.findings.cend(),
                                       [&](const ProbeFinding& e) { return e.kind == f.kind && e.shape == f.shape; });
        if (!known)
            out << QStringLiteral("new finding %1: %2").arg(f.kind, f.message);
    }
    return out;
}

QStringList notCompared(const ProbeReport& earlier, const ProbeReport& now)
{
    QStringList out;
    for (const ShapeRow& before : earlier.shapes) {
        const auto after = std::find_if(now.shapes.cbegin(), now.shapes.cend(),
                                        [&](const ShapeRow& row) { return row.shape == before.shape; });
        if (before.seconds > 0 && (after == now.shapes.cend() || (after->seconds <= 0 && after->error.isEmpty())))
            out << before.shape;
    }
    return out;
}

} // namespace upin::app
