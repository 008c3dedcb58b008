// The bench's sources, Open capture folder, the live Send chart, forward mode in the window. (split from test_ui.cpp, which had grown past 1,600 lines)

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
#include "views/tls_trust.h"

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
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QThread>
#include <QThreadPool>
#include <QTimer>
#include <QTreeView>
#include <QUrl>
#include <QValueAxis>

using namespace upin;

using test::inspectFile;

TEST_CASE("the bench offers what Inspect opened only when it parsed, and keeps the chosen source", "[ui][bench]")
{
    QTemporaryDir dir;
    auto write = [&](const QString& name, const QByteArray& bytes) {
        QFile f(dir.filePath(name));
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        return f.fileName();
    };
    ui::BenchView view;
    const int generated = view.source()->count();
    const QString chosen = view.source()->currentText();
    view.offerInspected(inspectFile(write("none.bin", "no delimiter here at all")));
    CHECK(view.source()->count() == generated); // nothing to time: not offered
    const QString body = write("good.bin", "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--b--\r\n");
    view.offerInspected(inspectFile(body));
    REQUIRE(view.source()->count() == generated + 1);
    CHECK(view.source()->itemText(generated) == "stored: good.bin");
    CHECK(view.source()->currentText() == chosen); // offered, not switched to
    // Chosen, it is timed with the boundary Inspect read from its first line.
    QSignalSpy requested(&view, &ui::BenchView::runRequested);
    view.source()->setCurrentIndex(generated);
    for (auto* b : view.findChildren<QPushButton*>())
        if (b->text() == "Run bench")
            b->click();
    REQUIRE(requested.size() == 1);
    // Only a Debug build warns that its figures mean little (issue 23, item 7: a Release build said it too).
    bool timing = false;
    for (const auto* label : view.findChildren<QLabel*>())
        if (label->text().startsWith("Timing…")) {
            timing = true;
#ifdef NDEBUG
            CHECK(label->text() == "Timing…");
#else
            CHECK(label->text().contains("a Debug build"));
#endif
        }
    CHECK(timing);
    const auto request = requested.first().first().value<app::BenchRequest>();
    CHECK(request.path == body);
    CHECK(request.contentType == "multipart/form-data; boundary=b");
}

TEST_CASE("File > Open capture folder… opens a folder, where a file dialog would walk into it", "[ui][inspect]")
{
    QTemporaryDir dir;
    const QString folder = dir.filePath("capture-20261130-000000-000-1-file-part");
    REQUIRE(QDir().mkpath(folder));
    ui::MainWindow window;
    window.setCapturesRoot(dir.path());
    QSignalSpy opened(window.inspectView(), &ui::InspectView::openRequested);
    QAction* action = nullptr;
    for (auto* a : window.findChildren<QAction*>())
        if (a->text() == "Open &capture folder…")
            action = a;
    REQUIRE(action);
    QTimer::singleShot(200, [&] {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* dialog = qobject_cast<QFileDialog*>(w)) {
                dialog->setDirectory(folder);                // inside the capture folder, nothing else chosen
                QMetaObject::invokeMethod(dialog, "accept"); // accept() is protected in QFileDialog
            }
    });
    action->trigger();
    REQUIRE(opened.size() == 1);
    INFO(opened.first().first().toString().toStdString());
    CHECK(QDir(opened.first().first().toString()) == QDir(folder));
}

TEST_CASE("the Send chart follows a run while it goes", "[ui][send][charts]")
{
    ui::SendView view;
    view.onProgress(0, 0, 1'000'000, 4'000'000);
    QTest::qWait(120);
    view.onProgress(0, 0, 3'000'000, 4'000'000);
    REQUIRE(view.chart()->sentSeries()->count() == 3);   // the origin and two points, before the run ends
    CHECK(view.chart()->sentSeries()->at(2).y() == 3.0); // MB so far
    CHECK(view.chart()->sentSeries()->at(2).x() >= 0.1);
}

TEST_CASE("forward mode in the window: the panel's intent, the exchange listed with the upstream's answer and its "
          "legs, Inspect telling what went on and what came back",
          "[ui][forward]")
{
    ui::MainWindow window;
    ui::ListenView* listen = window.listenView();
    // The panel asks for a forwarder only with an http(s) URL, and says why not otherwise.
    QSignalSpy asked(listen, &ui::ListenView::forwardRequested);
    auto* upstreamField = listen->findChild<QLineEdit*>("forwardUpstream");
    auto* toggle = listen->findChild<QPushButton*>("forwardToggle");
    REQUIRE(upstreamField);
    REQUIRE(toggle);
    upstreamField->setText("ftp://example.test");
    toggle->click();
    CHECK(asked.isEmpty());
    auto* forwardError = listen->findChild<QLabel*>("forwardError");
    REQUIRE(forwardError);
    CHECK(forwardError->text() == "Not forwarding: give an http:// or https:// URL of your server in Forward to");
    CHECK_FALSE(forwardError->isHidden());
    CHECK(forwardError->wordWrap()); // whole on a line of its own: beside the row's buttons it was cut

    test::ListenerFixture upstream;
    upstreamField->setText(upstream.url(""));
    listen->findChild<QSpinBox*>("forwardPort")->setValue(0);
    listen->findChild<QCheckBox*>("forwardInsecure")->setChecked(true);
    toggle->click();
    REQUIRE(asked.size() == 1);
    auto settings = asked.first().first().value<app::ForwardSettings>();
    CHECK(settings.upstream == QUrl(upstream.url("")));
    CHECK(settings.insecure);
    CHECK(settings.saveParts); // by default: Inspect shows what passed
    CHECK(asked.first().at(1).toUInt() == 0);
    CHECK_FALSE(asked.first().at(2).toBool()); // whole requests are kept only when asked for

    // What ServiceWiring does with that intent: a forwarder, its events into the list.
    app::ServerConfig config;
    config.forward = settings;
    test::ListenerFixture forwarder(config);
    QObject::connect(&forwarder.listener, &app::Server::events, listen, &ui::ListenView::applyEvents);
    const QString base = QStringLiteral("http://127.0.0.1:%1").arg(forwarder.listener.port());
    listen->setForwarding(true, base, settings.upstream.toString());
    CHECK(toggle->text() == "Stop forwarding");
    CHECK_FALSE(upstreamField->isEnabled());
    window.sendView()->setForwarderBase(base);
    window.sendView()->setListenerBase(upstream.url("")); // the listener moving leaves the forwarder's presets
    CHECK(window.sendView()->targets().contains(base + "/file-part"));

    const QString file = forwarder.file("pic.bin", test::randomBytes(1 << 20, 31));
    REQUIRE(test::curl({"-F", "photo=@" + file, "-F", "note=hello", base + "/file-part"}).status == 200);
    auto* model = listen->model();
    for (int i = 0; i < 100 && (model->rowCount() == 0 || model->row(0).state == app::CaptureState::Receiving); ++i)
        QTest::qWait(20);
    REQUIRE(model->rowCount() == 1);
    const ui::CaptureListModel::Row row = model->row(0);
    CHECK(row.endpoint == "→ " + upstream.url("/file-part"));
    const QString shown = model->data(model->index(0, ui::CaptureListModel::Upstream), Qt::DisplayRole).toString();
    CHECK(shown.startsWith("server "));
    CHECK(model->data(model->index(0, ui::CaptureListModel::Status), Qt::DisplayRole).toString() == "200");
    // The timeline: the two parts, then the two legs and the server's time.
    QStringList labels;
    for (const auto& span : row.partSpans)
        labels << span.label;
    REQUIRE(labels.size() == 5);
    CHECK(labels[2] == "client → here");
    CHECK(labels[3] == "here → upstream");
    CHECK(labels[4].startsWith("server "));
    CHECK(row.partSpans[4].kind == ui::CaptureListModel::Row::PartSpan::Kind::Server);

    // Inspect: the Request row tells where it went, as sent, and the answer.
    app::InspectWorker worker;
    QSignalSpy opened(&worker, &app::InspectWorker::finished);
    worker.open(row.folder);
    REQUIRE(test::signalled(opened, 10000));
    ui::InspectView& inspect = *window.inspectView();
    upin::test::ViewReader reader(inspect);
    inspect.showResult(opened.first().first().value<app::InspectResult>());
    inspect.tree()->setCurrentIndex(inspect.model()->index(0, 0));
    const QString text = inspect.text()->toPlainText();
    CHECK(text.contains("Forwarded to " + upstream.url("")));
    CHECK(text.contains("Answer:     200"));
    CHECK(text.contains("As sent to the upstream:\nPOST /file-part HTTP/1.1\nHost: 127.0.0.1:"));
    CHECK(text.contains("X-Forwarded-For: 127.0.0.1"));
    CHECK(text.contains("Its answer (status, header fields, body) is in the Answer tab."));
    const QString answer = inspect.answer()->toPlainText(); // issue 23, item 6: a pane of its own, indented
    CHECK(answer.startsWith("HTTP/1.1 200 OK\n(from " + upstream.url(""))); // the reason phrase as it came
    CHECK(answer.contains("\n    \"capture_id\": "));
    CHECK(inspect.model()->rowCount() == 3); // the request, photo, note
    // Its bytes were not kept: the Request row says where to ask for them, in the window.
    CHECK(inspect.hex()->toPlainText().contains("tick Keep whole requests in the Forward row"));
    listen->setForwarding(false, {}, {});
    listen->findChild<QCheckBox*>("forwardKeepRequests")->setChecked(true);
    toggle->click();
    REQUIRE(asked.size() == 2);
    CHECK(asked.last().at(2).toBool());
}

// Issue 49, item 4: the window checks a URL and a CA file by the command line's rules and says the same words.
TEST_CASE("Send refuses a target that is no http(s) URL, rather than rewriting a typo, and a CA file holding no "
          "certificate is refused when picked",
          "[ui][send][options]")
{
    ui::MainWindow window;
    ui::SendView* send = window.sendView();
    QSignalSpy asked(send, &ui::SendView::sendRequested);
    send->partsModel()->addFiles({QStringLiteral(UPIN_DEFAULT_CORPUS) + "/README.md"});
    auto* target = send->findChildren<QComboBox*>().at(0);
    for (auto* box : send->findChildren<QComboBox*>())
        if (box->isEditable())
            target = box;
    target->setCurrentText("htp://127.0.0.1:9/upload");
    QPushButton* sendButton = nullptr;
    for (auto* b : send->findChildren<QPushButton*>())
        if (b->text() == "Send")
            sendButton = b;
    REQUIRE(sendButton);
    sendButton->click();
    CHECK(asked.isEmpty());
    CHECK(window.statusBar()->currentMessage() ==
          "Not sent: Target htp://127.0.0.1:9/upload: give an http:// or https:// URL");

    QTemporaryDir dir;
    QFile notes(dir.filePath("notes.pem"));
    REQUIRE(notes.open(QIODevice::WriteOnly));
    notes.write("not a certificate\n");
    notes.close();
    auto* trust = window.listenView()->findChild<ui::TlsTrust*>();
    REQUIRE(trust);
    CHECK(trust->offer(notes.fileName()) ==
          notes.fileName() + ": no PEM certificate could be read in it; still trusted: the system's CAs");
    CHECK(trust->caFile().isEmpty());
}
