// Statuses that keep what the user needs in sight and say what to do (issue 23, item 11).

#include "main_window.h"
#include "models/plan_parts_model.h"
#include "service_wiring.h"
#include "ui/wired_listener.h"
#include "views/elided_label.h"
#include "views/listen_view.h"
#include "views/send_view.h"

#include "charts/part_timeline_chart.h"
#include "support/wait_for.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QGraphicsSimpleTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace upin;

namespace {

app::CaptureEvent handshakeFailed(const QString& client, const QString& error)
{
    app::CaptureEvent e;
    e.kind = app::CaptureEvent::Kind::TlsHandshakeFailed;
    e.capture.client = client;
    e.capture.errorDetail = error;
    return e;
}

// The Listen tab's status line: the one ElidedLabel whose text says where it listens.
const ui::ElidedLabel* listeningStatus(const ui::ListenView& view)
{
    for (const auto* label : view.findChildren<ui::ElidedLabel*>())
        if (label->fullText().startsWith(QLatin1String("Listening on")))
            return label;
    return nullptr;
}

} // namespace

TEST_CASE("a failed TLS handshake keeps the listening address first and says what to do", "[ui][listen][status]")
{
    ui::ListenView view;
    view.resize(1200, 700); // the advice holds a path: at this width a status line would cut it
    view.show();
    view.setListening(true, "127.0.0.1", 8080, "/home/u/.local/share/UploadInspector/captures");
    view.setTls("https://localhost:8443", "/home/u/.local/share/UploadInspector/tls/cert.pem", "AB:CD");
    auto* trouble = view.findChild<QLabel*>("tlsTrouble");
    REQUIRE(trouble);
    CHECK(!trouble->isVisible());
    // What OpenSSL says here when curl is not given the certificate, then when plain HTTP comes to the TLS port.
    view.applyEvents({handshakeFailed(
        "127.0.0.1:52492", "Error during SSL handshake: error:0A000418:SSL routines::tlsv1 alert unknown ca")});
    const ui::ElidedLabel* status = listeningStatus(view);
    REQUIRE(status);
    CHECK(status->fullText() == "Listening on http://127.0.0.1:8080 and https://localhost:8443 — "
                                "/home/u/.local/share/UploadInspector/captures");
    CHECK(trouble->isVisible());
    CHECK(trouble->text() ==
          "1 TLS handshake(s) failed, the last from 127.0.0.1:52492: the client does not trust "
          "this certificate: give it --cacert /home/u/.local/share/UploadInspector/tls/cert.pem (curl), or add "
          "it to its trust store");
    CHECK(trouble->wordWrap());
    CHECK(trouble->width() <= view.width()); // all of it shown: it wraps rather than being cut
    CHECK(trouble->height() >= trouble->heightForWidth(trouble->width()));
    CHECK(trouble->toolTip().contains("tlsv1 alert unknown ca"));
    CHECK(status->toolTip().contains("tlsv1 alert unknown ca"));
    view.applyEvents(
        {handshakeFailed("127.0.0.1:52506", "Error during SSL handshake: error:0A00009C:SSL routines::http request")});
    CHECK(trouble->text().contains("2 TLS handshake(s) failed, the last from 127.0.0.1:52506: the client spoke "
                                   "plain HTTP to the HTTPS port"));
    // An error we cannot explain is shown as it is.
    view.applyEvents({handshakeFailed("127.0.0.1:52510", "The remote host closed the connection")});
    CHECK(trouble->text().contains("the last from 127.0.0.1:52510: The remote host closed the connection"));
    view.setListening(false, {}, 0, {}); // stopped: the trouble of a listener that is gone goes with it
    CHECK(!trouble->isVisible());
    view.applyEvents({handshakeFailed("127.0.0.1:52511", "The remote host closed the connection")});
    view.setListening(true, "127.0.0.1", 8080, "/c"); // a restart counts afresh
    CHECK(status->fullText() == "Listening on http://127.0.0.1:8080 — /c");
    CHECK(!trouble->isVisible());
}

TEST_CASE("a window whose port is taken skips the forwarder's port and says which it took", "[ui][listen][status]")
{
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings")); // not the user's
    QTcpServer other; // another instance, or another server
    REQUIRE(other.listen(QHostAddress::LocalHost, 0));
    const quint16 port = other.serverPort();
    QSettings().setValue(QStringLiteral("forward/port"), port + 1);
    ui::MainWindow window;
    ui::ServiceWiring wiring(window, dir.filePath("captures"));
    REQUIRE(wiring.startListener(port));
    CHECK(window.listenerStatus() ==
          QStringLiteral("Port %1 was in use: listening on http://127.0.0.1:%2").arg(port).arg(port + 2));
}

TEST_CASE("files that cannot be added to the Send tab are named, not dropped without a word", "[ui][send][status]")
{
    QTemporaryDir dir;
    QFile real(dir.filePath("real.bin"));
    REQUIRE(real.open(QIODevice::WriteOnly));
    real.write("x");
    real.close();
    ui::MainWindow window;
    window.sendView()->addFiles({real.fileName(), dir.filePath("missing.bin"), dir.path()});
    CHECK(window.sendView()->partsModel()->rowCount() == 1);
    CHECK(window.statusBar()->currentMessage() ==
          QStringLiteral("Not added: %1, %2: not a file").arg(dir.filePath("missing.bin"), dir.path()));
}

TEST_CASE("the Listen tab says how much the captures folder holds, beside its path", "[ui][listen][status]")
{
    ui::ListenView view;
    view.setListening(true, "127.0.0.1", 8080, "/c");
    const ui::ElidedLabel* status = listeningStatus(view);
    REQUIRE(status);
    view.setFolderUsage(quint64{1288490189}, quint64{5} << 30);
    CHECK(status->fullText() == "Listening on http://127.0.0.1:8080 — 1.20 GiB of 5.00 GiB in /c");
    view.setFolderUsage(quint64{2048}, 0);
    CHECK(status->fullText().endsWith(" — 2.00 KiB, no size limit in /c"));
}

TEST_CASE("at 1024x700 the Listen tab lists ten captures with their State, and the timeline keeps its labels",
          "[ui][listen][layout]")
{
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings")); // not the user's
    ui::MainWindow window;
    window.resize(1024, 700);
    window.show();
    ui::ListenView* view = window.listenView();
    window.tabs()->setCurrentWidget(view);
    view->setListening(true, "127.0.0.1", 8080, "/c");
    QList<app::CaptureEvent> batch;
    for (quint64 id = 1; id <= 20; ++id) {
        app::CaptureEvent e;
        e.kind = app::CaptureEvent::Kind::CaptureFinished;
        e.capture.id = id;
        e.capture.endpoint = "/file-part";
        e.capture.client = "127.0.0.1:50000";
        e.capture.state = app::CaptureState::Complete;
        e.capture.bytes = 117000;
        batch.append(e);
    }
    view->applyEvents(batch);
    QApplication::processEvents();
    auto* table = view->findChild<QTableView*>();
    REQUIRE(table);
    const int lastShown = table->rowAt(table->viewport()->height() - 1);
    CHECK((lastShown == -1 ? table->model()->rowCount() : lastShown + 1) >= 10);
    // The newest capture in sight as rows arrive (a fresh walk found it under the bottom edge).
    QApplication::processEvents();
    const QRect newest = table->visualRect(table->model()->index(table->model()->rowCount() - 1, 0));
    CHECK(newest.bottom() <= table->viewport()->height());
    CHECK(newest.top() >= 0);
    auto* header = table->horizontalHeader();
    const int state = ui::CaptureListModel::State;
    CHECK(header->sectionViewportPosition(state) + header->sectionSize(state) <= table->viewport()->width());
    auto* panes = view->findChild<QSplitter*>("listenPanes");
    REQUIRE(panes);
    CHECK(panes->sizes().last() >= 160);                              // the timeline: room for its labels
    CHECK(panes->sizes().first() < 5 * view->fontMetrics().height()); // the examples: a few lines, sized by the user
    // Whole lines of them: the next line's top does not peek out under the last (a walk read it as a cut command).
    auto* examples = qobject_cast<QPlainTextEdit*>(panes->widget(0));
    REQUIRE(examples);
    const int spacing = examples->fontMetrics().lineSpacing();
    const int text = examples->viewport()->height() - int(examples->document()->documentMargin());
    CHECK(text % spacing == 0);
    CHECK(text / spacing >= 3);
    CHECK(examples->horizontalScrollBar()->maximum() == 0); // long lines wrap
    // No filter note, no room kept for one: the filter takes its row.
    CHECK_FALSE(view->findChild<QWidget*>("captureFilterNote")->isVisible());
    CHECK(panes->isCollapsible(0));
    // Twenty parts: the timeline shows as many as keep their whole labels (at least five here), and says so.
    auto* timeline = view->findChild<ui::PartTimelineChart*>();
    REQUIRE(timeline);
    ui::CaptureListModel::Row row;
    for (qint64 i = 0; i < 20; ++i)
        row.partSpans.append({QStringLiteral("field_number_%1").arg(i), i * 10, i * 10 + 8});
    row.elapsedMs = 200;
    timeline->setCapture(row);
    QApplication::processEvents();
    QApplication::processEvents(); // the refit after the layout is queued
    const int shown = timeline->barCount();
    CHECK(shown >= 5);
    CHECK(timeline->chart()->title().contains(
        QStringLiteral("first %1 of 20 parts: a taller chart shows more").arg(shown)));
    // Each shown part keeps its whole label, and no two labels overlap.
    CHECK(timeline->rowLabels().size() == shown);
    QList<QRectF> drawn;
    for (QGraphicsItem* item : timeline->scene()->items())
        if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
            CHECK(timeline->rowLabels().indexOf(text->text()) == text->text().mid(13).toInt()); // field_number_N
            drawn << text->sceneBoundingRect();
        }
    REQUIRE(drawn.size() == shown);
    std::sort(drawn.begin(), drawn.end(), [](const QRectF& a, const QRectF& b) { return a.top() < b.top(); });
    for (int i = 1; i < shown; ++i)
        CHECK(!drawn[i].intersects(drawn[i - 1]));
    // A name longer than a quarter of the chart is cut in the middle, and the whole of it shows on hover.
    const QString longName = "file (holiday-photos-from-the-summer-of-2026-at-the-seaside-number-01.png)";
    row.partSpans = {{longName, 0, 8}};
    timeline->setCapture(row);
    QApplication::processEvents();
    bool hovered = false;
    for (QGraphicsItem* item : timeline->scene()->items())
        if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
            CHECK(text->text().contains(QChar(0x2026)));
            hovered = text->toolTip().contains(longName);
        }
    CHECK(hovered);
}

TEST_CASE("a size limit of 0 saved by a version whose default was no limit becomes the 5 GiB default, one chosen "
          "now stays",
          "[ui][listen][settings]")
{
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings")); // not the user's
    QSettings().setValue(QStringLiteral("listen/keepBytes"), 0); // as the old default was written
    {
        ui::MainWindow window;
        ui::ServiceWiring wiring(window, dir.filePath("captures"));
        test::startOnFreePort(wiring);
        const ui::ElidedLabel* status = listeningStatus(*window.listenView());
        REQUIRE(status);
        UPIN_WAIT_FOR(status->fullText().contains("of 5.00 GiB in "), 5000);
    }
    QSettings().remove(QStringLiteral("listen/keepBytes"));
    QSettings().setValue(QStringLiteral("listen/sizeLimit"), 0); // "no size limit", chosen in Settings…
    ui::MainWindow window;
    ui::ServiceWiring wiring(window, dir.filePath("captures"));
    test::startOnFreePort(wiring);
    const ui::ElidedLabel* status = listeningStatus(*window.listenView());
    UPIN_WAIT_FOR(status->fullText().contains("no size limit in "), 5000);
}
