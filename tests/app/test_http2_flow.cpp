// HTTP/2 flow control as the listener grants it, and the frame log that shows it (capture.json's "http2"), with
// curl --http2-prior-knowledge (nghttp2's client, which sends as far as its window lets it and then waits): a
// window as small as a server's default makes the client wait a round trip per half window, and the capture
// counts those waits; the default windows never make it wait.

#include "app/listener_fixture.h"

#include <catch2/catch.hpp>

#include <QCryptographicHash>

using namespace upin;
using test::ListenerFixture;

namespace {

// The capture of one upload of `bytes` by curl over h2c to a listener with these guards.
QJsonObject uploadOverH2c(const app::ListenerGuards& guards, int bytes)
{
    app::ServerConfig config;
    config.guards = guards;
    ListenerFixture f(config);
    const QByteArray content = test::randomBytes(bytes, 23);
    const QString path = f.file("upload.bin", content);
    const test::CurlResult r = test::curl({"--http2-prior-knowledge", "-F", "doc=@" + path, f.url("/file-part")});
    REQUIRE(r.exitCode == 0);
    REQUIRE(r.status == 200);
    CHECK(test::partNamed(r.json, "doc")["sha256"].toString() ==
          QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex());
    QFile file(QDir(f.onlyCaptureFolder()).filePath(QStringLiteral("capture.json")));
    REQUIRE(file.open(QIODevice::ReadOnly));
    return QJsonDocument::fromJson(file.readAll()).object();
}

QString settingSent(const QJsonObject& http2, const QString& name)
{
    for (const auto& s : http2["settings_sent"].toArray())
        if (s[QLatin1String("name")].toString() == name)
            return QString::number(s[QLatin1String("value")].toInteger());
    return QStringLiteral("none");
}

} // namespace

TEST_CASE("h2c: a 65,535-byte window updated after half makes the client wait about once per 32 KiB, counted",
          "[listener][http2][flow]")
{
    constexpr int kBytes = 4 << 20;
    app::ListenerGuards small;
    small.http2.streamWindow = 65'535;
    small.http2.connectionWindow = 65'535;
    const QJsonObject http2 = uploadOverH2c(small, kBytes)["http2"].toObject();
    INFO(QJsonDocument(http2).toJson().left(4000).constData());
    CHECK(http2["http"].toString() == "h2c");
    CHECK(settingSent(http2, "INITIAL_WINDOW_SIZE") == "65535");
    const QJsonObject flow = http2["flow"].toObject();
    CHECK(flow["window_updates"].toString() == "half");
    CHECK(flow["initial_window"].toInteger() == 65'535);
    // Each wait is the client's window spent, until our WINDOW_UPDATE of about half of it reached it: how many
    // there are depends on how fast each side is (on 127.0.0.1 an update often comes in time), at most one per
    // 16 KiB frame; the updates are one per half window.
    const qint64 stalls = flow["stalls"].toInteger();
    CHECK(stalls > 0);
    CHECK(stalls <= kBytes / 16'384);
    CHECK(flow["stalled_ms"].toDouble() > 0);
    CHECK(flow["stall_list"].toArray().size() <= 200); // thinned evenly when there are more
    CHECK(flow["stall_list"].toArray().size() >= std::min<qint64>(stalls, 100));
    CHECK(http2["summary"].toString().startsWith("blocked by flow control: "));
    const QJsonObject data = http2["data"].toObject();
    CHECK(data["bytes"].toInteger() > kBytes); // the body: the file and the form's framing
    CHECK(data["max"].toInteger() <= 16'384);
    const QJsonObject counts = http2["counts"].toObject();
    CHECK(counts["DATA received"].toInteger() == data["frames"].toInteger());
    CHECK(counts["WINDOW_UPDATE sent"].toInteger() >=
          qint64{2} * (kBytes / 65'535)); // the stream's and the connection's
    CHECK(counts["WINDOW_UPDATE sent"].toInteger() <= qint64{2} * (kBytes / 32'767) + 4);
    CHECK(http2.contains("rtt_ms"));
    // Bounded: the first and the last 100 frames, the rest counted.
    CHECK(http2["frames_first"].toArray().size() == 100);
    CHECK(http2["frames_last"].toArray().size() == 100);
    qint64 frames = 0;
    for (const auto& n : counts)
        frames += n.toInteger();
    CHECK(http2["frames_omitted"].toInteger() == frames - 200);
    CHECK(http2["frames_first"].toArray()[0].toObject()["type"].toString() == "HEADERS");
    // The window over time starts full and touches zero at each wait.
    const QJsonArray window = flow["window"].toArray();
    REQUIRE(window.size() > 2);
    CHECK(window[0].toArray()[2].toInteger() == 65'535); // [ms, least, most] over each stretch
    CHECK(std::any_of(window.begin(), window.end(), [](const auto& w) { return w.toArray()[1].toInteger() <= 0; }));
    CHECK(std::all_of(window.begin(), window.end(),
                      [](const auto& w) { return w.toArray()[1].toInteger() <= w.toArray()[2].toInteger(); }));
}

TEST_CASE("h2c: with the default 16 MiB windows an upload never waits, and at-once sends a WINDOW_UPDATE per read",
          "[listener][http2][flow]")
{
    constexpr int kBytes = 4 << 20;
    const QJsonObject roomy = uploadOverH2c({}, kBytes)["http2"].toObject();
    INFO(QJsonDocument(roomy).toJson().left(3000).constData());
    CHECK(settingSent(roomy, "INITIAL_WINDOW_SIZE") == QString::number(16 << 20));
    CHECK(roomy["flow"].toObject()["stalls"].toInteger() == 0);
    CHECK(roomy["summary"].toString() == "never blocked by flow control");
    CHECK(roomy["counts"].toObject()["WINDOW_UPDATE sent"].toInteger() <= 2); // the connection's, at the start
    app::ListenerGuards atOnce;
    atOnce.http2.updateAtOnce = true;
    const QJsonObject eager = uploadOverH2c(atOnce, kBytes)["http2"].toObject();
    CHECK(eager["flow"].toObject()["window_updates"].toString() == "at-once");
    CHECK(eager["flow"].toObject()["stalls"].toInteger() == 0);
    // A WINDOW_UPDATE for the connection and the stream for each piece of DATA read: at least one per frame.
    CHECK(eager["counts"].toObject()["WINDOW_UPDATE sent"].toInteger() >= kBytes / 16'384);
}
