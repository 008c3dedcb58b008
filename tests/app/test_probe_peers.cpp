// The probe against servers of other stacks that no one here wrote, installed by scripts/install-deps and started
// on loopback: Go's standard library (net/http, mime/multipart) two ways, Node's busboy, Flask on werkzeug. Their
// findings are what each server really does; each was checked once by hand with curl (issue 24's note):
//   Go ParseMultipartForm holds the form in memory: RSS grew 128 MiB for a 32 MiB upload;
//   Go mime/multipart pays per part: 10,000 fields of 100 bytes took 0.060 s, 8 MiB of one file 0.036 s (8.6x per
//   byte);
//   werkzeug refuses more than 1,000 parts (Flask's MAX_FORM_PARTS): 413 for the many-fields body;
//   werkzeug holds a form of 1,000 files of 64 KiB in memory: RSS 33 MB to 97 MB during each such upload.
// And none that they do not have: dense CR LF content and chunked framing go through at about plain's rate (dash-
// dense content at up to twice its time in Go and busboy, at the probe's threshold), with no growth of memory, and
// every byte counted. (Node's RSS grows by the first upload's buffers, which it
// frees later and reuses: the probe counts the smaller growth of two uploads, so busboy is not said to buffer.)

#include "app/forward_fixture.h"
#include "support/node_peers.h"
#include "support/run_cli.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>

using namespace upin;

namespace {

QJsonObject probeJson(const QStringList& arguments)
{
    const test::CliRun run = test::runCli(QStringList{"probe"} + arguments + QStringList{"--json", "-s"});
    INFO(run.err.toStdString());
    QJsonObject report = QJsonDocument::fromJson(run.out).object();
    REQUIRE_FALSE(report.isEmpty());
    return report;
}

QStringList findings(const QJsonObject& report, const QString& kind)
{
    QStringList shapes;
    for (const auto& f : report["findings"].toArray())
        if (f.toObject()["kind"].toString() == kind)
            shapes << f.toObject()["shape"].toString();
    return shapes;
}

QJsonObject shapeRow(const QJsonObject& report, const QString& name)
{
    for (const auto& s : report["shapes"].toArray())
        if (s.toObject()["name"].toString() == name)
            return s.toObject();
    return {};
}

// tests/peers/go/main.go, built with Debian's golang-go into a folder of the test's own.
struct GoPeer {
    QTemporaryDir dir;
    std::unique_ptr<test::ServerProcess> server;
    GoPeer()
    {
        QProcess build;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("GOCACHE", dir.filePath("cache")); // nothing written outside the test's folder
        env.insert("GO111MODULE", "off");             // one file, the standard library only
        build.setProcessEnvironment(env);
        build.setProcessChannelMode(QProcess::MergedChannels);
        build.start("go", {"build", "-o", dir.filePath("peer"), UPIN_TESTS_DIR "/peers/go/main.go"});
        REQUIRE(build.waitForFinished(180000));
        INFO(build.readAll().toStdString());
        REQUIRE(build.exitCode() == 0);
        server = std::make_unique<test::ServerProcess>(dir.filePath("peer"), QStringList{});
    }
};

// Shapes every real parser should take at about plain's rate; the memory is watched through /proc.
// At 32 MiB, so that the scaling fit has four sizes and memory growth is told from a runtime's own.
const QStringList kEverydayShapes{"--shapes", "plain,crlf-dense,dash-dense,chunked", "--size", "32M", "--concurrency",
                                  "1,2"};

void checkNothingWrong(const QJsonObject& report)
{
    INFO(QJsonDocument(report["findings"].toArray()).toJson().toStdString());
    CHECK(report["memory"].toObject()["pid"].toInteger() > 0);
    CHECK(findings(report, "buffers_in_memory").isEmpty());
    CHECK(findings(report, "rejected_valid_body").isEmpty());
    CHECK(findings(report, "wrong_bytes").isEmpty());
    CHECK(findings(report, "concurrency_collapse").isEmpty());
    for (const auto& v : report["shapes"].toArray()) {
        INFO(v.toObject()["name"].toString().toStdString());
        CHECK(v.toObject()["status"].toInt() == 200);
    }
}

} // namespace

TEST_CASE("Go's mime/multipart streaming: of everyday shapes only dash-dense may be slow, the cost per part is",
          "[probe][peers]")
{
    GoPeer go;
    const QJsonObject report = probeJson(QStringList{go.server->url() + "/stream"} + kEverydayShapes);
    // What was found, and each shape's figures, when a check fails.
    INFO(QJsonDocument(QJsonObject{{"findings", report["findings"]}, {"shapes", report["shapes"]}})
             .toJson(QJsonDocument::Compact)
             .toStdString());
    checkNothingWrong(report);
    // Go's reader takes about twice as long on content dense in "\r\n--" (checked by hand with curl -F of 32 MiB:
    // 0.068 s against 0.030 s for plain), at the probe's threshold: found since our sender no longer copies every
    // byte, and not on a busy machine. Nothing else is slow.
    const QStringList slow = findings(report, "slow_shape");
    CHECK((slow.isEmpty() || slow == QStringList{"dash-dense"}));
    CHECK(findings(report, "superlinear").isEmpty());
    // 10,000 small fields: several times slower per byte than one file (8.6x by hand), found as a slow shape. The
    // finding is the check; its figure is not held to more than the probe's own threshold (a busy CI machine
    // measured 2.69x).
    const QJsonObject fields = probeJson({go.server->url() + "/stream", "--shapes", "plain,many-fields,many-files",
                                          "--size", "8M", "--concurrency", "0", "--no-scaling"});
    INFO(QJsonDocument(QJsonObject{{"findings", fields["findings"]}, {"memory", fields["memory"]}})
             .toJson(QJsonDocument::Compact)
             .toStdString());
    CHECK(findings(fields, "slow_shape") == QStringList{"many-fields"});
    CHECK(findings(fields, "wrong_bytes").isEmpty());       // the 10,000 sizes it reported, in order, are right
    CHECK(findings(fields, "buffers_in_memory").isEmpty()); // 1,000 files of 64 KiB, streamed
}

TEST_CASE("Go's ParseMultipartForm holds the upload in memory, and the probe says so", "[probe][peers][memory]")
{
    GoPeer go;
    const QJsonObject report = probeJson(
        {go.server->url() + "/parseform", "--shapes", "plain", "--size", "32M", "--concurrency", "0", "--no-scaling"});
    CHECK(report["memory"].toObject()["pid"].toInteger() == go.server->process.processId());
    CHECK(findings(report, "buffers_in_memory") == QStringList{"plain"});
    CHECK(report["memory"].toObject()["peak_growth_bytes"].toDouble() >= 16.0 * (1 << 20));
}

TEST_CASE("Node's busboy streams every shape, only dash-dense near the slow threshold, and counts every byte",
          "[probe][peers]")
{
    test::requireNodePackage(QStringLiteral("busboy"));
    test::ServerProcess busboy("node", {UPIN_TESTS_DIR "/peers/node/busboy_server.js"});
    const QJsonObject report = probeJson(QStringList{busboy.url() + "/upload"} + kEverydayShapes);
    // What was found, and each shape's figures, when a check fails.
    INFO(QJsonDocument(QJsonObject{{"findings", report["findings"]}, {"shapes", report["shapes"]}})
             .toJson(QJsonDocument::Compact)
             .toStdString());
    checkNothingWrong(report);
    // busboy's search takes 1.7x as long on the probe's dash-dense body ("\r\n--x" every 8 bytes, its boundary
    // starting "----"), checked by hand with curl, 12 interleaved uploads of 32 MiB after a warm-up: 0.078 s
    // against 0.047 s for plain; the probe, timing the server alone, saw 2.0-3.3x in 2 of 8 runs, at its threshold
    // as for Go. Nothing else is slow.
    const QStringList slow = findings(report, "slow_shape");
    CHECK((slow.isEmpty() || slow == QStringList{"dash-dense"}));
    CHECK(findings(report, "superlinear").isEmpty());
    const QJsonObject files = probeJson({busboy.url() + "/upload", "--shapes", "plain,many-files", "--size", "8M",
                                         "--concurrency", "0", "--no-scaling"});
    checkNothingWrong(files);
}

TEST_CASE("Flask (werkzeug) takes everyday shapes whole, holds 1,000 small files in memory, refuses 10,000 fields",
          "[probe][peers]")
{
    test::PythonServer flask({UPIN_TESTS_DIR "/peers/flask_probe.py"});
    // The answer's file_size is what werkzeug read of the part named "file": --expect checks it.
    const QJsonObject report =
        probeJson(QStringList{flask.url() + "/upload", "--expect", "size=file_size"} + kEverydayShapes);
    checkNothingWrong(report);
    CHECK(report["expect_missing"].toArray().isEmpty()); // the path was found in every answer
    // A typo in the path checks nothing, and says so: not a finding against the server.
    const QJsonObject typo = probeJson({flask.url() + "/upload", "--expect", "size=file_sise", "--shapes", "plain",
                                        "--size", "1M", "--concurrency", "0", "--no-scaling"});
    CHECK(typo["findings"].toArray().isEmpty());
    CHECK(typo["expect_missing"].toArray() == QJsonArray{"plain"});
    const QJsonObject forms = probeJson({flask.url() + "/upload", "--shapes", "plain,many-fields,many-files", "--size",
                                         "8M", "--concurrency", "0", "--no-scaling"});
    CHECK(findings(forms, "rejected_valid_body") == QStringList{"many-fields"});
    CHECK(shapeRow(forms, "many-fields")["status"].toInt() == 413);
    for (const auto& v : forms["findings"].toArray()) // werkzeug's HTML error page, read as its words
        if (v.toObject()["kind"] == "rejected_valid_body")
            CHECK(v.toObject()["message"].toString().contains(QRegularExpression(
                "413 REQUEST ENTITY TOO LARGE( before it had the whole body)?: 413 Request Entity Too Large")));
    CHECK(findings(forms, "buffers_in_memory") == QStringList{"many-files"});
}
