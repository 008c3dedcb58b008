// The Listen tab lists refused requests beside captures: state "refused", the status and reason in words, in red,
// live and when read back from an earlier session.

#include "app/listener_fixture.h"
#include "capture/stored_captures.h"
#include "charts/part_timeline_chart.h"
#include "models/capture_list_model.h"
#include "views/listen_view.h"

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QTest>

using namespace upin;

TEST_CASE("the Listen tab lists a PUT, a 404 path, a urlencoded POST and a POST without a boundary as refused, "
          "with status and reason, in red",
          "[ui][listen][refused]")
{
    QTemporaryDir dir; // outlives the listener: a later session reads it
    const QString root = dir.filePath("captures");
    {
        app::ListenerConfig config;
        config.captureDir = root;
        test::ListenerFixture f(config);
        ui::ListenView view;
        QAbstractItemModelTester tester(view.model());
        QObject::connect(&f.listener, &app::Listener::events, &view, &ui::ListenView::applyEvents);
        test::curl({"-X", "PUT", "--data-binary", "x", f.url("/file-part")});
        test::curl({"--data-binary", "x", f.url("/no-such-path")});
        test::curl({"--data-urlencode", "a=b", f.url("/file-part")});
        test::curl({"-H", "Content-Type: multipart/form-data", "--data-binary", "x", f.url("/file-part")});
        auto* model = view.model();
        for (int i = 0; i < 100 && model->rowCount() < 4; ++i)
            QTest::qWait(20);
        REQUIRE(model->rowCount() == 4);
        const QStringList expected{"refused 405: use POST", "refused 404: not found",
                                   "refused 415: Content-Type is not multipart/*",
                                   "refused 415: Content-Type has no boundary parameter"};
        const QStringList endpoints{"PUT /file-part", "POST /no-such-path", "POST /file-part", "POST /file-part"};
        for (int row = 0; row < 4; ++row) {
            INFO(row);
            CHECK(model->row(row).state == app::CaptureState::Refused);
            const QModelIndex state = model->index(row, ui::CaptureListModel::State);
            CHECK(state.data().toString().startsWith(expected[row]));
            CHECK(state.data(Qt::ForegroundRole).value<QBrush>().color() == QColor(0xc0, 0x1c, 0x28));
            CHECK(model->index(row, ui::CaptureListModel::Endpoint).data().toString() == endpoints[row]);
        }
    }
    // A later session reads them back from the rolling file, as it reads capture folders.
    const QList<app::StoredCapture> stored = app::storedCaptures(root, 100);
    REQUIRE(stored.size() == 4);
    ui::CaptureListModel model;
    model.addStored(stored);
    CHECK(model.index(0, ui::CaptureListModel::State).data().toString() == "refused 405: use POST");
    CHECK(model.index(3, ui::CaptureListModel::Endpoint).data().toString() == "POST /file-part");
}

TEST_CASE("a refused request does not take the timeline from the newest capture with parts", "[ui][listen][refused]")
{
    ui::ListenView view;
    auto event = [](app::ListenerEvent::Kind kind, quint64 id, app::CaptureState state) {
        app::ListenerEvent e;
        e.kind = kind;
        e.captureId = id;
        e.endpoint = "/file-part";
        e.state = state;
        e.part.index = 0;
        e.part.name = "file";
        return e;
    };
    using Kind = app::ListenerEvent::Kind;
    view.applyEvents({event(Kind::CaptureStarted, 1, app::CaptureState::Receiving),
                      event(Kind::PartStarted, 1, app::CaptureState::Receiving),
                      event(Kind::PartFinished, 1, app::CaptureState::Receiving),
                      event(Kind::CaptureFinished, 1, app::CaptureState::Complete)});
    auto* timeline = view.findChild<ui::PartTimelineChart*>();
    REQUIRE(timeline);
    REQUIRE(timeline->barCount() == 1);
    view.applyEvents({event(Kind::CaptureFinished, 2, app::CaptureState::Refused)});
    CHECK(timeline->barCount() == 1); // still the upload's part, not "no parts" for the refused PUT
}
