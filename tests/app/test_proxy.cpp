// The forward proxy (`proxy`) with real clients on 127.0.0.1: curl -x and Python requests with proxies= upload
// through it to our own listeners; what the server saved and what the proxy recorded are checked against the file.

#include "app/proxy_fixture.h"
#include "proxy/proxy_clients.h"
#include "server/connection_guards.h"
#include "support/wait_for.h"
#include "tls/tls_identity.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QNetworkInterface>
#include <QTest>

using namespace upin;
using test::curl;
using test::forwardCaptures;
using test::ListenerFixture;
using test::partNamed;
using test::proxy;
using test::proxyUrl;
using test::TlsServerBehindProxy;

TEST_CASE("proxy: curl -x uploads to the server its URL names, and the server and the proxy see the file's digest",
          "[proxy]")
{
    ListenerFixture server;
    auto p = proxy();
    const QByteArray data = test::randomBytes(3 << 20, 71);
    const QString file = server.file("photo.bin", data);
    const QString url = QStringLiteral("http://127.0.0.1:%1/file-part?x=1").arg(server.listener.port());
    auto r = curl({"-x", proxyUrl(*p), "-F", "photo=@" + file, "-F", "note=through the proxy", url});
    REQUIRE(r.status == 200);
    CHECK(partNamed(r.json, "photo")["sha256"].toString().toStdString() == test::sha256(data)); // the server's
    QFile saved(QDir(server.waitForCaptureFolder("000-photo.bin")).filePath("000-photo.bin"));
    REQUIRE(saved.open(QIODevice::ReadOnly));
    CHECK(saved.readAll() == data);

    const QJsonObject capture = forwardCaptures(*p, 1).first(); // the proxy's
    CHECK(partNamed(capture, "photo")["sha256"].toString().toStdString() == test::sha256(data));
    CHECK(partNamed(capture, "note")["size"].toInt() == 17);
    const QJsonObject forward = capture["forward"].toObject();
    CHECK(forward["status"].toInt() == 200);
    CHECK(forward["upstream"].toString() == QStringLiteral("http://127.0.0.1:%1").arg(server.listener.port()));
    CHECK(capture["request"].toObject()["target"].toString() == "/file-part?x=1");
    // The request as the client made it, in origin form: no X-Forwarded-*, no Proxy-Connection.
    const QString head = forward["request_head"].toString();
    CHECK(head.startsWith("POST /file-part?x=1 HTTP/1.1\r\n"));
    CHECK(head.contains(QStringLiteral("Host: 127.0.0.1:%1\r\n").arg(server.listener.port())));
    CHECK_FALSE(head.contains("X-Forwarded", Qt::CaseInsensitive));
    CHECK_FALSE(head.contains("Proxy-Connection", Qt::CaseInsensitive));
}

TEST_CASE("proxy: one client connection, requests for two servers, each reaches its own", "[proxy]")
{
    ListenerFixture first, second;
    auto p = proxy();
    const QString file = first.file("a.txt", "alpha");
    auto origin = [](const ListenerFixture& f) { return QStringLiteral("http://127.0.0.1:%1").arg(f.listener.port()); };
    auto url = [&](const ListenerFixture& f) { return origin(f) + "/part-event"; };
    // curl keeps its one connection to the proxy for both (--next starts the second request's options).
    auto r = curl({"-x", proxyUrl(*p), "-F", "a=@" + file, url(first), "--next", "-x", proxyUrl(*p), "-F", "b=@" + file,
                   url(second)});
    CHECK(r.exitCode == 0);
    const QList<QJsonObject> captures = forwardCaptures(*p, 2);
    CHECK(captures[0]["forward"].toObject()["upstream"].toString() == origin(first));
    CHECK(captures[1]["forward"].toObject()["upstream"].toString() == origin(second));
    CHECK(captures[0]["forward"].toObject()["status"].toInt() == 200);
    CHECK(captures[1]["forward"].toObject()["status"].toInt() == 200);
    CHECK_FALSE(captures[1]["forward"].toObject()["reused_connection"].toBool()); // another server: its own
}

TEST_CASE("proxy: Python requests with proxies= uploads a file, and the server saves it whole", "[proxy]")
{
    ListenerFixture server;
    auto p = proxy();
    const QByteArray data = test::randomBytes(1 << 20, 72);
    const QString file = server.file("upload.bin", data);
    QProcess python;
    python.start("python3",
                 {"-c",
                  "import requests, sys\n"
                  "with open(sys.argv[1], 'rb') as f:\n"
                  "    r = requests.post(sys.argv[2], files={'upload': f}, data={'note': 'py'},\n"
                  "                      proxies={'http': sys.argv[3]})\n"
                  "print(r.status_code)\n",
                  file, QStringLiteral("http://127.0.0.1:%1/file-part").arg(server.listener.port()), proxyUrl(*p)});
    REQUIRE(python.waitForFinished(30000));
    INFO(python.readAllStandardError().toStdString());
    CHECK(python.readAllStandardOutput().trimmed() == "200");
    const QJsonObject capture = forwardCaptures(*p, 1).first();
    CHECK(partNamed(capture, "upload")["sha256"].toString().toStdString() == test::sha256(data));
    // requests sends the fields first: the file is the second part.
    QFile saved(QDir(server.waitForCaptureFolder("001-upload.bin")).filePath("001-upload.bin"));
    REQUIRE(saved.open(QIODevice::ReadOnly));
    CHECK(saved.readAll() == data);
}

TEST_CASE("proxy: a path without a server is refused with how to ask, and the proxy's own address is a loop", "[proxy]")
{
    auto p = proxy();
    auto direct = curl({"-F", "a=b", proxyUrl(*p) + "/file-part"});
    CHECK(direct.status == 400);
    CHECK(direct.json["error"].toString().contains("this is a proxy"));
    auto loop = curl({"-x", proxyUrl(*p), proxyUrl(*p) + "/x"});
    CHECK(loop.status == 508);
    CHECK(loop.json["detail"].toString().contains("is this proxy itself"));
    auto localhost = curl({"-x", proxyUrl(*p), QStringLiteral("http://localhost:%1/").arg(p->listener.port())});
    CHECK(localhost.status == 508);
}

TEST_CASE("proxy: --only-host and --only-uploads leave the rest relayed and not kept", "[proxy][filters]")
{
    ListenerFixture server;
    app::ForwardSettings filtered;
    filtered.onlyHosts = {"LOCAL*"};
    filtered.onlyUploads = true;
    auto p = proxy(filtered);
    const QString file = server.file("kept.txt", "the one kept");
    const QString port = QString::number(server.listener.port());
    auto through = [&](const QStringList& arguments) { return curl(QStringList{"-x", proxyUrl(*p)} + arguments); };
    CHECK(through({"http://127.0.0.1:" + port + "/captures"}).status == 200);                       // another host
    CHECK(through({"-F", "a=@" + file, "http://127.0.0.1:" + port + "/part-event"}).status == 200); // alike
    CHECK(through({"http://localhost:" + port + "/captures"}).status == 200);                       // no body
    auto kept = through({"-F", "a=@" + file, "http://localhost:" + port + "/part-event"});
    CHECK(kept.status == 200);
    const QJsonObject capture = forwardCaptures(*p, 1).first();
    CHECK(capture["forward"].toObject()["upstream"].toString() == "http://localhost:" + port);
    CHECK(partNamed(capture, "a")["sha256"].toString().toStdString() == test::sha256("the one kept"));
    // The others were answered, one after the other, before the kept one was sent: a folder of theirs would have
    // been made when each began, so there is nothing to wait for.
    CHECK(QDir(p->listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs).size() == 1);
}

TEST_CASE("proxy --keep-bodies: a body that is not multipart is kept whole beside its head, and only when asked",
          "[proxy]")
{
    ListenerFixture server;
    const QByteArray data = test::randomBytes(1 << 20, 77);
    const QString file = server.file("blob.bin", data);
    auto send = [&](const ListenerFixture& p) {
        auto r = curl({"-x", proxyUrl(p), "-H", "Content-Type: application/octet-stream", "--data-binary", "@" + file,
                       server.url("/discard")});
        REQUIRE(r.status == 200);
        CHECK(r.json["bytes"].toInt() == data.size());
        QDir root(p.listener.captureRoot());
        const QList<QJsonObject> captures = forwardCaptures(p, 1);
        return std::pair(captures.first(), QDir(root.filePath(root.entryList({"capture-*-forward"}, QDir::Dirs)[0])));
    };
    app::ForwardSettings keeping;
    keeping.keepBodies = true;
    const auto keeper = proxy(keeping);
    const auto [kept, folder] = send(*keeper);
    CHECK(kept["raw_body"].toString() == "body.raw");
    QFile body(folder.filePath("body.raw"));
    REQUIRE(body.open(QIODevice::ReadOnly));
    CHECK(body.readAll() == data);
    QFile head(folder.filePath("head.raw"));
    REQUIRE(head.open(QIODevice::ReadOnly));
    CHECK(head.readAll().startsWith("POST " + server.url("/discard").toUtf8() + " HTTP/1.1\r\n"));
    CHECK(kept["forward"].toObject()["body_sha256"].toString().toStdString() == test::sha256(data));

    const auto counter = proxy();
    const auto [counted, bare] = send(*counter); // not asked: counted and hashed only
    CHECK(counted["raw_body"].isNull());
    CHECK_FALSE(bare.exists("body.raw"));
    CHECK(counted["forward"].toObject()["body_sha256"].toString().toStdString() == test::sha256(data));
}

TEST_CASE("proxy: in a tunnel --only-host keeps a request either name matches, and --only-uploads keeps tunnels "
          "passed through unseen",
          "[proxy][filters][tls]")
{
    QTemporaryDir home;
    ListenerFixture server(test::tlsConfig(home.filePath("server")));
    app::ForwardSettings filtered = TlsServerBehindProxy::trusting(server);
    filtered.onlyHosts = {"localhost"};
    filtered.onlyUploads = true;
    auto p = proxy(filtered, home.filePath("proxy"));
    // CONNECT 127.0.0.1 (no match), SNI localhost (a match): an upload there is kept.
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nhidden?\r\n--b--\r\n";
    const QString answer = test::sClientThroughProxy(
        p->listener.port(), server.listener.tlsPort(),
        {"-servername", "localhost", "-CAfile", p->listener.proxyCa()->certificatePath()},
        "POST /part-event HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\n"
        "Content-Length: " +
            QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
    CHECK(answer.contains("HTTP/1.1 200 OK"));
    const QJsonObject kept = forwardCaptures(*p, 1).first();
    CHECK(partNamed(kept, "f")["size"].toInt() == 7);

    // A tunnel passed through: its bytes are not seen, so --only-uploads keeps its record.
    app::ForwardSettings passing = filtered;
    passing.noIntercept = {"localhost"};
    auto q = proxy(passing, home.filePath("proxy"));
    auto r = curl({"-x", proxyUrl(*q), "--cacert", server.listener.tlsIdentity()->certificatePath, "-F", "a=b",
                   QStringLiteral("https://localhost:%1/part-event").arg(server.listener.tlsPort())});
    CHECK(r.status == 200);
    const QJsonObject tunnel = forwardCaptures(*q, 1).first();
    CHECK(tunnel["forward"].toObject()["tunnel"].toObject()["bytes_up"].toInt() > 0);
}

TEST_CASE("proxy: a client not on the networks it serves gets a 403 saying so, recorded, and nothing goes on",
          "[proxy][clients]")
{
    ListenerFixture server;
    app::ForwardSettings elsewhere;
    elsewhere.allowedClients = {*app::parseClientNetwork("10.0.0.0/8")}; // not 127.0.0.1, where curl comes from
    auto p = proxy(elsewhere);
    auto plain = curl({"-x", proxyUrl(*p), "-F", "a=b", server.url("/part-event")});
    CHECK(plain.status == 403);
    CHECK(plain.json["detail"].toString().contains("127.0.0.1 is not on the networks the proxy serves"));
    auto tunnel = curl({"-x", proxyUrl(*p), "-k", QStringLiteral("https://localhost:%1/").arg(server.listener.port())});
    CHECK(tunnel.exitCode != 0); // curl: CONNECT tunnel failed, response 403
    // Both refusals recorded (the log is written on the store's thread), and nothing reached the server.
    const QString log = QDir(p->listener.captureRoot()).filePath("refused.jsonl");
    const auto refusals = [&] {
        int n = 0;
        for (const QByteArray& line : test::readAll(log).split('\n'))
            n += QJsonDocument::fromJson(line).object()["reason"].toString().startsWith("client not allowed");
        return n;
    };
    UPIN_WAIT_FOR(refusals() == 2, 10000);
    CHECK(QDir(server.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs).isEmpty());
}

TEST_CASE("the networks a proxy serves by default: this machine's, and those of the interfaces it is bound to",
          "[proxy][clients]")
{
    using app::Subnet;
    const QList<Subnet> loopback = app::localNetworks(QHostAddress::LocalHost);
    CHECK(loopback == QList<Subnet>{*app::parseClientNetwork("127.0.0.0/8")}); // no IPv6 client reaches it
    CHECK(app::localNetworks(QHostAddress::LocalHostIPv6) == QList<Subnet>{*app::parseClientNetwork("::1")});
    CHECK(app::clientAllowed(QHostAddress("127.0.0.5"), loopback));
    CHECK(app::clientAllowed(QHostAddress("::ffff:127.0.0.1"), loopback)); // IPv4 through a dual-stack socket
    CHECK_FALSE(app::clientAllowed(QHostAddress("192.0.2.9"), loopback));
    const QList<Subnet> everywhere = app::localNetworks(QHostAddress::Any);
    for (const QNetworkInterface& interface : QNetworkInterface::allInterfaces())
        for (const QNetworkAddressEntry& entry : interface.addressEntries()) {
            INFO(entry.ip().toString().toStdString());
            CHECK(app::clientAllowed(entry.ip(), everywhere));
        }
    CHECK_FALSE(app::clientAllowed(QHostAddress("8.8.8.8"), everywhere));   // routed from elsewhere
    for (const Subnet& network : app::localNetworks(QHostAddress::AnyIPv4)) // 0.0.0.0: IPv4 clients only
        CHECK(network.first.protocol() == QAbstractSocket::IPv4Protocol);
    for (const Subnet& network : app::localNetworks(QHostAddress::AnyIPv6)) // "::": IPv6 clients only
        CHECK(network.first.protocol() == QAbstractSocket::IPv6Protocol);
    CHECK(app::parseClientNetwork(" 192.168.1.7 ") == Subnet{QHostAddress("192.168.1.7"), 32});
    CHECK(app::parseClientNetwork("10.0.0.0/8") == Subnet{QHostAddress("10.0.0.0"), 8});
    CHECK(app::parseClientNetwork("::ffff:127.0.0.0/104") == Subnet{QHostAddress("127.0.0.0"), 8}); // as compared
    for (const char* bad : {"", "10.0.0.0/33", "example.test", "10.0.0/8x", "/8", "0.0.0.0/0", "::/0",
                            "::ffff:0.0.0.0/96"}) { // /0: an open relay
        INFO(bad);
        CHECK_FALSE(app::parseClientNetwork(QString::fromLatin1(bad)).has_value());
    }
}

// Issue 49, item 7: an answer without a length, inside an intercepted tunnel, ends only at the proxy's close, and
// the proxy's TLS close came after its lingering pause: the client had it 5 s late (0.002 s over plain http).
TEST_CASE("proxy over https: an answer that ends at the server's close reaches the client then, not after the "
          "linger",
          "[proxy][tls]")
{
    QTemporaryDir home;
    QString error;
    const auto identity = app::localTlsIdentity(home.filePath("server"), &error);
    REQUIRE(identity);
    QFile answer(home.filePath("answer"));
    REQUIRE(answer.open(QIODevice::WriteOnly));
    answer.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nthe end is the close\n");
    answer.close();
    test::PythonUpstream server("tls",
                                {identity->certificatePath, home.filePath("server/key.pem"), "raw", answer.fileName()});
    app::ForwardSettings trusting;
    trusting.caCertificates = identity->certificatePath;
    auto p = proxy(trusting, home.filePath("proxy"));
    QElapsedTimer clock;
    clock.start();
    QProcess client;
    client.start("curl", {"-s", "-x", proxyUrl(*p), "--cacert", p->listener.proxyCa()->certificatePath(), "-d", "x",
                          QStringLiteral("https://localhost:%1/").arg(server.port)});
    REQUIRE(client.waitForFinished(20000));
    CHECK(client.readAllStandardOutput() == "the end is the close\n");
    CHECK(client.exitCode() == 0);
    CHECK(clock.elapsed() < app::Linger::kQuietMs / 2); // at the server's close, not the linger's end
}
