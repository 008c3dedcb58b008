// The listener's HTTP/2 against hostile clients that write raw frames (tests/app/h2_flood.py): each attack class
// ends in its bound (the connection closed, or the stream refused or reset), and other clients are served after.
// The rapid reset, the HPACK bomb and the idle connection are in test_http2.cpp.

#include "app/listener_fixture.h"

#include <catch2/catch.hpp>

#include <QProcess>
#include <QThread>

#include <algorithm>

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

// The capture folders under root once each has its capture.json (written as its capture ends), or after 10 s.
QStringList recordedFolders(const QString& root, qsizetype expected)
{
    QStringList folders;
    for (int i = 0; i < 500; ++i) {
        folders = QDir(root).entryList({"capture-*"}, QDir::Dirs);
        const auto recorded = std::count_if(folders.begin(), folders.end(), [&root](const QString& folder) {
            return QFile::exists(QDir(root).filePath(folder + "/capture.json"));
        });
        if (recorded == expected)
            break;
        QThread::msleep(20);
    }
    return folders;
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

TEST_CASE("h2c: streams past the 100 allowed at once are refused, the others recorded as cut short",
          "[listener][http2][guards]")
{
    app::ServerConfig config;
    config.guards.idleTimeoutMs = 500; // the 100 admitted streams send nothing after their HEADERS
    ListenerFixture f(config);
    CHECK(flood(f, "streams", 150) == "refused 50");
    // The silent streams end as the client leaves (or at the idle deadline), each recorded as cut short.
    const QStringList folders = recordedFolders(f.listener.captureRoot(), 100);
    REQUIRE(folders.size() == 100);
    for (const QString& folder : folders) {
        QFile file(QDir(f.listener.captureRoot()).filePath(folder + "/capture.json"));
        REQUIRE(file.open(QIODevice::ReadOnly));
        CHECK(QJsonDocument::fromJson(file.readAll()).object()["state"].toString() == "incomplete");
    }
    stillServes(f);
}

TEST_CASE("h2c: DATA past the stream's Content-Length resets the stream with PROTOCOL_ERROR",
          "[listener][http2][guards]")
{
    ListenerFixture f;
    CHECK(flood(f, "overrun", 20) == "reset PROTOCOL_ERROR");
    stillServes(f);
}

TEST_CASE("h2c: a client that never opens its window for our answers (slow read) has them reset at the deadline",
          "[listener][http2][guards]")
{
    app::ServerConfig config;
    config.guards.answerTimeoutMs = 300;
    ListenerFixture f(config);
    CHECK(flood(f, "slow-read", 20) == "reset 20"); // CANCEL, each answer's stream, its slot free
    stillServes(f);
}

TEST_CASE("h2c: a connection the listener ends mid-upload leaves an incomplete capture naming the GOAWAY's code",
          "[listener][http2][guards]")
{
    ListenerFixture f;
    CHECK(flood(f, "big-frame", 100'000) == "goaway FRAME_SIZE_ERROR"); // past SETTINGS_MAX_FRAME_SIZE
    const QStringList folders = recordedFolders(f.listener.captureRoot(), 1);
    REQUIRE(folders.size() == 1);
    QFile file(QDir(f.listener.captureRoot()).filePath(folders.first() + "/capture.json"));
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QJsonObject capture = QJsonDocument::fromJson(file.readAll()).object();
    INFO(QJsonDocument(capture).toJson().left(2000).constData());
    CHECK(capture["state"].toString() == "incomplete");
    CHECK(capture["bytes"].toInteger() == 1000); // nothing received is lost
    CHECK(capture["error"].toObject()["detail"].toString().contains("closed with GOAWAY (FRAME_SIZE_ERROR)"));
    stillServes(f);
}
