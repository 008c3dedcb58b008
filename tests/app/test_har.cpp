// HAR files: every entry is listed with its response, a multipart request with its parts, in `parse` (text and
// JSON) as in Inspect; the boundary is found wherever the exporter put it; extract numbers the first upload's parts.

#include "support/run_cli.h"
#include "support/sample_har.h"

#include "inspect/inspect_worker.h"
#include "inspect/part_bytes.h"
#include "inspect/resend.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>

using namespace upin;

namespace {
QString writeHar(const QTemporaryDir& dir, const QByteArray& har)
{
    QFile file(dir.filePath("sample.har"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(har);
    return file.fileName();
}
} // namespace

TEST_CASE("parse lists every entry of a HAR file, its response, and an upload's parts", "[cli][har]")
{
    QTemporaryDir dir;
    const QString har = writeHar(dir, test::sampleHar());
    const test::CliRun text = test::runCli({"parse", har});
    INFO(text.out.toStdString() << text.err.toStdString());
    CHECK(text.exitCode == 0);
    CHECK(text.out.contains(": 2 requests, 1 upload with 2 parts\n"));
    CHECK(text.out.contains("  0  GET https://example.test/status  -> 200 OK  body 0\n"));
    CHECK(text.out.contains("  1  POST https://example.test/upload  -> 201 Created  body "));
    CHECK(text.out.contains("file  a.txt  text/plain"));
    CHECK(text.out.contains("note  -  -"));
    CHECK(text.out.endsWith("ok\n"));

    const test::CliRun json = test::runCli({"parse", har, "--json"});
    CHECK(json.exitCode == 0);
    const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
    const QJsonArray entries = doc["entries"].toArray();
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].toObject()["method"].toString() == "GET");
    CHECK(entries[0].toObject()["status"].toInt() == 200);
    CHECK(entries[1].toObject()["status"].toInt() == 201);
    CHECK(entries[1].toObject()["multipart"].toBool());
    CHECK(entries[0].toObject()["boundary"].isNull()); // a GET has none
    CHECK_FALSE(entries[1].toObject()["boundary"].toString().isEmpty());
    CHECK(entries[1].toObject()["content_type"].toString().contains(entries[1].toObject()["boundary"].toString()));
    CHECK_FALSE(doc.contains("boundary")); // each entry has its own: no "" for the file as a whole
    const QJsonArray parts = doc["parts"].toArray();
    REQUIRE(parts.size() == 2);
    CHECK(parts[0].toObject()["children"].toArray().isEmpty());
    CHECK(parts[1].toObject()["children"].toArray().size() == 2);
}

TEST_CASE("a HAR upload's boundary comes from its Content-Type header when postData's type lacks it", "[inspect][har]")
{
    QTemporaryDir dir;
    const app::InspectResult result = app::inspectSource(writeHar(dir, test::sampleHar(true)), {}, {});
    CHECK(result.error.isEmpty());
    REQUIRE(result.harEntries.size() == 2);
    REQUIRE(result.report.parts.size() == 2);
    const core::PartSummary& upload = result.report.parts[1];
    CHECK(upload.children.size() == 2);
    CHECK(upload.contentType == "multipart/form-data; boundary=----x");
    // Its request headers are the node's, for the Headers tab.
    REQUIRE(upload.headers.size() == 2);
    CHECK(upload.headers[1].first == "Authorization");
    CHECK(result.harEntries[1].responseBody == "{\"id\":7,\"ok\":true}");
    // The parts a user numbers are the first upload's, though a GET comes first.
    REQUIRE(app::numberedParts(result).size() == 2);
    CHECK(app::readPartBytes(app::locatePart(result, app::numberedParts(result)[0]), 0, 100) == "hello file");
    CHECK_FALSE(app::locatePart(result, result.report.parts[0]).missing.isEmpty()); // the GET has no body
}

TEST_CASE("an HTTP/2 HAR entry (Chromium's, with pseudo-header fields) reads its version and leaves those out",
          "[inspect][har][http2]")
{
    QTemporaryDir dir;
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n--b--\r\n";
    const QByteArray har =
        R"({"log":{"version":"1.2","entries":[{"request":{"method":"POST","url":"https://uploads.test/file-part",
        "httpVersion":"h2","headers":[{"name":":method","value":"POST"},{"name":":authority","value":"uploads.test"},
        {"name":":scheme","value":"https"},{"name":":path","value":"/file-part"},
        {"name":"content-type","value":"multipart/form-data; boundary=b"}],
        "postData":{"mimeType":"multipart/form-data; boundary=b","text":)" +
        QJsonDocument(QJsonArray{QString::fromLatin1(body)}).toJson(QJsonDocument::Compact).mid(1).chopped(1) +
        R"(}},"response":{"status":200,"httpVersion":"h2","headers":[],"content":{"size":0}}}]}})";
    const app::InspectResult result = app::inspectSource(writeHar(dir, har), {}, {});
    INFO(result.error.toStdString());
    REQUIRE(result.harEntries.size() == 1);
    CHECK(result.harEntries[0].httpVersion == "h2");
    REQUIRE(result.harEntries[0].requestHeaders.size() == 1);
    CHECK(result.harEntries[0].requestHeaders[0].first == "content-type");
    REQUIRE(result.report.parts.size() == 1);
    REQUIRE(result.report.parts[0].children.size() == 1);
    CHECK(result.report.parts[0].children[0].name == "note");
}

TEST_CASE("extract numbers the parts of a HAR file's first upload", "[cli][har][extract]")
{
    QTemporaryDir dir;
    const test::CliRun run = test::runCli({"extract", writeHar(dir, test::sampleHar()), "--part", "0", "-o", "-"});
    CHECK(run.exitCode == 0);
    CHECK(run.out == "hello file");
}

TEST_CASE("extract and curl reach a HAR file's later uploads: --name looks in every request, --entry picks one",
          "[cli][har][extract]")
{
    QTemporaryDir dir;
    QFile file(dir.filePath("two.har"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(test::twoUploadsHar());
    file.close();
    const test::CliRun byName = test::runCli({"extract", file.fileName(), "--name", "second", "-o", "-"});
    CHECK(byName.exitCode == 0);
    CHECK(byName.out == "two");
    const test::CliRun byEntry = test::runCli({"extract", file.fileName(), "--entry", "2", "--part", "0", "-o", "-"});
    CHECK(byEntry.out == "two");
    CHECK(test::runCli({"extract", file.fileName(), "--part", "0", "-o", "-"}).out == "hello file"); // the first
    const test::CliRun curl = test::runCli({"curl", file.fileName(), "--entry", "2", "--to", "http://127.0.0.1:9"});
    INFO(curl.err.toStdString());
    CHECK(curl.exitCode == 0);
    CHECK(curl.out.contains("'second=two"));
    CHECK(curl.out.contains("http://127.0.0.1:9/second?draft=1"));
    CHECK_FALSE(curl.out.contains("hello"));
    // Each request's parts in a folder of their own: the first upload's command still sends its own bytes after
    // the second's were written (review: both wrote SOURCE.parts/000-…).
    const test::CliRun first = test::runCli({"curl", file.fileName(), "--entry", "1", "--to", "http://127.0.0.1:9"});
    CHECK(first.out.contains("two.har.parts/request1/"));
    CHECK(curl.out.contains("two.har.parts/request2/") == false); // its only part is a field, sent inline
}

TEST_CASE("a HAR entry whose body does not parse is that entry's fault: named in parse, the file still read",
          "[cli][har]")
{
    QJsonObject har = QJsonDocument::fromJson(upin::test::sampleHar()).object();
    QJsonArray entries = har["log"].toObject()["entries"].toArray();
    QJsonObject broken = entries[1].toObject(); // the upload again, with a boundary its body does not use
    QJsonObject request = broken["request"].toObject();
    QJsonObject post = request["postData"].toObject();
    post["mimeType"] = "multipart/form-data; boundary=other";
    request["postData"] = post;
    request["headers"] = QJsonArray{};
    broken["request"] = request;
    entries.append(broken);
    QJsonObject log = har["log"].toObject();
    log["entries"] = entries;
    har["log"] = log;
    QTemporaryDir dir;
    QFile file(dir.filePath("three.har"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(har).toJson());
    file.close();
    upin::test::CliRun text = upin::test::runCli({"parse", file.fileName()});
    INFO(text.out.toStdString());
    CHECK(text.exitCode == 1); // something did not parse
    CHECK(text.out.contains("3 requests, 2 uploads with 2 parts, entry 2 did not parse"));
    CHECK(text.out.contains("      did not parse: no_delimiter"));
    CHECK_FALSE(text.out.contains("ERROR"));                                      // not the file's error
    CHECK(text.out.endsWith("not ok: 1 of its uploads did not parse (above)\n")); // not "ok" beside exit 1
    upin::test::CliRun json = upin::test::runCli({"parse", file.fileName(), "--json"});
    const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
    CHECK(doc["error"].isNull());
    CHECK(doc["entries"].toArray()[1].toObject()["error"].isNull());
    CHECK(doc["entries"].toArray()[2].toObject()["error"].toObject()["code"] == "no_delimiter");
}

TEST_CASE("a HAR upload whose body was not kept (an empty postData) is said to have none, not to be malformed",
          "[cli][har]")
{
    QJsonObject har = QJsonDocument::fromJson(upin::test::sampleHar()).object();
    QJsonArray entries = har["log"].toObject()["entries"].toArray();
    QJsonObject upload = entries[1].toObject();
    QJsonObject request = upload["request"].toObject();
    request["postData"] = QJsonObject{{"mimeType", "multipart/form-data; boundary=zz"}, {"text", ""}};
    upload["request"] = request;
    entries[1] = upload;
    QJsonObject log = har["log"].toObject();
    log["entries"] = entries;
    har["log"] = log;
    QTemporaryDir dir;
    QFile file(dir.filePath("kept-nothing.har"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(har).toJson());
    file.close();
    const upin::test::CliRun text = upin::test::runCli({"parse", file.fileName()});
    INFO(text.out.toStdString());
    CHECK(text.out.contains("entry 1 without a body (not kept)"));
    CHECK_FALSE(text.out.contains("did not parse"));
}

TEST_CASE("a HAR upload kept as postData.params without text is made again from them", "[cli][har]")
{
    QJsonObject har = QJsonDocument::fromJson(upin::test::sampleHar()).object();
    QJsonArray entries = har["log"].toObject()["entries"].toArray();
    QJsonObject upload = entries[1].toObject();
    QJsonObject request = upload["request"].toObject();
    request["postData"] = QJsonObject{
        {"mimeType", "multipart/form-data; boundary=zz"},
        {"params", QJsonArray{QJsonObject{{"name", "note"}, {"value", "hi"}}, QJsonObject{{"name", "file"},
                                                                                          {"fileName", "a.txt"},
                                                                                          {"contentType", "text/plain"},
                                                                                          {"value", "hello file"}}}}};
    upload["request"] = request;
    entries[1] = upload;
    QJsonObject log = har["log"].toObject();
    log["entries"] = entries;
    har["log"] = log;
    QTemporaryDir dir;
    QFile file(dir.filePath("params.har"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(har).toJson());
    file.close();
    const upin::test::CliRun text = upin::test::runCli({"parse", file.fileName()});
    INFO(text.out.toStdString());
    CHECK(text.exitCode == 0);
    CHECK(text.out.contains("made again from the HAR's params"));
    CHECK(text.out.endsWith("ok\n"));
    CHECK(upin::test::runCli({"extract", file.fileName(), "--name", "file", "-o", "-"}).out == "hello file");
}
