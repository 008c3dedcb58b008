// Settings, the Send and Listen views, stored captures, Inspect of binary parts. (split from test_ui.cpp, which had grown past 1,600 lines)

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
#include <QFile>
#include <QFileDialog>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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

TEST_CASE("the listener settings dialog reads sizes as users type them and keeps bad ones out", "[ui][settings]")
{
    ui::ListenerSettings current;
    ui::ListenerSettingsDialog dialog(current);
    QLineEdit* rate = nullptr;
    QLineEdit* field = nullptr;
    QLineEdit* keepAlive = nullptr;
    QLineEdit* origins = nullptr;
    for (auto* edit : dialog.findChildren<QLineEdit*>()) {
        if (edit->toolTip().contains("--min-body-rate"))
            rate = edit;
        if (edit->toolTip().contains("--max-field-size"))
            field = edit;
        if (edit->toolTip().contains("--keep-alive-timeout"))
            keepAlive = edit;
        if (edit->toolTip().contains("--allow-origin"))
            origins = edit;
    }
    REQUIRE(rate);
    REQUIRE(field);
    REQUIRE(keepAlive);
    REQUIRE(origins);
    // Every caption whole as shown: a wrapped one spanning the form was cut vertically (a fresh walk, issue 23).
    dialog.show();
    QApplication::processEvents();
    for (auto* label : dialog.findChildren<QLabel*>())
        if (label->isVisible()) {
            INFO(label->text().toStdString());
            CHECK(label->height() >=
                  (label->wordWrap() ? label->heightForWidth(label->width()) : label->sizeHint().height()));
            CHECK(label->width() >= (label->wordWrap() ? 0 : label->sizeHint().width()));
        }
    auto* hash = dialog.findChild<QComboBox*>("listenHash");
    REQUIRE(hash);
    CHECK(hash->currentText() == "SHA-256");
    hash->setCurrentIndex(hash->findText("XXH3-128")); // listen --hash xxh3
    auto* tls = dialog.findChild<QCheckBox*>("listenTls");
    REQUIRE(tls);
    CHECK_FALSE(tls->isChecked());
    tls->setChecked(true); // listen --tls
    auto* bodyOnly = dialog.findChild<QCheckBox*>("listenBodyOnly");
    REQUIRE(bodyOnly);
    CHECK_FALSE(bodyOnly->isChecked());
    bodyOnly->setChecked(true);  // listen --capture-body-only
    CHECK(rate->text() == "1K"); // the default, in the form it can be typed back
    CHECK(field->text() == "1M");
    CHECK(keepAlive->text() == "15");
    CHECK(origins->text().isEmpty());
    rate->setText("4K");
    field->setText("none");
    keepAlive->setText("2.5s");
    origins->setText("http://localhost:3000/app"); // a URL, not an origin: refused, dialog stays open
    QTimer::singleShot(0, [] {                     // the warning box
        for (auto* box : QApplication::topLevelWidgets())
            if (auto* message = qobject_cast<QMessageBox*>(box))
                message->accept();
    });
    dialog.accept();
    CHECK(dialog.result() != QDialog::Accepted);
    origins->setText("http://localhost:3000, https://app.test");
    dialog.accept();
    CHECK(dialog.result() == QDialog::Accepted);
    CHECK(dialog.settings().captureBodyOnly);
    CHECK(dialog.settings().guards.minBodyBytesPerSecond == 4096);
    CHECK(dialog.settings().guards.keepAliveTimeoutMs == 2500);
    CHECK(dialog.settings().guards.allowedOrigins == QStringList{"http://localhost:3000", "https://app.test"});
    CHECK(dialog.settings().limits.maxFieldSize == std::numeric_limits<uint64_t>::max());
    CHECK(dialog.settings().hash == core::HashKind::Xxh3);
    CHECK(dialog.settings().tls);
    CHECK(dialog.settings().tlsPort == 8443);
}

TEST_CASE("the Send view shows an early answer, its headers and body, and no MB/s for a body not sent",
          "[ui][send][answer]")
{
    test::ListenerFixture f;
    ui::MainWindow window;
    auto* view = window.sendView();
    app::PlanPart big;
    big.kind = app::PlanPart::Kind::Synthetic;
    big.name = "big";
    big.size = quint64{256} << 20;
    view->partsModel()->addPart(big);
    view->setTargets({f.url("/no-such-endpoint")});
    QThread thread;
    auto* sender = new app::Sender;
    sender->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, sender, &QObject::deleteLater);
    thread.start();
    QObject::connect(view, &ui::SendView::sendRequested, sender,
                     [sender](const app::UploadPlan& p) { sender->start(p); });
    QObject::connect(sender, &app::Sender::runFinished, view, &ui::SendView::onRunFinished);
    QObject::connect(sender, &app::Sender::finished, view, &ui::SendView::onFinished);
    QSignalSpy done(sender, &app::Sender::finished);
    emit view->sendRequested(view->plan());
    REQUIRE(test::signalled(done, 60000));
    QTest::qWait(50);
    thread.quit();
    thread.wait();
    REQUIRE(view->results()->rowCount() == 1);
    CHECK(view->results()->item(0, 2)->text() == QStringLiteral("404 Not Found (early)"));
    CHECK(view->results()->item(0, 4)->text() == QStringLiteral("—"));
    CHECK(view->answer()->toPlainText().startsWith("HTTP/1.1 404 Not Found\n"));
    CHECK(view->answer()->toPlainText().endsWith("\n\nnot found\n"));
    // The bar stops where sending stopped, and says why (it read 100 %).
    auto* progress = view->findChild<QProgressBar*>();
    INFO(progress->text().toStdString());
    CHECK(progress->text().startsWith("answered 404 Not Found at "));
    CHECK(progress->text().endsWith("%: the rest was not sent"));
    CHECK(progress->value() < progress->maximum() / 10); // of 256 MiB, the first few MiB at most
}

// Findings 1 and 8: a second send showed the first send's answer for its runs; the bar read 100% after a failure;
// durations read "7500 ms"; a run with no answer showed "??" as its part checks.
TEST_CASE("the Send view: a new send clears the last one's answers, and failures read as failures", "[ui][send]")
{
    ui::SendView view;
    view.partsModel()->addFiles({QStringLiteral(UPIN_DEFAULT_CORPUS) + "/README.md"});
    view.setTargets({"http://127.0.0.1:9/file-part"});
    QPushButton* send = nullptr;
    for (auto* b : view.findChildren<QPushButton*>())
        if (b->text() == "Send")
            send = b;
    REQUIRE(send);
    auto* progress = view.findChild<QProgressBar*>();
    REQUIRE(progress);

    app::RunResult ok;
    ok.target = QUrl("http://127.0.0.1:8080/file-part");
    ok.httpStatus = 200;
    ok.statusLine = "HTTP/1.1 200 OK";
    ok.response = "{}";
    ok.bodyBytes = 75'000'000;
    ok.lastByteSeconds = 7.4;
    ok.totalSeconds = 7.5;
    send->click();
    view.onRunFinished(ok);
    view.onFinished({ok});
    CHECK(view.results()->item(0, 3)->text() == "7.50 s");
    CHECK(view.results()->item(0, 4)->text() == "10.0");
    CHECK(progress->text() == "100%");
    CHECK(view.answer()->toPlainText().startsWith("HTTP/1.1 200 OK\n"));

    // The next run's first progress clears the last run's received curve (review: two runs were mixed).
    view.setReceivedSamples({{100, 5000000}, {200, 9000000}}, ok.run);
    REQUIRE(view.chart()->receivedSeries()->count() >= 3); // drawn (after the sent line's last point, if need be)
    send->click();
    view.onProgress(0, 0, 100, 1000);
    CHECK(view.chart()->receivedSeries()->count() <= 1);
    view.onFinished({}); // (that send ends without runs)

    app::RunResult refused;
    refused.target = QUrl("http://127.0.0.1:9/file-part");
    refused.error = "Connection refused";
    refused.totalSeconds = 0.002;
    refused.parts = {app::PartCheck{}}; // one part, not checked: "—", not "—?"
    send->click();
    CHECK(view.answer()->toPlainText().isEmpty()); // nothing of the last send's answer stays
    CHECK(view.chart()->sentSeries()->count() <= 1);
    view.onRunFinished(refused);
    view.onFinished({refused});
    REQUIRE(view.results()->rowCount() == 2); // the session's runs are kept, the new one selected
    CHECK(view.results()->item(0, 2)->text() == "200 OK");
    CHECK(view.results()->item(1, 2)->text() == "Connection refused");
    CHECK(view.results()->item(1, 5)->text() == "—");
    CHECK(view.answer()->toPlainText() == "No answer: Connection refused");
    view.results()->setCurrentCell(0, 2); // an earlier run's answer is still there to read
    CHECK(view.answer()->toPlainText().startsWith("HTTP/1.1 200 OK\n"));
    view.results()->setCurrentCell(1, 2);
    CHECK(progress->text() == "failed: Connection refused");
    CHECK(progress->value() == 0);                                                     // not the last send's 100 %
    CHECK(progress->palette().color(QPalette::Highlight) == QColor(0xc0, 0x1c, 0x28)); // red

    app::RunResult cancelled = refused;
    cancelled.error = "cancelled";
    cancelled.cancelled = true;
    send->click();
    view.onProgress(0, 0, 300, 1000);
    view.onRunFinished(cancelled);
    view.onFinished({cancelled});
    CHECK(progress->text() == "cancelled at 30%");
    CHECK(view.results()->rowCount() == 3);
    QPushButton* clear = nullptr;
    for (auto* b : view.findChildren<QPushButton*>())
        if (b->text() == "Clear &runs")
            clear = b;
    REQUIRE(clear);
    clear->click();
    CHECK(view.results()->rowCount() == 0);
    CHECK(view.answer()->toPlainText().isEmpty());
    CHECK(view.answer()->lineWrapMode() == QPlainTextEdit::WidgetWidth); // a long error line reads whole
}

TEST_CASE("the Listen tab's curl examples run as pasted, in sh", "[ui][listen]")
{
    test::ListenerFixture f;
    ui::ListenView view;
    view.setListening(true, "127.0.0.1", f.listener.port(), f.listener.captureRoot());
    int ran = 0;
    for (const QString& line : view.examples()->toPlainText().split('\n', Qt::SkipEmptyParts)) {
        if (line.startsWith('#'))
            continue;
        QProcess sh;
        sh.start("sh", {"-c", line + " -s -o /dev/null -w '%{http_code}'"});
        REQUIRE(sh.waitForFinished(30000));
        INFO(line.toStdString());
        CHECK(sh.readAllStandardOutput() == "200");
        ++ran;
    }
    CHECK(ran == 5);
}

TEST_CASE("when the listener moves to another port the Send targets follow it", "[ui][send]")
{
    ui::SendView view;
    view.setTargets({"http://127.0.0.1:8080/part-event?matcher=simd", "http://example.test:8080/file-part",
                     "http://127.0.0.1:8080/file-part"});
    REQUIRE(view.plan().targets.first().toString() == "http://127.0.0.1:8080/part-event?matcher=simd");
    view.setListenerBase("http://127.0.0.1:8081"); // 8080 was busy
    CHECK(view.plan().targets.first().toString() == "http://127.0.0.1:8081/part-event?matcher=simd");
    const QStringList targets = view.targets();
    for (const QString& t : targets)
        CHECK_FALSE(t.startsWith("http://127.0.0.1:8080/"));       // no dead presets pile up
    CHECK(targets.contains("http://example.test:8080/file-part")); // another host is the user's own server
    CHECK(targets.contains("http://127.0.0.1:8081/file-part"));
}

TEST_CASE("the Listen tab lists the captures earlier sessions stored, and they open", "[ui][listen][history]")
{
    QTemporaryDir dir;
    const QString root = dir.filePath("captures");
    { // an earlier session: one whole upload and one rejected body, stored
        app::ServerConfig config;
        config.captureDir = root;
        test::ListenerFixture earlier(config);
        REQUIRE(test::curl({"-F", "note=from before", earlier.url("/file-part")}).status == 200);
        QThread::msleep(20); // the two capture.json files' times differ: lists order by them
        REQUIRE(test::rawExchange(earlier.listener.port(),
                                  "POST /capture HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; "
                                  "boundary=b\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")
                    .startsWith("HTTP/1.1 400"));
    }
    ui::MainWindow window; // what ServiceWiring does when the listener starts, on a pool thread there
    auto* model = window.listenView()->model();
    QAbstractItemModelTester tester(model);
    model->addStored(app::storedCaptures(root, 200));
    model->addStored(app::storedCaptures(root, 200)); // a listener restart: nothing listed twice
    REQUIRE(model->rowCount() == 2);
    CHECK(model->row(0).state == app::CaptureState::Complete);
    CHECK(model->row(0).endpoint == "/file-part");
    CHECK(model->row(0).parts == 1);
    // The Time column is when the request came: capture.json's request.received_at.
    for (int row = 0; row < model->rowCount(); ++row) {
        const auto record = app::CaptureRecord::read(model->row(row).folder);
        REQUIRE(record);
        REQUIRE(record->request.receivedAt.isValid());
        CHECK(model->row(row).received == record->request.receivedAt);
    }
    // The rejected capture's 3 bytes in a millisecond or so: a rate in two significant digits, not "0.0".
    const QString rate = model->data(model->index(1, ui::CaptureListModel::Rate), Qt::DisplayRole).toString();
    CHECK((rate == "-" || (rate != "0.0" && rate.toDouble() > 0)));
    CHECK(model->row(1).state == app::CaptureState::Rejected);
    const QString state = model->data(model->index(1, ui::CaptureListModel::State), Qt::DisplayRole).toString();
    CHECK(state == "rejected: the body has no delimiter line for this boundary (byte 3)"); // in words
    QSignalSpy opened(window.listenView(), &ui::ListenView::captureActivated);
    QTableView* table = window.listenView()->table();
    window.listenView()->filter()->setText("REJECTED"); // the filter: any column, any case
    REQUIRE(table->model()->rowCount() == 1);
    // A double-click or Enter: the filtered row is the rejected capture's.
    emit table->activated(table->model()->index(0, 0));
    REQUIRE(opened.size() == 1);
    CHECK(opened.first().first().toString().endsWith("-capture"));
    window.listenView()->filter()->clear();
    REQUIRE(table->model()->rowCount() == 2);
    opened.clear();
    emit table->activated(table->model()->index(0, 0));
    CHECK(app::storedCaptures(root, 1).size() == 1); // the newest only
    model->removeFinished(1);                        // the row menu's Remove from list, and Clear list: folders stay
    CHECK(model->rowCount() == 1);
    model->clearFinished();
    CHECK(model->rowCount() == 0);
    CHECK(app::storedCaptures(root, 200).size() == 2);
    REQUIRE(opened.size() == 1);
    CHECK(QFileInfo(opened.first().first().toString()).isDir());

    // A capture.json written before request.received_at was kept: its time less the capture's duration.
    {
        const app::CaptureSummary newest = app::storedCaptures(root, 1).first();
        QFile file(QDir(newest.folder).filePath("capture.json"));
        REQUIRE(file.open(QIODevice::ReadWrite));
        QJsonObject doc = QJsonDocument::fromJson(file.readAll()).object();
        QJsonObject request = doc["request"].toObject();
        REQUIRE(request.contains("received_at"));
        request.remove("received_at");
        doc["request"] = request;
        file.resize(0);
        file.write(QJsonDocument(doc).toJson());
        REQUIRE(file.flush()); // before the time is set: a later write would set it again
        const QDateTime written = QDateTime::currentDateTimeUtc().addSecs(60); // still the newest
        REQUIRE(file.setFileTime(written, QFileDevice::FileModificationTime));
        file.close();
        const app::CaptureSummary old = app::storedCaptures(root, 1).first();
        CHECK(old.id == newest.id);
        CHECK(old.received == written.addMSecs(-old.elapsedMs));
    }
    // Read lazily, newest first: with batches of one, the newest capture comes first, and the list built from the
    // batches is in time order (older rows go above).
    QList<QList<app::CaptureSummary>> batches;
    app::storedCaptures(
        root, 200, [&](const QList<app::CaptureSummary>& batch) { batches.append(batch); }, 1);
    REQUIRE(batches.size() == 2);
    CHECK(batches[0].first().endpoint == "/capture"); // the rejected one came last, so it is read first
    for (const auto& batch : batches)
        window.listenView()->addStored(batch);
    REQUIRE(model->rowCount() == 2);
    CHECK(model->row(0).endpoint == "/file-part");
    CHECK(model->row(1).endpoint == "/capture");
    // A capture from another day shows its date (rows read "23:59:59" alone before).
    app::CaptureSummary old;
    old.id = 1;
    old.received = QDateTime(QDate(2020, 1, 2), QTime(3, 4, 5)).toUTC();
    model->addStored({old});
    CHECK(model->data(model->index(0, ui::CaptureListModel::Time), Qt::DisplayRole).toString() ==
          "2020-01-02 03:04:05");
}

TEST_CASE("Inspect: a binary part says so in Text, and a file that fails clears what the last one showed",
          "[ui][inspect][states]")
{
    QTemporaryDir dir;
    const auto open = [&](const QString& name, const QByteArray& bytes) {
        QFile f(dir.filePath(name));
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        app::InspectWorker worker;
        QSignalSpy finished(&worker, &app::InspectWorker::finished);
        worker.open(f.fileName());
        return finished.first().first().value<app::InspectResult>();
    };
    ui::InspectView view;
    upin::test::ViewReader reader(view);
    QByteArray good = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.bin\"\r\n\r\n";
    good += QByteArray("\x00\x01\x02\xff\xfe", 5) + " binary\r\n--b--\r\n"; // a 12-byte part
    view.showResult(open("good.bin", good));
    INFO(view.text()->toPlainText().toStdString());
    CHECK(view.text()->toPlainText().startsWith("(binary, 12 bytes: see Hex"));
    CHECK_FALSE(view.hex()->toPlainText().isEmpty());
    CHECK(view.savePartButton()->isEnabled());
    // Copy as curl works for a body too (review of issue 14): its parts are written out by the service, off the
    // GUI thread, so the view asks for it.
    QSignalSpy curl(&view, &ui::InspectView::copyCurlRequested);
    REQUIRE(view.copyCurlButton()->isEnabled());
    view.copyCurlButton()->click();
    REQUIRE(curl.size() == 1);
    CHECK(curl.first().first().value<app::InspectResult>().path.endsWith("good.bin"));
    view.showResult(open("none.bin", "no delimiter here at all"));
    CHECK_FALSE(view.diagnostics()->item(0)->text().startsWith("No diagnostics"));
    CHECK_FALSE(view.copyCurlButton()->isEnabled());
    CHECK(view.copyCurlButton()->toolTip().startsWith("Copy as curl is unavailable: the source has no parts: "));
    CHECK(view.hex()->toPlainText().isEmpty()); // nothing of x.bin stays
    CHECK(view.text()->toPlainText().isEmpty());
    CHECK_FALSE(view.savePartButton()->isEnabled());
}

// Finding 4: a request's line, headers, framing, client and timings were invisible, and Hex began at the body.
