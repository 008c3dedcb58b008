// Issue 48, item 5: the window said "raise it with --max-field-size" of a rejected upload and "--max-body: 'lots'
// is not a size" in Settings, naming CLI flags where the user changes a Settings field. The CLI keeps its flags
// (test_cli.cpp), and an answer to a client names the limit by its option only (test_storage.cpp).

#include "app/listener_fixture.h"
#include "main_window.h"
#include "service_wiring.h"
#include "support/wait_for.h"
#include "ui/wired_listener.h"
#include "views/inspect_view.h"
#include "views/listen_view.h"
#include "views/listener_settings_dialog.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QSettings>
#include <QTableView>
#include <QTest>
#include <QTimer>

using namespace upin;

TEST_CASE("a rejected upload names the Settings field that raises its limit, in the list and in Inspect",
          "[ui][listen][limits]")
{
    test::WiredWindow wired;
    QTemporaryDir& dir = wired.dir;
    ui::MainWindow& window = wired.window;
    const quint16 port = wired.port;
    QFile value(dir.filePath("value.txt")); // a field of 2 MiB: the listener takes 1 MiB by default
    REQUIRE(value.open(QIODevice::WriteOnly));
    value.write(QByteArray(2 << 20, 'v'));
    value.close();
    const test::CurlResult answer =
        test::curl({"-F", "note=<" + value.fileName(), QStringLiteral("http://127.0.0.1:%1/file-part").arg(port)});
    CHECK(answer.status == 400);
    const auto* model = window.listenView()->model();
    UPIN_WAIT_FOR(model->rowCount() == 1 && model->row(0).state == app::CaptureState::Rejected, 10000);
    // The list says it short, so that it fits its column at 1280 px (a review found it cut mid-word); the tooltip
    // says it all, with the Settings field that raises the limit.
    const QString state = model->index(0, ui::CaptureListModel::State).data().toString();
    INFO(state.toStdString());
    CHECK(state.startsWith("rejected: form field is larger than the field limit (byte "));
    const QString tip = model->index(0, ui::CaptureListModel::State).data(Qt::ToolTipRole).toString();
    CHECK(tip.contains("larger than the field limit (raise “Max field size” in Listen › Settings…)"));
    CHECK_FALSE(tip.contains("--max"));

    QTableView* table = window.listenView()->table();
    table->setCurrentIndex(table->model()->index(0, 0));
    QTest::keyClick(table, Qt::Key_Return); // Inspect, on its worker thread
    ui::InspectView* inspect = window.inspectView();
    UPIN_WAIT_FOR(inspect->diagnostics()->count() > 0, 10000);
    const QString error = inspect->diagnostics()->item(inspect->diagnostics()->count() - 1)->text();
    INFO(error.toStdString());
    CHECK(error.contains("(raise “Max field size” in Listen › Settings…)"));
}

TEST_CASE("a capture the listener took whole but the window's own parse stops names the window's limit",
          "[ui][inspect][limits]")
{
    test::WiredWindow wired;
    ui::MainWindow& window = wired.window;
    core::Options small = app::inspectLimits();
    small.maxFieldSize = 1000; // the window started with --max-field-size 1000
    wired.wiring.setInspectLimits(small);
    const quint16 port = wired.port;
    REQUIRE(test::curl({"-F", "note=" + QString(5000, 'v'), QStringLiteral("http://127.0.0.1:%1/capture").arg(port)})
                .status == 200);
    const auto* model = window.listenView()->model();
    UPIN_WAIT_FOR(model->rowCount() == 1 && model->row(0).state == app::CaptureState::Complete, 10000);
    QTableView* table = window.listenView()->table();
    table->setCurrentIndex(table->model()->index(0, 0));
    QTest::keyClick(table, Qt::Key_Return);
    ui::InspectView* inspect = window.inspectView();
    UPIN_WAIT_FOR(inspect->diagnostics()->count() > 0, 10000);
    const QString error = inspect->diagnostics()->item(inspect->diagnostics()->count() - 1)->text();
    INFO(error.toStdString());
    CHECK(error.contains("starting the window with --max-field-size"));
    CHECK_FALSE(error.contains("Listen › Settings"));
}

TEST_CASE("Settings names its own field when a value is not a size", "[ui][settings][limits]")
{
    ui::ListenerSettingsDialog dialog(ui::ListenerSettings{});
    QLineEdit* body = nullptr;
    for (auto* edit : dialog.findChildren<QLineEdit*>())
        if (edit->toolTip().contains("(--max-body)")) // the CLI's option stays in the tooltip
            body = edit;
    REQUIRE(body);
    body->setText("lots");
    QString warning;
    QTimer::singleShot(0, [&] {
        for (auto* widget : QApplication::topLevelWidgets())
            if (auto* box = qobject_cast<QMessageBox*>(widget)) {
                warning = box->text();
                box->accept();
            }
    });
    dialog.accept();
    CHECK(dialog.result() != QDialog::Accepted);
    CHECK(warning == "“Max body”: “lots” is not a size such as 512K, 4M or 2G.");
}
