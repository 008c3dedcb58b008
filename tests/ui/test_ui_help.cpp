// Keyboard and help (issue 23, item 9): the main buttons have Alt-letter shortcuts, each tab's its own; Help has
// Getting started (F1) and Keyboard shortcuts, whose page names the shortcuts the widgets really have; Enter on a
// capture row opens it.

#include "help_pages.h"
#include "main_window.h"
#include "views/listen_view.h"
#include "views/probe_view.h"
#include "views/send_view.h"

#include <catch2/catch.hpp>

#include <QAbstractItemView>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace upin;

namespace {

// The Alt-letter a button's text gives it, lower case; 0 when none.
QChar mnemonic(const QString& text)
{
    const qsizetype at = text.indexOf(QLatin1Char('&'));
    return at >= 0 && at + 1 < text.size() ? text[at + 1].toLower() : QChar();
}

} // namespace

TEST_CASE("the main buttons have Alt-letter shortcuts that clash with nothing on their tab, the tabs or the menus",
          "[ui][help]")
{
    ui::MainWindow window;
    const QString taken = "slicbmfh"; // the tabs' and the menus' own
    for (QWidget* tab : {static_cast<QWidget*>(window.sendView()), static_cast<QWidget*>(window.listenView()),
                         static_cast<QWidget*>(window.probeView())}) {
        QStringList seen;
        for (const auto* button : tab->findChildren<QPushButton*>()) {
            const QChar key = mnemonic(button->text());
            if (key.isNull())
                continue;
            INFO(button->text().toStdString());
            CHECK_FALSE(taken.contains(key));
            CHECK_FALSE(seen.contains(key));
            seen << key;
        }
        CHECK(seen.size() >= 4);
    }
    const QStringList sendButtons{"&Add files…",   "Add fiel&d", "Add s&ynthetic…",
                                  "Copy as c&url", "E&xport…",   "Clear &runs"};
    for (const QString& text : sendButtons) {
        bool found = false;
        for (const auto* button : window.sendView()->findChildren<QPushButton*>())
            found = found || button->text() == text;
        INFO(text.toStdString());
        CHECK(found);
    }
}

TEST_CASE("Help has Getting started (F1) with the listener's own curl line, and the keyboard shortcuts", "[ui][help]")
{
    ui::MainWindow window;
    window.setListenerBase("http://127.0.0.1:9123");
    QMenu* help = nullptr;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->text() == "&Help")
            help = menu->menu();
    REQUIRE(help);
    QAction* started = nullptr;
    QAction* keys = nullptr;
    for (QAction* action : help->actions()) {
        if (action->text() == "&Getting started")
            started = action;
        if (action->text() == "&Keyboard shortcuts")
            keys = action;
    }
    REQUIRE(started);
    REQUIRE(keys);
    CHECK(started->shortcut() == QKeySequence(QKeySequence::HelpContents));
    started->trigger();
    auto* page = window.findChild<QMessageBox*>("helpPage");
    REQUIRE(page);
    CHECK(page->text().contains("curl -F file=@/etc/os-release -F note=hello 'http://127.0.0.1:9123/file-part'"));
    CHECK_FALSE(page->isModal()); // beside the window, while the user tries what it says
    keys->trigger();
    bool listed = false;
    for (const auto* box : window.findChildren<QMessageBox*>("helpPage"))
        listed = listed || (box->text().contains("Ctrl+Enter") && box->text().contains("Alt+Y"));
    CHECK(listed);
    CHECK(ui::keyboardShortcutsPage().contains("Ctrl+Shift+O"));
}

TEST_CASE("Enter on a capture row opens it, as a double-click does", "[ui][help][listen]")
{
    QTemporaryDir dir;
    ui::ListenView view;
    app::CaptureEvent finished;
    finished.kind = app::CaptureEvent::Kind::CaptureFinished;
    finished.capture.id = 7;
    finished.capture.endpoint = "/file-part";
    finished.capture.folder = dir.path();
    finished.capture.state = app::CaptureState::Complete;
    view.applyEvents({finished});
    auto* table = view.findChild<QTableView*>();
    REQUIRE(table);
    REQUIRE(table->model()->rowCount() == 1);
    QSignalSpy opened(&view, &ui::ListenView::captureActivated);
    table->setCurrentIndex(table->model()->index(0, 0));
    QTest::keyClick(table, Qt::Key_Return);
    REQUIRE(opened.size() == 1);
    CHECK(opened.first().first().toString() == dir.path());
}
