#include "probe/probe_html.h"

#include "common/byte_size.h"
#include "probe/probe_svg.h"

namespace upin::app {

namespace {

QString esc(const QString& text)
{
    return text.toHtmlEscaped();
}

QString cell(double value, int decimals, const QString& suffix = {})
{
    return value > 0 ? QString::number(value, 'f', decimals) + suffix : QStringLiteral("-");
}

QString row(const QStringList& cells, const QString& tag = QStringLiteral("td"))
{
    QString out = QStringLiteral("<tr>");
    for (const QString& c : cells) // figures stay on one line; words (a status, an error) wrap within the page
        out += QStringLiteral("<%1%2>%3</%1>")
                   .arg(tag, c.size() > 24 ? QStringLiteral(" class='text'") : QString(), esc(c));
    return out + QStringLiteral("</tr>\n");
}

QString shapeTable(const ProbeReport& report)
{
    QString out = QStringLiteral("<table>\n") + row({"shape", "bytes", "seconds", "MB/s", "baseline s", "vs baseline",
                                                     "vs plain", "status", "RSS growth"},
                                                    QStringLiteral("th"));
    for (const ShapeRow& r : report.shapes)
        out +=
            row({shapeLabel(r), r.bytes > 0 ? formatBytes(r.bytes) : QStringLiteral("-"), cell(r.seconds, 3),
                 cell(r.mbPerSecond(), 1), cell(r.baselineSeconds, 3), cell(r.vsBaseline(), 2, QStringLiteral("x")),
                 cell(r.vsPlain, 2, QStringLiteral("x")), !r.error.isEmpty() ? r.error : r.statusLine,
                 report.pid > 0 && r.seconds > 0 ? formatBytes(r.rssGrowth) : QStringLiteral("-")}); // not run: no 0 B
    return out + QStringLiteral("</table>\n");
}

QString scalingTable(const ProbeReport& report)
{
    QString out = QStringLiteral("<table>\n") + row({"shape", "k", "sizes and seconds"}, QStringLiteral("th"));
    for (const ScalingRow& r : report.scaling) {
        QStringList points;
        for (qsizetype i = 0; i < std::min(r.sizes.size(), r.seconds.size()); ++i)
            points << QStringLiteral("%1: %2 s").arg(formatBytes(r.sizes[i])).arg(r.seconds[i], 0, 'f', 3);
        out += row({r.shape, r.sizes.size() < 2 ? QStringLiteral("not run") : QString::number(r.exponent, 'f', 2),
                    points.join(QStringLiteral(", "))});
    }
    return out + QStringLiteral("</table>\n");
}

QString concurrencyTable(const ProbeReport& report)
{
    QString out = QStringLiteral("<table>\n") +
                  row({"clients", "MB/s in all", "baseline MB/s", "p50 s", "p95 s", "errors"}, QStringLiteral("th"));
    for (const ConcurrencyRow& r : report.concurrency)
        out += row({QString::number(r.clients), cell(r.mbPerSecond, 1), cell(r.baselineMBps, 1), cell(r.p50, 3),
                    cell(r.p95, 3),
                    r.errors > 0 ? QStringLiteral("%1: %2").arg(r.errors).arg(r.firstError) : QStringLiteral("0")});
    return out + QStringLiteral("</table>\n");
}

QString findingList(const ProbeReport& report)
{
    if (report.findings.isEmpty())
        return QStringLiteral("<p class='ok'>No findings: nothing here was slow, superlinear, buffered, refused or "
                              "misread.</p>\n");
    QString out = QStringLiteral("<ul class='findings'>\n");
    for (const ProbeFinding& f : report.findings)
        out += QStringLiteral("<li><b>%1</b> %2</li>\n").arg(esc(f.kind), esc(f.message));
    return out + QStringLiteral("</ul>\n");
}

QString memoryText(const ProbeReport& report)
{
    if (report.pid <= 0)
        return QStringLiteral("<p>Memory not watched: %1.</p>\n").arg(esc(report.pidNote));
    return QStringLiteral("<p>Process %1 grew by at most %2 during one upload (%3), %4 per byte sent.</p>\n")
        .arg(report.pid)
        .arg(formatBytes(report.peakGrowth), esc(report.peakShape.isEmpty() ? QStringLiteral("-") : report.peakShape))
        .arg(report.growthPerByte, 0, 'f', 2);
}

} // namespace

QByteArray probeHtml(const ProbeReport& report, const QDateTime& when)
{
    const QList<ChartSpec> charts = probeCharts(report);
    QString page =
        QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>Upload probe of %1</title>\n"
                       "<style>body{font-family:sans-serif;max-width:900px;margin:2em auto;color:#222}"
                       "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px "
                       "8px;text-align:right;white-space:nowrap}"
                       "td:first-child,th:first-child,.text{text-align:left}.text{white-space:normal;min-width:14em}."
                       "findings li{margin:.4em 0;color:#a00}"
                       ".ok{color:#070}svg{display:block;margin:1em 0}</style></head><body>\n"
                       "<h1>Upload probe of %1</h1>\n<p>%2 · baseline %3 · %4 sent in %5%6</p>\n<h2>Findings</h2>\n")
            .arg(esc(report.target.toString()), when.toString(Qt::ISODate), esc(report.baseline.toString()),
                 formatBytes(report.bytesSent), formatSeconds(report.seconds),
                 report.cancelled ? QStringLiteral(" · <b>cancelled</b>: what ran before it") : QString());
    page += findingList(report);
    if (!report.skipped.isEmpty())
        page += QStringLiteral("<p>Left out by the budgets: %1.</p>\n").arg(esc(report.skippedSummary()));
    page += QStringLiteral("<h2>Body shapes</h2>\n") + svgChart(charts[0]) + shapeTable(report);
    if (!report.scaling.isEmpty())
        page += QStringLiteral("<h2>Scaling</h2>\n") + svgChart(charts[1]) + scalingTable(report);
    if (!report.concurrency.isEmpty())
        page += QStringLiteral("<h2>Parallel uploads</h2>\n") + svgChart(charts[2]) + svgChart(charts[3]) +
                concurrencyTable(report);
    page += QStringLiteral("<h2>Memory</h2>\n") + (charts[4].hasData() ? svgChart(charts[4]) : QString()) +
            memoryText(report);
    page += QStringLiteral("<p><small>Made by upload-inspector-cli probe. Every figure is measured in the same "
                           "run as its baseline.</small></p>\n</body></html>\n");
    return page.toUtf8();
}

} // namespace upin::app
