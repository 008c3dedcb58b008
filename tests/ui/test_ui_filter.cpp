// Issue 48: the Listen list's filter language (status>=400, method:PUT, size>10M, host:, is:probe) with completion
// of the word being typed, and a probe's uploads marked and hidden from the list unless the filter asks for them.

#include "app/listener_fixture.h"
#include "capture/stored_captures.h"
#include "charts/part_timeline_chart.h"
#include "models/capture_list_model.h"
#include "support/wait_for.h"
#include "views/listen_view.h"

#include <catch2/catch.hpp>

#include "views/elided_label.h"
#include <QAbstractItemView>
#include <QApplication>
#include <QCompleter>
#include <QLineEdit>
#include <QTableView>
#include <QTest>

using namespace upin;

namespace {

// The endpoints of the rows the table shows, by their method and status: "POST 200".
QStringList shown(const ui::ListenView& view)
{
    QStringList rows;
    const QAbstractItemModel* model = view.table()->model();
    for (int row = 0; row < model->rowCount(); ++row)
        rows << model->index(row, ui::CaptureListModel::Method).data().toString() + " " +
                    model->index(row, ui::CaptureListModel::Status).data().toString();
    return rows;
}

// The filter typed as a user types it: cleared, then key by key.
void type(ui::ListenView& view, const QString& text)
{
    view.filter()->clear();
    QTest::keyClicks(view.filter(), text);
}

} // namespace

TEST_CASE("the Listen filter takes status, method, size and host terms, says what it cannot read, and hides a "
          "probe's uploads unless is:probe asks",
          "[ui][listen][filter]")
{
    app::ServerConfig config;
    test::ListenerFixture f(config);
    ui::ListenView view;
    QObject::connect(&f.listener, &app::Server::events, &view, &ui::ListenView::applyEvents);
    const QString big = f.file("big.bin", test::randomBytes(2'000'000, 3));
    REQUIRE(test::curl({"-F", "a=b", f.url("/file-part")}).status == 200);
    REQUIRE(test::curl({"-X", "PUT", "--data-binary", "x", f.url("/file-part")}).status == 405);
    REQUIRE(test::curl({"-F", "big=@" + big, f.url("/discard")}).status == 200);
    REQUIRE(test::curl({"-H", "Content-Type: multipart/form-data; boundary=XX", "--data-binary", "none here",
                        f.url("/file-part")})
                .status == 400);
    REQUIRE(test::curl({"-H", "Upload-Inspector-Probe: 1f2e", "-F", "a=b", f.url("/file-part")}).status == 200);
    auto* model = view.model();
    UPIN_WAIT_FOR(model->rowCount() == 5 && model->row(4).state != app::CaptureState::Receiving, 10000);
    CHECK(model->row(4).fromProbe);

    view.resize(1280, 600);
    view.show();
    QApplication::setActiveWindow(&view);
    REQUIRE(QTest::qWaitForWindowActive(&view));
    auto* note = view.findChild<ui::ElidedLabel*>("captureFilterNote");
    REQUIRE(note != nullptr);
    CHECK(shown(view) == QStringList{"POST 200", "PUT 405", "POST 200", "POST 400"}); // the probe's is not listed
    CHECK(note->fullText() == "1 probe upload hidden (is:probe shows it)");
    type(view, "status>=400");
    CHECK(shown(view) == QStringList{"PUT 405", "POST 400"});
    type(view, "method:put");
    CHECK(shown(view) == QStringList{"PUT 405"});
    // The timeline names a listed capture only, and not a refused one, which has no parts.
    auto* timeline = view.findChild<ui::PartTimelineChart*>();
    REQUIRE(timeline != nullptr);
    CHECK(timeline->chart()->title() == "Parts over time");
    type(view, "size>1M");
    CHECK(shown(view) == QStringList{"POST 200"});
    CHECK(timeline->chart()->title().startsWith("Parts over time — /discard "));
    CHECK(view.table()->model()->index(0, ui::CaptureListModel::Endpoint).data().toString().startsWith("/discard"));
    type(view, "-status:2xx file-part"); // terms hold together; any text a column holds
    CHECK(shown(view) == QStringList{"PUT 405", "POST 400"});
    type(view, "host:127.0.0.1 status:200");
    CHECK(shown(view).size() == 2);
    type(view, "is:probe");
    CHECK(shown(view) == QStringList{"POST 200"});
    CHECK(note->isHidden());
    // A term that cannot be read matches nothing and says why, in red.
    type(view, "status>=lots");
    CHECK(shown(view).isEmpty());
    CHECK(note->fullText() == "status>=lots: give a status (404), a class (4xx) or a comparison (status>=400)");
    // A misspelt key is searched for as text, as any word is, and the note names the key it looks like.
    type(view, "stauts:405");
    CHECK(shown(view).isEmpty());
    CHECK(note->fullText() == "stauts:405 is searched for as text: did you mean status:?");
    CHECK(note->isVisible());
    type(view, "sise>10M"); // with an operator of its own, and a swap of two letters too
    CHECK(note->fullText() == "sise>10M is searched for as text: did you mean size>?");
    type(view, "hots:example");
    CHECK(note->fullText() == "hots:example is searched for as text: did you mean host:?");
    type(view, "status!=200");
    CHECK(note->fullText() == "status!=200 is searched for as text: -status:200 leaves those out");
    type(view, "localhost:8080"); // a word with a colon, not a key: no hint
    CHECK(note->fullText() == "1 probe upload hidden (is:probe shows it)");
    type(view, "status:" + QString(150, 'x')); // said, elided: the window keeps its width
    QCoreApplication::processEvents();
    CHECK(view.width() == 1280);

    // Completion of the word being typed, which alone is replaced.
    type(view, "status>=400 meth");
    auto* completer = view.filter()->findChild<QCompleter*>();
    REQUIRE(completer != nullptr);
    UPIN_WAIT_FOR(completer->popup()->isVisible(), 5000);
    CHECK(completer->completionCount() == 4); // method:POST, method:PUT, method:PATCH, method:GET
    QTest::keyClick(completer->popup(), Qt::Key_Down);
    QTest::keyClick(completer->popup(), Qt::Key_Down);
    QTest::keyClick(completer->popup(), Qt::Key_Return);
    CHECK(view.filter()->text() == "status>=400 method:PUT");
    CHECK(shown(view) == QStringList{"PUT 405"});

    // A later session knows the probe's upload from its stored request.
    int probes = 0;
    for (const app::CaptureSummary& c : app::storedCaptures(f.listener.captureRoot(), 100))
        probes += c.fromProbe ? 1 : 0;
    CHECK(probes == 1);
}
