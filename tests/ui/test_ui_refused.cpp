// The Listen tab lists refused requests beside captures: state "refused", the status and reason in words, in red,
// live and when read back from an earlier session; a refused row opens its record (head, answer, why and where).

#include "app/listener_fixture.h"
#include "capture/stored_captures.h"
#include "charts/part_timeline_chart.h"
#include "main_window.h"
#include "models/capture_list_model.h"
#include "service_wiring.h"
#include "support/wait_for.h"
#include "ui/wired_listener.h"
#include "views/hex_view.h"
#include "views/listen_view.h"
#include "views/refused_view.h"

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSettings>
#include <QTableView>
#include <QTest>

using namespace upin;

TEST_CASE("the Listen tab lists a PUT, a 404 path, a urlencoded POST and a POST without a boundary as refused, "
          "with status and reason, in red",
          "[ui][listen][refused]")
{
    QTemporaryDir dir; // outlives the listener: a later session reads it
    const QString root = dir.filePath("captures");
    {
        app::ServerConfig config;
        config.captureDir = root;
        test::ListenerFixture f(config);
        ui::ListenView view;
        QAbstractItemModelTester tester(view.model());
        QObject::connect(&f.listener, &app::Server::events, &view, &ui::ListenView::applyEvents);
        test::curl({"-X", "PUT", "--data-binary", "x", f.url("/file-part")});
        test::curl({"--data-binary", "x", f.url("/no-such-path")});
        test::curl({"--data-urlencode", "a=b", f.url("/file-part")});
        test::curl({"-H", "Content-Type: multipart/form-data", "--data-binary", "x", f.url("/file-part")});
        auto* model = view.model();
        for (int i = 0; i < 100 && model->rowCount() < 4; ++i)
            QTest::qWait(20);
        REQUIRE(model->rowCount() == 4);
        const QStringList expected{"refused 405: use POST", "refused 404: not found",
                                   "refused 415: Content-Type is not multipart/*",
                                   "refused 415: Content-Type has no boundary parameter"};
        const QStringList methods{"PUT", "POST", "POST", "POST"};
        const QStringList endpoints{"/file-part", "/no-such-path", "/file-part", "/file-part"};
        const QStringList statuses{"405", "404", "415", "415"};
        for (int row = 0; row < 4; ++row) {
            INFO(row);
            CHECK(model->row(row).state == app::CaptureState::Refused);
            const QModelIndex state = model->index(row, ui::CaptureListModel::State);
            CHECK(state.data().toString().startsWith(expected[row]));
            CHECK(state.data(Qt::ForegroundRole).value<QBrush>().color() == QColor(0xc0, 0x1c, 0x28));
            CHECK(model->index(row, ui::CaptureListModel::Method).data().toString() == methods[row]);
            CHECK(model->index(row, ui::CaptureListModel::Endpoint).data().toString() == endpoints[row]);
            CHECK(model->index(row, ui::CaptureListModel::Status).data().toString() == statuses[row]);
        }
    }
    // A later session reads them back from the rolling file, as it reads capture folders.
    const QList<app::CaptureSummary> stored = app::storedCaptures(root, 100);
    REQUIRE(stored.size() == 4);
    ui::CaptureListModel model;
    model.addStored(stored);
    CHECK(model.index(0, ui::CaptureListModel::State).data().toString() == "refused 405: use POST");
    CHECK(model.index(3, ui::CaptureListModel::Method).data().toString() == "POST");
    CHECK(model.index(3, ui::CaptureListModel::Endpoint).data().toString() == "/file-part");
    CHECK(model.index(3, ui::CaptureListModel::Status).data().toString() == "415");
}

TEST_CASE("a refused row's State is its answer's first clause, which fits the column, and its tooltip the whole",
          "[ui][listen][refused]")
{
    test::ListenerFixture f;
    ui::ListenView view;
    QObject::connect(&f.listener, &app::Server::events, &view, &ui::ListenView::applyEvents);
    test::curl({"-H", "Host: other.example", "--data-binary", "x", f.url("/file-part")});
    auto* model = view.model();
    UPIN_WAIT_FOR(model->rowCount() == 1, 5000);
    const QModelIndex state = model->index(0, ui::CaptureListModel::State);
    CHECK(state.data().toString() == "refused 421: this listener is not other.example");
    CHECK(state.data(Qt::ToolTipRole).toString().contains("call it by its address or localhost"));
}

TEST_CASE("a refused request does not take the timeline from the newest capture with parts", "[ui][listen][refused]")
{
    ui::ListenView view;
    auto event = [](app::CaptureEvent::Kind kind, quint64 id, app::CaptureState state) {
        app::CaptureEvent e;
        e.kind = kind;
        e.capture.id = id;
        e.capture.endpoint = "/file-part";
        e.capture.state = state;
        e.part.index = 0;
        e.part.name = "file";
        return e;
    };
    using Kind = app::CaptureEvent::Kind;
    view.applyEvents({event(Kind::CaptureStarted, 1, app::CaptureState::Receiving),
                      event(Kind::PartStarted, 1, app::CaptureState::Receiving),
                      event(Kind::PartFinished, 1, app::CaptureState::Receiving),
                      event(Kind::CaptureFinished, 1, app::CaptureState::Complete)});
    auto* timeline = view.findChild<ui::PartTimelineChart*>();
    REQUIRE(timeline);
    REQUIRE(timeline->barCount() == 1);
    view.applyEvents({event(Kind::CaptureFinished, 2, app::CaptureState::Refused)});
    CHECK(timeline->barCount() == 1); // still the upload's part, not "no parts" for the refused PUT
}

namespace {
// The refused row's window, opened with Return as a user opens any row: it reads the record off the GUI thread.
ui::RefusedView* openRefusedRow(ui::MainWindow& window, int row)
{
    auto* table = window.listenView()->findChild<QTableView*>();
    REQUIRE(table);
    table->setCurrentIndex(table->model()->index(row, 0));
    QTest::keyClick(table, Qt::Key_Return);
    ui::RefusedView* view = nullptr;
    REQUIRE(QTest::qWaitFor([&] { return (view = window.findChild<ui::RefusedView*>()) != nullptr; }, 10000));
    return view;
}
} // namespace

TEST_CASE("a refused request opens from the Listen list: its head as received, the answer sent, why and where",
          "[ui][listen][refused]")
{
    test::WiredWindow wired;
    ui::MainWindow& window = wired.window;
    const quint16 port = wired.port;
    const auto* model = window.listenView()->model();

    test::curl({"-X", "PUT", "-H", "X-Trace: put-1", "--data-binary", "x",
                QStringLiteral("http://127.0.0.1:%1/file-part").arg(port)});
    UPIN_WAIT_FOR(model->rowCount() == 1, 10000);
    ui::RefusedView* put = openRefusedRow(window, 0);
    CHECK(put->windowTitle() == "Refused: PUT /file-part");
    CHECK(put->summary()->text().contains("Answered 405</b>: use POST"));
    CHECK(put->head()->toPlainText().startsWith("PUT /file-part HTTP/1.1\n"));
    CHECK(put->head()->toPlainText().contains("X-Trace: put-1\n"));
    CHECK(put->answer()->toPlainText().startsWith("HTTP/1.1 405 Method Not Allowed\n"));
    CHECK(put->answer()->toPlainText().contains("Allow: POST\n"));
    CHECK(put->answer()->toPlainText().endsWith("\nuse POST\n"));
    // Opened again, the open window comes to the front: one window a refusal.
    QTest::keyClick(window.listenView()->findChild<QTableView*>(), Qt::Key_Return);
    QApplication::processEvents();
    CHECK(window.findChildren<ui::RefusedView*>().size() == 1);
    // Closed, then opened again at once (before the closed one's deferred delete): a new window shows.
    put->close(); // deletes itself
    QTest::keyClick(window.listenView()->findChild<QTableView*>(), Qt::Key_Return);
    const auto shown = [&window] {
        const auto views = window.findChildren<ui::RefusedView*>();
        return std::count_if(views.begin(), views.end(), [](QWidget* w) { return w->isVisible(); });
    };
    CHECK(shown() == 1);
    for (ui::RefusedView* view : window.findChildren<ui::RefusedView*>())
        view->close();
    UPIN_WAIT_FOR(window.findChild<ui::RefusedView*>() == nullptr, 5000);

    // A head that does not parse: the byte its error names is marked in the text and in the hex.
    const QByteArray bad = "POST /file-part HTTP/1.1\r\nHost: here\r\nNo colon in this line\r\n\r\n";
    CHECK(test::rawExchange(port, bad).startsWith("HTTP/1.1 400"));
    UPIN_WAIT_FOR(model->rowCount() == 2, 10000);
    REQUIRE(model->row(1).error);
    const quint64 offset = model->row(1).error->offset;
    REQUIRE(offset >= quint64(bad.indexOf("No colon")));
    REQUIRE(offset < quint64(bad.indexOf("\r\n\r\n")));
    ui::RefusedView* badView = openRefusedRow(window, 1);
    CHECK(badView->summary()->text().contains(QStringLiteral("byte %1 of the head").arg(offset)));
    CHECK(badView->hex()->markedOffset() == offset);
    const QList<QTextEdit::ExtraSelection> marked = badView->head()->extraSelections();
    REQUIRE(marked.size() == 1);
    const QString text = badView->head()->toPlainText();
    // The text drops each CR of a CR LF: the marked character is the byte's all the same.
    CHECK(text.at(marked[0].cursor.selectionStart()) == QLatin1Char(bad.at(qsizetype(offset))));
    CHECK(text.left(marked[0].cursor.selectionStart()).count('\n') == 2); // on the third line, as sent
}

TEST_CASE("readable bytes: CR LF as a line break, a bare CR and controls spelt, the offset's place kept",
          "[ui][refused]")
{
    const ui::ReadableBytes r = ui::readableBytes("GET / HTTP/1.1\r\nA: b\rc\x01\r\n\r\n", 22);
    CHECK(r.text == "GET / HTTP/1.1\nA: b\\x0dc\\x01\n\n");
    CHECK(r.position == r.text.indexOf("\\x01"));
    CHECK(ui::readableBytes("ab", 2).position == 2);
    CHECK(ui::readableBytes("ab", 3).position == -1);
}

TEST_CASE("a refused row whose record is gone says so, in a box that does not hold the window", "[ui][listen][refused]")
{
    test::WiredWindow wired;
    ui::MainWindow& window = wired.window;
    emit window.listenView()->refusedActivated(424242, "PUT /file-part\nrefused 405: use POST");
    QMessageBox* box = nullptr;
    REQUIRE(QTest::qWaitFor([&] { return (box = window.findChild<QMessageBox*>()) != nullptr; }, 10000));
    CHECK(box->text().startsWith("PUT /file-part\nrefused 405: use POST\n\n"));
    CHECK(box->text().contains("not in refused.jsonl"));
    CHECK_FALSE(box->isModal()); // the test goes on: nothing waits for the box to close
    CHECK(window.findChild<ui::RefusedView*>() == nullptr);
}
