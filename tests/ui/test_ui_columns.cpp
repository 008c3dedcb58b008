// Issue 48, item 3: at 1280x800 a forwarded row read "…/file-part (simd)" and "200, server 0.6…" while State took
// half the width, and widths the user set were lost on restart.

#include "charts/bar_chart.h"
#include "main_window.h"
#include "models/capture_list_model.h"
#include "models/plan_parts_model.h"
#include "sender/run_types.h"
#include "support/wait_for.h"
#include "views/compare_view.h"
#include "views/listen_view.h"
#include "views/send_view.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBrush>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSettings>
#include <QStyle>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace upin;

namespace {

app::CaptureEvent forwarded(quint64 id, const QString& upstream)
{
    app::CaptureEvent e;
    e.kind = app::CaptureEvent::Kind::CaptureFinished;
    e.capture.id = id;
    e.capture.endpoint = QStringLiteral("→ ") + upstream;
    e.capture.client = QStringLiteral("127.0.0.1:53312");
    e.capture.matcher = QStringLiteral("simd");
    e.capture.state = app::CaptureState::Complete;
    e.capture.bytes = 5'000'434;
    e.capture.elapsedMs = 40;
    app::ForwardTimings timings;
    timings.status = 200;
    timings.serverMs = 612.3;
    e.capture.forward = timings;
    return e;
}

// The whole text of a cell fits its column: nothing elided. Qt's item views draw a cell's text inside a margin of
// the style's focus frame plus one pixel on each side, and elide what does not fit there.
bool fits(const QTableView& table, int row, int column)
{
    const QString text = table.model()->index(row, column).data().toString();
    const int margin = table.style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, &table) + 1;
    return table.fontMetrics().horizontalAdvance(text) + 2 * margin <= table.horizontalHeader()->sectionSize(column);
}

bool everyRowFits(const QTableView& table, int column)
{
    for (int row = 0; row < table.model()->rowCount(); ++row)
        if (!fits(table, row, column))
            return false;
    return true;
}

// The settings in dir, not the user's, and empty.
void isolateSettings(const QTemporaryDir& dir)
{
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings"));
    QSettings().clear();
}

// The window at the size the walks use, on tab.
void showAt1280(ui::MainWindow& window, QWidget* tab)
{
    window.resize(1280, 800);
    window.show();
    window.tabs()->setCurrentWidget(tab);
}

} // namespace

TEST_CASE("Listen at 1280x800: a forwarded row's endpoint and answer fit, State keeps its room, and a width the "
          "user drags is kept and remembered",
          "[ui][listen][columns]")
{
    QTemporaryDir dir;
    isolateSettings(dir);
    ui::MainWindow window;
    showAt1280(window, window.listenView());
    QTableView* table = window.listenView()->table();
    window.listenView()->applyEvents({forwarded(1, "http://127.0.0.1:9000/api/v2/uploads/file-part")});
    UPIN_WAIT_FOR(fits(*table, 0, ui::CaptureListModel::Endpoint), 5000);
    CHECK(fits(*table, 0, ui::CaptureListModel::Upstream));
    CHECK(table->horizontalHeader()->sectionSize(ui::CaptureListModel::State) >= 250);

    // A very long URL takes the width State's own text does not need, past its third: State is not squeezed out,
    // and no other column gives up its width for it.
    const int fitted = table->horizontalHeader()->sectionSize(ui::CaptureListModel::Endpoint);
    window.listenView()->applyEvents({forwarded(2, "http://127.0.0.1:9000/" + QString(300, 'x'))});
    UPIN_WAIT_FOR(table->horizontalHeader()->sectionSize(ui::CaptureListModel::Endpoint) > fitted, 5000);
    CHECK(table->horizontalHeader()->sectionSize(ui::CaptureListModel::Endpoint) > table->viewport()->width() / 3);
    CHECK(everyRowFits(*table, ui::CaptureListModel::State));
    CHECK(everyRowFits(*table, ui::CaptureListModel::Upstream));
    // One line, cut in its middle, though the table wraps State: wrapped, a long URL broke at its "/" and lost its end.
    QStyleOptionViewItem narrow;
    narrow.initFrom(table);
    narrow.features |= QStyleOptionViewItem::WrapText;
    narrow.rect = QRect(0, 0, 80, table->verticalHeader()->defaultSectionSize());
    QModelIndex endpoint = table->model()->index(0, ui::CaptureListModel::Endpoint);
    if (!endpoint.data().toString().contains(QString(300, 'x')))
        endpoint = table->model()->index(1, ui::CaptureListModel::Endpoint);
    REQUIRE(endpoint.data().toString().contains(QString(300, 'x')));
    CHECK(table->itemDelegateForColumn(ui::CaptureListModel::Endpoint)->sizeHint(narrow, endpoint).height() <
          2 * table->fontMetrics().height());

    // Widths fitted to this session's rows are not kept: the next session fits its own.
    const QString key = QStringLiteral("columns/capturesTable/%1").arg(ui::CaptureListModel::ColumnCount);
    window.saveSettings();
    CHECK_FALSE(QSettings().contains(key));
    // The user's width stays, however the rows change, and the next session has it.
    table->horizontalHeader()->resizeSection(ui::CaptureListModel::Endpoint, 151);
    app::CaptureEvent longClient = forwarded(3, "http://127.0.0.1:9000/" + QString(100, 'y'));
    longClient.capture.client = QStringLiteral("[2001:db8:85a3::8a2e:370:7334]:50123");
    window.listenView()->applyEvents({longClient});
    // That column alone: the others go on fitting new rows (one drag had stopped them all).
    UPIN_WAIT_FOR(everyRowFits(*table, ui::CaptureListModel::Client), 5000);
    CHECK(table->horizontalHeader()->sectionSize(ui::CaptureListModel::Endpoint) == 151);
    window.saveSettings();
    CHECK(QSettings().contains(key));
    ui::MainWindow next;
    next.restoreSettings();
    next.resize(1280, 800);
    next.show();
    // Rows come and the window lays out: the restored width is the user's, not fitted over (a review found it was).
    next.listenView()->applyEvents({forwarded(4, "http://127.0.0.1:9000/" + QString(200, 'z')), longClient});
    UPIN_WAIT_FOR(everyRowFits(*next.listenView()->table(), ui::CaptureListModel::Client), 5000);
    CHECK(next.listenView()->table()->horizontalHeader()->sectionSize(ui::CaptureListModel::Endpoint) == 151);
}

TEST_CASE("Listen at 1280x800: long clients, methods and paths give up width, and State keeps a quarter of the "
          "list on screen",
          "[ui][listen][columns]")
{
    QTemporaryDir dir;
    isolateSettings(dir);
    ui::MainWindow window;
    showAt1280(window, window.listenView());
    QTableView* table = window.listenView()->table();
    auto refused = [](quint64 id, const QString& method, const QString& path) {
        app::CaptureEvent e;
        e.kind = app::CaptureEvent::Kind::CaptureFinished;
        e.capture.id = id;
        e.capture.method = method;
        e.capture.endpoint = method + " " + path;
        e.capture.client = QStringLiteral("127.0.0.1:47904");
        e.capture.state = app::CaptureState::Refused;
        e.capture.answerStatus = 404;
        e.capture.errorDetail = QStringLiteral("not found");
        return e;
    };
    // A forward to this window's own listener (its row's client says so), a 300-letter path, a client's own method.
    app::CaptureEvent relayed = forwarded(1, "http://127.0.0.1:18580/file-part");
    relayed.capture.forward->upstreamCaptureId = 2;
    app::CaptureEvent received = forwarded(2, "x");
    received.capture.endpoint = QStringLiteral("/file-part");
    received.capture.forward.reset();
    window.listenView()->applyEvents({relayed, received, refused(3, "DELETE", "/" + QString(300, 'x')),
                                      refused(4, "GARBAGE-METHOD-OF-A-FUZZER", "/")});
    QHeaderView* header = table->horizontalHeader();
    const int state = ui::CaptureListModel::State;
    UPIN_WAIT_FOR(header->sectionSize(state) >= table->viewport()->width() / 4, 5000);
    CHECK(header->sectionViewportPosition(state) + header->sectionSize(state) <= table->viewport()->width());
    CHECK(table->horizontalScrollBar()->maximum() == 0);
    CHECK(fits(*table, 2, state)); // "refused 404: not found"
    // A filter that hides every row, then none: the times and clients fit again (a typed filter left "06…").
    window.listenView()->filter()->setText("method:PUT");
    QApplication::processEvents();
    window.listenView()->filter()->setText(QString());
    UPIN_WAIT_FOR(fits(*table, 0, ui::CaptureListModel::Time) && fits(*table, 0, ui::CaptureListModel::Client), 5000);
}

// A walk forwarded and proxied uploads to the window's own listener beside refusals: the proxied endpoint read
// "proxy → http://127…0/file-part (simd)" while State kept a quarter of the list for "complete".
TEST_CASE("Listen at 1280x800: forwarded, proxied and refused rows in one list show every cell whole",
          "[ui][listen][columns]")
{
    QTemporaryDir dir;
    isolateSettings(dir);
    ui::MainWindow window;
    showAt1280(window, window.listenView());
    QTableView* table = window.listenView()->table();
    auto received = [](quint64 id) {
        app::CaptureEvent e = forwarded(id, "x");
        e.capture.endpoint = QStringLiteral("/file-part");
        e.capture.forward.reset();
        return e;
    };
    app::CaptureEvent viaForwarder = forwarded(1, "http://127.0.0.1:18080/file-part");
    viaForwarder.capture.forward->upstreamCaptureId = 2;
    app::CaptureEvent viaProxy = forwarded(3, "http://127.0.0.1:18080/file-part");
    viaProxy.capture.endpoint = QStringLiteral("proxy → http://127.0.0.1:18080/file-part");
    viaProxy.capture.forward->upstreamCaptureId = 4;
    viaProxy.capture.forward->serverMs = 0.45;
    app::CaptureEvent serverRefused = forwarded(5, "http://127.0.0.1:18080/nope-404-path");
    serverRefused.capture.state = app::CaptureState::Incomplete;
    serverRefused.capture.forward->status = 404;
    serverRefused.capture.forward->earlyAtByte = 0;
    app::CaptureEvent wrongHost = received(6);
    wrongHost.capture.method = QStringLiteral("POST");
    wrongHost.capture.state = app::CaptureState::Refused;
    wrongHost.capture.answerStatus = 421;
    wrongHost.capture.errorDetail = QStringLiteral("this listener is not evil.example: call it by its address");
    app::CaptureEvent kmp = received(7);
    kmp.capture.matcher = QStringLiteral("kmp");
    window.listenView()->applyEvents({viaForwarder, received(2), viaProxy, received(4), serverRefused, wrongHost, kmp});
    REQUIRE(table->model()->rowCount() == 7);
    CHECK(table->model()->index(0, ui::CaptureListModel::Endpoint).data().toString() ==
          "→ http://127.0.0.1:18080/file-part"); // the default matcher goes without saying
    CHECK(table->model()->index(6, ui::CaptureListModel::Endpoint).data().toString() == "/file-part (kmp)");
    CHECK(table->model()
              ->index(0, ui::CaptureListModel::Endpoint)
              .data(Qt::ToolTipRole)
              .toString()
              .contains("parsed with the simd matcher (the default"));
    auto allFit = [table] {
        for (int row = 0; row < table->model()->rowCount(); ++row)
            for (int column = 0; column < table->model()->columnCount(); ++column)
                if (!fits(*table, row, column))
                    return false;
        return true;
    };
    UPIN_WAIT_FOR(allFit(), 5000);
    CHECK(allFit());
    CHECK(table->horizontalScrollBar()->maximum() == 0);

    // A State longer than its column goes on to more lines of its row (it was cut mid-word), the others keep one.
    app::CaptureEvent origin = received(8);
    origin.capture.state = app::CaptureState::Refused;
    origin.capture.answerStatus = 403;
    origin.capture.errorDetail =
        "origin http://a-rather-long-name-of-a-page.example.com:8443 is not allowed: its web pages";
    window.listenView()->applyEvents({origin});
    const int one = table->verticalHeader()->defaultSectionSize();
    UPIN_WAIT_FOR(table->rowHeight(7) > one, 5000);
    CHECK(table->wordWrap());
    CHECK(table->rowHeight(6) == one);
}

TEST_CASE("a forwarded upload the upstream refused reads red in State, Status and Upstream, not amber", "[ui][listen]")
{
    ui::CaptureListModel model;
    app::CaptureEvent refused = forwarded(1, "http://127.0.0.1:9000/upload");
    refused.capture.state = app::CaptureState::Incomplete; // answered early: the relay stopped reading the body
    refused.capture.forward->status = 404;
    refused.capture.forward->earlyAtByte = 65536;
    app::CaptureEvent taken = forwarded(2, "http://127.0.0.1:9000/upload");
    model.apply({refused, taken});
    REQUIRE(model.rowCount() == 2);
    const QColor red(0xc0, 0x1c, 0x28);
    for (int column : {ui::CaptureListModel::State, ui::CaptureListModel::Status, ui::CaptureListModel::Upstream})
        CHECK(model.index(0, column).data(Qt::ForegroundRole).value<QBrush>().color() == red);
    CHECK(model.index(0, ui::CaptureListModel::Status).data().toString() == "404");
    CHECK(model.index(0, ui::CaptureListModel::State).data().toString() == "refused by the server: 404");
    CHECK(model.index(0, ui::CaptureListModel::Upstream).data().toString() == "early, at byte 65536");
    CHECK(model.index(1, ui::CaptureListModel::State).data(Qt::ForegroundRole).value<QBrush>().color() != red);
    CHECK_FALSE(model.index(1, ui::CaptureListModel::Upstream).data(Qt::ForegroundRole).isValid());
    // An upstream never reached (we answered 502): red too, not the amber of a client that stopped.
    app::CaptureEvent unreachable = forwarded(3, "http://127.0.0.1:9/upload");
    unreachable.capture.state = app::CaptureState::Incomplete;
    unreachable.capture.forward->status = 0;
    unreachable.capture.forward->faultStatus = 502;
    unreachable.capture.forward->faultError = QStringLiteral("upstream unreachable");
    model.apply({unreachable});
    CHECK(model.index(2, ui::CaptureListModel::State).data(Qt::ForegroundRole).value<QBrush>().color() == red);
}

TEST_CASE("Qt's own file dialog opens with its names, sizes, types and dates whole", "[ui][columns]")
{
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings")); // not the user's
    QDir(dir.path()).mkdir("files");
    QFile file(dir.filePath("files/capture-on-monday.har"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(QByteArray(13670, 'x')); // "13.35 KiB": it read "13….KiB"
    file.close();
    ui::MainWindow window; // sizes every file dialog the window's views open
    QFileDialog dialog(nullptr, "Open", dir.filePath("files"));
    dialog.setOption(QFileDialog::DontUseNativeDialog);
    dialog.setViewMode(QFileDialog::Detail);
    dialog.show();
    auto* tree = dialog.findChild<QTreeView*>("treeView");
    REQUIRE(tree);
    UPIN_WAIT_FOR(tree->model()->rowCount(tree->rootIndex()) == 1, 10000);
    UPIN_WAIT_FOR(!tree->model()->index(0, 3, tree->rootIndex()).data().toString().isEmpty(), 10000);
    QApplication::processEvents();
    for (int column = 0; column < 4; ++column) {
        const QString text = tree->model()->index(0, column, tree->rootIndex()).data().toString();
        INFO(column << ": " << text.toStdString());
        const int icon = column == 0 ? tree->iconSize().width() + 8 : 0;
        CHECK(tree->header()->sectionSize(column) >= tree->fontMetrics().horizontalAdvance(text) + icon);
    }
}

// Issue 48, item 7: a 2 KB run to /file-part stood beside 20 MB runs as one group's near-zero bar, with no word
// that the bodies differed.
TEST_CASE("Compare groups runs by target and body size, names the body, and says when the bodies differ",
          "[ui][compare]")
{
    auto run = [](quint64 bodyBytes, double seconds, int parts) {
        app::RunResult r;
        r.target = QUrl("http://127.0.0.1:8080/file-part");
        r.httpStatus = 200;
        r.totalSeconds = r.lastByteSeconds = seconds;
        r.bodyBytes = bodyBytes;
        for (int i = 0; i < parts; ++i)
            r.parts.append({QStringLiteral("p%1").arg(i), bodyBytes / quint64(parts), {}, {}, {}});
        return r;
    };
    ui::CompareView view;
    view.resize(1280, 700);
    view.show();
    view.addRuns({run(20 << 20, 0.2, 2), run(2048, 0.001, 1), run(20 << 20, 0.25, 2)});
    REQUIRE(view.table()->rowCount() == 2);
    CHECK(view.table()->item(0, 1)->text() == "20.0 MiB in 2 parts");
    CHECK(view.table()->item(0, 2)->text() == "2"); // both 20 MiB runs, and only they
    CHECK(view.table()->item(1, 1)->text() == "2.00 KiB in 1 part");
    CHECK(view.table()->item(1, 2)->text() == "1");
    CHECK(view.chart()->categories()->categories() == QStringList{"file-part, 20.0 MiB", "file-part, 2.00 KiB"});
    CHECK(view.bodiesDiffer()->isVisible());
    CHECK(view.bodiesDiffer()->text().startsWith("These runs sent bodies of different sizes (2.00 KiB to 20.0 MiB)"));
    // The target reads whole beside a long "Bound by" (it was squeezed to "http:// / 127.…").
    QTableWidget* table = view.table();
    UPIN_WAIT_FOR(table->horizontalHeader()->sectionSize(0) >=
                      table->fontMetrics().horizontalAdvance(table->item(0, 0)->text()),
                  5000);
    CHECK(table->horizontalScrollBar()->maximum() == 0);
    CHECK(table->wordWrap()); // a long "Bound by" wraps in its row, which grows to hold it
    CHECK(table->verticalHeader()->sectionResizeMode(0) == QHeaderView::ResizeToContents);
    // A row's menu takes out that row's runs, not every run to its URL.
    view.removeTarget(QUrl("http://127.0.0.1:8080/file-part"));
    CHECK(view.runs().isEmpty());
    view.addRuns({run(20 << 20, 0.2, 2), run(20 << 20, 0.3, 2)});
    CHECK(view.table()->rowCount() == 1);
    CHECK(view.bodiesDiffer()->isHidden());
}

TEST_CASE("Send at 1280x800: a resent capture's parts show their type and filename whole, the path ends in its name",
          "[ui][send][columns]")
{
    QTemporaryDir dir;
    isolateSettings(dir);
    ui::MainWindow window;
    showAt1280(window, window.sendView());
    app::UploadPlan plan;
    app::PlanPart file;
    file.kind = app::PlanPart::Kind::File;
    file.name = QStringLiteral("attachment");
    file.path = dir.filePath(QStringLiteral("captures/2026-12-07/000042/parts/") + QString(120, 'p') + ".bin");
    file.contentType = QStringLiteral("application/octet-stream");
    file.filename = QStringLiteral("quarterly-report-2026-final-revision-3.pdf");
    plan.parts = {file};
    window.sendView()->setPlan(plan);
    auto* table = window.sendView()->findChild<QTableView*>(QStringLiteral("sendParts"));
    REQUIRE(table);
    UPIN_WAIT_FOR(fits(*table, 0, ui::PlanPartsModel::ContentType), 5000);
    CHECK(fits(*table, 0, ui::PlanPartsModel::Filename));
    CHECK(fits(*table, 0, ui::PlanPartsModel::Name));
    CHECK_FALSE(table->wordWrap()); // one line a row: a wrapped type was cut in half by the row's height
    CHECK(table->textElideMode() == Qt::ElideMiddle); // a path too long for Source keeps its file's name
    CHECK(table->horizontalHeader()->sectionSize(ui::PlanPartsModel::Source) >= table->viewport()->width() / 4);
    const QString tip = table->model()->index(0, ui::PlanPartsModel::Source).data(Qt::ToolTipRole).toString();
    CHECK(tip.contains(QString(120, 'p'))); // the whole path on hover
}

TEST_CASE("a file dialog given no folder opens at home, then where the user last was, its file name kept",
          "[ui][columns]")
{
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings")); // not the user's
    ui::MainWindow window; // its dialogs are fitted and placed
    {
        QFileDialog first(nullptr, "Export"); // no folder: the working folder, as the static dialogs have it
        first.setOption(QFileDialog::DontUseNativeDialog);
        first.show();
        if (QDir::currentPath() != QDir::homePath())
            CHECK(first.directory().absolutePath() == QDir::homePath()); // not the source tree, from scripts/run
        first.setDirectory(dir.path());
        static_cast<QDialog&>(first).done(QDialog::Accepted); // as its Open button does
    }
    QFileDialog second(nullptr, "Export", "capture.har"); // a default name, as Export HAR gives
    second.setOption(QFileDialog::DontUseNativeDialog);
    second.setAcceptMode(QFileDialog::AcceptSave);
    second.show();
    CHECK(second.directory().absolutePath() == QDir(dir.path()).absolutePath());
    REQUIRE_FALSE(second.selectedFiles().isEmpty());
    CHECK(QFileInfo(second.selectedFiles().first()).fileName() == "capture.har");
    second.reject();
}
