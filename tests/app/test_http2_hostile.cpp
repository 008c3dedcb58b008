// The listener's HTTP/2 against hostile clients that write raw frames (tests/app/h2_flood.py): each attack class
// ends in its bound (the connection closed, or the stream refused or reset), and other clients are served after.
// The rapid reset, the HPACK bomb and the idle connection are in test_http2.cpp.

#include "app/listener_fixture.h"

#include <catch2/catch.hpp>

#include <QProcess>

using namespace upin;
using test::ListenerFixture;

namespace {

QString flood(const ListenerFixture& f, const QString& action, int count)
{
    QProcess client; // Debian's python3, for its python3-hpack
    client.start("/usr/bin/python3", {QStringLiteral(UPIN_TESTS_DIR) + "/app/h2_flood.py",
                                      QString::number(f.listener.port()), action, QString::number(count)});
    REQUIRE(client.waitForFinished(120000));
    INFO(client.readAllStandardError().constData());
    return QString::fromUtf8(client.readAllStandardOutput().trimmed());
}

void stillServes(const ListenerFixture& f)
{
    CHECK(test::curl({"--http2-prior-knowledge", "-F", "a=b", f.url("/file-part")}).status == 200);
}

} // namespace

TEST_CASE("h2c: a CONTINUATION flood is cut after nghttp2's 8 frames, the connection closed",
          "[listener][http2][guards]")
{
    ListenerFixture f;
    CHECK(flood(f, "continuation", 100'000) == "closed"); // a fatal error for nghttp2: no GOAWAY follows it
    stillServes(f);
}

TEST_CASE("h2c: SETTINGS and PING floods are closed past 1,000 acknowledgements unsent, not queued",
          "[listener][http2][guards]")
{
    app::ServerConfig config;
    config.guards.keepAliveTimeoutMs = 300; // a client that stays within the bound is closed when idle
    ListenerFixture f(config);
    // Acknowledgements pile up while one read is handled, or while the client does not read ours (past what the
    // kernel and our 1 MiB of unsent bytes hold): nghttp2 ends the session past 1,000 of them.
    CHECK(flood(f, "settings", 1'000'000) == "closed");
    CHECK(flood(f, "ping", 600'000) == "closed");
    CHECK(flood(f, "settings", 900) == "goaway NO_ERROR"); // within it: answered, then idle
    CHECK(flood(f, "ping", 900) == "goaway NO_ERROR");
    stillServes(f);
}

TEST_CASE("h2c: empty DATA frames past 1,000 end the connection with ENHANCE_YOUR_CALM", "[listener][http2][guards]")
{
    ListenerFixture f;
    CHECK(flood(f, "empty-data", 5000) == "goaway ENHANCE_YOUR_CALM");
    stillServes(f);
}

TEST_CASE("h2c: streams past the 100 allowed at once are refused, the others held to their deadlines",
          "[listener][http2][guards]")
{
    app::ServerConfig config;
    config.guards.idleTimeoutMs = 500; // the 100 admitted streams send nothing after their HEADERS
    ListenerFixture f(config);
    CHECK(flood(f, "streams", 150) == "refused 50");
    stillServes(f);
    // The silent streams end at the body's idle deadline, each recorded as cut short.
    const QStringList folders = test::settledCaptureFolders(f.listener.captureRoot(), 1);
    CHECK_FALSE(folders.isEmpty());
}

TEST_CASE("h2c: DATA past the stream's Content-Length resets the stream with PROTOCOL_ERROR",
          "[listener][http2][guards]")
{
    ListenerFixture f;
    CHECK(flood(f, "overrun", 20) == "reset PROTOCOL_ERROR");
    stillServes(f);
}
