// upload-inspector-cli har (issue 48's Export HAR on the command line), through the real binary: the captures as
// one HAR file that the tool's own Open reads back part for part; a folder that is no capture is named, not
// written.

#include "app/listener_fixture.h"
#include "capture/capture_record.h"
#include "common/limits.h"
#include "inspect/inspect_worker.h"
#include "support/run_cli.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>

using namespace upin;

TEST_CASE("har writes captures as a HAR file the tool's Open reads with the same parts, and names a folder it "
          "could not read",
          "[cli][har]")
{
    test::ListenerFixture f;
    const QString photo = f.file("photo.png", test::randomBytes(50'000, 4));
    REQUIRE(test::curl({"-H", "X-Trace: 7", "-F", "pic=@" + photo, "-F", "note=hi", f.url("/file-part")}).status ==
            200);
    const QString folder = f.onlyCaptureFolder();
    const app::CaptureRecord record = app::CaptureRecord::read(folder).value();
    const QString har = f.dir.filePath("out.har");

    const test::CliRun run = test::runCli({"har", folder, "-o", har});
    INFO(run.err.toStdString());
    CHECK(run.exitCode == 0);
    CHECK(run.out == har.toUtf8() + ": 1 of 1 captures\n");
    const app::InspectResult opened = app::inspectSource(har, {}, app::inspectLimits());
    REQUIRE(opened.harEntries.size() == 1);
    CHECK(opened.harEntries[0].requestHeaders == record.request.headers.value());
    REQUIRE(opened.report.parts.size() == 1);
    const auto& parts = opened.report.parts[0].children;
    REQUIRE(parts.size() == 2);
    CHECK(parts[0].digest == record.report.parts[0].digest);
    CHECK(parts[1].digest == record.report.parts[1].digest);

    QDir(f.dir.path()).mkdir("empty");
    const test::CliRun partly = test::runCli({"har", folder, f.dir.filePath("empty"), "-o", har});
    CHECK(partly.exitCode == 1);
    CHECK(partly.err.contains("empty: left out:"));
    CHECK(test::runCli({"har", f.dir.filePath("nothing-here"), "-o", har}).exitCode == 2);
    // Nothing readable: nothing written, and what was at the path is left as it was.
    const QByteArray before = QFile(har).exists() ? test::readAll(har) : QByteArray();
    const test::CliRun none = test::runCli({"har", f.dir.filePath("empty"), "-o", har});
    CHECK(none.exitCode == 1);
    CHECK(none.err.contains("nothing written"));
    CHECK(test::readAll(har) == before);
    // -o -: the HAR on standard output, the count on standard error.
    const test::CliRun out = test::runCli({"har", folder, "-o", "-"});
    CHECK(out.exitCode == 0);
    CHECK(QJsonDocument::fromJson(out.out)["log"]["entries"].toArray().size() == 1);
    CHECK(out.err == "-: 1 of 1 captures\n");
}
