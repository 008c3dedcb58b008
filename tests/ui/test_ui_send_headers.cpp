// The Send tab's method, headers and auth helpers (issue 23, item 5): in the plan, in Copy as curl, kept across
// a restart, checked before sending, and sent from the window to a Flask server that asks for them.

#include "app/forward_fixture.h"
#include "main_window.h"
#include "service_wiring.h"
#include "support/wait_for.h"
#include "views/header_editor.h"
#include "views/send_view.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace upin;

TEST_CASE("the Send tab's method and headers go into the plan, Copy as curl and the next session",
          "[ui][send][headers]")
{
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings")); // not the user's
    {
        ui::MainWindow window;
        ui::SendView* send = window.sendView();
        send->findChild<QComboBox*>("sendMethod")->setCurrentText("PUT");
        ui::HeaderEditor* headers = send->headerEditor();
        headers->setHeaders({{"X-CSRF-Token", "tok", true}, {"Cookie", "session=1", false}});
        headers->setAuthorization(app::basicAuthorization("user", "pa55"));
        const app::UploadPlan plan = send->plan();
        CHECK(plan.method == "PUT");
        REQUIRE(plan.headers.size() == 3);
        CHECK(plan.headers[1] == app::PlanHeader{"Cookie", "session=1", false});
        CHECK(plan.headers[2] == app::PlanHeader{"Authorization", "Basic dXNlcjpwYTU1", true});
        headers->setAuthorization(ui::HeaderEditor::bearerAuthorization("s3cret")); // replaces, not a second row
        CHECK(send->plan().headers.size() == 3);
        CHECK(send->plan().headers[2].value == "Bearer s3cret");
        CHECK(send->plan().toCurl().contains("-X PUT"));
        CHECK_FALSE(send->plan().toCurl().contains("session=1")); // unticked: kept, not sent
        QTest::qWait(700);                                        // written half a second after the change
    }
    ui::MainWindow again;
    again.restoreSettings();
    const app::UploadPlan restored = again.sendView()->plan();
    CHECK(restored.method == "PUT");
    REQUIRE(restored.headers.size() == 3);
    CHECK(restored.headers[1].enabled == false);
}

TEST_CASE("a header that cannot be sent is marked, named, and stops the send", "[ui][send][headers]")
{
    ui::MainWindow window;
    ui::SendView* send = window.sendView();
    app::PlanPart field;
    field.name = "a";
    field.value = "b";
    send->partsModel()->setParts({field});
    send->headerEditor()->setHeaders({{"Content-Length", "12", true}});
    QSignalSpy asked(send, &ui::SendView::sendRequested);
    send->findChild<QPushButton*>("sendButton")->click();
    CHECK(asked.isEmpty());
    CHECK(window.statusBar()->currentMessage().contains("Content-Length is set by the sender itself"));
    send->headerEditor()->table()->item(0, 0)->setCheckState(Qt::Unchecked); // kept, not sent: no objection
    CHECK(send->headerEditor()->problem().isEmpty());
}

TEST_CASE("from the window: PUT with a Bearer token and a CSRF header to a Flask server", "[ui][send][headers][flask]")
{
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings"));
    const test::FlaskUpload flask;
    const quint16 port = flask.port;
    ui::MainWindow window;
    ui::ServiceWiring wiring(window, dir.filePath("captures"));
    ui::SendView* send = window.sendView();
    app::PlanPart field;
    field.name = "title";
    field.value = "holiday";
    send->partsModel()->setParts({field});
    send->findChild<QComboBox*>("sendMethod")->setCurrentText("PUT");
    send->findChild<QComboBox*>("sendTarget")->setCurrentText(QStringLiteral("http://127.0.0.1:%1/upload").arg(port));
    send->headerEditor()->setHeaders({{"X-CSRF-Token", "tok", true}});
    send->headerEditor()->setAuthorization(ui::HeaderEditor::bearerAuthorization("s3cret"));
    send->findChild<QPushButton*>("sendButton")->click();
    UPIN_WAIT_FOR(send->results()->rowCount() == 1 && send->results()->item(0, 2) &&
                      !send->results()->item(0, 2)->text().startsWith("sending"),
                  20000);
    CHECK(send->results()->item(0, 2)->text() == "200 OK");
    const QString answer = send->answer()->toPlainText();
    CHECK(answer.contains("\"method\": \"PUT\""));
    CHECK(answer.contains("\"auth\": \"Bearer\""));
}

TEST_CASE("File > Save plan writes the JSON send --plan reads, and Open plan brings a plan back", "[ui][send][plan]")
{
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings"));
    ui::MainWindow window;
    ui::ServiceWiring wiring(window, dir.filePath("captures"));
    ui::SendView* send = window.sendView();
    app::PlanPart field;
    field.name = "note";
    field.value = "from the window";
    send->partsModel()->setParts({field});
    send->findChild<QComboBox*>("sendMethod")->setCurrentText("PATCH");
    send->findChild<QComboBox*>("sendTarget")->setCurrentText("http://127.0.0.1:9/up");
    send->headerEditor()->setHeaders({{"X-CSRF-Token", "tok", true}});
    const QString path = dir.filePath("plan.json");
    emit window.planSaveRequested(path);
    UPIN_WAIT_FOR(window.statusBar()->currentMessage().startsWith("Saved the plan"), 5000);
    // What the CLI makes of it: the same request.
    QProcess cli;
    cli.start(QStringLiteral(UPIN_CLI_PATH), {"send", "--plan", path, "--print-curl"});
    REQUIRE(cli.waitForFinished(10000));
    const QString curl = QString::fromUtf8(cli.readAllStandardOutput());
    CHECK(curl.startsWith("curl -X PATCH "));
    CHECK(curl.contains("-H 'X-CSRF-Token: tok'"));
    CHECK(curl.contains("'note=from the window'"));
    CHECK(curl.contains("http://127.0.0.1:9/up"));
    // Emptied, then opened again.
    send->partsModel()->setParts({});
    send->headerEditor()->setHeaders({});
    emit window.planOpenRequested(path);
    UPIN_WAIT_FOR(send->partsModel()->rowCount() == 1, 5000);
    CHECK(send->plan().method == "PATCH");
    CHECK(send->plan().headers.size() == 1);
    // A file that is not a plan says why, and leaves the tab alone.
    QFile bad(dir.filePath("bad.json"));
    REQUIRE(bad.open(QIODevice::WriteOnly));
    bad.write("{\"method\": \"DELETE\"}");
    bad.close();
    emit window.planOpenRequested(bad.fileName());
    UPIN_WAIT_FOR(window.statusBar()->currentMessage().startsWith("Could not open the plan"), 5000);
    CHECK(window.statusBar()->currentMessage().contains("POST, PUT, PATCH"));
    CHECK(send->partsModel()->rowCount() == 1);
}
