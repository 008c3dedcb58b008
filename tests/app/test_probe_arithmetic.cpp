// The probe's arithmetic, apart from any server: the scaling exponent, the findings' thresholds, what a regression
// is, and how the RSS chart thins a long probe's samples. Whole probes of real servers are in test_probe.cpp.

#include "probe/probe_charts.h"
#include "probe/probe_html.h"
#include "probe/probe_report.h"

#include <catch2/catch.hpp>

#include <QJsonArray>

#include <algorithm>
#include <cmath>

using namespace upin;

TEST_CASE("probe arithmetic: the scaling exponent, the findings' thresholds and what a regression is", "[probe]")
{
    QList<quint64> sizes{4 << 20, 8 << 20, 16 << 20, 32 << 20};
    QList<double> quadratic, linear;
    for (quint64 s : sizes) {
        quadratic << std::pow(double(s) / 1e6, 2) / 100;
        linear << double(s) / 1e9 + 0.001;
    }
    CHECK(app::fitExponent(sizes, quadratic) == Approx(2.0).epsilon(0.01));
    CHECK(app::fitExponent(sizes, linear) < 1.0);
    CHECK(app::fitExponent({4 << 20}, {0.1}) == 0); // one size: no fit

    app::ProbeReport report;
    report.pid = 42;
    auto row = [](const QString& shape, quint64 bytes, double seconds, quint64 growth) {
        app::ShapeRow r;
        r.shape = shape, r.bytes = bytes, r.seconds = seconds, r.rssGrowth = growth;
        return r;
    };
    report.shapes = {row("plain", 64 << 20, 0.1, 1 << 20), row("crlf-dense", 64 << 20, 0.19, 0),
                     row("near-miss", 64 << 20, 0.35, 40 << 20)};
    report.scaling = {{"near-miss", sizes, quadratic, app::fitExponent(sizes, quadratic)},
                      // Two sizes 1.25x apart at 2 ms fit any exponent from noise: not judged.
                      {"plain", {4 << 20, 5 << 20}, {0.0015, 0.0023}, 1.75}};
    // Clients, MB/s in all, the baseline's MB/s at that count, p50, p95, errors, the first, uploads in the rounds.
    report.concurrency = {{1, 600, 1000, 0.1, 0.1, 0, {}, 2},
                          {2, 900, 1000, 0.1, 0.1, 0, {}, 4},
                          {4, 500, 1000, 0.3, 0.4, 0, {}, 8},
                          {8, 880, 1000, 0.5, 0.6, 1, "reset", 16}};
    app::addFindings(report);
    QStringList found;
    for (const auto& f : report.findings)
        found << f.kind + ":" + f.shape;
    INFO(found.join(", ").toStdString());
    CHECK(found.contains("slow_shape:near-miss"));        // 3.5x slower than plain
    CHECK_FALSE(found.contains("slow_shape:crlf-dense")); // 1.9x: under the threshold, could be noise
    // What the budgets left out, said short: the steps counted, each shape or phase named once.
    app::ProbeReport short_;
    short_.skipped = {"plain: run 2 of 2", "scaling plain: 4.00 MiB, run 1 of 2", "scaling plain: 8.00 MiB, run 1 of 2",
                      "2 parallel uploads: baseline, round 1 of 2", "2 parallel uploads, round 1 of 2"};
    CHECK(short_.skippedSummary() == "5 steps: plain, scaling plain (2), 2 parallel uploads (2)");
    CHECK(short_.text().contains("no findings in what ran (the budgets left the rest out)"));
    // A shape that looked slow but was not when timed again right after plain is not a finding, and says so.
    app::ProbeReport busy;
    busy.shapes = {row("plain", 64 << 20, 0.1, 0), row("dash-dense", 64 << 20, 0.3, 0)};
    busy.shapes[1].recheckVsPlain = 1.1;
    app::addFindings(busy);
    CHECK(busy.findings.isEmpty());
    CHECK(busy.text().contains("dash-dense looked 3.0x slower than plain, but 1.1x when timed again"));
    busy.shapes[1].recheckVsPlain = 2.9;
    busy.findings.clear();
    app::addFindings(busy);
    REQUIRE(busy.findings.size() == 1);
    CHECK(busy.findings[0].message.endsWith("2.9x again when timed right after plain"));
    CHECK(found.contains("buffers_in_memory:near-miss")); // 40 MiB of 64
    CHECK_FALSE(found.contains("buffers_in_memory:plain"));
    // The window probing its own listener watches its own process, the probe's buffers in it: not a finding.
    app::ProbeReport self = report;
    self.findings.clear();
    self.watchedSelf = true;
    app::addFindings(self);
    CHECK(std::none_of(self.findings.cbegin(), self.findings.cend(),
                       [](const app::ProbeFinding& f) { return f.kind == "buffers_in_memory"; }));
    CHECK(found.contains("superlinear:near-miss"));
    CHECK(found.count("concurrency_collapse:plain") == 2); // 4 clients fell below 70% of 900, and 8 had an error
    for (const auto& f : report.findings)
        if (f.message.contains("failed"))
            CHECK(f.message.startsWith("1 of 16 uploads failed in rounds of 8 parallel: reset"));
    // Where the baseline fell as much (the client's own threads taking the cores), the server did not collapse.
    app::ProbeReport crowded;
    crowded.concurrency = {{1, 600, 1000, 0.1, 0.1, 0, {}, 2}, {2, 330, 560, 0.1, 0.1, 0, {}, 4}};
    app::addFindings(crowded);
    CHECK(crowded.findings.isEmpty());
    // Nor where the server's own rate rose and only the baseline's jumped more (busboy, 1 to 2 clients).
    app::ProbeReport rose;
    rose.concurrency = {{1, 469, 515, 0.1, 0.1, 0, {}, 2}, {2, 628, 1047, 0.1, 0.1, 0, {}, 4}};
    app::addFindings(rose);
    CHECK(rose.findings.isEmpty());
    // Nor a fall in a count measured once (the budget left out its second round): 16 at 253 MB/s after 8 at 445,
    // seen once against our own /file-part, and 417 and 466 in two probes of both rounds after it.
    app::ProbeReport once;
    once.concurrency = {{8, 445, 1486, 0.1, 0.1, 0, {}, 16}, {16, 253, 1425, 0.5, 0.5, 0, {}, 16}};
    app::addFindings(once);
    CHECK(once.findings.isEmpty());
    once.concurrency.last().uploads = 32;
    app::addFindings(once);
    CHECK(once.findings.size() == 1);
    // A server of one thread beside 2 clients on two cores keeps 2/3 of a core: busboy at 0.54x of 1 client's rate
    // (CI) is that, not a collapse; a third of it is one. Where the server is elsewhere (no cores), 0.54x is one.
    app::ProbeReport shared;
    shared.cores = 2;
    shared.concurrency = {{1, 1487, 1930, 0.1, 0.1, 0, {}, 2}, {2, 804, 1915, 0.1, 0.1, 0, {}, 4}};
    app::addFindings(shared);
    CHECK(shared.findings.isEmpty());
    shared.concurrency.last().mbPerSecond = 500;
    app::addFindings(shared);
    CHECK(shared.findings.size() == 1);
    shared.findings.clear(), shared.cores = 0, shared.concurrency.last().mbPerSecond = 804;
    app::addFindings(shared);
    CHECK(shared.findings.size() == 1);
    // Rounds that fail as plain alone failed (a 413 for every body) are plain's finding, not a collapse per round.
    app::ProbeReport refused;
    refused.findings = {{"rejected_valid_body", "plain", "a valid plain body of 8 MiB was refused: 413"}};
    refused.concurrency = {{1, 0, 1400, 0, 0, 2, "413", 2}, {2, 0, 1500, 0, 0, 4, "413", 4}};
    app::addFindings(refused);
    CHECK(refused.findings.size() == 1);
    // A shape 2.2x slower by 3 ms of a 256 KiB body is a shared machine's moment, not a finding.
    app::ProbeReport tiny;
    tiny.shapes = {row("plain", 256 << 10, 0.0023, 0), row("random", 256 << 10, 0.0051, 0)};
    app::addFindings(tiny);
    CHECK(tiny.findings.isEmpty());
    // A form shape's finding says what it means: a cost per part (our own listener's many-fields, 10.7x).
    app::ProbeReport form;
    form.shapes = {row("plain", 8 << 20, 0.01, 0), row("many-fields", 1'929'000, 0.030, 0)};
    form.shapes[1].parts = 10'000, form.shapes[1].plainSameSizeSeconds = 0.003, form.shapes[1].recheckVsPlain = 9.5;
    app::addFindings(form);
    REQUIRE(form.findings.size() == 1);
    CHECK(form.findings[0].message.contains("0.003 s for 1.84 MiB): 2.7 µs more for each of its 10000 parts"));
    // What the budgets left out reads "not run" in the charts and the page, not 0 MB/s or k = 0.00.
    app::ProbeReport cut;
    cut.target = QUrl("http://127.0.0.1:9/u");
    cut.shapes = {row("plain", 8 << 20, 0.01, 0), row("near-miss", 0, -1, 0)};
    cut.scaling = {{"plain", {}, {}, 0}};
    cut.pid = 4242; // a watched server: the shape not run has no RSS growth, not "0 B"
    CHECK(app::shapeLabel(cut.shapes[1]) == "near-miss (not run)");
    CHECK(app::scalingLabel(cut.scaling[0]) == "plain, not run");
    // Two sizes in a few ms fit any k: the legend says it is not judged, and no number that reads as a finding.
    CHECK(app::scalingLabel({"plain", {1 << 20, 2 << 20}, {0.002, 0.003}, 0.44}) == "plain, k not judged");
    CHECK(app::scalingLabel({"plain", {1 << 20, 4 << 20, 16 << 20}, {0.01, 0.04, 0.16}, 1.0}) == "plain, k = 1.00");
    const QString page = QString::fromUtf8(app::probeHtml(cut, QDateTime::currentDateTime()));
    CHECK(page.contains("<tr><td>near-miss (not run)</td><td>-</td><td>-</td><td>-</td>"));
    CHECK(page.contains("<td>-</td></tr>\n</table>")); // its RSS growth, the shape table's last cell
    const QJsonArray shapes = cut.toJson()["shapes"].toArray();
    CHECK(shapes[1].toObject()["rss_growth_bytes"].isNull()); // and in the JSON: null, not 0
    CHECK(shapes[0].toObject()["rss_growth_bytes"].toInteger() == 0);
    CHECK(page.contains("<tr><td>plain</td><td>not run</td>"));
    CHECK_FALSE(page.contains("k = 0.00"));

    app::ProbeReport earlier = report;
    earlier.findings.removeIf([](const app::ProbeFinding& f) { return f.kind == "superlinear"; });
    earlier.shapes[0].seconds = 0.05; // plain was twice as fast
    const QStringList worse = app::regressions(app::ProbeReport::fromJson(earlier.toJson()), report);
    INFO(worse.join("\n").toStdString());
    REQUIRE(worse.size() == 2);
    CHECK(worse[0].startsWith("plain: "));
    CHECK(worse[1].startsWith("new finding superlinear"));
    CHECK(app::regressions(app::ProbeReport::fromJson(report.toJson()), report).isEmpty());
    // With baseline figures, by the time against the baseline's: a machine twice as slow all over is no regression.
    app::ProbeReport before = report, slowMachine = report;
    before.shapes[0].baselineSeconds = 0.05;
    slowMachine.shapes[0].seconds = 0.2, slowMachine.shapes[0].baselineSeconds = 0.1;
    CHECK(app::regressions(app::ProbeReport::fromJson(before.toJson()), slowMachine).filter("plain").isEmpty());
    slowMachine.shapes[0].seconds = 0.3; // 3x the baseline's time, was 2x
    CHECK(app::regressions(app::ProbeReport::fromJson(before.toJson()), slowMachine)
              .contains("plain: 224 MB/s, was 671 MB/s; 3.00x the baseline's time, was 2.00x"));
    app::ProbeReport quickBaseline = before; // the same server; only the baseline's run was quicker
    quickBaseline.shapes[0].baselineSeconds = 0.03;
    CHECK(app::regressions(app::ProbeReport::fromJson(before.toJson()), quickBaseline).filter("plain").isEmpty());
}

TEST_CASE("the RSS chart keeps at most 600 points of a long probe's samples, and every peak and trough among them",
          "[probe]")
{
    app::ProbeReport report;
    report.pid = 42;
    for (int i = 0; i < 30'000; ++i) // ten minutes at 20 ms: a saw tooth, one tooth per 1000 samples
        report.rss.append({i * 0.02, quint64(100 + i % 1000) << 20});
    report.rss[12'345].rss = quint64{5000} << 20; // one spike
    const app::ChartSpec memory = app::probeCharts(report).last();
    REQUIRE(memory.series.size() == 1);
    const QList<QPointF>& points = memory.series.first().points;
    CHECK(points.size() <= 600);
    CHECK(points.size() >= 500);
    CHECK(std::is_sorted(points.cbegin(), points.cend(), [](QPointF a, QPointF b) { return a.x() < b.x(); }));
    const auto [low, high] =
        std::minmax_element(points.cbegin(), points.cend(), [](QPointF a, QPointF b) { return a.y() < b.y(); });
    CHECK(high->y() == 5000);
    CHECK(high->x() == Approx(12'345 * 0.02));
    CHECK(low->y() == 100);
    CHECK(memory.title == "RSS of process 42");
}
