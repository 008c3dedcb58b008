// Inspect's Frames tab, from a real HTTP/2 upload: curl over h2c to a listener with a server's small window, its
// capture opened as the window opens one; and a capture over HTTP/1.1, for which the tab is off.

#include "app/listener_fixture.h"
#include "charts/window_chart.h"
#include "support/inspect_file.h"
#include "views/frames_view.h"
#include "views/inspect_view.h"

#include <catch2/catch.hpp>

#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTabWidget>
#include <QTableWidget>

using namespace upin;

namespace {

QTabWidget* tabsOf(ui::InspectView& view)
{
    return view.findChild<QTabWidget*>();
}

} // namespace

TEST_CASE("Inspect: an h2c upload held by a 64 KiB window shows its stalls, window and frames in Frames",
          "[ui][inspect][http2]")
{
    app::ServerConfig config;
    config.guards.http2.streamWindow = 65'535;
    config.guards.http2.connectionWindow = 65'535;
    test::ListenerFixture f(config);
    const QString path = f.file("upload.bin", test::randomBytes(2 << 20, 5));
    REQUIRE(test::curl({"--http2-prior-knowledge", "-F", "doc=@" + path, f.url("/file-part")}).status == 200);
    ui::InspectView view;
    view.resize(1280, 800);
    const app::InspectResult opened = test::inspectFile(f.onlyCaptureFolder());
    REQUIRE(opened.capture);
    REQUIRE(opened.capture->http2);
    const app::Http2Record& record = *opened.capture->http2;
    view.showResult(opened);
    QTabWidget* tabs = tabsOf(view);
    REQUIRE(tabs);
    CHECK(tabs->isTabEnabled(tabs->indexOf(view.frames())));
    const QString summary = view.frames()->summary()->text();
    INFO(summary.toStdString());
    CHECK(summary.startsWith("h2c: blocked by flow control: "));
    CHECK(summary.contains("Window 65535 bytes at the start, WINDOW_UPDATE once half of it was used"));
    CHECK(summary.contains("We said: MAX_CONCURRENT_STREAMS=100, INITIAL_WINDOW_SIZE=65535, MAX_FRAME_SIZE=16384"));
    // The frames as kept: the first 100, a row that counts the rest, the last 100.
    QTableWidget* table = view.frames()->table();
    REQUIRE(record.framesOmitted > 0);
    REQUIRE(table->rowCount() == 201);
    CHECK(table->item(0, 2)->text() == "HEADERS");
    CHECK(table->item(0, 1)->text() == "← received");
    CHECK(table->item(100, 0)->text() ==
          QStringLiteral("… %1 frames between, counted but not kept …").arg(record.framesOmitted));
    bool update = false;
    for (int row = 0; row < table->rowCount() && !update; ++row)
        update = table->item(row, 2) && table->item(row, 2)->text() == "WINDOW_UPDATE" &&
                 table->item(row, 1)->text() == "sent →" && table->item(row, 5)->text().startsWith("+");
    CHECK(update);
    // The window over time, and a mark at each stall listed.
    CHECK(view.frames()->chart()->leastSeries()->count() == record.window.size());
    CHECK(view.frames()->chart()->mostSeries()->count() == record.window.size());
    CHECK(view.frames()->chart()->leastSeries()->at(0).y() <= view.frames()->chart()->mostSeries()->at(0).y());
    CHECK(view.frames()->chart()->stallSeries()->count() == record.stallList.size());
    CHECK(record.stallList.size() > 0);
    // A capture over HTTP/1.1 has no frames: the tab is off, and says what it is for.
    REQUIRE(test::curl({"-F", "doc=@" + path, f.url("/file-part")}).status == 200);
    const QStringList folders = test::settledCaptureFolders(f.listener.captureRoot(), 2);
    REQUIRE(folders.size() == 2);
    int overHttp11 = 0;
    for (const QString& folder : folders) {
        const app::InspectResult other = test::inspectFile(QDir(f.listener.captureRoot()).filePath(folder));
        REQUIRE(other.capture);
        if (!other.capture->http2) {
            ++overHttp11;
            view.showResult(other);
            CHECK_FALSE(tabs->isTabEnabled(tabs->indexOf(view.frames())));
            CHECK(tabs->tabToolTip(tabs->indexOf(view.frames())).contains("over HTTP/2"));
        }
    }
    CHECK(overHttp11 == 1);
}
