// Inspect's Request row and narrow layouts, status-bar words, Compare's failed targets. (split from test_ui.cpp, which had grown past 1,600 lines)

#include "app/listener_fixture.h"
#include "bench/bench_worker.h"
#include "charts/bar_chart.h"
#include "charts/chart_export.h"
#include "charts/nice_axis.h"
#include "charts/part_timeline_chart.h"
#include "charts/throughput_chart.h"
#include "inspect/inspect_worker.h"
#include "inspect/part_bytes.h"
#include "main_window.h"
#include "models/capture_list_model.h"
#include "models/part_tree_model.h"
#include "models/plan_parts_model.h"
#include "sender/run_report.h"
#include "sender/sender.h"
#include "support/corpus_dir.h"
#include "support/view_reader.h"
#include "views/bench_view.h"
#include "views/compare_view.h"
#include "views/elided_label.h"
#include "views/inspect_view.h"
#include "views/listen_view.h"
#include "views/listener_settings_dialog.h"
#include "views/send_view.h"

#include "support/inspect_file.h"
#include "support/wait_for.h"

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBuffer>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QGraphicsTextItem>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTcpSocket>
#include <QTest>
#include <QTextBlock>
#include <QThread>
#include <QThreadPool>
#include <QTimer>
#include <QTreeView>
#include <QUrl>
#include <QValueAxis>

using namespace upin;

namespace {
using test::inspectFile;

QStringList headerRows(const QTableWidget* table)
{
    QStringList rows;
    for (int row = 0; row < table->rowCount(); ++row)
        rows << table->item(row, 0)->text() + ": " + table->item(row, 1)->text();
    return rows;
}
} // namespace

TEST_CASE("Inspect: the Request row shows the request line, fields, framing, client and timings, and its bytes",
          "[ui][inspect][request]")
{
    QTemporaryDir dir;
    ui::InspectView view;
    upin::test::ViewReader reader(view);
    // A whole request sent chunked, with a trailer field: the Request row says how it came on the wire.
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhello\r\n--b--\r\n";
    const QByteArray wire = "POST /upload?x=1 HTTP/1.1\r\nHost: example.test\r\nContent-Type: multipart/form-data; "
                            "boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n" +
                            QByteArray::number(20, 16) + "\r\n" + body.left(20) + "\r\n" +
                            QByteArray::number(body.size() - 20, 16) + "\r\n" + body.mid(20) +
                            "\r\n0\r\nX-Checksum: abc\r\n\r\n";
    const QString http = dir.filePath("chunked.http");
    {
        QFile f(http);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(wire);
    }
    const app::InspectResult chunked = inspectFile(http);
    view.showResult(chunked);
    REQUIRE(view.model()->rowCount() == 2);                              // Request, then the part
    CHECK(view.model()->part(view.tree()->currentIndex())->name == "a"); // the first part is chosen, as before
    view.tree()->setCurrentIndex(view.model()->index(0, 0));
    CHECK(view.model()->data(view.model()->index(0, ui::PartTreeModel::Filename), Qt::DisplayRole).toString() ==
          "POST /upload?x=1");
    CHECK(headerRows(view.headers()) == QStringList{"Host: example.test",
                                                    "Content-Type: multipart/form-data; boundary=b",
                                                    "Transfer-Encoding: chunked"});
    const QString text = view.text()->toPlainText();
    INFO(text.toStdString());
    CHECK(text.startsWith("POST /upload?x=1 HTTP/1.1\nHost: example.test\n"));
    CHECK(text.contains("chunked: 2 data chunks, 17 bytes of trailer fields"));
    const qsizetype headSize = wire.indexOf("\r\n\r\n") + 4;
    CHECK(text.contains(
        QStringLiteral("Body:       %1 bytes, %2 bytes on the wire").arg(body.size()).arg(wire.size() - headSize)));
    CHECK(text.contains(QStringLiteral("Head:       %1 bytes").arg(headSize)));
    CHECK(text.contains("Client:     not recorded"));
    // Hex shows the file from its request line, chunk sizes included; Save part saves the whole request.
    CHECK(view.hex()->toPlainText().contains(">00000000  50 4f 53 54 20")); // "POST "
    CHECK(view.savePartButton()->isEnabled());
    const app::PartBytes whole = app::locateRequest(chunked);
    CHECK(app::readPartBytes(whole, 0, wire.size() + 10) == wire);

    // A /capture capture keeps head.raw beside body.raw: the Request row reads both, and knows client and times.
    test::ListenerFixture f;
    auto sent =
        test::curl({"-F", "note=hi", "-F", "doc=@" + f.file("doc.bin", test::randomBytes(5000, 3)), f.url("/capture")});
    REQUIRE(sent.status == 200);
    const app::InspectResult capture = inspectFile(f.onlyCaptureFolder());
    view.showResult(capture);
    REQUIRE(view.model()->rowCount() == 3);
    REQUIRE(view.diagnostics()->count() == 1); // an empty list says so
    CHECK(view.diagnostics()->item(0)->text().startsWith("No diagnostics"));
    view.tree()->setCurrentIndex(view.model()->index(0, 0));
    const QString captured = view.text()->toPlainText();
    INFO(captured.toStdString());
    CHECK(captured.startsWith("POST /capture HTTP/1.1\n"));
    CHECK(captured.contains(QRegularExpression("Content-Length: \\d+ bytes")));
    CHECK(captured.contains("Client:     127.0.0.1:"));
    CHECK(captured.contains(QRegularExpression("Received:   \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d")));
    CHECK(captured.contains("Endpoint:   /capture, matcher simd, hash sha256; complete"));
    CHECK(headerRows(view.headers()).contains(QStringLiteral("Host: 127.0.0.1:%1").arg(f.listener.port())));
    CHECK(view.hex()->toPlainText().contains("head.raw"));
    const app::PartBytes request = app::locateRequest(capture);
    const QByteArray head = test::readAll(f.onlyCaptureFolder() + "/head.raw");
    CHECK(head.startsWith("POST /capture HTTP/1.1\r\n"));
    CHECK(head.endsWith("\r\n\r\n"));
    CHECK(app::readPartBytes(request, 0, 1 << 20) == head + test::readAll(f.onlyCaptureFolder() + "/body.raw"));
    QTemporaryDir out;
    QString error;
    REQUIRE(app::copyPartBytes(request, out.filePath("request.http"), &error));
    CHECK(test::readAll(out.filePath("request.http")) == app::readPartBytes(request, 0, 1 << 20));
    // The saved request opens again as a whole request with the same parts.
    const app::InspectResult reopened = inspectFile(out.filePath("request.http"));
    REQUIRE(reopened.report.parts.size() == 2);
    CHECK(reopened.report.parts[1].digest == capture.report.parts[1].digest);

    // Sent chunked, the body is stored de-chunked; the request saved from the Request row is one chunk, and
    // opens again with the same parts.
    test::ListenerFixture h;
    REQUIRE(test::curl({"-H", "Transfer-Encoding: chunked", "-F", "note=hi", "-F",
                        "doc=@" + h.file("doc.bin", test::randomBytes(70000, 4)), h.url("/capture")})
                .status == 200);
    const app::InspectResult chunkedCapture = inspectFile(h.onlyCaptureFolder());
    REQUIRE(app::copyPartBytes(app::locateRequest(chunkedCapture), out.filePath("chunked.http"), &error));
    const QByteArray saved = test::readAll(out.filePath("chunked.http"));
    const QByteArray storedBody = test::readAll(h.onlyCaptureFolder() + "/body.raw");
    CHECK(saved.endsWith(storedBody + "\r\n0\r\n\r\n"));
    CHECK(app::readPartBytes(app::locateRequest(chunkedCapture), 0, 1 << 20) == saved);
    const app::InspectResult again = inspectFile(out.filePath("chunked.http"));
    REQUIRE(again.report.parts.size() == 2);
    CHECK(again.report.parts[1].digest == chunkedCapture.report.parts[1].digest);
    CHECK(again.request.chunks == 1u);

    // A capture stored by an earlier version: no head.raw, and a request object of target, type and client only.
    {
        const QString old = h.onlyCaptureFolder();
        QFile::remove(old + "/head.raw");
        QFile json(old + "/capture.json");
        REQUIRE(json.open(QIODevice::ReadOnly));
        QJsonObject stored = QJsonDocument::fromJson(json.readAll()).object();
        json.close();
        const QJsonObject was = stored["request"].toObject();
        stored["request"] =
            QJsonObject{{"target", was["target"]}, {"content_type", was["content_type"]}, {"client", was["client"]}};
        REQUIRE(json.open(QIODevice::WriteOnly | QIODevice::Truncate));
        json.write(QJsonDocument(stored).toJson());
        json.close();
        view.showResult(inspectFile(old));
        view.tree()->setCurrentIndex(view.model()->index(0, 0));
        const QString described = view.text()->toPlainText();
        INFO(described.toStdString());
        CHECK(described.startsWith("/capture (not recorded: stored by an earlier version)\n"));
        CHECK(described.contains("chunked (chunk count (not recorded"));
        CHECK(described.contains("Head:       (not recorded"));
        CHECK_FALSE(described.contains("0 data chunks"));
        CHECK(view.hex()->toPlainText().startsWith("# body.raw only: this capture was stored before its head"));
    }

    // /file-part keeps the request's fields, not its bytes: Hex says so, and Save is off for the Request row.
    test::ListenerFixture g;
    REQUIRE(test::curl({"-F", "note=hi", g.url("/file-part")}).status == 200);
    view.showResult(inspectFile(g.onlyCaptureFolder()));
    view.tree()->setCurrentIndex(view.model()->index(0, 0));
    CHECK(view.hex()->toPlainText().contains("keeps the request's fields (in Headers), not its bytes"));
    CHECK_FALSE(view.savePartButton()->isEnabled());
    CHECK(view.text()->toPlainText().startsWith("POST /file-part HTTP/1.1\n"));
}

// Finding 7: opening a capture widened the window from 1024 to 1289 px, and the hex view's ASCII column was cut.
TEST_CASE("Inspect at 1024 px: a long title elides with the verdict first, and the hex view fits", "[ui][inspect]")
{
    test::ListenerFixture f;
    REQUIRE(
        test::curl({"-F",
                    "img=@" + f.file("a-rather-long-file-name-for-a-picture-of-a-cat.png", test::randomBytes(3000, 5)),
                    "-F", "note=hi", f.url("/capture")})
            .status == 200);
    ui::MainWindow window;
    window.resize(1024, 700);
    window.show();
    QApplication::processEvents();
    auto* view = window.inspectView();
    upin::test::ViewReader reader(*view);
    window.tabs()->setCurrentWidget(view);
    view->showResult(inspectFile(f.onlyCaptureFolder()));
    view->tree()->setCurrentIndex(view->model()->index(1, 0)); // the picture
    auto* tabs = qobject_cast<QTabWidget*>(view->hexPane()->parentWidget()->parentWidget());
    REQUIRE(tabs);
    tabs->setCurrentWidget(view->hexPane());
    QApplication::processEvents();
    CHECK(window.width() == 1024);
    CHECK(window.minimumSizeHint().width() <= 1024);
    INFO(view->title().toStdString());
    CHECK(view->title().contains(" — ok — 2 parts, ")); // the verdict comes before the boundary
    auto* title = view->findChild<ui::ElidedLabel*>();
    REQUIRE(title);
    CHECK(title->text() == view->title()); // on a line of its own, under the buttons: whole at 1024 px
    CHECK((title->wordWrap() && title->textFormat() == Qt::PlainText)); // a longer one wraps, not cut
    CHECK(title->toolTip().contains(view->title().toHtmlEscaped()));    // whole, as text (a plain tooltip)
    // Every hex line, offsets to ASCII, fits the view's width, and its first line, a note, wraps.
    const QFontMetrics metrics(view->hex()->font());
    const QStringList lines = view->hex()->toPlainText().split('\n', Qt::SkipEmptyParts);
    REQUIRE(lines.size() > 2);
    for (const QString& line : lines.mid(1))
        CHECK(metrics.horizontalAdvance(line) < view->hex()->viewport()->width());
    CHECK(view->hex()->horizontalScrollBar()->maximum() == 0);
}

// Finding 6: a header line that did not parse vanished from the Headers tab.
TEST_CASE("Inspect: a part's header line that did not parse shows in Headers, marked, with its bytes", "[ui][inspect]")
{
    QTemporaryDir dir;
    const QString path = dir.filePath("body.bin");
    {
        QFile f(path);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write("--b\r\nContent-Disposition: form-data; name=\"a\"\r\nthis line has no colon\r\n\r\nv\r\n--b--\r\n");
    }
    ui::InspectView view;
    upin::test::ViewReader reader(view);
    view.showResult(inspectFile(path));
    REQUIRE(view.model()->rowCount() == 1);
    const QStringList rows = headerRows(view.headers());
    INFO(rows.join(" | ").toStdString());
    REQUIRE(rows.size() == 2);
    CHECK(rows[0] == "Content-Disposition: form-data; name=\"a\"");
    CHECK(rows[1] == "⚠ not parsed: this line has no colon");
    INFO(view.headers()->item(1, 1)->toolTip().toStdString());
    CHECK(view.headers()->item(1, 1)->toolTip().startsWith("byte 47: malformed_header"));

    // Choosing a diagnostic in a later part's header lines selects that part (review: the selection stayed put).
    const QString two = dir.filePath("two.bin");
    {
        QFile f(two);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write("--b\r\nContent-Disposition: form-data; name=\"first\"\r\n\r\n1\r\n--b\r\nContent-Disposition: "
                "form-data; name=\"second\"\r\nno colon here\r\n\r\n2\r\n--b--\r\n");
    }
    view.showResult(inspectFile(two));
    REQUIRE(view.model()->part(view.tree()->currentIndex())->name == "first");
    int row = -1;
    for (int i = 0; i < view.diagnostics()->count(); ++i)
        if (view.diagnostics()->item(i)->text().contains("malformed_header"))
            row = i;
    REQUIRE(row >= 0);
    view.diagnostics()->setCurrentRow(row);
    CHECK(view.model()->part(view.tree()->currentIndex())->name == "second");
}

// A control byte in a value keeps its line: the header shows once, not again as a line left out, and the note names
// the byte.
TEST_CASE("Inspect: a header value with a control byte shows as kept, and its note names the byte", "[ui][inspect]")
{
    QTemporaryDir dir;
    const QString path = dir.filePath("body.bin");
    {
        QFile f(path);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write("--b\r\nContent-Disposition: form-data; name=\"a\"\r\nX-Esc: a\x1b[0m\r\nX-Tab: a\tb \xc3\xa9\r\n\r\n"
                "v\r\n--b--\r\n");
    }
    ui::InspectView view;
    upin::test::ViewReader reader(view);
    view.showResult(inspectFile(path));
    const QStringList rows = headerRows(view.headers());
    INFO(rows.join(" | ").toStdString());
    REQUIRE(rows.size() == 3);
    CHECK(rows[1] == "X-Esc: a\\x1b[0m");                        // the byte spelt out, not a glyph
    CHECK(rows[2] == QString::fromUtf8("X-Tab: a\tb \xc3\xa9")); // a TAB and UTF-8 as they are
    QStringList notes;
    for (int i = 0; i < view.diagnostics()->count(); ++i)
        notes << view.diagnostics()->item(i)->text();
    INFO(notes.join(" | ").toStdString());
    CHECK(notes.filter("control_byte_in_header").filter("(the byte is 0x1b)").size() == 1);
    // Each with its level, as Wireshark's expert info: the control byte a warning, the boundary guessed a note.
    REQUIRE(notes.filter("boundary_guessed").size() == 1);
    for (int i = 0; i < view.diagnostics()->count(); ++i) {
        const QListWidgetItem* item = view.diagnostics()->item(i);
        const bool note = item->text().contains("boundary_guessed");
        CHECK(item->toolTip().startsWith(note ? "note: " : "warning: "));
        CHECK(item->foreground().color() == (note ? QColor(0x77, 0x76, 0x7b) : QColor(0xb0, 0x6d, 0x00)));
        CHECK_FALSE(item->icon().isNull());
    }
}

TEST_CASE("clicks that change nothing on screen say what happened in the status bar", "[ui][status]")
{
    ui::MainWindow window;
    auto* send = window.sendView();
    QPushButton* sendButton = nullptr;
    QPushButton* curlButton = nullptr;
    for (auto* b : send->findChildren<QPushButton*>()) {
        if (b->text() == "Send")
            sendButton = b;
        if (b->text() == "Copy as c&url")
            curlButton = b;
    }
    REQUIRE(sendButton);
    REQUIRE(curlButton);
    sendButton->click(); // an empty plan
    CHECK(window.statusBar()->currentMessage().startsWith("Nothing to send"));
    send->partsModel()->addFiles({QStringLiteral(UPIN_DEFAULT_CORPUS) + "/README.md"});
    curlButton->click();
    CHECK(window.statusBar()->currentMessage() == "Copied a curl command that sends these 1 part"); // not "(s)"
    CHECK(QApplication::clipboard()->text().startsWith("curl "));
    window.inspectView()->onPartsSaved(2, {}); // what the inspect worker reports when Save all parts is done
    CHECK(window.statusBar()->currentMessage() == "Saved 2 parts");
}

TEST_CASE("Compare labels its bars by what tells the targets apart", "[ui][compare]")
{
    CHECK(ui::distinctLabels({"/part-event?matcher=kmp", "/part-event?matcher=simd"}) ==
          QStringList{"matcher=kmp", "matcher=simd"});
    CHECK(ui::distinctLabels({"/file-part", "/part-event"}) == QStringList{"file-part", "part-event"});
    CHECK(ui::distinctLabels({"/file-part"}) == QStringList{"/file-part"});
    CHECK(ui::distinctLabels({"/a?x=1", "/a?x=1&y=2"}) == QStringList{"x=1", "x=1&y=2"});
}

// Finding 8: failed targets became empty bars, and the table showed 0.000 s as if measured.
TEST_CASE("Compare: a target whose runs all failed reads as failed, not as a measured zero", "[ui][compare]")
{
    auto run = [](const QString& path, int status, const QByteArray& statusLine, const QString& error) {
        app::RunResult r;
        r.target = QUrl("http://127.0.0.1:8080" + path);
        r.bodyBytes = 10'000'000;
        r.httpStatus = status;
        r.statusLine = statusLine;
        r.error = error;
        r.lastByteSeconds = error.isEmpty() ? 0.9 : -1;
        r.totalSeconds = error.isEmpty() ? 1.0 : 0.01;
        return r;
    };
    ui::CompareView view;
    view.addRuns({run("/file-part", 200, "HTTP/1.1 200 OK", {}), run("/nothing", 404, "HTTP/1.1 404 Not Found", {}),
                  run("/refused", 0, {}, "Connection refused"), run("/refused", 0, {}, "Connection refused")});
    QTableWidget* table = view.table();
    REQUIRE(table->rowCount() == 3);
    CHECK(table->item(0, 6)->text() == "10.0");
    CHECK(table->item(0, 7)->text() == "ok");
    CHECK(table->item(0, 3)->text() == "1.00 s"); // durations as they read best (was 1.000)
    CHECK(table->item(1, 3)->text() == "—");      // no median seconds for a target with no good run
    CHECK(table->item(1, 6)->text() == "—");
    CHECK(table->item(1, 7)->text() == "1 of 1 failed (404 Not Found)");
    CHECK(table->item(2, 7)->text() == "2 of 2 failed (Connection refused)");
    CHECK(table->item(1, 7)->foreground().color() == QColor(0xc0, 0x1c, 0x28)); // the failure in red: Checks
    CHECK(table->item(1, 8)->foreground().color() != QColor(0xc0, 0x1c, 0x28)); // not Bound by
    CHECK(table->item(1, 8)->text() == "no run completed");
    const QStringList categories = view.chart()->categories()->categories();
    CHECK(categories == QStringList{"file-part", "<div align=\"center\">nothing<br>failed: 404 Not Found</div>",
                                    "<div align=\"center\">refused<br>failed: Connection refused</div>"});
    REQUIRE(view.chart()->whiskers().size() == 3);
    CHECK(view.chart()->whiskers()[1]->count() == 0); // no whisker at a zero not measured
    // The CLI's table says the same.
    const QString text = app::statsTable(app::statsByTarget(view.runs()));
    INFO(text.toStdString());
    CHECK(text.contains("1 of 1 failed (404 Not Found)"));
    CHECK_FALSE(text.contains("0.000"));

    // Two servers, one path: the labels name the servers (they read "file-part" twice before).
    app::RunResult other = run("/file-part", 0, {}, "Connection refused");
    other.target.setPort(9);
    view.addRuns({other});
    CHECK(view.chart()->categories()->categories().first() == ":8080/file-part");
    CHECK(view.chart()->categories()->categories().last() ==
          "<div align=\"center\">:9/file-part<br>failed: Connection refused</div>");

    // Issue 23, item 7: what bounded each target has a column, and a line under the chart says when the
    // matcher shows end to end.
    CHECK(view.table()->horizontalHeaderItem(8)->text() == "Bound by");
    auto* why = view.findChild<QLabel*>("compareWhy");
    REQUIRE(why);
    CHECK(why->text().contains("only where parsing bounds the run"));

    // Issue 23, item 12: the PNG is the chart at 1600 px with the statistics table under it, and a failed
    // group can be taken out of the comparison.
    const QImage picture = view.picture();
    CHECK(picture.width() == 1600);
    CHECK(picture.height() > 600 + 5 * view.fontMetrics().height()); // the header and four rows under the chart
    bool tableDrawn = false;                                         // dark text pixels in the band under the chart
    for (int y = 620; y < picture.height() && !tableDrawn; ++y)
        for (int x = 0; x < picture.width() && !tableDrawn; ++x)
            tableDrawn = qGray(picture.pixel(x, y)) < 100;
    CHECK(tableDrawn);
    QTemporaryDir dir;
    view.exportPngTo(dir.filePath("compare.png"));
    UPIN_WAIT_FOR(QFile::exists(dir.filePath("compare.png")), 5000);
    CHECK(QImage(dir.filePath("compare.png")).size() == picture.size());
    view.removeTarget(QUrl("http://127.0.0.1:8080/refused"));
    CHECK(view.table()->rowCount() == 3);
    CHECK(view.runs().size() == 3);
    for (int row = 0; row < view.table()->rowCount(); ++row)
        CHECK_FALSE(view.table()->item(row, 0)->text().endsWith("/refused"));
}

// Issue 23, item 12: runs grouped by URL alone mixed a PUT and a POST; a 405 that read every byte had a rate; the
// failure's words were cut on the bar ("failed: 405 Method Not A…").
TEST_CASE("Compare: one URL by two methods is two targets, a refused run has no rate, a failure's words wrap",
          "[ui][compare]")
{
    auto run = [](const QString& method, int status, const QByteArray& statusLine) {
        app::RunResult r;
        r.target = QUrl("http://127.0.0.1:8080/upload");
        r.method = method;
        r.bodyBytes = 10'000'000;
        r.httpStatus = status;
        r.statusLine = statusLine;
        r.lastByteSeconds = 0.9; // every byte sent, then the answer
        r.totalSeconds = 1.0;
        return r;
    };
    const app::RunResult refused = run("PUT", 405, "HTTP/1.1 405 Method Not Allowed");
    CHECK(refused.mbPerSecond() == 0);
    CHECK(app::runsToCsv({refused}).split('\n')[1].split(',')[9].isEmpty()); // mb_per_s
    CHECK(app::runsToCsv({refused}).split('\n')[1].endsWith(",PUT"));
    ui::CompareView view;
    view.resize(1024, 700);
    view.show();
    view.addRuns({run("POST", 201, "HTTP/1.1 201 Created"), refused});
    REQUIRE(view.table()->rowCount() == 2);
    CHECK(view.table()->item(0, 0)->text() == "http://127.0.0.1:8080/upload");
    CHECK(view.table()->item(1, 0)->text() == "PUT http://127.0.0.1:8080/upload");
    CHECK(view.table()->item(1, 6)->text() == "—");
    const QStringList categories = view.chart()->categories()->categories();
    CHECK(categories ==
          QStringList{"POST upload", "<div align=\"center\">PUT upload<br>failed: 405 Method Not<br>Allowed</div>"});
    QApplication::processEvents();
    // What Qt drew under the bars: the failure whole, nothing cut to "...".
    QStringList drawn;
    for (QGraphicsItem* item : view.chart()->scene()->items())
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible())
            drawn << text->toPlainText();
    CHECK(drawn.filter("Allowed").size() == 1);
    CHECK(drawn.filter("...").isEmpty());
    view.removeTarget(QUrl("http://127.0.0.1:8080/upload"), "PUT");
    CHECK(view.runs().size() == 1);
    CHECK(view.runs().first().method == "POST");
    // A form POST answered 303 See Other was taken: it has its rate. Runs all by PUT are named so, as in the table.
    CHECK(run("POST", 303, "HTTP/1.1 303 See Other").mbPerSecond() == 10.0);
    CHECK(run("POST", 302, "HTTP/1.1 302 Found").mbPerSecond() == 0); // an expired session sent to its login page
    view.clear();
    view.addRuns({run("PUT", 200, "HTTP/1.1 200 OK")});
    CHECK(view.chart()->categories()->categories() == QStringList{"PUT /upload"});
    CHECK(view.table()->item(0, 0)->text() == "PUT http://127.0.0.1:8080/upload");
}

// Finding 9: the bench switched to the last inspected file, even one with no boundary it could time.
