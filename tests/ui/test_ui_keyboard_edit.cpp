// Typing into the Send tab's tables with the keyboard alone (issue 48): a new row's name, Tab, its value, Enter.
// The value once landed in the row above (an Authorization header sent with the wrong token), or was lost on a
// read-only cell; these tests type as a user does, into tables that already have rows.

#include "models/plan_parts_model.h"
#include "views/header_editor.h"
#include "views/send_view.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace upin;

namespace {

QPushButton* button(const QWidget& parent, const QString& text)
{
    for (auto* b : parent.findChildren<QPushButton*>())
        if (b->text() == text)
            return b;
    FAIL("no button " << text.toStdString());
    return nullptr;
}

// Replaces the text of the editor that has the keyboard, then presses `key` (Tab or Enter) in it.
void typeInto(const QString& text, Qt::Key key)
{
    auto* editor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
    REQUIRE(editor != nullptr); // an editor is open and has the keyboard
    QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(editor, text);
    QTest::keyClick(editor, key);
    // Enter commits through a queued call (the line edit sees returnPressed first): run it, as the event loop would.
    QCoreApplication::processEvents();
}

void showActive(QWidget& widget)
{
    widget.resize(900, 500);
    widget.show();
    QApplication::setActiveWindow(&widget);
    REQUIRE(QTest::qWaitForWindowActive(&widget));
}

} // namespace

TEST_CASE("Headers by keyboard: Add header, a name, Tab, a value, Enter fill the new row and no other",
          "[ui][send][headers][keyboard]")
{
    ui::HeaderEditor editor;
    editor.setHeaders({{"Authorization", "Bearer tok-XYZ", true}, {"X-CSRF-Token", "tok", true}});
    showActive(editor);
    button(editor, "Add header")->click();
    typeInto("X-Trace", Qt::Key_Tab);
    typeInto("val2", Qt::Key_Return);
    const QList<app::PlanHeader> headers = editor.headers();
    REQUIRE(headers.size() == 3);
    CHECK(headers[0] == app::PlanHeader{"Authorization", "Bearer tok-XYZ", true});
    CHECK(headers[1] == app::PlanHeader{"X-CSRF-Token", "tok", true});
    CHECK(headers[2] == app::PlanHeader{"X-Trace", "val2", true});
    // Tab from a value goes on to the next row's name, past its Send box, which takes no typing.
    QTableWidget* table = editor.table();
    table->setCurrentCell(0, 2);
    table->editItem(table->item(0, 2));
    typeInto("Bearer tok-NEW", Qt::Key_Tab);
    typeInto("X-CSRF", Qt::Key_Return);
    CHECK(editor.headers()[0].value == "Bearer tok-NEW");
    CHECK(editor.headers()[1].name == "X-CSRF");
    CHECK(editor.headers()[1].value == "tok");
}

TEST_CASE("Parts by keyboard: Add field, a name, Tab, a value, Enter fill the new field and no other",
          "[ui][send][parts][keyboard]")
{
    ui::SendView send;
    app::PlanPart title;
    title.name = "title";
    title.value = "holiday";
    app::PlanPart size;
    size.kind = app::PlanPart::Kind::Synthetic;
    size.name = "blob";
    size.size = 1024;
    send.partsModel()->setParts({title, size});
    showActive(send);
    button(send, "Add fiel&d")->click();
    typeInto("caption", Qt::Key_Tab); // past Kind, which takes no typing, to the field's value
    typeInto("a beach", Qt::Key_Return);
    const QList<app::PlanPart> parts = send.partsModel()->parts();
    REQUIRE(parts.size() == 3);
    CHECK(parts[0].name == "title");
    CHECK(parts[0].value == "holiday");
    CHECK(parts[1].name == "blob");
    CHECK(parts[2].name == "caption");
    CHECK(parts[2].value == "a beach");
}
