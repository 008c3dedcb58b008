// Inspect opens a HAR file with every entry as a node: the request's headers in Headers, its response in Text,
// an upload's parts beneath it, and a title that counts requests rather than naming one boundary.

#include "support/sample_har.h"
#include "support/view_reader.h"

#include "inspect/inspect_worker.h"
#include "views/inspect_view.h"

#include "views/answer_text.h"

#include <catch2/catch.hpp>

#include <QPlainTextEdit>
#include <QTabWidget>

#include <QAbstractItemModelTester>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeView>

using namespace upin;

TEST_CASE("Inspect shows every HAR entry with its request headers and its response", "[ui][inspect][har]")
{
    QTemporaryDir dir;
    QFile file(dir.filePath("sample.har"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(test::sampleHar());
    file.close();
    ui::InspectView view;
    upin::test::ViewReader reader(view);
    QAbstractItemModelTester tester(view.model());
    view.showResult(app::inspectSource(file.fileName(), {}, {}));
    INFO(view.title().toStdString());
    CHECK(view.title().contains(" — ok — 2 requests, 1 upload with 2 parts, "));
    CHECK_FALSE(view.title().contains("boundary \"\""));
    REQUIRE(view.model()->rowCount() == 2); // the GET too
    CHECK(view.model()->rowCount(view.model()->index(1, 0)) == 2);
    // Each request is one line across the tree, its URL whole (it was cut to "POST http://…" in Name's share).
    CHECK(view.tree()->isFirstColumnSpanned(1, {}));
    CHECK(view.model()->index(1, 0).data().toString().startsWith("1  POST https://example.test/upload — multipart/"));
    CHECK_FALSE(view.tree()->isFirstColumnSpanned(0, view.model()->index(1, 0))); // its parts keep their columns

    view.tree()->setCurrentIndex(view.model()->index(1, 0)); // the upload's node
    QStringList headers;
    for (int row = 0; row < view.headers()->rowCount(); ++row)
        headers << view.headers()->item(row, 0)->text();
    CHECK(headers.contains("Content-Type"));
    CHECK(headers.contains("Authorization"));
    const QString text = view.text()->toPlainText();
    INFO(text.toStdString());
    CHECK(text.startsWith("POST https://example.test/upload HTTP/1.1\n"));
    CHECK(text.contains("Response: 201 Created (status, header fields and body in the Answer tab)"));
    // The response in a pane of its own (issue 23, item 6): status, header fields, the body indented, wrapped.
    const QString answer = view.answer()->toPlainText();
    INFO(answer.toStdString());
    CHECK(answer.startsWith("201 Created\n"));
    CHECK(answer.contains("    \"id\": 7")); // JSON indented
    CHECK_FALSE(answer.contains("first "));  // the whole answer is there: no note of a cut
    CHECK(view.answer()->lineWrapMode() == QPlainTextEdit::WidgetWidth);
    auto* tabs = qobject_cast<QTabWidget*>(view.answer()->parentWidget()->parentWidget());
    REQUIRE(tabs);
    CHECK(tabs->isTabEnabled(tabs->indexOf(view.answer())));

    view.tree()->setCurrentIndex(view.model()->index(0, 0)); // the GET
    REQUIRE(view.headers()->rowCount() == 1);                // says it has none, rather than an empty table
    CHECK(view.headers()->item(0, 0)->text().startsWith("(none: "));
    CHECK(view.text()->toPlainText().contains("No request body"));
    CHECK(view.text()->toPlainText().contains("Response: 200 OK"));

    view.tree()->setCurrentIndex(view.model()->index(0, 0, view.model()->index(1, 0))); // a part: its own text
    CHECK(view.text()->toPlainText() == "hello file");
    CHECK_FALSE(tabs->isTabEnabled(tabs->indexOf(view.answer()))); // a part has no answer of its own
}

TEST_CASE("an answer's JSON is laid out, never rewritten: key order, duplicates and big numbers as the server sent "
          "them",
          "[ui][answer]")
{
    const QByteArray body = R"({"z":1,"id":12345678901234567891,"dup":1,"dup":2,"f":0.10,"a":[],"o":{},)"
                            R"("s":"x,{}\"y:","n":[1,{"k":true}]})";
    const QString text = ui::answerText("HTTP/1.1 200 OK", {}, {{"Content-Type", "application/json"}}, body);
    INFO(text.toStdString());
    CHECK(text == "HTTP/1.1 200 OK\nContent-Type: application/json\n\n"
                  "{\n    \"z\": 1,\n    \"id\": 12345678901234567891,\n    \"dup\": 1,\n    \"dup\": 2,\n"
                  "    \"f\": 0.10,\n    \"a\": [],\n    \"o\": {},\n    \"s\": \"x,{}\\\"y:\",\n"
                  "    \"n\": [\n        1,\n        {\n            \"k\": true\n        }\n    ]\n}");
    // Not JSON: the text as it came.
    CHECK(ui::answerText("HTTP/1.1 500", {}, {}, "{oops").endsWith("\n\n{oops"));
}

TEST_CASE("a HAR file that is not valid JSON: the title and the diagnostics say why, nothing counted",
          "[ui][inspect][har]")
{
    QTemporaryDir dir;
    QFile file(dir.filePath("broken.har"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(R"({"log": {"entries": [ {"request": )");
    file.close();
    ui::InspectView view;
    view.showResult(app::inspectSource(file.fileName(), {}, {}));
    INFO(view.title().toStdString());
    CHECK(view.title().contains("not valid JSON"));
    CHECK_FALSE(view.title().contains("0 parts"));
    CHECK_FALSE(view.title().contains("boundary"));
    REQUIRE(view.diagnostics()->count() >= 1);
    CHECK(view.diagnostics()->item(0)->text().contains("not valid JSON"));
}
