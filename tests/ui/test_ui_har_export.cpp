// Issue 48's Export HAR: captures exported from the Listen list open in Chromium's own DevTools (its HAR importer,
// in headless Chromium) and in the tool's own Open, with every part and header intact.

#include "app/listener_fixture.h"
#include "capture/capture_record.h"
#include "common/limits.h"
#include "inspect/inspect_worker.h"
#include "main_window.h"
#include "models/capture_list_model.h"
#include "models/part_tree_model.h"
#include "service_wiring.h"
#include "support/node_peers.h"
#include "support/wait_for.h"
#include "ui/wired_listener.h"
#include "views/inspect_view.h"
#include "views/listen_view.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>

using namespace upin;

namespace {

using Fields = QList<QPair<QString, QString>>;

QList<std::string> digests(const std::vector<core::PartSummary>& parts)
{
    QList<std::string> out;
    for (const auto& part : parts)
        out.append(part.digest);
    return out;
}

// The requests as Chromium's DevTools imported them (tests/peers/node/devtools_har.js).
QJsonArray devtoolsImport(const QString& har)
{
    test::requireNodePackage("undici");
    QProcess node;
    node.setWorkingDirectory(UPIN_TESTS_DIR "/peers/node");
    node.start("node", {UPIN_TESTS_DIR "/peers/node/devtools_har.js", har});
    REQUIRE(node.waitForFinished(60'000));
    INFO(node.readAllStandardError().toStdString());
    REQUIRE(node.exitCode() == 0);
    return QJsonDocument::fromJson(node.readAllStandardOutput()).array();
}

Fields fieldsOf(const QJsonArray& pairs)
{
    Fields out;
    for (const auto& pair : pairs)
        out.append({pair.toArray().at(0).toString(), pair.toArray().at(1).toString()});
    return out;
}

} // namespace

TEST_CASE("Export HAR from the Listen list: Chromium's DevTools and the tool's own Open read every part and header",
          "[ui][har][browser]")
{
    test::WiredWindow wired;
    QTemporaryDir& dir = wired.dir;
    ui::MainWindow& window = wired.window;
    ui::ServiceWiring& wiring = wired.wiring;
    const quint16 port = wired.port;
    QFile photo(dir.filePath("photo.png"));
    REQUIRE(photo.open(QIODevice::WriteOnly));
    photo.write(test::randomBytes(200'000, 9));
    photo.close();
    const QString base = QStringLiteral("http://127.0.0.1:%1").arg(port);
    // Parts kept as files (/file-part), and a body kept whole (/capture).
    REQUIRE(test::curl({"-H", "Authorization: Bearer tok-XYZ", "-F", "pic=@" + photo.fileName() + ";type=image/png",
                        "-F", "note=héllo", base + "/file-part"})
                .status == 200);
    REQUIRE(test::curl({"-F", "caption=a beach", "-F", "pic=@" + photo.fileName(), base + "/capture?tag=1"}).status ==
            200);
    ui::CaptureListModel* model = window.listenView()->model();
    UPIN_WAIT_FOR(model->rowCount() == 2 && model->row(1).state != app::CaptureState::Receiving, 10000);
    const QStringList folders{model->row(0).folder, model->row(1).folder};
    QList<app::CaptureRecord> records;
    for (const QString& folder : folders)
        records.append(app::CaptureRecord::read(folder).value());

    const QString har = dir.filePath("captures.har");
    emit window.listenView()->harExportRequested(folders, har); // the row menu's Export, the file chosen
    UPIN_WAIT_FOR(window.statusBar()->currentMessage().startsWith("Exported"), 20000);
    CHECK(window.statusBar()->currentMessage() ==
          "Exported 2 captures to " + har + " (a browser's Network panel imports it)");

    // The tool's own Open: two requests, each part with its digest, each header as it came.
    wiring.open(har);
    UPIN_WAIT_FOR(window.inspectView()->model()->rowCount() == 2, 10000);
    const app::InspectResult opened = app::inspectSource(har, {}, app::inspectLimits());
    REQUIRE(opened.harEntries.size() == 2);
    for (int i = 0; i < 2; ++i) {
        INFO("capture " << i);
        CHECK(opened.harEntries[i].requestHeaders == records[i].request.headers.value());
        CHECK(digests(opened.report.parts[size_t(i)].children) == digests(records[i].report.parts));
        CHECK(opened.harEntries[i].status == 200);
    }
    CHECK(opened.harEntries[1].url == base + "/capture?tag=1");

    // Chromium's DevTools: the same requests, headers and bodies.
    const QJsonArray imported = devtoolsImport(har);
    REQUIRE(imported.size() == 2);
    for (int i = 0; i < 2; ++i) {
        INFO("capture " << i);
        const QJsonObject request = imported[i].toObject();
        CHECK(request["method"].toString() == "POST");
        CHECK(request["status"].toInt() == 200);
        CHECK(fieldsOf(request["headers"].toArray()) == records[i].request.headers.value());
        // DevTools shows a binary body as the HAR holds it, in base64 (Chromium's own export does the same).
        const QByteArray body = QByteArray::fromBase64(request["postData"].toString().toLatin1());
        CHECK(quint64(body.size()) == records[i].bytes);
    }
    CHECK(imported[0].toObject()["url"].toString() == base + "/file-part");
    QFile raw(QDir(folders[1]).filePath("body.raw"));
    REQUIRE(raw.open(QIODevice::ReadOnly));
    CHECK(QByteArray::fromBase64(imported[1].toObject()["postData"].toString().toLatin1()) == raw.readAll());
}
