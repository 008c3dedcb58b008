// The Send tab's throughput chart: the sent and received curves on one time base, and their rates.

#include "charts/throughput_chart.h"

#include <catch2/catch.hpp>

#include <QChart>
#include <QLineSeries>

using namespace upin;

TEST_CASE("the throughput chart holds the run's samples", "[ui][charts]")
{
    ui::ThroughputChart chart;
    chart.setSent({{100, 1000000}, {200, 3000000}});
    chart.setReceived({{150, 2000000}});
    REQUIRE(chart.sentSeries()->count() == 3); // the origin, then each sample
    CHECK(chart.sentSeries()->at(2) == QPointF(0.2, 3.0));
    CHECK(chart.receivedSeries()->at(1) == QPointF(0.15, 2.0));
    // The listener's clock starts once it has read the head, after the sender's: a curve that would show bytes
    // received before they were sent is moved right by the least that prevents it, and starts flat.
    chart.setReceived({{50, 1000000}, {150, 3000000}});
    REQUIRE(chart.receivedSeries()->count() == 4);
    CHECK(chart.receivedSeries()->at(1).x() == Approx(0.05));
    CHECK(chart.receivedSeries()->at(1).y() == 0);
    CHECK(chart.receivedSeries()->at(2).x() == Approx(0.1));
    CHECK(chart.receivedSeries()->at(3).x() == Approx(0.2));
    chart.setSent({{50, 1000000}, {150, 3000000}}); // a new sent curve moves it again: here not at all
    REQUIRE(chart.receivedSeries()->count() == 3);
    CHECK(chart.receivedSeries()->at(2) == QPointF(0.15, 3.0));
    chart.setReceived({{150, 2000000}});
    chart.setSent({{100, 1000000}, {200, 3000000}});
    // Finding 8: the rate beside the total: 1 MB in the first 100 ms, then 2 MB in the next; each rate the
    // average over the run so far in its first half second (issue 23, item 2: a moving window, not spikes).
    REQUIRE(chart.sentRateSeries()->count() == 2);
    CHECK(chart.sentRateSeries()->at(0).x() == Approx(0.1));
    CHECK(chart.sentRateSeries()->at(0).y() == Approx(10.0));
    CHECK(chart.sentRateSeries()->at(1).y() == Approx(15.0));
    CHECK(chart.sentRateSeries()->name() == "MB/s sent");
    CHECK(chart.chart()->title().endsWith("(a 0.5 s moving average)")); // once, where a legend entry is not cut
    // Samples closer than 100 ms are merged into one step, so jitter does not show as spikes.
    chart.setSent({{100, 1000000}, {120, 1500000}, {200, 3000000}});
    REQUIRE(chart.sentRateSeries()->count() == 2);
    CHECK(chart.sentRateSeries()->at(1).y() == Approx(15.0));
    // A last stretch shorter than a step still ends the line at the run's end: one rate point would draw nothing.
    chart.setSent({{100, 1000000}, {190, 3000000}});
    REQUIRE(chart.sentRateSeries()->count() == 2);
    CHECK(chart.sentRateSeries()->at(1).x() == Approx(0.19));
    CHECK(chart.sentRateSeries()->at(1).y() == Approx(3.0 / 0.19));
    // Past the first half second, the window moves: a burst and a pause average out (1 MB every 100 ms, then
    // 3 MB at once, then nothing: no 30 MB/s spike, no zero).
    QList<app::ThroughputSample> bursty;
    for (int i = 1; i <= 10; ++i)
        bursty.append({qint64{100} * i, quint64(i) * 1000000});
    bursty.append({1100, 13000000});
    bursty.append({1200, 13000000});
    chart.setSent(bursty);
    const auto rates = chart.sentRateSeries()->points();
    REQUIRE(rates.size() == 12);
    CHECK(rates[9].y() == Approx(10.0));                // 0.5 to 1.0 s: 5 MB
    CHECK(rates[10].y() == Approx((13.0 - 6.0) / 0.5)); // 0.6 to 1.1 s: the burst shared over the window
    CHECK(rates[11].y() == Approx((13.0 - 7.0) / 0.5)); // and the pause too
    // A run shorter than a step still has its rate: the average, flat across it (review: none was drawn).
    chart.setSent({{50, 1000000}});
    REQUIRE(chart.sentRateSeries()->count() == 2);
    CHECK(chart.sentRateSeries()->at(0).y() == Approx(20.0));
    CHECK(chart.sentRateSeries()->at(1).x() == Approx(0.05));
    CHECK(chart.receivedRateSeries()->at(0).y() == Approx(2.0 / 0.15));
    // Over the time its bytes took, not the wait for the answer after them (the run's last sample, flat).
    chart.setSent({{20, 1000000}, {90, 1000000}});
    REQUIRE(chart.sentRateSeries()->count() == 2);
    CHECK(chart.sentRateSeries()->at(0).y() == Approx(50.0));
    CHECK(chart.sentRateSeries()->at(1).x() == Approx(0.02));
    // All of it handed over in its first millisecond: no time to measure, so over the run (it drew no line).
    chart.setSent({{0, 1000000}, {40, 1000000}});
    REQUIRE(chart.sentRateSeries()->count() == 2);
    CHECK(chart.sentRateSeries()->at(0).y() == Approx(25.0));
    // A run under 1 MB in kB, and its rate under 1 MB/s in kB/s: a 5 KB run's axis read 0.000 to 0.005 MB.
    chart.setReceived({});
    chart.setSent({{2000, 5000}});
    CHECK(chart.sentSeries()->at(1) == QPointF(2.0, 5.0));
    CHECK(chart.sentSeries()->name() == "kB sent");
    CHECK(chart.sentRateSeries()->at(0).y() == Approx(2.5));
    CHECK(chart.sentRateSeries()->name() == "kB/s sent");
    CHECK(chart.chart()->title().startsWith("kB sent and received"));
    chart.setSent({{100, 1000000}, {200, 3000000}});
    CHECK(chart.sentSeries()->name() == "MB sent");
    // More received than the sent line shows yet (it takes a point per 100 ms): those bytes went after its last
    // point, and are drawn after it, never above it.
    chart.setSent({{100, 1000000}});
    chart.setReceived({{50, 2000000}});
    CHECK(chart.receivedSeries()->points().last().x() > 0.1);
}
