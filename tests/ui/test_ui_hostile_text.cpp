// A client's text in the Listen list: a Host or Origin with HTML drew a heading and a link in a tooltip, and a
// right-to-left mark in a path or a filename made "/\u202etxt.exe" read "/exe.txt" (a review found both).

#include "capture/capture_store.h"
#include "models/capture_list_model.h"
#include "models/plan_parts_model.h"
#include "views/answer_text.h"

#include <catch2/catch.hpp>

using namespace upin;

TEST_CASE("the Listen list shows a client's Host, path and filename as the text they are: no HTML, no reordering",
          "[ui][listen][hostile]")
{
    ui::CaptureListModel model;
    app::CaptureEvent refused;
    refused.kind = app::CaptureEvent::Kind::CaptureFinished;
    refused.capture.id = 1;
    refused.capture.method = QStringLiteral("POST");
    refused.capture.endpoint = QStringLiteral("POST /\u202etxt.exe");
    refused.capture.state = app::CaptureState::Refused;
    refused.capture.answerStatus = 421;
    refused.capture.errorDetail = QStringLiteral("this listener is not <h1>BIG</h1>\u202e: call it by its address");
    app::CaptureEvent part;
    part.kind = app::CaptureEvent::Kind::PartStarted;
    part.capture.id = 2;
    part.capture.endpoint = QStringLiteral("/file-part");
    part.part.index = 0;
    part.part.name = "file";
    part.part.filename = "\u202egnp.exe";
    model.apply({refused, part});
    REQUIRE(model.rowCount() == 2);
    CHECK(model.index(0, ui::CaptureListModel::Endpoint).data().toString() == "/\\u202etxt.exe");
    CHECK(model.index(0, ui::CaptureListModel::State).data().toString() ==
          "refused 421: this listener is not <h1>BIG</h1>\\u202e");
    for (int column = 0; column < ui::CaptureListModel::ColumnCount; ++column) {
        const QString tip = model.index(0, column).data(Qt::ToolTipRole).toString();
        INFO(tip.toStdString());
        CHECK_FALSE(tip.contains("<h1>"));
        CHECK(tip.contains("&lt;h1&gt;BIG&lt;/h1&gt;"));
        CHECK_FALSE(tip.contains(QChar(0x202e)));
    }
    CHECK(model.row(1).partSpans.value(0).label == "0 file (\\u202egnp.exe)");
}

TEST_CASE("a resent client's filename reads as text in the Send tab, the answer and the name Save part suggests",
          "[ui][hostile]")
{
    const std::string hostile = "evil\t\u202egnp.exe";
    // Save part suggests the name without its tab and its right-to-left mark, its letters kept.
    CHECK(app::CaptureStore::suggestedFileName(hostile, "f") == "evilgnp.exe");
    CHECK(app::CaptureStore::suggestedFileName("../..\\r\xc3\xa9sum\xc3\xa9.pdf", "f") ==
          QString::fromUtf8("résumé.pdf"));
    const QString longest = app::CaptureStore::suggestedFileName(std::string(3000, 'a') + ".pdf", "f");
    CHECK((longest.size() == 200 && longest.endsWith(".pdf")));
    CHECK(app::CaptureStore::suggestedFileName("...", "field") == "part");
    // The Send tab shows it spelt and edits it whole.
    ui::PlanPartsModel parts;
    app::PlanPart part;
    part.kind = app::PlanPart::Kind::Field;
    part.name = QStringLiteral("note");
    part.value = QStringLiteral("a\u202eb");
    part.filename = QString::fromStdString(hostile);
    parts.addPart(part);
    CHECK(parts.index(0, ui::PlanPartsModel::Filename).data().toString() == "evil\\x09\\u202egnp.exe");
    CHECK(parts.index(0, ui::PlanPartsModel::Filename).data(Qt::EditRole).toString() ==
          QString::fromStdString(hostile));
    CHECK(parts.index(0, ui::PlanPartsModel::Source).data().toString() == "a\\u202eb");
    // The answer's JSON echoes it: the mark spelt, the layout's line breaks kept.
    const QString answer = ui::answerText("HTTP/1.1 200 OK", {}, {},
                                          R"({"filename": "evil)"
                                          "\xe2\x80\xae"
                                          R"(gnp.exe"})");
    CHECK(answer.contains("\"filename\": \"evil\\u202egnp.exe\""));
    CHECK(answer.contains('\n'));
}
