// The Send tab's runs list (issue 48, item 4): failures read at a glance, the newest run is in sight, and the list
// shows several runs however the splitter below it is dragged.

#include "charts/throughput_chart.h"
#include "status_colors.h"
#include "views/run_list.h"
#include "views/send_view.h"

#include <catch2/catch.hpp>

#include <QHeaderView>
#include <QLineSeries>
#include <QTableWidget>
#include <QTest>

using namespace upin;

namespace {

app::RunResult finished(int run, int status, const QString& error = {})
{
    app::RunResult r;
    r.run = run;
    r.target = QUrl(QStringLiteral("http://127.0.0.1:8080/file-part"));
    r.httpStatus = status;
    if (status > 0)
        r.statusLine = "HTTP/1.1 " + QByteArray::number(status) + (status == 200 ? " OK" : " Not Found");
    r.error = error;
    r.totalSeconds = 0.2;
    return r;
}

} // namespace

TEST_CASE("the runs list colours a 404, a refused connection and a differing part red, a cancelled run grey",
          "[ui][send][runs]")
{
    ui::RunList list;
    list.addRun(finished(0, 200));
    list.addRun(finished(1, 404));
    list.addRun(finished(2, 0, QStringLiteral("Connection refused")));
    app::RunResult cancelled = finished(3, 0, QStringLiteral("cancelled"));
    cancelled.cancelled = true;
    list.addRun(cancelled);
    app::RunResult differed = finished(4, 200);
    differed.parts = {
        {QStringLiteral("file"), 3, QStringLiteral("aa"), QStringLiteral("bb"), app::PartCheck::State::Mismatch}};
    list.addRun(differed);
    const QTableWidget* table = list.table();
    REQUIRE(table->rowCount() == 5);
    for (int column = 0; column < table->columnCount(); ++column) {
        INFO("column " << column);
        CHECK(table->item(0, column)->foreground().style() == Qt::NoBrush); // a success keeps the theme's text
        CHECK(table->item(1, column)->foreground().color() == ui::status::failure());
        CHECK(table->item(2, column)->foreground().color() == ui::status::failure());
        CHECK(table->item(3, column)->foreground().color() == ui::status::muted());
        CHECK(table->item(4, column)->foreground().color() == ui::status::failure());
    }
}

TEST_CASE("the runs list keeps the newest run in sight and shows five rows however small its pane", "[ui][send][runs]")
{
    ui::RunList list;
    list.resize(700, 360); // the answer pane below takes two thirds
    list.show();
    REQUIRE(QTest::qWaitForWindowExposed(&list));
    QTableWidget* table = list.table();
    CHECK(table->viewport()->height() >= 5 * table->verticalHeader()->defaultSectionSize());
    for (int run = 0; run < 30; ++run) {
        list.runProgress(run, QStringLiteral("http://127.0.0.1:8080/file-part"), 10, 100, 0.1);
        const QRect shown = table->visualItemRect(table->item(run, 0));
        INFO("run " << run << " under way");
        CHECK(table->viewport()->rect().contains(shown));
        list.addRun(finished(run, 200));
    }
    CHECK(table->viewport()->rect().contains(table->visualItemRect(table->item(29, 0))));
}

TEST_CASE("the Send chart draws the run whose answer shows, and another run when its row is chosen", "[ui][send][runs]")
{
    ui::SendView view;
    QList<app::RunResult> runs;
    for (int run = 0; run < 3; ++run) { // a send of three runs of 2, 4 and 6 MB, each 100 ms
        app::RunResult r = finished(run, 200);
        r.bytesSent = quint64(run + 1) * 2'000'000;
        r.totalSeconds = 0.1;
        r.upload = {{50, r.bytesSent / 2}, {100, r.bytesSent}};
        view.onRunFinished(r);
        view.setReceivedSamples({{100, r.bytesSent}}, run); // the listener's side, after the run's end
        runs.append(r);
    }
    view.onFinished(runs);
    // The first run's answer shows (the send's first), and so does its chart: it drew the third's.
    CHECK(view.results()->currentRow() == 0);
    CHECK(view.chart()->sentSeries()->points().last().y() == Approx(2.0));
    CHECK(view.chart()->receivedSeries()->points().last().y() == Approx(2.0));
    view.results()->setCurrentCell(2, 0);
    CHECK(view.chart()->sentSeries()->points().last().y() == Approx(6.0));
    CHECK(view.chart()->receivedSeries()->points().last().y() == Approx(6.0));
}
