// The bench, Compare, the part timeline, Inspect of captures and HAR files, exports, axes. (split from test_ui.cpp, which had grown past 1,600 lines)

#include "app/listener_fixture.h"
#include "bench/bench_worker.h"
#include "charts/bar_chart.h"
#include "charts/chart_export.h"
#include "charts/nice_axis.h"
#include "charts/part_timeline_chart.h"
#include "charts/throughput_chart.h"
#include "inspect/inspect_worker.h"
#include "inspect/part_bytes.h"
#include "inspect/resend.h"
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
#include <QHeaderView>
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

#include "support/wait_for.h"
#include "ui/ui_samples.h"

using namespace upin;
using upin::test::event;

TEST_CASE("matcher bench: every strategy and the ceiling are timed and charted", "[ui][bench]")
{
    app::BenchWorker worker;
    QSignalSpy finished(&worker, &app::BenchWorker::finished);
    app::BenchRequest request;
    request.shape = core::BenchInput::Mixed;
    request.size = 1 << 20;
    request.runs = 1;
    worker.run(request);
    REQUIRE(finished.size() == 1);
    auto result = finished.first().first().value<app::BenchResult>();
    REQUIRE(result.entries.size() == 4);
    for (const auto& e : result.entries) {
        CHECK(e.ok);
        CHECK(e.gbps > 0);
    }
    ui::BenchView view;
    view.showResult(result);
    // Issue 23, item 7: the three matchers are bars; the memchr ceiling is a dashed line to measure them by,
    // named in the legend, not a bar of the same colour; each bar says what its strategy does.
    CHECK(view.chart()->values()->count() == 3);
    CHECK(view.chart()->categories()->categories() == QStringList{"kmp", "chunked", "simd"});
    QLineSeries* ceiling = view.chart()->referenceLine();
    REQUIRE(ceiling->isVisible());
    REQUIRE(ceiling->count() == 2);
    CHECK(ceiling->at(0).y() == Approx(result.entries[0].gbps).margin(0.01));
    CHECK(ceiling->at(1).x() == Approx(2.5)); // across the three bars
    CHECK(ceiling->name().startsWith("memchr reference"));
    CHECK(ceiling->pen().style() == Qt::DashLine);
    for (const char* strategy : {"kmp", "chunked", "simd"})
        CHECK(ui::BenchView::strategyToolTip(strategy).startsWith(QString::fromLatin1(strategy) + ": "));
}

TEST_CASE("compare view groups runs by target with median bars and min-max whiskers", "[ui][compare]")
{
    QList<app::RunResult> runs;
    for (auto [url, seconds] :
         {std::pair{"http://h/file-part?matcher=kmp", 2.0}, std::pair{"http://h/file-part?matcher=simd", 1.0},
          std::pair{"http://h/file-part?matcher=kmp", 4.0}}) {
        app::RunResult r;
        r.target = QUrl(url);
        r.httpStatus = 200;
        r.totalSeconds = seconds;
        r.lastByteSeconds = seconds; // the whole body was sent
        r.bodyBytes = 8000000;
        runs.append(r);
    }
    ui::CompareView view;
    const auto enabledButtons = [&view] {
        QStringList enabled;
        for (auto* button : view.findChildren<QPushButton*>())
            if (button->isEnabled())
                enabled << button->text();
        return enabled;
    };
    CHECK(enabledButtons().isEmpty()); // nothing to export or clear yet
    view.addRuns(runs);
    CHECK(enabledButtons().size() == 3);
    REQUIRE(view.table()->rowCount() == 2);
    CHECK(view.table()->item(0, 2)->text() == "2");
    CHECK(view.table()->item(0, 1)->text() == "7.63 MiB");
    CHECK(view.bodiesDiffer()->isHidden());
    CHECK(view.chart()->values()->count() == 2);
    CHECK(view.chart()->values()->at(0) == 3.0); // median of 4 and 2 MB/s
    CHECK(view.chart()->whiskers().size() == 2);
    // Labelled by what differs; a two-target query fits its ~140 px at 1024 px.
    CHECK(view.chart()->categories()->categories() == QStringList{"matcher=kmp", "matcher=simd"});
    // A path with a query: the query on a line of its own, escaped (axis labels are rich text).
    app::RunResult other = runs.first();
    other.target = QUrl("http://h/part-event?a=1&b=2");
    view.addRuns({other});
    CHECK(view.chart()->categories()->categories().last() == "<div align=\"center\">part-event<br>?a=1&amp;b=2</div>");
}

TEST_CASE("the part timeline shows when each part of a capture started and ended", "[ui][charts]")
{
    ui::CaptureListModel model;
    auto started = event(app::CaptureEvent::Kind::CaptureStarted, 3, 0);
    auto part0 = event(app::CaptureEvent::Kind::PartStarted, 3, 10);
    part0.part.index = 0;
    part0.part.name = "file";
    part0.part.filename = "a.bin";
    part0.capture.elapsedMs = 2;
    auto end0 = event(app::CaptureEvent::Kind::PartFinished, 3, 100);
    end0.capture.elapsedMs = 40;
    auto part1 = event(app::CaptureEvent::Kind::PartStarted, 3, 110);
    part1.part.index = 1;
    part1.capture.elapsedMs = 41;
    model.apply({started, part0, end0, part1});
    const auto& row = model.row(0);
    REQUIRE(row.partSpans.size() == 2);
    CHECK(row.partSpans[0].label == "0 file (a.bin)");
    CHECK(row.partSpans[0].startMs == 2);
    CHECK(row.partSpans[0].endMs == 40);
    CHECK(row.partSpans[1].endMs == -1); // still arriving
    ui::PartTimelineChart chart;
    chart.setCapture(row);
    CHECK(chart.barCount() == 2);
    // A row listed from disk has parts but no times; a rejected one has none: the chart says which, with no axis.
    ui::CaptureListModel::Row stored = row;
    stored.partSpans.clear();
    stored.parts = 3;
    chart.setCapture(stored);
    CHECK(chart.barCount() == 0);
    CHECK(chart.chart()->title().endsWith(": part times are kept for this session's captures only"));
    stored.parts = 0;
    chart.setCapture(stored);
    CHECK(chart.chart()->title().endsWith(": no parts"));
    auto* time = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).first());
    REQUIRE(time);
    CHECK_FALSE(time->labelsVisible()); // were "…" under an empty chart
    chart.setCapture(stored);           // empty again, then parts: the unit once, not once per empty capture
    chart.setCapture(row);
    CHECK(time->labelFormat().endsWith("f ms"));
    CHECK_FALSE(time->labelFormat().endsWith("ms ms"));
}

TEST_CASE("HAR files: each request is a node, a multipart one with its parts", "[ui][inspect]")
{
    QTemporaryDir dir;
    const QString body = "--b\r\nContent-Disposition: form-data; name=\"a\"; filename=\"a.txt\"\r\n\r\nhello\r\n"
                         "--b\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\nvalue\r\n--b--\r\n";
    QJsonObject multipart{{"method", "POST"},
                          {"url", "https://example.test/upload"},
                          {"postData", QJsonObject{{"mimeType", "multipart/form-data; boundary=b"}, {"text", body}}}};
    QJsonObject json{{"method", "POST"},
                     {"url", "https://example.test/api"},
                     {"postData", QJsonObject{{"mimeType", "application/json"}, {"text", "{}"}}}};
    QJsonObject har{{"log", QJsonObject{{"entries", QJsonArray{QJsonObject{{"request", json}},
                                                               QJsonObject{{"request", multipart}}}}}}};
    QFile file(dir.filePath("session.har"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(har).toJson());
    file.close();
    app::InspectWorker worker;
    QSignalSpy finished(&worker, &app::InspectWorker::finished);
    worker.open(file.fileName());
    auto result = finished.first().first().value<app::InspectResult>();
    ui::InspectView view;
    upin::test::ViewReader reader(view);
    view.showResult(result);
    REQUIRE(view.model()->rowCount() == 2); // the JSON request is listed too, without parts
    CHECK(view.model()->rowCount(view.model()->index(0, 0)) == 0);
    QModelIndex request = view.model()->index(1, 0);
    CHECK(view.model()->data(view.model()->index(1, ui::PartTreeModel::Name), Qt::DisplayRole).toString() ==
          "POST https://example.test/upload");
    REQUIRE(view.model()->rowCount(request) == 2);
    CHECK(view.model()
              ->data(view.model()->index(0, ui::PartTreeModel::Digest, request), Qt::ToolTipRole)
              .toString()
              .toStdString() == test::sha256("hello"));
}

TEST_CASE("a capture from our own sender shows per part whether the hash matched what was sent", "[ui][inspect]")
{
    test::ListenerFixture f;
    const QByteArray data = test::randomBytes(100000, 31);
    auto r = test::curl({"-F", "doc=@" + f.file("doc.bin", data), "-F", "note=hi", f.url("/capture")});
    REQUIRE(r.status == 200);
    const QString id = r.json["capture_id"].toString();
    app::InspectWorker worker;
    QSignalSpy finished(&worker, &app::InspectWorker::finished);
    worker.open(f.onlyCaptureFolder());
    ui::InspectView view;
    upin::test::ViewReader reader(view);
    view.rememberSentHashes(id.toULongLong(), {QString::fromStdString(test::sha256(data)), QStringLiteral("0000")});
    view.showResult(finished.first().first().value<app::InspectResult>());
    REQUIRE(view.model()->rowCount() == 3); // the Request row, then the two parts
    CHECK(view.model()->headerData(ui::PartTreeModel::Digest, Qt::Horizontal, Qt::DisplayRole).toString() == "SHA-256");
    CHECK_FALSE(view.tree()->isColumnHidden(ui::PartTreeModel::Sent)); // shown for a capture of our own send
    CHECK(view.model()->data(view.model()->index(1, ui::PartTreeModel::Sent), Qt::DisplayRole).toString() ==
          "✓ matches");
    CHECK(view.model()->data(view.model()->index(2, ui::PartTreeModel::Sent), Qt::DisplayRole).toString() ==
          "✗ differs");
    // The same with XXH3: the column is named for the capture's hash, and compares that hash.
    auto fast = test::curl({"-F", "doc=@" + f.file("doc.bin", data), f.url("/part-event?hash=xxh3")});
    REQUIRE(fast.status == 200);
    auto xxh3 = test::curl({"-F", "doc=@" + f.file("doc.bin", data), f.url("/capture?hash=xxh3")});
    const QString xxh3Id = xxh3.json["capture_id"].toString();
    const QStringList folders = QDir(f.listener.captureRoot()).entryList({"capture-*-" + xxh3Id + "-capture"});
    REQUIRE(folders.size() == 1);
    const QString& folder = folders.first();
    QSignalSpy again(&worker, &app::InspectWorker::finished);
    worker.open(QDir(f.listener.captureRoot()).filePath(folder));
    view.rememberSentHashes(xxh3Id.toULongLong(), {QString::fromStdString(test::digest(core::HashKind::Xxh3, data))});
    view.showResult(again.first().first().value<app::InspectResult>());
    CHECK(view.model()->headerData(ui::PartTreeModel::Digest, Qt::Horizontal, Qt::DisplayRole).toString() ==
          "XXH3-128");
    CHECK(view.model()->data(view.model()->index(1, ui::PartTreeModel::Digest), Qt::ToolTipRole).toString() ==
          QString::fromStdString(test::digest(core::HashKind::Xxh3, data)));
    CHECK(view.model()->data(view.model()->index(1, ui::PartTreeModel::Sent), Qt::DisplayRole).toString() ==
          "✓ matches");
    // the raw body was kept, so the part bytes are readable for the previews
    CHECK(view.hex()->toPlainText().contains(">0000"));
}

TEST_CASE("a /file-part capture is fully inspectable: image, hex, text, field values, Save part, Copy as curl",
          "[ui][inspect][capture]")
{
    test::ListenerFixture f;
    QImage picture(96, 64, QImage::Format_RGB32);
    for (int y = 0; y < picture.height(); ++y)
        for (int x = 0; x < picture.width(); ++x)
            picture.setPixel(x, y, qRgb(x * 2, y * 3, 128));
    QByteArray jpeg;
    QBuffer buffer(&jpeg);
    REQUIRE(picture.save(&buffer, "JPEG"));
    const QByteArray data = test::randomBytes(3 << 20, 41);
    auto sent = test::curl({"-F", "photo=@" + f.file("photo.jpg", jpeg), "-F", "note=hello from curl", "-F",
                            "data=@" + f.file("u3m.bin", data), f.url("/file-part")});
    REQUIRE(sent.status == 200);
    app::InspectWorker worker;
    QSignalSpy finished(&worker, &app::InspectWorker::finished);
    worker.open(f.onlyCaptureFolder());
    const auto result = finished.first().first().value<app::InspectResult>();
    REQUIRE(result.bodyFile.isEmpty()); // /file-part keeps no raw body: everything below reads part files and values
    ui::InspectView view;
    upin::test::ViewReader reader(view);
    // What the window's wiring does with Copy as curl, off the GUI thread there: the command to this listener.
    const QString base = QStringLiteral("http://127.0.0.1:%1").arg(f.listener.port());
    QObject::connect(&view, &ui::InspectView::copyCurlRequested, [base](const app::InspectResult& source, int entry) {
        QString why;
        QApplication::clipboard()->setText(app::resendCommandFor(source, base, {}, &why, base, entry).value_or(why));
    });
    view.showResult(result);
    REQUIRE(view.model()->rowCount() == 4); // the Request row, then the three parts

    view.tree()->setCurrentIndex(view.model()->index(1, 0)); // the photo
    REQUIRE_FALSE(view.image()->pixmap().isNull());
    CHECK(view.hex()->toPlainText().contains(">00000000  ff d8 ff")); // offsets from the part's first byte
    CHECK(view.hex()->toPlainText().contains("offsets from its first byte"));
    CHECK(view.savePartButton()->isEnabled());
    view.tree()->setCurrentIndex(view.model()->index(2, 0)); // the field, kept inline
    CHECK(view.text()->toPlainText() == "hello from curl");
    CHECK(view.hex()->toPlainText().contains("68 65 6c 6c 6f")); // "hello"

    QTemporaryDir out;
    QList<app::PartCopy> copies;
    for (const auto& part : result.report.parts)
        copies.append({app::locatePart(result, part), out.filePath(QString::number(part.index))});
    QSignalSpy saved(&worker, &app::InspectWorker::partsSaved);
    worker.saveParts(copies);
    REQUIRE(saved.size() == 1);
    CHECK(saved.first().at(1).toStringList().isEmpty());
    CHECK(test::readAll(out.filePath("0")) == jpeg);
    CHECK(test::readAll(out.filePath("1")) == "hello from curl");
    CHECK(test::readAll(out.filePath("2")) == data);

    // Copy as curl sends the same parts again: every hash the listener reports is the one it reported before.
    REQUIRE(view.copyCurlButton()->isEnabled());
    QApplication::clipboard()->clear();
    view.copyCurlButton()->click();
    const QString command = QApplication::clipboard()->text();
    REQUIRE(command.startsWith("curl "));
    QProcess shell;
    shell.start("bash", {"-c", command + " -s"});
    REQUIRE(shell.waitForFinished(60000));
    const QJsonObject again = QJsonDocument::fromJson(shell.readAllStandardOutput()).object();
    REQUIRE(again["parts"].toArray().size() == 3);
    for (const QString name : {"photo", "note", "data"}) {
        INFO(name.toStdString());
        CHECK(test::partNamed(again, name)["sha256"] == test::partNamed(sent.json, name)["sha256"]);
        CHECK(test::partNamed(again, name)["filename"] == test::partNamed(sent.json, name)["filename"]);
    }
}

TEST_CASE("a capture whose parts were not all kept says so, and Copy as curl says why it is off", "[ui][inspect]")
{
    test::ListenerFixture f;
    const QByteArray big = test::randomBytes(2 << 20, 43);
    test::CurlResult sent;
    const QString path = f.file("big.bin", big);
    {
        test::FileSizeLimit limit(1 << 20);
        sent = test::curl({"-F", "big=@" + path, f.url("/file-part")});
    }
    REQUIRE(sent.status == 507);
    app::InspectWorker worker;
    QSignalSpy finished(&worker, &app::InspectWorker::finished);
    worker.open(f.onlyCaptureFolder());
    ui::InspectView view;
    upin::test::ViewReader reader(view);
    view.showResult(finished.first().first().value<app::InspectResult>());
    view.tree()->setCurrentIndex(view.model()->index(1, 0)); // the part, below the Request row
    CHECK(view.savePartButton()->isEnabled());               // the megabyte that was stored can still be saved
    CHECK_FALSE(view.copyCurlButton()->isEnabled());
    CHECK(view.copyCurlButton()->toolTip().contains("did not arrive whole"));
}

TEST_CASE("exports keep dots in folder names, and a failed write is reported naming the file", "[ui][export]")
{
    CHECK(ui::exportBase("/home/u/v1.2/runs") == "/home/u/v1.2/runs");
    CHECK(ui::exportBase("/home/u/v1.2/runs.csv") == "/home/u/v1.2/runs");
    CHECK(ui::exportBase("/tmp/a.b.json") == "/tmp/a.b");
    QTemporaryDir dir;
    const QString dotted = dir.filePath("v1.2");
    REQUIRE(QDir().mkpath(dotted));
    QWidget owner;
    QThreadPool::globalInstance()->setMaxThreadCount(std::max(2, QThreadPool::globalInstance()->maxThreadCount()));
    ui::saveExports(&owner, {{ui::exportBase(dotted + "/runs") + ".csv", "a,b\n"}}); // written off this thread
    UPIN_WAIT_FOR(QFile::exists(dotted + "/runs.csv"), 5000);
    CHECK(test::readAll(dotted + "/runs.csv") == "a,b\n");

    // A failure: the warning names the file (modal: read it, then close it); the files after it are not tried.
    ui::saveExports(&owner, {{dir.filePath("missing/runs.csv"), "x"}, {dir.filePath("after.json"), "{}"}});
    QString shown;
    QTimer closer; // the warning is modal, with an event loop of its own: read it and close it from a timer
    QObject::connect(&closer, &QTimer::timeout, [&shown] {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
                shown = box->text();
                box->accept();
            }
    });
    closer.start(20);
    UPIN_WAIT_FOR(!shown.isEmpty(), 5000);
    CHECK(shown.contains("missing/runs.csv"));
    CHECK_FALSE(QFile::exists(dir.filePath("after.json")));
}

TEST_CASE("chart axes use round ticks, and an empty chart shows no invented labels", "[ui][charts]")
{
    QValueAxis axis;
    ui::setNiceRange(&axis, 362.02); // was labelled 362.02, 271.51 ...
    CHECK(axis.max() == 400);
    CHECK(axis.tickCount() == 5);
    CHECK(axis.labelFormat() == "%.0f");
    ui::setNiceRange(&axis, 0.073); // was 0.02, 0.05, 0.07
    CHECK(axis.max() == Approx(0.08));
    CHECK(axis.tickCount() == 5);
    CHECK(axis.labelFormat() == "%.2f");
    ui::setNiceRange(&axis, 14);
    CHECK(axis.max() == 15);
    CHECK(axis.tickCount() == 7); // 0, 2.5, 5 ... 15
    CHECK(axis.labelFormat() == "%.1f");
    CHECK(axis.labelsVisible());
    ui::setNiceRange(&axis, 0); // no data: was 0 0 0 1 1
    CHECK_FALSE(axis.labelsVisible());
    CHECK_FALSE(axis.isTitleVisible()); // was an elided "⋮" beside the hidden labels
    ui::setNiceRange(&axis, 15);
    CHECK(axis.isTitleVisible());

    ui::BarChart chart("t", "MB/s");
    chart.show(); // legend markers are laid out (and report visibility) once shown
    chart.setBars({{"a", 3, 2, 4}}, true);
    QApplication::processEvents(); // the legend lays out the markers of the series added
    // Values above their bars, in the text's colour: Qt's default white, outside the bar, did not show.
    CHECK(chart.values()->labelColor() == chart.palette().color(QPalette::WindowText));
    // From min to max on the bar's right edge, not through its middle where the value's label is (it crossed it).
    REQUIRE(chart.whiskers().size() == 1);
    for (const QPointF& point : chart.whiskers()[0]->points())
        CHECK((point.x() > 0.15 && point.x() < 0.35 && point.y() >= 2 && point.y() <= 4));
    QStringList legend;
    for (auto* marker : chart.chart()->legend()->markers())
        if (marker->isVisible())
            legend << marker->label();
    CHECK(legend == QStringList{"MB/s", "min-max"}); // one min-max entry, drawn as a line like the whiskers
    for (auto* marker : chart.chart()->legend()->markers())
        if (marker->label() == "min-max")
            CHECK(marker->shape() == QLegend::MarkerShapeFromSeries);
    chart.setBars({{"a", 3, 2, 4}}, false);
    QApplication::processEvents();
    legend.clear();
    for (auto* marker : chart.chart()->legend()->markers())
        if (marker->isVisible())
            legend << marker->label();
    CHECK(legend == QStringList{"MB/s"});
}

TEST_CASE("a HAR file with two look-alike requests: each part shows and saves its own request's bytes", "[ui][inspect]")
{
    QTemporaryDir dir;
    QJsonArray entries;
    for (const char* value : {"first", "secnd"}) { // same sizes, so the two requests' parts have equal offsets
        const QByteArray body =
            QByteArray("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n") + value + "\r\n--b--\r\n";
        QJsonObject postData{{"mimeType", "multipart/form-data; boundary=b"}, {"text", QString::fromLatin1(body)}};
        entries.append(QJsonObject{
            {"request", QJsonObject{{"method", "POST"}, {"url", "http://example/up"}, {"postData", postData}}}});
    }
    QFile har(dir.filePath("two.har"));
    REQUIRE(har.open(QIODevice::WriteOnly));
    har.write(QJsonDocument(QJsonObject{{"log", QJsonObject{{"entries", entries}}}}).toJson());
    har.close();
    app::InspectWorker worker;
    QSignalSpy finished(&worker, &app::InspectWorker::finished);
    worker.open(har.fileName());
    const auto result = finished.first().first().value<app::InspectResult>();
    REQUIRE(result.report.parts.size() == 2);
    ui::InspectView view;
    upin::test::ViewReader reader(view);
    view.showResult(result);
    for (int request = 0; request < 2; ++request) {
        view.tree()->setCurrentIndex(view.model()->index(0, 0, view.model()->index(request, 0)));
        CHECK(view.text()->toPlainText() == (request == 0 ? "first" : "secnd"));
        const core::PartSummary& part = result.report.parts[size_t(request)].children[0];
        CHECK(app::readPartBytes(app::locatePart(result, part), 0, 100) == (request == 0 ? "first" : "secnd"));
    }
}
