// A client's text in the Listen list: a Host or Origin with HTML drew a heading and a link in a tooltip, and a
// right-to-left mark in a path or a filename made "/\u202etxt.exe" read "/exe.txt" (a review found both).

#include "models/capture_list_model.h"

#include <catch2/catch.hpp>

using namespace upin;

TEST_CASE("the Listen list shows a client's Host, path and filename as the text they are: no HTML, no reordering",
          "[ui][listen][hostile]")
{
    ui::CaptureListModel model;
    app::ListenerEvent refused;
    refused.kind = app::ListenerEvent::Kind::CaptureFinished;
    refused.captureId = 1;
    refused.method = QStringLiteral("POST");
    refused.endpoint = QStringLiteral("POST /\u202etxt.exe");
    refused.state = app::CaptureState::Refused;
    refused.answerStatus = 421;
    refused.errorDetail = QStringLiteral("this listener is not <h1>BIG</h1>\u202e: call it by its address");
    app::ListenerEvent part;
    part.kind = app::ListenerEvent::Kind::PartStarted;
    part.captureId = 2;
    part.endpoint = QStringLiteral("/file-part");
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
