// A probe through our own forwarder (issue 24, item 6): the forwarder's answer says what it saw pass, when the
// probe asks, so that a server's wrong count is told from a client's; other clients' answers go back unchanged.

#include "app/forward_fixture.h"
#include "app/listener_fixture.h"
#include "probe/answer_check.h"
#include "support/run_cli.h"

#include <catch2/catch.hpp>

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>

using namespace upin;

namespace {

// The answer's head as curl prints it (-D -), for a one-field form.
QString answerHead(const QString& url, const QStringList& headers)
{
    QStringList arguments{"-s", "-o", "/dev/null", "-D", "-", "-F", "note=hello"};
    for (const QString& h : headers)
        arguments << "-H" << h;
    QProcess curl;
    curl.start("curl", arguments << url);
    REQUIRE(curl.waitForFinished(30000));
    return QString::fromLatin1(curl.readAllStandardOutput());
}

} // namespace

TEST_CASE("through our forwarder the probe learns what passed: a server that loses a byte is the server's fault",
          "[probe][forward]")
{
    test::PythonServer lossy({UPIN_TESTS_DIR "/app/probe_servers.py", "dropbyte"});
    const auto forwarder = test::forwarder(lossy.url());
    const test::CliRun run = test::runCli({"probe", forwarder->url("/upload"), "--shapes", "plain,many-files", "--size",
                                           "1M", "--concurrency", "0", "--no-scaling", "--json", "-s"});
    INFO(run.err.toStdString());
    const QJsonObject report = QJsonDocument::fromJson(run.out).object();
    REQUIRE(report["shapes"].toArray().size() == 2);
    for (const auto& v : report["shapes"].toArray())
        CHECK(v.toObject()["forwarder_capture"].toInteger() > 0);
    QStringList wrong; // each shape: one byte short, by the server's count (a Python server may also be slow)
    for (const auto& v : report["findings"].toArray())
        if (v.toObject()["kind"] == "wrong_bytes")
            wrong << v.toObject()["message"].toString();
    REQUIRE(wrong.size() == 2);
    for (const QString& message : wrong) {
        INFO(message.toStdString());
        CHECK(message.contains("bytes were sent, the server reports"));
        CHECK(message.contains("(our forwarder on the way saw every part whole: capture "));
    }

    // Asked for, the field says what passed; not asked for, the upstream's answer goes back as it came.
    const QString asked = answerHead(forwarder->url("/upload"), {"Upload-Inspector-Probe: abc123"});
    INFO(asked.toStdString());
    CHECK(asked.contains(
        QRegularExpression("Upload-Inspector-Capture: id=\\d+; parts=1; bytes=5; parsed=ok; probe=abc123\r\n")));
    CHECK(asked.endsWith("\r\n\r\n"));
    CHECK_FALSE(answerHead(forwarder->url("/upload"), {}).contains("Upload-Inspector-Capture"));
}

TEST_CASE("through our forwarder, a server that refuses early is a refusal, not bytes lost on the way",
          "[probe][forward]")
{
    test::PythonServer refusing({UPIN_TESTS_DIR "/app/probe_servers.py", "early"});
    const auto forwarder = test::forwarder(refusing.url());
    const test::CliRun run = test::runCli({"probe", forwarder->url("/upload"), "--shapes", "plain", "--size", "8M",
                                           "--concurrency", "0", "--no-scaling", "--json", "-s"});
    INFO(run.err.toStdString());
    const QJsonObject report = QJsonDocument::fromJson(run.out).object();
    QStringList kinds;
    for (const auto& v : report["findings"].toArray())
        kinds << v.toObject()["kind"].toString();
    INFO(run.out.toStdString());
    // The forwarder saw a part cut short, as it was: the server's 413 is the finding, and the only one.
    CHECK(kinds == QStringList{"rejected_valid_body"});
    const QString message = report["findings"].toArray().first().toObject()["message"].toString();
    CHECK(message.contains("413"));
}

TEST_CASE("what our forwarder saw, against what was sent: agreeing, short, or not parsed", "[probe][forward]")
{
    app::RunResult r;
    r.parts = {{"file", 1000, {}, {}, app::PartCheck::State::NotChecked},
               {"note", 5, {}, {}, app::PartCheck::State::NotChecked}};
    CHECK(app::forwarderSaw(r, "n1").capture == 0); // no field: not through our forwarder
    r.responseHeaders = {{"upload-inspector-capture", "id=7; parts=2; bytes=1005; parsed=ok; probe=n1"}};
    CHECK(app::forwarderSaw(r, "n1").capture == 7);
    CHECK(app::forwarderSaw(r, "n1").wrong.isEmpty());
    CHECK(app::forwarderSaw(r, "n2").capture == 0); // another probe's value, or a server's: not believed
    r.responseHeaders = {{"Upload-Inspector-Capture", "id=8; parts=1; bytes=1000; parsed=error; probe=n1"}};
    CHECK(app::forwarderSaw(r, "n1").wrong ==
          "our forwarder on the way saw 1 parts of 1000 bytes in all, not parsed (capture 8), where 2 parts of 1005 "
          "bytes were sent");
    r.responseHeaders = {{"Upload-Inspector-Capture", "id=99; parts=7; bytes=5; parsed=ok"}}; // a server's spoof
    CHECK(app::forwarderSaw(r, "n1").capture == 0);
    CHECK(app::forwarderSaw(r, "n1").wrong.isEmpty());
}
