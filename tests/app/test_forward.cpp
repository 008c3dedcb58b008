// Forward mode against real upstreams on 127.0.0.1: our own listener (plain and TLS), and small Python servers
// (tests/app/upstreams.py) that echo, read slowly, answer 413 early, close mid-upload or never answer. Clients are
// curl. Each test checks what the client got and what the forwarder's capture recorded.

#include "app/forward_fixture.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QTcpServer>

#include <memory>

using namespace upin;
using test::curl;
using test::forwardCaptures;
using test::forwarder;
using test::ListenerFixture;
using test::partNamed;
using test::PythonUpstream;

namespace {

// curl with the answer's body kept whole: status and body.
std::pair<int, QByteArray> curlRaw(const QStringList& arguments, int timeoutMs = 60000)
{
    QProcess process;
    process.start(QStringLiteral("curl"), QStringList{"-s", "-w", "\n%{http_code}"} + arguments);
    REQUIRE(process.waitForFinished(timeoutMs));
    const QByteArray out = process.readAllStandardOutput();
    const qsizetype split = out.lastIndexOf('\n');
    return {out.mid(split + 1).toInt(), out.left(split)};
}

} // namespace

TEST_CASE("curl through the forwarder to our listener: the upstream's answer, exact hashes on both sides, both legs "
          "timed",
          "[forward]")
{
    ListenerFixture upstream;
    auto f = forwarder(upstream.url(""));
    const QString file = f->file("big.bin", test::randomBytes(8 << 20, 91));
    auto r = curl({"-F", "big=@" + file, "-F", "note=hi", f->url("/file-part")});
    REQUIRE(r.status == 200);
    // The client got the upstream listener's own answer: its parts and their digests.
    CHECK(r.json["endpoint"].toString() == "/file-part");
    CHECK(partNamed(r.json, "big")["sha256"].toString().toStdString() ==
          test::toolDigest(core::HashKind::Sha256, file));
    CHECK(partNamed(r.json, "note")["value"].toString() == "hi");
    // The forwarder's capture lists the same parts and digests, the upstream status and both legs' timings.
    const QJsonObject capture = forwardCaptures(*f, 1).first();
    CHECK(capture["state"].toString() == "complete");
    CHECK(capture["endpoint"].toString() == upstream.url("/file-part").prepend("→ "));
    CHECK(partNamed(capture, "big")["sha256"] == partNamed(r.json, "big")["sha256"]);
    CHECK(partNamed(capture, "note")["sha256"] == partNamed(r.json, "note")["sha256"]);
    const QJsonObject forward = capture["forward"].toObject();
    CHECK(forward["status"].toInt() == 200);
    CHECK(forward["body_bytes_to_upstream"].toInteger() == capture["bytes"].toInteger());
    CHECK(QJsonDocument::fromJson(forward["answer_preview"].toString().toUtf8()).object()["capture_id"] ==
          r.json["capture_id"]);
    const QJsonObject at = forward["timings_ms"].toObject();
    for (const char* key : {"client_last_byte", "upstream_took_last_byte", "first_answer_byte", "answer_done"})
        CHECK(at[key].toDouble(-1) >= 0);
    CHECK(at["client_last_byte"].toDouble() <= at["upstream_took_last_byte"].toDouble());
    // The upstream had the whole request before it answered: the moments in that order, and a time between.
    CHECK(at["upstream_took_last_byte"].toDouble() <= at["first_answer_byte"].toDouble());
    CHECK(forward["server_ms"].toDouble(-1) > 0);
    CHECK(forward["upstream_throughput"].toArray().last().toArray()[1].toInteger() == capture["bytes"].toInteger());
    CHECK_FALSE(capture["throughput"].toArray().isEmpty()); // the client's leg
    // parse CAPTURE_FOLDER says where it went and what came back.
    QProcess parse;
    const QString folder = QDir(f->listener.captureRoot())
                               .filePath(QDir(f->listener.captureRoot()).entryList({"capture-*-forward"}).first());
    parse.start(UPIN_CLI_PATH, {"parse", folder});
    REQUIRE(parse.waitForFinished(30000));
    const QString said = QString::fromUtf8(parse.readAllStandardOutput());
    CHECK(said.contains("forwarded to " + upstream.url("") + ": answered 200, server time "));

    // ?hash= goes on to the upstream and chooses the forwarder's hash too: the same digests on both sides.
    auto xxh3 = curl({"-F", "big=@" + file, f->url("/file-part?hash=xxh3")});
    REQUIRE(xxh3.status == 200);
    const QJsonObject second = forwardCaptures(*f, 2).last();
    CHECK(second["hash"].toString() == "xxh3");
    CHECK(partNamed(second, "big")["xxh3"].toString().toStdString() == test::toolDigest(core::HashKind::Xxh3, file));
    CHECK(partNamed(second, "big")["xxh3"] == partNamed(xxh3.json, "big")["xxh3"]);
}

TEST_CASE("the head goes on rewritten: hop-by-hop fields dropped, Host the upstream's, X-Forwarded-* added",
          "[forward]")
{
    PythonUpstream echo("echo");
    for (const bool preserve : {false, true}) {
        INFO("preserve host " << preserve);
        app::ForwardSettings settings;
        settings.preserveHost = preserve;
        auto f = forwarder(echo.url() + "/api/", settings); // a path prefix, with its slash
        auto r = curl({"-F", "a=b", "-H", "Connection: keep-alive, X-Hop", "-H", "X-Hop: for this connection only",
                       "-H", "Keep-Alive: timeout=5", "-H", "X-Forwarded-For: 10.0.0.7", "-H", "X-Kept: yes",
                       f->url("/upload?x=1")});
        REQUIRE(r.status == 200);
        const QString head = r.json["head"].toString();
        CHECK(head.startsWith("POST /api/upload?x=1 HTTP/1.1\r\n"));
        const QString forwarderHost = QStringLiteral("127.0.0.1:%1").arg(f->listener.port());
        CHECK(head.contains(preserve ? "Host: " + forwarderHost : QStringLiteral("Host: 127.0.0.1:%1").arg(echo.port)));
        CHECK(head.contains("X-Forwarded-For: 10.0.0.7, 127.0.0.1"));
        CHECK(head.contains("X-Forwarded-Proto: http"));
        CHECK(head.contains("X-Forwarded-Host: " + forwarderHost));
        CHECK(head.contains("X-Kept: yes"));
        for (const char* gone : {"X-Hop", "Keep-Alive", "Connection:"})
            CHECK_FALSE(head.contains(gone));
    }
}

TEST_CASE("a slow upstream slows the client, and the server time is its delay after the last byte", "[forward]")
{
    PythonUpstream slow("slow", {QString::number(8 << 20), "0.6"}); // 8 MiB/s, then 600 ms
    auto f = forwarder(slow.url());
    const QByteArray data = test::randomBytes(4 << 20, 92);
    const QString file = f->file("four.bin", data);
    QElapsedTimer clock;
    clock.start();
    auto r = curl({"-F", "file=@" + file, f->url("/file-part")});
    REQUIRE(r.status == 200);
    CHECK(clock.elapsed() >= 1000); // about 0.5 s of reading and the 0.6 s: the client waited for both
    CHECK(r.json["bytes"].toInteger() > 4 << 20);
    const QJsonObject forward = forwardCaptures(*f, 1).first()["forward"].toObject();
    INFO(QJsonDocument(forward["timings_ms"].toObject()).toJson().toStdString());
    const double server = forward["server_ms"].toDouble(-1);
    const double transfer = forward["transfer_ms"].toDouble();
    CHECK(server >= 540); // the 600 ms the upstream waited, within 10%
    // ... counted from the upstream's last byte to its answer, so the transfer before it is not in it: with it,
    // the figure would pass 600 ms plus the transfer. (A loaded machine wakes the upstream late: 683 ms once, in
    // five runs beside two busy loops, still far under that.)
    CHECK(server < 600 + transfer);
    CHECK(transfer >= 400); // the body's reading at 8 MiB/s
}

TEST_CASE("an upstream that answers 413 early: the client gets that answer whole, the capture says at which byte",
          "[forward][faults]")
{
    PythonUpstream reject("reject", {QString::number(1 << 20)});
    auto f = forwarder(reject.url());
    const QString file = f->file("big.bin", test::randomBytes(32 << 20, 93));
    const auto [status, body] = curlRaw({"-F", "file=@" + file, f->url("/file-part")});
    CHECK(status == 413);
    CHECK(body == (QByteArray("too large: this server takes 1 MiB at most\n").repeated(250)).left(10240));
    const QJsonObject capture = forwardCaptures(*f, 1).first();
    const QJsonObject forward = capture["forward"].toObject();
    CHECK(forward["status"].toInt() == 413);
    CHECK(forward["answer_bytes"].toInteger() == 10240);
    // What the upstream's kernel had when it answered: its 1 MiB and what its small receive buffer held.
    CHECK(forward["early_at_byte"].toInteger() >= 1 << 20);
    CHECK(forward["early_at_byte"].toInteger() < 2 << 20);
    CHECK(forward["server_ms"].isNull()); // no server time for an answer that came before the body's end
    CHECK(capture["state"].toString() == "incomplete");
}

TEST_CASE("upstream faults answered in JSON: closed mid-upload 502, unreachable 502, silent 504", "[forward][faults]")
{
    SECTION("closes after 1 MiB")
    {
        PythonUpstream closer("close", {QString::number(1 << 20)});
        auto f = forwarder(closer.url());
        const QString file = f->file("big.bin", test::randomBytes(16 << 20, 94));
        auto r = curl({"-F", "file=@" + file, f->url("/file-part")});
        CHECK(r.status == 502);
        CHECK(r.json["error"].toString() == "upstream closed the connection");
        CHECK(r.json["detail"].toString().contains("before answering"));
        const QJsonObject capture = forwardCaptures(*f, 1).first();
        CHECK(capture["forward"].toObject()["error"].toObject()["status"].toInt() == 502);
        CHECK(capture["state"].toString() == "incomplete");
    }
    SECTION("nothing listens")
    {
        QTcpServer taken;
        REQUIRE(taken.listen(QHostAddress::LocalHost, 0));
        const quint16 port = taken.serverPort();
        taken.close(); // a port that was free a moment ago: refused
        auto f = forwarder(QStringLiteral("http://127.0.0.1:%1").arg(port));
        auto r = curl({"-F", "a=b", f->url("/file-part")});
        CHECK(r.status == 502);
        CHECK(r.json["error"].toString() == "upstream unreachable");
        CHECK(r.json["detail"].toString().contains("refused", Qt::CaseInsensitive));
    }
    SECTION("never answers")
    {
        PythonUpstream silent("silent");
        app::ForwardSettings settings;
        settings.upstreamAnswerTimeoutMs = 500;
        auto f = forwarder(silent.url(), settings);
        QElapsedTimer clock;
        clock.start();
        auto r = curl({"-F", "a=b", f->url("/file-part")});
        CHECK(r.status == 504);
        CHECK(r.json["error"].toString() == "upstream too slow");
        CHECK(clock.elapsed() < 5000);
    }
}

TEST_CASE("an https upstream: our TLS listener, trusted with --cacert, refused without", "[forward][tls]")
{
    QTemporaryDir home;
    ListenerFixture upstream(test::tlsConfig(home.filePath("tls")));
    const QString https = QStringLiteral("https://localhost:%1").arg(upstream.listener.tlsPort());
    app::ForwardSettings trusted;
    trusted.caCertificates = upstream.listener.tlsIdentity()->certificatePath;
    auto f = forwarder(https, trusted);
    const QString file = f->file("big.bin", test::randomBytes(4 << 20, 95));
    auto r = curl({"-F", "file=@" + file, f->url("/file-part")});
    REQUIRE(r.status == 200);
    CHECK(partNamed(r.json, "file")["sha256"].toString().toStdString() ==
          test::toolDigest(core::HashKind::Sha256, file));
    CHECK(forwardCaptures(*f, 1).first()["forward"].toObject()["status"].toInt() == 200);

    auto untrusting = forwarder(https);
    auto refused = curl({"-F", "a=b", untrusting->url("/file-part")});
    CHECK(refused.status == 502);
    CHECK(refused.json["error"].toString() == "upstream certificate not trusted");
    CHECK(refused.json["detail"].toString().contains("certificate", Qt::CaseInsensitive));
}

TEST_CASE("16 concurrent uploads through the forwarder all arrive exact", "[forward]")
{
    ListenerFixture upstream;
    auto f = forwarder(upstream.url(""));
    std::vector<std::unique_ptr<QProcess>> clients;
    QStringList files;
    for (int i = 0; i < 16; ++i) {
        files << f->file(QStringLiteral("f%1.bin").arg(i), test::randomBytes(2 << 20, quint32(100 + i)));
        clients.push_back(std::make_unique<QProcess>());
        clients.back()->start("curl", {"-s", "-F", "file=@" + files.last(), f->url("/file-part")});
    }
    for (int i = 0; i < 16; ++i) {
        INFO("client " << i);
        REQUIRE(clients[size_t(i)]->waitForFinished(60000));
        const QJsonObject answer = QJsonDocument::fromJson(clients[size_t(i)]->readAllStandardOutput()).object();
        CHECK(partNamed(answer, "file")["sha256"].toString().toStdString() ==
              test::toolDigest(core::HashKind::Sha256, files[i]));
    }
    CHECK(forwardCaptures(*f, 16).size() == 16);
}

TEST_CASE("keep-alive: a second request on the client's connection reuses the upstream connection", "[forward]")
{
    PythonUpstream echo("echo");
    auto f = forwarder(echo.url());
    // One curl, two URLs: the second request goes on the same client connection.
    const auto [status, body] = curlRaw({"-F", "a=b", f->url("/one"), f->url("/two")});
    CHECK(status == 200);
    const QList<QJsonObject> captures = forwardCaptures(*f, 2);
    CHECK_FALSE(captures[0]["forward"].toObject()["reused_connection"].toBool());
    CHECK(captures[1]["forward"].toObject()["reused_connection"].toBool());
}

TEST_CASE("a body that is not multipart is counted and hashed whole, and a client that goes away aborts the "
          "upstream's request",
          "[forward]")
{
    ListenerFixture upstream;
    auto f = forwarder(upstream.url(""));
    const QString file = f->file("data.json", test::randomBytes(1 << 20, 96));
    auto r = curl({"--data-binary", "@" + file, "-H", "Content-Type: application/octet-stream", f->url("/discard")});
    CHECK(r.status == 200);
    QJsonObject capture = forwardCaptures(*f, 1).first();
    CHECK(capture["bytes"].toInteger() == 1 << 20);
    CHECK(capture["forward"].toObject()["body_sha256"].toString().toStdString() ==
          test::toolDigest(core::HashKind::Sha256, file));

    // 16 MiB at 2 MiB/s, stopped after a second: both captures end incomplete, nothing waits for the rest.
    const QString big = f->file("big.bin", test::randomBytes(16 << 20, 97));
    QProcess client;
    client.start("curl", {"-s", "--limit-rate", "2M", "-F", "file=@" + big, f->url("/file-part")});
    QThread::msleep(1000);
    client.kill();
    client.waitForFinished(5000);
    const QList<QJsonObject> both = forwardCaptures(*f, 2);
    CHECK(both[1]["state"].toString() == "incomplete");
    CHECK(both[1]["error"].toObject()["detail"].toString().startsWith("the client closed the connection after "));
    CHECK(both[1]["error"].toObject()["code"].toString() == "body_cut_short");
    QString upstreamFolder;
    for (int i = 0; i < 100 && upstreamFolder.isEmpty(); ++i, QThread::msleep(20))
        for (const QString& folder :
             QDir(upstream.listener.captureRoot()).entryList({"capture-*-file-part"}, QDir::Dirs))
            if (QFile::exists(QDir(upstream.listener.captureRoot()).filePath(folder + "/capture.json")))
                upstreamFolder = folder;
    REQUIRE_FALSE(upstreamFolder.isEmpty());
    QFile json(QDir(upstream.listener.captureRoot()).filePath(upstreamFolder + "/capture.json"));
    REQUIRE(json.open(QIODevice::ReadOnly));
    CHECK(QJsonDocument::fromJson(json.readAll()).object()["state"].toString() == "incomplete");
}

TEST_CASE("a client that stops mid-body gets 408 after the idle deadline, and the upstream request is cut off",
          "[forward][faults]")
{
    ListenerFixture upstream;
    app::ForwardSettings settings;
    settings.upstream = QUrl(upstream.url(""));
    app::ServerConfig config;
    config.forward = settings;
    config.guards.idleTimeoutMs = 300;
    ListenerFixture f(config);
    QTcpSocket client;
    client.connectToHost(QHostAddress::LocalHost, f.listener.port());
    REQUIRE(client.waitForConnected(2000));
    client.write("POST /file-part HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                 "Content-Length: 100000\r\n\r\n--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhalf");
    QElapsedTimer clock;
    clock.start();
    QByteArray answer;
    while (clock.elapsed() < 5000 && !answer.contains("\r\n\r\n{"))
        if (client.waitForReadyRead(100))
            answer += client.readAll();
    CHECK(answer.startsWith("HTTP/1.1 408"));
    CHECK(answer.contains("client too slow"));
    const QJsonObject capture = forwardCaptures(f, 1).first();
    CHECK(capture["state"].toString() == "incomplete");
    CHECK(capture["forward"].toObject()["error"].toObject()["status"].toInt() == 408);
}

TEST_CASE("a slow upstream is no slow client, an HTTP/1.0 answer closes its connection, other names get 421",
          "[forward][faults]")
{
    SECTION("an upstream that reads nothing for longer than the client's idle deadline")
    {
        PythonUpstream sleepy("sleepy", {"1.0"});
        app::ForwardSettings settings;
        settings.upstream = QUrl(sleepy.url());
        app::ServerConfig config;
        config.forward = settings;
        config.guards.idleTimeoutMs = 300;
        ListenerFixture f(config);
        const QString file = f.file("big.bin", test::randomBytes(16 << 20, 98)); // more than the kernels hold
        auto r = curl({"-H", "Expect:", "-F", "file=@" + file, f.url("/file-part")});
        CHECK(r.status == 200);
        CHECK(r.json["sha256"].toString().size() == 64);
    }
    SECTION("HTTP/1.0 answers on a client's keep-alive connection")
    {
        PythonUpstream old("http10");
        auto f = forwarder(old.url());
        const auto [status, body] = curlRaw({"-F", "a=b", f->url("/one"), f->url("/two")});
        CHECK(status == 200);
        const QList<QJsonObject> captures = forwardCaptures(*f, 2);
        for (const auto& capture : captures)
            CHECK(capture["forward"].toObject()["status"].toInt() == 200);
        CHECK_FALSE(captures[1]["forward"].toObject()["reused_connection"].toBool());
    }
    SECTION("a name that is not ours")
    {
        PythonUpstream echo("echo");
        auto f = forwarder(echo.url());
        auto r = curl({"-H", "Host: rebound.example", "-F", "a=b", f->url("/file-part")});
        CHECK(r.status == 421);
        CHECK(r.json["error"].toString().contains("rebound.example"));
    }
}
