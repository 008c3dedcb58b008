// ProbeReport::text: the terminal's report, table by table.

#include "probe/probe_report.h"

#include "common/byte_size.h"

namespace upin::app {

namespace {

QString shapesTable(const QList<ShapeRow>& shapes)
{
    QString out = QStringLiteral("%1 %2 %3 %4 %5 %6  %7\n")
                      .arg(QStringLiteral("shape"), -16)
                      .arg(QStringLiteral("bytes"), 11)
                      .arg(QStringLiteral("seconds"), 8)
                      .arg(QStringLiteral("MB/s"), 7)
                      .arg(QStringLiteral("vs base"), 8)
                      .arg(QStringLiteral("vs plain"), 8)
                      .arg(QStringLiteral("status"));
    for (const ShapeRow& row : shapes)
        out += QStringLiteral("%1 %2 %3 %4 %5 %6  %7\n")
                   .arg(row.shape, -16)
                   .arg(formatBytes(row.bytes), 11)
                   .arg(row.seconds > 0 ? QString::number(row.seconds, 'f', 3) : QStringLiteral("-"), 8)
                   .arg(mbps(row.mbPerSecond()), 7)
                   .arg(times(row.vsBaseline()), 8)
                   .arg(times(row.vsPlain), 8)
                   .arg(row.error.isEmpty() ? row.statusLine : row.error);
    return out;
}

// Under the table: the shapes our forwarder saw whole, and the slow-looking ones their recheck cleared.
QString shapeNotes(const QList<ShapeRow>& shapes)
{
    QString out;
    QStringList confirmed;
    for (const ShapeRow& row : shapes)
        if (row.forwarderCapture > 0)
            confirmed << QStringLiteral("%1 (capture %2)").arg(row.shape).arg(row.forwarderCapture);
    if (!confirmed.isEmpty())
        out += QStringLiteral("our forwarder on the way saw every part of these whole: %1 (the memory watched is "
                              "the process on the URL's port, unless --pid named your server's)\n")
                   .arg(confirmed.join(", "));
    for (const ShapeRow& row : shapes)
        if (looksSlow(row) && !slowShape(row))
            out += QStringLiteral("%1 looked %2x slower than plain, but %3x when timed again right after it: not a "
                                  "finding (a busy moment of the machine)\n")
                       .arg(row.shape)
                       .arg(row.vsPlain, 0, 'f', 1)
                       .arg(row.recheckVsPlain, 0, 'f', 1);
    return out;
}

QString scalingLines(const QList<ScalingRow>& scaling)
{
    QString out;
    for (const ScalingRow& row : scaling) {
        if (row.sizes.size() < 2) { // refused, or left out by the budgets: no curve to fit
            out += QStringLiteral("\nscaling %1: fewer than two sizes measured, no exponent").arg(row.shape);
            continue;
        }
        QStringList points;
        for (qsizetype i = 0; i < row.sizes.size(); ++i)
            points << QStringLiteral("%1 %2 s").arg(formatBytes(row.sizes[i])).arg(row.seconds.value(i), 0, 'f', 3);
        out +=
            QStringLiteral("\nscaling %1: size^%2  (%3)%4")
                .arg(row.shape)
                .arg(row.exponent, 0, 'f', 2)
                .arg(points.join(", "),
                     row.judgeable() ? QString() : QStringLiteral(" - not judged: too few sizes, or too fast, to fit"));
    }
    return out;
}

QString concurrencyTable(const QList<ConcurrencyRow>& concurrency)
{
    if (concurrency.isEmpty())
        return {};
    QString out = QStringLiteral("\n\nclients   MB/s in all  baseline   p50 s   p95 s  errors\n");
    for (const ConcurrencyRow& row : concurrency)
        out += QStringLiteral("%1 %2 %3 %4 %5 %6%7\n")
                   .arg(row.clients, 7)
                   .arg(mbps(row.mbPerSecond), 13)
                   .arg(mbps(row.baselineMBps), 9)
                   .arg(row.p50 > 0 ? QString::number(row.p50, 'f', 3) : QStringLiteral("-"), 7)
                   .arg(row.p95 > 0 ? QString::number(row.p95, 'f', 3) : QStringLiteral("-"), 7)
                   .arg(row.errors, 7)
                   .arg(row.firstError.isEmpty() ? QString() : QStringLiteral("  ") + row.firstError);
    return out;
}

QString memoryLine(const ProbeReport& report)
{
    if (report.pid <= 0)
        return QStringLiteral("\nmemory not watched: %1\n").arg(report.pidNote);
    if (report.peakGrowth == 0)
        return QStringLiteral("\nmemory of %1: no growth during any upload\n").arg(report.watched());
    return QStringLiteral("\nmemory of %1: peak growth %2 during one upload (%3, %4 per byte sent)\n")
        .arg(report.watched(), formatBytes(report.peakGrowth), report.peakShape)
        .arg(report.growthPerByte, 0, 'f', 2);
}

// What the figures cannot say by themselves: answers not checked, shapes left out, why the run stopped.
QString caveats(const ProbeReport& report)
{
    QString out;
    if (!report.uncheckedAnswers.isEmpty())
        out += QStringLiteral("answers not checked, longer than the 1 MiB read (an echo of a larger file?): %1\n")
                   .arg(report.uncheckedAnswers.join(QStringLiteral(", ")));
    if (!report.expectMissing.isEmpty())
        out += QStringLiteral("--expect's path names no number in the answers of %1: nothing was checked by it (a "
                              "typo in the path?)\n")
                   .arg(report.expectMissing.join(QStringLiteral(", ")));
    if (!report.skipped.isEmpty())
        out += QStringLiteral("left out by the budgets (--max-bytes, --max-time): %1\n").arg(report.skippedSummary());
    if (!report.unreachable.isEmpty())
        out += QStringLiteral("\nstopped: %1\n").arg(report.unreachable);
    return out;
}

QString findingLines(const ProbeReport& report)
{
    QString out;
    if (!report.redirect.isEmpty())
        out += QStringLiteral("answers: %1, counted as uploads taken (a form's redirect after its POST)\n")
                   .arg(report.redirect);
    else if (report.findings.isEmpty())
        out += report.cancelled ? QStringLiteral("\nno findings in what ran before the cancel\n")
               : report.skipped.isEmpty()
                   ? QStringLiteral("\nno findings\n")
                   : QStringLiteral("\nno findings in what ran (the budgets left the rest out)\n");
    else
        out += QStringLiteral("\n");
    for (const ProbeFinding& f : report.findings)
        out += QStringLiteral("FINDING %1: %2\n").arg(f.kind, f.message);
    return out;
}

} // namespace

QString ProbeReport::text() const
{
    QString out = QStringLiteral("probe of %1 (baseline %2)%3\n\n")
                      .arg(target.toString(), baseline.toString(),
                           cancelled ? QStringLiteral(": cancelled, what ran before it") : QString());
    if (!unreachable.isEmpty()) // stopped at the first upload: no table of nothing
        return out + QStringLiteral("stopped: %1\n").arg(unreachable);
    return out + shapesTable(shapes) + shapeNotes(shapes) + scalingLines(scaling) + concurrencyTable(concurrency) +
           memoryLine(*this) + caveats(*this) + findingLines(*this);
}

} // namespace upin::app
