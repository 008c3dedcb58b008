// The listener over HTTP/2 without TLS (h2c, prior knowledge), with real clients: curl --http2-prior-knowledge,
// and nghttp (nghttp2's own client) for many streams on one connection. (Debian's curl 7.88 cannot multiplex
// prior-knowledge transfers: on reusing the connection it starts HTTP/2 a second time, curl/curl#10634.)

#include "app/listener_fixture.h"
#include "capture/capture_record.h"
#include "inspect/har_export.h"

#include <catch2/catch.hpp>

#include <QCryptographicHash>

using namespace upin;
using test::ListenerFixture;

namespace {

QByteArray multipartBody(const QByteArray& content, const QByteArray& boundary)
{
    return "--" + boundary + "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.bin\"\r\n" +
           "Content-Type: application/octet-stream\r\n\r\n" + content + "\r\n--" + boundary + "--\r\n";
}

QJsonObject captureJson(const QString& folder)
{
    QFile file(QDir(folder).filePath(QStringLiteral("capture.json")));
    REQUIRE(file.open(QIODevice::ReadOnly));
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

TEST_CASE("h2c: curl --http2-prior-knowledge uploads a file and a field, answered over HTTP/2 and stored exactly",
          "[listener][http2]")
{
    ListenerFixture f;
    const QByteArray content = test::randomBytes(3 << 20, 7);
    const QString path = f.dir.filePath(QStringLiteral("upload.bin"));
    {
        QFile file(path);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write(content);
    }
    const test::CurlResult r = test::curl({"--http2-prior-knowledge", "-w", "\n%{http_version}", "-F", "doc=@" + path,
                                           "-F", "note=over h2c", f.url("/file-part")});
    REQUIRE(r.exitCode == 0);
    CHECK(r.status == 2); // -w's last line: the HTTP version curl spoke
    const QString folder = f.onlyCaptureFolder();
    const QJsonObject capture = captureJson(folder);
    INFO(QJsonDocument(capture).toJson().left(3000).constData());
    CHECK(capture["state"].toString() == "complete");
    CHECK(capture["request"].toObject()["transport"].toObject()["http"].toString() == "h2c");
    CHECK(capture["request"].toObject()["version"].toString() == "HTTP/2"); // head.raw is its list as HTTP/1.1
    // A HAR file of it says so too, as browsers' devtools do.
    const QString harPath = f.dir.filePath(QStringLiteral("h2.har"));
    REQUIRE(app::writeHar({folder}, harPath, {}).error.isEmpty());
    QFile harFile(harPath);
    REQUIRE(harFile.open(QIODevice::ReadOnly));
    const QJsonObject entry =
        QJsonDocument::fromJson(harFile.readAll()).object()["log"].toObject()["entries"].toArray()[0].toObject();
    CHECK(entry["request"].toObject()["httpVersion"].toString() == "HTTP/2");
    CHECK(entry["response"].toObject()["httpVersion"].toString() == "HTTP/2");
    const QJsonArray parts = capture["parts"].toArray();
    REQUIRE(parts.size() == 2);
    CHECK(parts[0].toObject()["sha256"].toString() ==
          QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex());
    QFile stored(QDir(folder).filePath(parts[0].toObject()["saved_as"].toString()));
    REQUIRE(stored.open(QIODevice::ReadOnly));
    CHECK(stored.readAll() == content);
    CHECK(parts[1].toObject()["value"].toString() == "over h2c");
    // The captures list shows how it came beside the client.
    const auto record = app::CaptureRecord::read(folder);
    REQUIRE(record);
    CHECK(record->summary(folder).tls == "h2c");
}

TEST_CASE("h2c: the endpoints answer as over HTTP/1.1, refusals recorded", "[listener][http2]")
{
    ListenerFixture f;
    // One curl each: Debian's curl 7.88 fails any reuse of a prior-knowledge connection (curl/curl#10634).
    const QList<std::pair<QStringList, QByteArray>> asked{
        {{f.url("/captures")}, "200 2"}, {{f.url("/nope")}, "404 2"}, {{"-X", "PUT", f.url("/file-part")}, "405 2"}};
    for (const auto& [arguments, expected] : asked) {
        QProcess curl;
        curl.start("curl", QStringList{"-s", "--http2-prior-knowledge", "-o", "/dev/null", "-w",
                                       "%{http_code} %{http_version}"} +
                               arguments);
        REQUIRE(curl.waitForFinished(20000));
        CHECK(curl.readAllStandardOutput() == expected);
    }
    // The two refusals are recorded as any: listed by GET /captures (asked over HTTP/1.1 this time).
    QProcess list;
    list.start("curl", {"-s", f.url("/captures")});
    REQUIRE(list.waitForFinished(20000));
    const QJsonArray listed = QJsonDocument::fromJson(list.readAllStandardOutput()).array();
    QStringList refused;
    for (const auto& entry : listed)
        if (entry.toObject()["state"].toString() == "refused")
            refused << entry.toObject()["endpoint"].toString();
    refused.sort();
    CHECK(refused == QStringList{"GET /nope", "PUT /file-part"});
}

TEST_CASE("h2c: twenty uploads as streams of one connection are twenty exact captures", "[listener][http2]")
{
    ListenerFixture f;
    const QByteArray content = test::randomBytes(1 << 20, 11);
    const QString body = f.dir.filePath(QStringLiteral("body.txt"));
    {
        QFile file(body);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write(multipartBody(content, "h2boundary"));
    }
    QStringList arguments{"-n", "-H", "content-type: multipart/form-data; boundary=h2boundary", "-d", body};
    for (int i = 0; i < 20; ++i) // different URLs: nghttp asks each once, all at once on its one connection
        arguments << f.url(QStringLiteral("/file-part?i=%1").arg(i));
    QProcess nghttp;
    nghttp.start("nghttp", arguments);
    REQUIRE(nghttp.waitForFinished(60000));
    INFO(nghttp.readAllStandardError().constData());
    REQUIRE(nghttp.exitCode() == 0);
    const QStringList folders = test::settledCaptureFolders(f.listener.captureRoot(), 20);
    REQUIRE(folders.size() == 20);
    const QString expected = QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex();
    QSet<QString> clients;
    for (const QString& folder : folders) {
        const QJsonObject capture = captureJson(QDir(f.listener.captureRoot()).filePath(folder));
        CHECK(capture["state"].toString() == "complete");
        CHECK(capture["parts"].toArray()[0].toObject()["sha256"].toString() == expected);
        clients << capture["request"].toObject()["client"].toString();
    }
    CHECK(clients.size() == 1); // one connection carried them all
}

TEST_CASE("h2c: a stream reset mid-upload leaves an incomplete capture naming the error code and the byte",
          "[listener][http2]")
{
    ListenerFixture f;
    QProcess client; // Debian's python3-h2, at the path its package installs it
    client.start("/usr/bin/python3", {QStringLiteral(UPIN_TESTS_DIR) + "/app/h2_client.py",
                                      QString::number(f.listener.port()), "reset", "100000"});
    REQUIRE(client.waitForFinished(30000));
    INFO(client.readAllStandardError().constData());
    REQUIRE(client.readAllStandardOutput().trimmed() == "reset-sent"); // the server read the reset before our PING
    const QStringList folders = test::settledCaptureFolders(f.listener.captureRoot(), 1);
    REQUIRE(folders.size() == 1);
    const QJsonObject capture = captureJson(QDir(f.listener.captureRoot()).filePath(folders.first()));
    INFO(QJsonDocument(capture).toJson().left(3000).constData());
    CHECK(capture["state"].toString() == "incomplete");
    const QJsonObject error = capture["error"].toObject();
    CHECK(error["code"].toString() == "body_cut_short");
    CHECK(error["offset"].toInteger() == 100000);
    CHECK(error["detail"].toString().startsWith("the client reset the stream (CANCEL) after 97.7 KiB of the body"));
    CHECK(capture["bytes"].toInteger() == 100000); // nothing received is lost
}

TEST_CASE("h2c: a connection with no stream open is closed with GOAWAY after the keep-alive time, as HTTP/1.1's",
          "[listener][http2][guards]")
{
    app::ServerConfig config;
    config.guards.keepAliveTimeoutMs = 300;
    ListenerFixture f(config);
    QProcess client;
    client.start("/usr/bin/python3",
                 {QStringLiteral(UPIN_TESTS_DIR) + "/app/h2_client.py", QString::number(f.listener.port()), "idle"});
    REQUIRE(client.waitForFinished(20000)); // it ends when the server closes the connection
    INFO(client.readAllStandardError().constData());
    CHECK(client.readAllStandardOutput().trimmed() == "goaway NO_ERROR");
}

TEST_CASE("h2c: a client that opens streams and resets them at once is closed with ENHANCE_YOUR_CALM past 200",
          "[listener][http2][guards]")
{
    ListenerFixture f;
    QProcess client; // CVE-2023-44487's rapid reset, 1,000 streams
    client.start("/usr/bin/python3", {QStringLiteral(UPIN_TESTS_DIR) + "/app/h2_client.py",
                                      QString::number(f.listener.port()), "rapid-reset", "1000"});
    REQUIRE(client.waitForFinished(60000));
    INFO(client.readAllStandardError().constData());
    CHECK(client.readAllStandardOutput().trimmed() == "goaway ENHANCE_YOUR_CALM");
    // Other clients are served meanwhile and after.
    CHECK(test::curl({"--http2-prior-knowledge", f.url("/captures")}).exitCode == 0);
}

TEST_CASE("h2c: an HPACK bomb (a 4,000-byte field repeated by one-byte references) is refused 431, not kept",
          "[listener][http2][guards]")
{
    ListenerFixture f;
    QProcess client; // 20,000 repeats: 80 MB of fields from about 40 KB of frames
    client.start("/usr/bin/python3", {QStringLiteral(UPIN_TESTS_DIR) + "/app/h2_client.py",
                                      QString::number(f.listener.port()), "hpack-bomb", "20000"});
    REQUIRE(client.waitForFinished(60000));
    INFO(client.readAllStandardError().constData());
    CHECK(client.readAllStandardOutput().trimmed() == "431");
}
