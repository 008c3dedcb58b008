// Issue 48, items 8 and 10: the Listen list had no Method or Status column, and the Answer tab was disabled for a
// capture of the listener's own, so the JSON its client got could not be seen in the window.

#include "app/listener_fixture.h"
#include "capture/stored_captures.h"
#include "inspect/inspect_worker.h"
#include "models/capture_list_model.h"
#include "support/inspect_file.h"
#include "support/view_reader.h"
#include "support/wait_for.h"
#include "views/inspect_view.h"
#include "views/listen_view.h"

#include <catch2/catch.hpp>

#include <QBrush>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTreeView>

using namespace upin;

namespace {

QString cell(const QAbstractItemModel& model, int row, int column)
{
    return model.index(row, column).data().toString();
}
QColor colour(const QAbstractItemModel& model, int row, int column)
{
    return model.index(row, column).data(Qt::ForegroundRole).value<QBrush>().color();
}

// The Answer tab of a capture folder opened in Inspect, the request row chosen (and a part's, the same).
QString answerOf(const QString& folder, bool* tabEnabled)
{
    app::InspectWorker worker;
    QSignalSpy opened(&worker, &app::InspectWorker::finished);
    worker.open(folder);
    if (!test::signalled(opened, 10000))
        return QStringLiteral("(not opened)");
    ui::InspectView inspect;
    test::ViewReader reader(inspect);
    inspect.showResult(opened.first().first().value<app::InspectResult>());
    inspect.tree()->setCurrentIndex(inspect.model()->index(0, 0));
    auto* tabs = inspect.findChild<QTabWidget*>();
    *tabEnabled = tabs && tabs->isTabEnabled(tabs->indexOf(inspect.answer()));
    QString answer = inspect.answer()->toPlainText();
    // A part's row shows the same answer: the exchange was answered as a whole (a walk found it disabled there).
    if (inspect.model()->rowCount() > 1) {
        inspect.tree()->setCurrentIndex(inspect.model()->index(1, 0));
        *tabEnabled = *tabEnabled && tabs->isTabEnabled(tabs->indexOf(inspect.answer())) &&
                      inspect.answer()->toPlainText() == answer;
    }
    return answer;
}

} // namespace

TEST_CASE("the Listen list's Method and Status columns say what each client sent and was answered, coloured by "
          "class, and Inspect's Answer tab shows the listener's own answer",
          "[ui][listen][status]")
{
    app::ServerConfig config;
    config.maxBodyBytes = 100'000;
    test::ListenerFixture f(config);
    ui::ListenView view;
    QObject::connect(&f.listener, &app::Server::events, &view, &ui::ListenView::applyEvents);
    const QString small = f.file("small.bin", test::randomBytes(1000, 7));
    const QString big = f.file("big.bin", test::randomBytes(200'000, 8));
    const QList<int> got{
        test::curl({"-F", "a=@" + small, f.url("/file-part")}).status,
        test::curl({"-H", "Content-Type: multipart/form-data; boundary=XX", "--data-binary", "no delimiter here",
                    f.url("/file-part")})
            .status,
        // Chunked, so that the limit is passed on the way (a Content-Length over it is refused before the body).
        test::curl({"-H", "Transfer-Encoding: chunked", "-F", "a=@" + big, f.url("/file-part")}).status,
        test::curl({"-X", "PUT", "--data-binary", "x", f.url("/file-part")}).status,
    };
    REQUIRE(got == QList<int>{200, 400, 413, 405});
    auto* model = view.model();
    UPIN_WAIT_FOR(model->rowCount() == 4 && model->row(2).state != app::CaptureState::Receiving, 10000);
    const QColor green(0x1a, 0x7f, 0x37), red(0xc0, 0x1c, 0x28), blue(0x1f, 0x6f, 0xd0), grey(0x77, 0x76, 0x7b);
    for (int row = 0; row < 4; ++row) {
        INFO("row " << row);
        // The column says what the client got, in its class's colour.
        CHECK(cell(*model, row, ui::CaptureListModel::Status) == QString::number(got[row]));
        CHECK(colour(*model, row, ui::CaptureListModel::Status) == (got[row] == 200 ? green : red));
        CHECK(cell(*model, row, ui::CaptureListModel::Method) == (row == 3 ? "PUT" : "POST"));
        CHECK(colour(*model, row, ui::CaptureListModel::Method) == blue); // a method that sends a body
    }
    CHECK(cell(*model, 3, ui::CaptureListModel::Endpoint) == "/file-part"); // the method is not said twice

    bool enabled = false;
    const QString answer = answerOf(model->row(0).folder, &enabled);
    CHECK(enabled);
    CHECK(answer.startsWith("HTTP/1.1 200 OK\n(the listener's own answer, "));
    CHECK(answer.contains(")\nContent-Type: application/json\nContent-Length: "));
    CHECK(answer.contains("\n    \"capture_id\": \"" + QString::number(model->row(0).id) + "\""));
    CHECK(answer.contains("\"ok\": true"));
    const QString tooBig = answerOf(model->row(2).folder, &enabled);
    CHECK(enabled);
    CHECK(tooBig.startsWith("HTTP/1.1 413 Content Too Large\n"));
    CHECK(tooBig.contains("\"code\": \"body_too_large\""));

    // A later session reads the statuses back with the captures (capture.json's answer.status).
    QList<app::CaptureSummary> stored = app::storedCaptures(f.listener.captureRoot(), 100);
    REQUIRE(stored.size() == 4);
    std::sort(stored.begin(), stored.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    ui::CaptureListModel later;
    later.addStored(stored);
    for (int row = 0; row < 4; ++row) {
        INFO("row " << row);
        CHECK(cell(later, row, ui::CaptureListModel::Status) == QString::number(got[row]));
        CHECK(cell(later, row, ui::CaptureListModel::Method) == (row == 3 ? "PUT" : "POST"));
    }

    // A read is muted beside an upload: the methods that send a body stand out.
    app::CaptureEvent get;
    get.kind = app::CaptureEvent::Kind::CaptureFinished;
    get.capture.id = 99;
    get.capture.method = QStringLiteral("GET");
    get.capture.state = app::CaptureState::Refused;
    get.capture.answerStatus = 302;
    later.apply({get});
    CHECK(colour(later, 4, ui::CaptureListModel::Method) == grey);
    CHECK(colour(later, 4, ui::CaptureListModel::Status) == blue); // 3xx: followed elsewhere
}

TEST_CASE("an upload forwarded to the window's own listener is one exchange listed twice, and both rows say so",
          "[ui][listen][forward]")
{
    const bool proxy = GENERATE(false, true);
    INFO((proxy ? "through the proxy" : "through the forwarder"));
    test::ListenerFixture own; // the window's listener
    app::ServerConfig config;
    config.forward = app::ForwardSettings{};
    config.forward->upstream = QUrl(own.url(""));
    config.forward->proxy = proxy;
    test::ListenerFixture forwarder(config);
    ui::ListenView view;
    for (app::Server* listener : {&own.listener, &forwarder.listener}) // as ServiceWiring feeds the one list
        QObject::connect(listener, &app::Server::events, &view, &ui::ListenView::applyEvents);
    const QString base = QStringLiteral("http://127.0.0.1:%1").arg(forwarder.listener.port());
    const QStringList through = proxy ? QStringList{"-x", base, "-F", "note=hello", own.url("/file-part")}
                                      : QStringList{"-F", "note=hello", base + "/file-part"};
    REQUIRE(test::curl(through).status == 200);
    REQUIRE(test::curl({"-F", "direct=1", own.url("/file-part")}).status == 200); // not forwarded: no pair
    auto* model = view.model();
    const auto done = [model] {
        for (int row = 0; row < model->rowCount(); ++row)
            if (model->row(row).state == app::CaptureState::Receiving)
                return false;
        return model->rowCount() == 3;
    };
    UPIN_WAIT_FOR(done(), 10000);
    // The forwarder's row names the listener's, its far side; the third is the direct upload.
    int near = -1, far = -1;
    for (int row = 0; row < 3; ++row)
        if (model->row(row).forward)
            near = row;
    REQUIRE(near >= 0);
    for (int row = 0; row < 3; ++row)
        if (model->row(row).id == model->row(near).forward->upstreamCaptureId)
            far = row;
    REQUIRE(far >= 0);
    const int direct = 3 - near - far;
    CHECK(cell(*model, near, ui::CaptureListModel::Upstream).endsWith(", received here as well"));
    CHECK(cell(*model, far, ui::CaptureListModel::Upstream) == (proxy ? "via the proxy" : "via the forwarder"));
    CHECK_FALSE(cell(*model, far, ui::CaptureListModel::Client).contains("via")); // the client's column stays narrow
    CHECK(cell(*model, direct, ui::CaptureListModel::Upstream).isEmpty());
    const QString tip = model->index(far, ui::CaptureListModel::State).data(Qt::ToolTipRole).toString();
    CHECK(tip.contains("One exchange, listed twice"));
    CHECK(tip.contains(proxy ? "received from the proxy" : "received from the forwarder"));
    CHECK(tip.contains(QString::number(model->row(near).id)));
}

TEST_CASE("Inspect says of an upload the server refused what the Listen list says", "[ui][inspect][forward]")
{
    test::ListenerFixture own; // the server: it refuses a path it does not have with 404
    app::ServerConfig config;
    config.forward = app::ForwardSettings{};
    config.forward->upstream = QUrl(own.url(""));
    test::ListenerFixture forwarder(config);
    const QString base = QStringLiteral("http://127.0.0.1:%1").arg(forwarder.listener.port());
    REQUIRE(test::curl({"-F", "note=hello", base + "/no-such-path"}).status == 404);
    UPIN_WAIT_FOR(QDir(forwarder.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs).size() == 1, 10000);
    ui::InspectView view;
    view.showResult(test::inspectFile(forwarder.onlyCaptureFolder()));
    INFO(view.title().toStdString());
    CHECK(view.title().contains(" — refused by the server: 404 — "));
}

// A review found a proxied upload to an unreachable server read "complete" in the list and "ok" in Inspect.
TEST_CASE("Inspect does not call an upload whose server was never reached ok", "[ui][inspect][forward]")
{
    app::ServerConfig config;
    config.forward = app::ForwardSettings{};
    config.forward->upstream = QUrl("http://127.0.0.1:1"); // nothing listens there
    test::ListenerFixture forwarder(config);
    const QString base = QStringLiteral("http://127.0.0.1:%1").arg(forwarder.listener.port());
    const test::CurlResult sent = test::curl({"-F", "note=hello", base + "/file-part"});
    REQUIRE(sent.status == 502);
    UPIN_WAIT_FOR(QDir(forwarder.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs).size() == 1, 10000);
    // The Answer tab shows the relay's own 502 as the client got it (it was blank: no upstream answer to show).
    bool answerShown = false;
    const QString answer = answerOf(forwarder.onlyCaptureFolder(), &answerShown);
    INFO(answer.toStdString());
    CHECK(answerShown);
    CHECK(answer.startsWith("HTTP/1.1 502 Bad Gateway\n(the relay's own answer: http://127.0.0.1:1"));
    CHECK(answer.contains(sent.json["detail"].toString()));
    CHECK(answer.contains("\"error\": \"upstream unreachable\""));
    ui::InspectView view;
    view.showResult(test::inspectFile(forwarder.onlyCaptureFolder()));
    INFO(view.title().toStdString());
    // Whole here: no answer from the server; cut short when the relay stopped reading: why it stopped.
    CHECK((view.title().contains(" — no answer from the server: 502 — ") ||
           view.title().contains(" — incomplete: upstream unreachable")));
}
