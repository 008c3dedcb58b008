// Widgets and models, offscreen: QAbstractItemModelTester on every model, drops building the plan, chart series
// holding the run's samples, and an in-process round trip: listener on port 0, Send view's plan through the sender,
// the capture appearing in the Listen view with every hash matching.

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
#include <QFileDialog>
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
using upin::test::nestedReport;

TEST_CASE("every model passes QAbstractItemModelTester", "[ui][models]")
{
    ui::PartTreeModel tree;
    QAbstractItemModelTester treeTester(&tree, QAbstractItemModelTester::FailureReportingMode::Fatal);
    tree.setReport(nestedReport());
    CHECK(tree.rowCount() == 2);
    QModelIndex outer = tree.index(0, 0);
    CHECK(tree.rowCount(outer) == 2);
    CHECK(tree.parent(tree.index(1, 0, outer)) == outer);
    CHECK(tree.data(tree.index(1, ui::PartTreeModel::Filename, outer), Qt::DisplayRole).toString() == "x.txt");
    // With a request, its row comes first and the parts (and their children) move down one.
    upin::app::RequestRecord request;
    request.method = "POST";
    request.target = "/x";
    request.version = "HTTP/1.1";
    tree.setReport(nestedReport(), request);
    CHECK(tree.rowCount() == 3);
    CHECK(tree.isRequest(tree.index(0, 0)));
    CHECK(tree.rowCount(tree.index(0, 0)) == 0);
    CHECK(tree.data(tree.index(0, ui::PartTreeModel::Filename), Qt::DisplayRole).toString() == "POST /x");
    outer = tree.index(1, 0);
    CHECK(tree.parent(tree.index(1, 0, outer)) == outer);
    CHECK(tree.part(tree.index(1, 0, outer))->filename == "x.txt");
    CHECK(tree.indexOf(tree.part(tree.index(1, 0, outer))) == tree.index(1, 0, outer)); // a diagnostic's part
    CHECK(tree.indexOf(tree.part(outer)) == outer);

    ui::CaptureListModel captures;
    QAbstractItemModelTester captureTester(&captures, QAbstractItemModelTester::FailureReportingMode::Fatal);
    auto progress = event(app::CaptureEvent::Kind::Progress, 7, 100);
    progress.samples = {{5, 50}, {10, 100}};
    auto done = event(app::CaptureEvent::Kind::CaptureFinished, 7, 200);
    done.capture.state = app::CaptureState::Complete;
    done.capture.parts = 3;
    auto overTls = event(app::CaptureEvent::Kind::CaptureStarted, 8, 0);
    overTls.capture.tls = "TLSv1.3";
    captures.apply({event(app::CaptureEvent::Kind::CaptureStarted, 7, 0), progress, done, overTls});
    REQUIRE(captures.rowCount() == 2);
    // A capture that came over TLS says so where its client is listed; a plain one shows the client alone.
    CHECK(captures.data(captures.index(0, ui::CaptureListModel::Client), Qt::DisplayRole).toString() == "127.0.0.1:1");
    CHECK(captures.data(captures.index(1, ui::CaptureListModel::Client), Qt::DisplayRole).toString() ==
          "127.0.0.1:1 (TLSv1.3)");
    CHECK(captures.row(0).samples.size() == 2);
    CHECK(captures.data(captures.index(0, ui::CaptureListModel::State), Qt::DisplayRole).toString() == "complete");
    CHECK(captures.data(captures.index(0, ui::CaptureListModel::Parts), Qt::DisplayRole).toInt() == 3);
    CHECK(captures.data(captures.index(1, ui::CaptureListModel::State), Qt::DisplayRole).toString() == "receiving");

    ui::PlanPartsModel parts;
    QAbstractItemModelTester partsTester(&parts, QAbstractItemModelTester::FailureReportingMode::Fatal);
    app::PlanPart field;
    field.name = "f";
    field.value = "v";
    parts.addPart(field);
    CHECK(parts.setData(parts.index(0, ui::PlanPartsModel::Source), "new value", Qt::EditRole));
    CHECK(parts.parts()[0].value == "new value");
    CHECK_FALSE(parts.setData(parts.index(0, ui::PlanPartsModel::Kind), "file", Qt::EditRole));
}

TEST_CASE("dropping files builds the right plan, and rows reorder", "[ui][send]")
{
    QTemporaryDir dir;
    QStringList paths;
    for (QString name : {"a.bin", "b.txt"}) {
        QFile f(dir.filePath(name));
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(name.toUtf8());
        paths << f.fileName();
    }
    ui::SendView view;
    auto* model = view.partsModel();
    QMimeData drop;
    drop.setUrls({QUrl::fromLocalFile(paths[0]), QUrl::fromLocalFile(paths[1]), QUrl("https://not-a-file.example/")});
    REQUIRE(model->canDropMimeData(&drop, Qt::CopyAction, -1, -1, {}));
    REQUIRE(model->dropMimeData(&drop, Qt::CopyAction, -1, -1, {}));
    view.setListenerBase("http://127.0.0.1:9");
    app::UploadPlan plan = view.plan();
    REQUIRE(plan.parts.size() == 2);
    CHECK(plan.parts[0].kind == app::PlanPart::Kind::File);
    CHECK(plan.parts[0].path == paths[0]);
    CHECK(plan.parts[0].name == "file");
    CHECK(plan.parts[1].name == "file2"); // names stay unique
    CHECK(plan.targets.first().toString() == "http://127.0.0.1:9/file-part");
    REQUIRE(model->moveRows({}, 1, 1, {}, 0));
    CHECK(view.plan().parts[0].path == paths[1]);
}

TEST_CASE("end to end: send from the Send view, see the capture in the Listen view with hashes matching", "[ui][e2e]")
{
    const char* hash = GENERATE("SHA-256", "XXH3-128");
    const QString item = QString::fromLatin1(hash) + " hash";
    INFO("hash " << hash);
    test::ListenerFixture f;
    ui::MainWindow window;
    auto* hashMenu = window.sendView()->findChild<QComboBox*>("sendHash");
    REQUIRE(hashMenu != nullptr);
    CHECK(hashMenu->currentText() == "SHA-256 hash"); // the default: what users compare with sha256sum
    REQUIRE(hashMenu->findText(item) >= 0);
    hashMenu->setCurrentIndex(hashMenu->findText(item));
    CHECK(hashMenu->findText("no hash") >= 0);
    QObject::connect(&f.listener, &app::Server::events, window.listenView(), &ui::ListenView::applyEvents);
    window.sendView()->setListenerBase(QStringLiteral("http://127.0.0.1:%1").arg(f.listener.port()));
    window.sendView()->partsModel()->addFiles(
        {f.file("payload.bin", test::randomBytes(2 << 20, 21)), f.file("n.txt", "note")});

    QThread thread;
    auto* sender = new app::Sender;
    sender->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, sender, &QObject::deleteLater);
    thread.start();
    QObject::connect(window.sendView(), &ui::SendView::sendRequested, sender,
                     [sender](const app::UploadPlan& p) { sender->start(p); });
    QObject::connect(sender, &app::Sender::runFinished, window.sendView(), &ui::SendView::onRunFinished);
    QSignalSpy done(sender, &app::Sender::finished);
    emit window.sendView()->sendRequested(window.sendView()->plan());
    REQUIRE(test::signalled(done, 30000));
    auto results = done.first().first().value<QList<app::RunResult>>();
    REQUIRE(results.size() == 1);
    CHECK(results[0].integrityOk());
    CHECK(core::hashTitle(results[0].hash) == hash);
    auto* captures = window.listenView()->model();
    for (int i = 0; i < 50 && (captures->rowCount() == 0 || captures->row(0).state == app::CaptureState::Receiving);
         ++i)
        QTest::qWait(20);
    REQUIRE(captures->rowCount() == 1);
    CHECK(captures->row(0).state == app::CaptureState::Complete);
    CHECK(captures->row(0).parts == 2);
    CHECK(window.sendView()->results()->rowCount() == 1);
    CHECK(window.sendView()->results()->item(0, 5)->text() == QStringLiteral("✓✓"));
    CHECK(window.sendView()->results()->item(0, 2)->text() == QStringLiteral("200 OK"));
    CHECK(window.sendView()->answer()->toPlainText().startsWith("HTTP/1.1 200 OK\nContent-Type: application/json"));
    CHECK(window.sendView()->answer()->toPlainText().contains("\n    \"parts\": [")); // the JSON, indented
    CHECK(window.sendView()->chart()->sentSeries()->count() > 1);
    thread.quit();
    thread.wait();
}

TEST_CASE("the Send tab uploads to the listener over https, trusting its certificate, with every check green",
          "[ui][e2e][tls]")
{
    QTemporaryDir home;
    test::ListenerFixture f(test::tlsConfig(home.filePath("tls")));
    const auto identity = f.listener.tlsIdentity();
    REQUIRE(identity.has_value());
    const QString https = QStringLiteral("https://localhost:%1").arg(f.listener.tlsPort());
    ui::MainWindow window;
    QObject::connect(&f.listener, &app::Server::events, window.listenView(), &ui::ListenView::applyEvents);
    window.listenView()->setListening(true, "127.0.0.1", f.listener.port(), f.listener.captureRoot());
    window.listenView()->setTls(https, identity->certificatePath, identity->fingerprint);
    CHECK(window.listenView()->examples()->toPlainText().contains("curl --cacert '" + identity->certificatePath));
    window.sendView()->setListenerBase(QStringLiteral("http://127.0.0.1:%1").arg(f.listener.port()));
    window.sendView()->setTlsListener(https, identity->certificatePath);
    window.sendView()->setTargets({https + "/file-part"});
    window.sendView()->partsModel()->addFiles({f.file("payload.bin", test::randomBytes(2 << 20, 71))});
    const app::UploadPlan plan = window.sendView()->plan();
    CHECK(plan.caCertificates == identity->certificatePath); // its own listener's certificate, trusted for it

    QThread thread;
    auto* sender = new app::Sender;
    sender->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, sender, &QObject::deleteLater);
    thread.start();
    QObject::connect(sender, &app::Sender::runFinished, window.sendView(), &ui::SendView::onRunFinished);
    QSignalSpy done(sender, &app::Sender::finished);
    QMetaObject::invokeMethod(
        sender, [sender, plan] { sender->start(plan); }, Qt::QueuedConnection);
    REQUIRE(test::signalled(done, 30000));
    const auto results = done.first().first().value<QList<app::RunResult>>();
    REQUIRE(results.size() == 1);
    INFO(results[0].error.toStdString());
    CHECK(results[0].integrityOk());
    CHECK(results[0].tls.startsWith("TLSv1."));
    CHECK(window.sendView()->results()->item(0, 5)->text() == QStringLiteral("✓"));
    CHECK(window.sendView()->results()->item(0, 2)->text() == QStringLiteral("200 OK"));
    CHECK(window.sendView()->results()->item(0, 2)->toolTip().startsWith("HTTP/1.1 over TLSv1."));
    window.sendView()->results()->setCurrentCell(0, 2);
    CHECK(window.sendView()->answer()->toPlainText().startsWith("HTTP/1.1 200 OK\n(over TLSv1."));

    // Its own listener is trusted by any name its certificate has.
    window.sendView()->setTargets({QStringLiteral("https://127.0.0.1:%1/file-part").arg(f.listener.tlsPort())});
    CHECK(window.sendView()->plan().caCertificates == identity->certificatePath);
    // Another server's certificate (another listener, with a certificate of its own): refused, with what to do,
    // until "Don't check https certificates" is ticked; then every run says it was not checked.
    QTemporaryDir otherHome;
    test::ListenerFixture other(test::tlsConfig(otherHome.filePath("tls")));
    window.sendView()->setTargets({QStringLiteral("https://localhost:%1/file-part").arg(other.listener.tlsPort())});
    auto* insecure = window.sendView()->findChild<QCheckBox*>("sendInsecure");
    REQUIRE(insecure);
    for (const bool tick : {false, true}) {
        INFO("insecure " << tick);
        insecure->setChecked(tick);
        const app::UploadPlan other = window.sendView()->plan();
        CHECK(other.caCertificates.isEmpty());
        CHECK(other.insecure == tick);
        done.clear();
        QMetaObject::invokeMethod(
            sender, [sender, other] { sender->start(other); }, Qt::QueuedConnection);
        REQUIRE(test::signalled(done, 30000));
        const QString status =
            window.sendView()->results()->item(window.sendView()->results()->rowCount() - 1, 2)->text();
        if (tick) {
            CHECK(status == QStringLiteral("⚠ 200 OK"));
            window.sendView()->results()->setCurrentCell(window.sendView()->results()->rowCount() - 1, 2);
            CHECK(window.sendView()->answer()->toPlainText().contains("certificate NOT checked"));
        } else {
            CHECK_FALSE(status.contains("200"));
            CHECK(status.contains("certificate", Qt::CaseInsensitive));
            CHECK(status.contains("Don't check https certificates"));
        }
    }
    // A client that does not finish its handshake is said in the Listen tab's status.
    QTcpSocket plain;
    plain.connectToHost(QHostAddress::LocalHost, f.listener.tlsPort());
    REQUIRE(plain.waitForConnected(2000));
    plain.write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    plain.waitForDisconnected(2000);
    // On a line of its own under where it listens, which stays in sight, with what to do (issue 23, item 11).
    auto* trouble = window.listenView()->findChild<QLabel*>("tlsTrouble");
    REQUIRE(trouble);
    UPIN_WAIT_FOR(trouble->text().contains("TLS handshake"), 2000);
    CHECK(window.listenView()->findChild<ui::ElidedLabel*>()->fullText().startsWith("Listening on "));
    CHECK(trouble->text().startsWith("1 TLS handshake(s) failed, the last from 127.0.0.1:"));
    CHECK(trouble->text().contains("the client spoke plain HTTP to the HTTPS port"));
    thread.quit();
    thread.wait();
}

TEST_CASE("opening corpus bodies shows the parts the manifest lists", "[ui][inspect][corpus]")
{
    QDir corpus(test::corpusDir());
    QFile manifestFile(corpus.filePath("manifest.json"));
    REQUIRE(manifestFile.open(QIODevice::ReadOnly));
    int opened = 0, expected = 0;
    for (const auto& value : QJsonDocument::fromJson(manifestFile.readAll()).object()["cases"].toArray()) {
        QJsonObject c = value.toObject();
        QJsonObject expect = c["expect"].toObject();
        // Opened as a user would after the boundary prompt: with the case's Content-Type. (busboy's expectations are
        // form fields, not MIME parts; the core corpus test maps them.)
        if (!expect["ok"].toBool() || expect["parts_subset"].toBool() || c["id"].toString().startsWith("busboy/"))
            continue;
        ++expected;
        const QString path = corpus.filePath(c["file"].toString());
        app::InspectWorker worker;
        QSignalSpy finished(&worker, &app::InspectWorker::finished);
        worker.open(path, c["content_type"].toString());
        REQUIRE(finished.size() == 1);
        auto result = finished.first().first().value<app::InspectResult>();
        ui::InspectView view;
        upin::test::ViewReader reader(view);
        view.showResult(result);
        INFO(c["id"].toString().toStdString());
        QJsonArray parts = expect["parts"].toArray();
        REQUIRE(result.report.ok);
        REQUIRE(view.model()->rowCount() == parts.size());
        for (int i = 0; i < parts.size(); ++i) {
            QJsonObject want = parts[i].toObject();
            const char* shaKey = want.contains("raw_sha256") ? "raw_sha256" : "sha256";
            if (want.contains(shaKey))
                CHECK(
                    view.model()->data(view.model()->index(i, ui::PartTreeModel::Digest), Qt::ToolTipRole).toString() ==
                    want[shaKey].toString());
        }
        ++opened;
    }
    CHECK(opened == expected);
    CHECK(opened > 0);
}

TEST_CASE("saving parts: the inspect worker copies each part's bytes at the offsets the report gives", "[ui][inspect]")
{
    QTemporaryDir dir;
    QFile f(dir.filePath("body.bin"));
    REQUIRE(f.open(QIODevice::WriteOnly));
    const char body[] = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nfirst value\r\n"
                        "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.bin\"\r\n\r\n"
                        "\x00\x01\r\n--\xff\r\n--b--\r\n";
    f.write(body, sizeof body - 1); // the part holds a NUL byte
    f.close();
    app::InspectWorker worker;
    QSignalSpy opened(&worker, &app::InspectWorker::finished);
    worker.open(f.fileName());
    REQUIRE(opened.size() == 1);
    const auto result = opened.first().first().value<app::InspectResult>();
    REQUIRE(result.report.parts.size() == 2);
    QList<app::PartCopy> copies;
    for (const auto& part : result.report.parts)
        copies.append({app::locatePart(result, part), dir.filePath(QString::number(part.index))});
    app::PartBytes tooLong = copies.first().source;
    tooLong.available = 1u << 20;
    copies.append({tooLong, dir.filePath("too-long")}); // the body ends first: a failure, reported
    QSignalSpy saved(&worker, &app::InspectWorker::partsSaved);
    worker.saveParts(copies);
    REQUIRE(saved.size() == 1);
    CHECK(saved.first().at(0).toInt() == 3);
    CHECK(saved.first().at(1).toStringList().size() == 1);
    QFile first(dir.filePath("0")), second(dir.filePath("1"));
    REQUIRE(first.open(QIODevice::ReadOnly));
    REQUIRE(second.open(QIODevice::ReadOnly));
    CHECK(first.readAll() == "first value");
    CHECK(second.readAll() == QByteArray("\x00\x01\r\n--\xff", 7));
}

TEST_CASE("choosing a diagnostic moves the hex view to its byte", "[ui][inspect]")
{
    QTemporaryDir dir;
    QFile f(dir.filePath("bare-lf.bin"));
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write("--b\nContent-Disposition: form-data; name=\"a\"\n\nvalue\n--b--\n");
    f.close();
    app::InspectWorker worker;
    QSignalSpy finished(&worker, &app::InspectWorker::finished);
    worker.open(f.fileName());
    auto result = finished.first().first().value<app::InspectResult>();
    ui::InspectView view;
    upin::test::ViewReader reader(view);
    view.showResult(result);
    const auto& diagnostics = result.report.diagnostics;
    REQUIRE(view.diagnostics()->count() == int(diagnostics.size()));
    int row = int(diagnostics.size()) - 1; // the last bare LF, past the first hex line
    REQUIRE(diagnostics[size_t(row)].offset >= 16);
    view.diagnostics()->setCurrentRow(row);
    const quint64 line = diagnostics[size_t(row)].offset & ~quint64(15);
    CHECK(view.hex()->toPlainText().contains(QStringLiteral(">%1").arg(line, 8, 16, QLatin1Char('0'))));
    CHECK(view.hex()->textCursor().block().text().startsWith(">")); // the view follows the mark (review)
    CHECK(view.hex()->markedOffset() == diagnostics[size_t(row)].offset);

    // A part far into the body: its line is where the view is, not below the fold.
    QByteArray far = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n" + QByteArray(5000, 'x') +
                     "\r\n--b\r\nContent-Disposition: form-data; name=\"z\"\r\n\r\nlast\r\n--b--\r\n";
    QFile farFile(dir.filePath("far.bin"));
    REQUIRE(farFile.open(QIODevice::WriteOnly));
    farFile.write(far);
    farFile.close();
    worker.open(farFile.fileName());
    view.resize(900, 600);
    view.show();
    view.showResult(finished.last().first().value<app::InspectResult>());
    view.tree()->setCurrentIndex(view.model()->index(1, 0)); // part z, at body offset 5000 and more
    QApplication::processEvents();
    CHECK(view.hex()->textCursor().block().text().startsWith(">"));
    const QRect marked = view.hex()->cursorRect();
    CHECK(marked.top() >= 0);
    CHECK(marked.bottom() <= view.hex()->viewport()->height());
}
