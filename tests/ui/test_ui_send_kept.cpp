// The Send tab keeps the user's work (issue 23, item 4): the plan and the target come back after a restart, and
// they are written as they change, so that a crash does not lose them.

#include "main_window.h"
#include "models/plan_parts_model.h"
#include "views/send_view.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace upin;

TEST_CASE("the Send tab's parts, options and target come back after a restart, written as they change",
          "[ui][send][settings]")
{
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings")); // not the user's
    QFile file(dir.filePath("photo.png"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write("png");
    file.close();
    {
        ui::MainWindow window;
        ui::SendView* send = window.sendView();
        send->setTargets({"http://127.0.0.1:9/upload"});
        send->findChild<QSpinBox*>()->setValue(3);
        for (auto* box : send->findChildren<QCheckBox*>())
            if (box->text() == "Chunked" || box->text().startsWith("Don't check"))
                box->setChecked(true);
        send->addFiles({file.fileName()});
        QTest::qWait(800); // the window is never closed: as a crash would leave it
    }
    ui::MainWindow again;
    again.restoreSettings();
    const app::UploadPlan plan = again.sendView()->plan();
    REQUIRE(plan.parts.size() == 1);
    CHECK(plan.parts.first().path == file.fileName());
    CHECK(plan.targets.first() == QUrl("http://127.0.0.1:9/upload"));
    CHECK(plan.runs == 3);
    CHECK(plan.chunked);
    CHECK_FALSE(plan.insecure); // not checking certificates is never remembered
    // A target typed and nothing else changed is written too (review: only a later change wrote it).
    again.sendView()->findChild<QComboBox*>("sendTarget")->setCurrentText("http://127.0.0.1:9/custom");
    QTest::qWait(800);
    ui::MainWindow third;
    third.restoreSettings();
    CHECK(third.sendView()->plan().targets.first() == QUrl("http://127.0.0.1:9/custom"));
}

TEST_CASE("the parts table looks at a file's size once, not on every repaint", "[ui][send]")
{
    QTemporaryDir dir;
    QFile file(dir.filePath("a.bin"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(QByteArray(1536, 'a'));
    file.close();
    ui::PlanPartsModel model;
    model.addFiles({file.fileName()});
    const QModelIndex size = model.index(0, ui::PlanPartsModel::Size);
    CHECK(model.data(size, Qt::EditRole).toULongLong() == 1536);
    REQUIRE(QFile::resize(file.fileName(), 10)); // a repaint now reads the size it read before, with no stat
    CHECK(model.data(size, Qt::EditRole).toULongLong() == 1536);
}

TEST_CASE("a target typed and entered is the one sent to, not a preset it begins", "[ui][send]")
{
    ui::SendView send;
    send.setTargets({QStringLiteral("http://127.0.0.1:8080/file-part?matcher=kmp")}); // the last one sent to
    send.setListenerBase(QStringLiteral("http://127.0.0.1:8080"));
    send.show();
    QApplication::setActiveWindow(&send); // completion follows the focus, as a user's typing has it
    REQUIRE(QTest::qWaitForWindowActive(&send));
    auto* target = send.findChild<QComboBox*>("sendTarget");
    REQUIRE(target != nullptr);
    // A target it begins comes first in the list (the history before the presets).
    REQUIRE(target->findText("http://127.0.0.1:8080/file-part?matcher=kmp") >= 0);
    REQUIRE(target->findText("http://127.0.0.1:8080/file-part?matcher=kmp") <
            target->findText("http://127.0.0.1:8080/file-part"));
    target->setFocus();
    target->lineEdit()->selectAll();
    QTest::keyClicks(target->lineEdit(), "http://127.0.0.1:8080/file-part");
    INFO(target->lineEdit()->text().toStdString());
    QTest::keyClick(target->lineEdit(), Qt::Key_Return);
    CHECK(target->currentText() == "http://127.0.0.1:8080/file-part"); // inline completion made it ?matcher=kmp
}
