// The Send tab follows a run while it goes (issue 23, item 2): its row from the first byte, and our own
// listener's received bytes drawn as they arrive, not only when the run has ended.

#include "charts/throughput_chart.h"
#include "main_window.h"
#include "sender/run_report.h"
#include "service_wiring.h"
#include "support/wait_for.h"
#include "ui/wired_listener.h"
#include "views/compare_view.h"
#include "views/send_view.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QComboBox>
#include <QLineSeries>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace upin;

TEST_CASE("a send to our own listener: its row from the first byte and the received line before the run ends",
          "[ui][send][charts][live]")
{
    test::WiredWindow wired;
    ui::MainWindow& window = wired.window;
    const quint16 port = wired.port;
    ui::SendView* send = window.sendView();
    app::PlanPart big;
    big.kind = app::PlanPart::Kind::Synthetic;
    big.name = QStringLiteral("big");
    big.size = quint64{768} << 20; // long enough to be seen going, on any machine here
    big.fill = app::PlanPart::Fill::Zero;
    send->partsModel()->setParts({big});
    auto* target = send->findChild<QComboBox*>("sendTarget");
    REQUIRE(target);
    target->setCurrentText(QStringLiteral("http://127.0.0.1:%1/part-event").arg(port));
    auto* sendButton = send->findChild<QPushButton*>("sendButton");
    REQUIRE(sendButton);
    sendButton->click();
    bool rowWhileSending = false, receivedWhileSending = false, aheadOfSent = false;
    QElapsedTimer clock;
    clock.start();
    // Until the run's answer is in the table (its row no longer says "sending…").
    auto finished = [&] {
        auto* status = send->results()->item(0, 2);
        return status && !status->text().startsWith("sending");
    };
    while (!finished() && clock.elapsed() < 60000) {
        QTest::qWait(20);
        if (finished())
            break;
        auto* status = send->results()->item(0, 2);
        rowWhileSending = rowWhileSending || (status && status->text().startsWith("sending… "));
        receivedWhileSending = receivedWhileSending || send->chart()->receivedSeries()->count() > 2;
        // Both lines on one time base: never more received than sent at the same moment (review: the sent
        // clock started at the previous run's end, and received showed above sent).
        const auto sent = send->chart()->sentSeries()->points();
        for (const QPointF& r : send->chart()->receivedSeries()->points()) {
            if (sent.size() < 2 || r.x() > sent.last().x())
                break;
            auto after = std::find_if(sent.begin(), sent.end(), [&](const QPointF& p) { return p.x() >= r.x(); });
            const QPointF b = *after, a = after == sent.begin() ? b : *(after - 1);
            const double sentThen = b.x() > a.x() ? a.y() + (b.y() - a.y()) * (r.x() - a.x()) / (b.x() - a.x()) : b.y();
            // In the chart's unit: kB until a megabyte has gone.
            const double perMB = send->chart()->sentSeries()->name().startsWith("kB") ? 1000 : 1;
            aheadOfSent = aheadOfSent || r.y() > sentThen + 0.03 * double(big.size) / 1e6 * perMB;
        }
    }
    CHECK_FALSE(aheadOfSent);
    REQUIRE(finished());
    CHECK(send->results()->rowCount() == 1); // the running row became the run's row, not a second one
    CHECK(send->results()->item(0, 2)->text() == "200 OK");
    CHECK(rowWhileSending);
    CHECK(receivedWhileSending);
    CHECK(send->chart()->receivedSeries()->points().last().y() == Approx(double(big.size) / 1e6).epsilon(0.02));
}

TEST_CASE("a cancelled send keeps the received line it drew while it went", "[ui][send][charts][live]")
{
    test::WiredWindow wired;
    ui::MainWindow& window = wired.window;
    const quint16 port = wired.port;
    ui::SendView* send = window.sendView();
    app::PlanPart big;
    big.kind = app::PlanPart::Kind::Synthetic;
    big.name = QStringLiteral("big");
    big.size = quint64{4} << 30; // never sent whole: cancelled once the listener has said it received some
    big.fill = app::PlanPart::Fill::Zero;
    send->partsModel()->setParts({big});
    send->findChild<QComboBox*>("sendTarget")
        ->setCurrentText(QStringLiteral("http://127.0.0.1:%1/part-event").arg(port));
    send->findChild<QPushButton*>("sendButton")->click();
    QElapsedTimer clock;
    clock.start();
    while (send->chart()->receivedSeries()->count() < 4 && clock.elapsed() < 30000)
        QTest::qWait(20);
    REQUIRE(send->chart()->receivedSeries()->count() >= 4);
    auto* cancel = send->findChild<QPushButton*>("sendCancel");
    REQUIRE(cancel);
    cancel->click();
    auto finished = [&] {
        auto* status = send->results()->item(0, 2);
        return status && !status->text().startsWith("sending");
    };
    while (!finished() && clock.elapsed() < 60000)
        QTest::qWait(20);
    REQUIRE(finished());
    QTest::qWait(100);
    CHECK(send->chart()->receivedSeries()->count() >= 4); // the received line stays with the cancelled run
}

// A fresh walk found every row "Run 1" (each send numbered from 1) and "7 ms" under a "Seconds" header; then the
// table said 1..4 while Compare and the exports said 1, 2, 1, 2.
TEST_CASE("the session's runs are numbered through it, in the Send table and in Compare alike, under a Time header",
          "[ui][send]")
{
    test::WiredWindow wired;
    ui::MainWindow& window = wired.window;
    const quint16 port = wired.port;
    ui::SendView* send = window.sendView();
    app::PlanPart note;
    note.name = QStringLiteral("note");
    note.value = QStringLiteral("hello");
    send->partsModel()->setParts({note});
    send->findChild<QComboBox*>("sendTarget")->setCurrentText(QStringLiteral("http://127.0.0.1:%1/discard").arg(port));
    auto* sendButton = send->findChild<QPushButton*>("sendButton");
    for (int round = 1; round <= 2; ++round) {
        sendButton->click();
        UPIN_WAIT_FOR(send->results()->rowCount() == round && sendButton->isEnabled(), 20000);
    }
    UPIN_WAIT_FOR(window.compareView()->runs().size() == 2, 5000);
    CHECK(send->results()->item(0, 0)->text() == "1");
    CHECK(send->results()->item(1, 0)->text() == "2");
    CHECK(window.compareView()->runs()[1].run == 1); // the CSV and JSON exports' "run" is 2 as well
    CHECK(app::runsToCsv(window.compareView()->runs()).split('\n')[2].split(',')[1] == "2");
    CHECK(send->results()->horizontalHeaderItem(3)->text() == "Time");
}
