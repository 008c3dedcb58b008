// Issue 48's Resend: a captured request put in the Send tab as it came (parts, method, header fields), one header
// edited by keyboard, and sent again: it arrives at the listener with that header changed and every part's digest
// unchanged.

#include "app/listener_fixture.h"
#include "capture/capture_record.h"
#include "main_window.h"
#include "models/capture_list_model.h"
#include "service_wiring.h"
#include "support/wait_for.h"
#include "ui/wired_listener.h"
#include "views/header_editor.h"
#include "views/listen_view.h"
#include "views/send_view.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace upin;

namespace {

QString headerValue(const app::CaptureRecord& record, const QString& name)
{
    for (const auto& [n, v] : record.request.headers.value_or(QList<QPair<QString, QString>>{}))
        if (n.compare(name, Qt::CaseInsensitive) == 0)
            return v;
    return {};
}

QList<std::string> digests(const app::CaptureRecord& record)
{
    QList<std::string> out;
    for (const auto& part : record.report.parts)
        out.append(part.digest);
    return out;
}

bool finished(const ui::CaptureListModel& model, int rows)
{
    return model.rowCount() == rows && model.row(rows - 1).state != app::CaptureState::Receiving;
}

} // namespace

TEST_CASE("Resend puts a capture in the Send tab, and with one header edited by keyboard it arrives changed with "
          "every part's digest unchanged",
          "[ui][send][resend]")
{
    test::WiredWindow wired;
    QTemporaryDir& dir = wired.dir;
    ui::MainWindow& window = wired.window;
    const quint16 port = wired.port;
    const QString photo = dir.filePath("photo.png");
    QFile file(photo);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(test::randomBytes(300'000, 5));
    file.close();
    REQUIRE(test::curl({"-H", "Authorization: Bearer tok-XYZ", "-H", "X-Trace: 7", "-F",
                        "pic=@" + photo + ";type=image/png", "-F", "note=hello",
                        QStringLiteral("http://127.0.0.1:%1/file-part").arg(port)})
                .status == 200);
    ui::CaptureListModel* model = window.listenView()->model();
    UPIN_WAIT_FOR(finished(*model, 1), 10000);
    const QString folder = model->row(0).folder;

    window.tabs()->setCurrentWidget(window.listenView());
    ui::SendView* send = window.sendView();
    app::UploadPlan mine; // the user's own plan, which the capture replaces
    app::PlanPart field;
    field.name = QStringLiteral("mine");
    field.value = QStringLiteral("kept");
    mine.parts = {field};
    send->setPlan(mine);
    emit window.listenView()->resendRequested(folder); // the row menu's Resend…
    UPIN_WAIT_FOR(send->partsModel()->rowCount() == 2, 10000);
    auto* putBack = send->findChild<QPushButton*>("sendPutBack");
    REQUIRE(putBack != nullptr);
    CHECK_FALSE(putBack->isHidden()); // the replaced plan can be had back (it went silently)
    auto* planTabs = send->findChild<QTabWidget*>("sendPlanTabs");
    REQUIRE(planTabs != nullptr);
    CHECK(planTabs->tabText(1) == "Headers (4)"); // the capture's, counted as they came in: curl's two and ours
    CHECK(window.tabs()->currentWidget() == send);
    const app::UploadPlan loaded = send->plan();
    CHECK(loaded.method == "POST");
    CHECK(loaded.targets.value(0).toString() == QStringLiteral("http://127.0.0.1:%1/file-part").arg(port));
    CHECK(loaded.parts[0].name == "pic");
    CHECK(loaded.parts[0].filename == "photo.png");
    CHECK(loaded.parts[0].contentType == "image/png");
    QTableWidget* headers = send->headerEditor()->table();
    int authorization = -1;
    for (int row = 0; row < headers->rowCount(); ++row)
        if (headers->item(row, 1) && headers->item(row, 1)->text() == "Authorization")
            authorization = row;
    REQUIRE(authorization >= 0);
    CHECK(headers->item(authorization, 2)->text() == "Bearer tok-XYZ");

    // The token edited as a user does: the cell, its editor, the new value, Enter.
    window.resize(1280, 800);
    window.show();
    QApplication::setActiveWindow(&window);
    REQUIRE(QTest::qWaitForWindowActive(&window));
    headers->setCurrentCell(authorization, 2);
    headers->editItem(headers->item(authorization, 2));
    auto* editor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
    REQUIRE(editor != nullptr);
    QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(editor, "Bearer tok-NEW");
    QTest::keyClick(editor, Qt::Key_Return);
    QCoreApplication::processEvents();
    send->findChild<QPushButton*>("sendButton")->click();
    UPIN_WAIT_FOR(finished(*model, 2), 20000);

    const auto first = app::CaptureRecord::read(folder);
    const auto again = app::CaptureRecord::read(model->row(1).folder);
    REQUIRE(first);
    REQUIRE(again);
    CHECK(headerValue(*again, "Authorization") == "Bearer tok-NEW");
    CHECK(headerValue(*again, "X-Trace") == "7");
    CHECK(headerValue(*again, "User-Agent") == headerValue(*first, "User-Agent")); // curl's, as it came
    REQUIRE(again->report.parts.size() == 2);
    CHECK(digests(*again) == digests(*first));
    CHECK(again->state == app::CaptureState::Complete);

    putBack->click();
    REQUIRE(send->plan().parts.size() == 1);
    CHECK(send->plan().parts[0].name == "mine");
    CHECK(putBack->isHidden());
    CHECK(planTabs->tabText(1) == "Headers"); // none: it said "Headers (1)" over an empty table
}
