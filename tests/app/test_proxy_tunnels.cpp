// The forward proxy's https tunnels with real clients on 127.0.0.1: curl -x, Python requests, Node's undici and
// openssl s_client open tunnels through it to our own TLS listener; what each leg agreed, what the server saved and
// what the proxy recorded are checked, and tunnels passed through (--no-intercept) stay the server's own.

#include "app/proxy_fixture.h"
#include "support/node_peers.h"
#include "support/wait_for.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFileInfo>
#include <QHostAddress>
#include <QSslCertificate>
#include <QSslSocket>

using namespace upin;
using test::curl;
using test::forwardCaptures;
using test::ListenerFixture;
using test::partNamed;
using test::proxy;
using test::proxyUrl;
using test::readHttpAnswer;
using test::TlsServerBehindProxy;

namespace {
// socket connected to the proxy, told 200 to its CONNECT to 127.0.0.1:port.
void openTunnel(QTcpSocket& socket, const ListenerFixture& proxy, quint16 port)
{
    socket.connectToHost(QHostAddress::LocalHost, proxy.listener.port());
    REQUIRE(socket.waitForConnected(5000));
    const QByteArray authority = "127.0.0.1:" + QByteArray::number(port);
    socket.write("CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n");
    UPIN_WAIT_FOR(socket.bytesAvailable() > 0, 5000);
    CHECK(socket.readAll().startsWith("HTTP/1.1 200 "));
}
} // namespace

TEST_CASE("proxy over https: curl trusting the proxy's authority uploads through a tunnel to a server the proxy "
          "checks, both see the file's digest",
          "[proxy][tls]")
{
    QTemporaryDir home;
    ListenerFixture server(test::tlsConfig(home.filePath("server")));
    app::ForwardSettings trusting;
    trusting.caCertificates = server.listener.tlsIdentity()->certificatePath; // the "real server's" own
    auto p = proxy(trusting, home.filePath("proxy"));
    const QString ca = p->listener.proxyCa()->certificatePath();
    CHECK(ca == QFileInfo(home.filePath("proxy/proxy-ca.pem")).absoluteFilePath());
    const QByteArray data = test::randomBytes(2 << 20, 73);
    const QString file = server.file("secret.bin", data);
    const QString url = QStringLiteral("https://localhost:%1/file-part").arg(server.listener.tlsPort());
    auto r = curl({"-x", proxyUrl(*p), "--cacert", ca, "-F", "secret=@" + file, url});
    REQUIRE(r.status == 200);
    CHECK(partNamed(r.json, "secret")["sha256"].toString().toStdString() == test::sha256(data));
    QFile saved(QDir(server.waitForCaptureFolder("000-secret.bin")).filePath("000-secret.bin"));
    REQUIRE(saved.open(QIODevice::ReadOnly));
    CHECK(saved.readAll() == data);
    const QJsonObject capture = forwardCaptures(*p, 1).first();
    CHECK(partNamed(capture, "secret")["sha256"].toString().toStdString() == test::sha256(data));
    CHECK(capture["forward"].toObject()["upstream"].toString() ==
          QStringLiteral("https://localhost:%1").arg(server.listener.tlsPort()));
    // Both legs' TLS: the client's, ended here with a leaf for the name it asked, signed by the proxy's authority;
    // the upstream's, with the server's own certificate.
    const QJsonObject clientLeg = capture["request"].toObject()["transport"].toObject();
    CHECK(clientLeg["tls"].toBool());
    CHECK(clientLeg["protocol"].toString().startsWith("TLSv1."));
    CHECK(clientLeg["server_name"].toString() == "localhost");
    CHECK(clientLeg["certificate_subject"].toString().contains("CN=localhost"));
    const QSslCertificate authority = QSslCertificate::fromPath(ca).value(0);
    CHECK(clientLeg["certificate_issuer"].toString().contains(authority.subjectInfo(QSslCertificate::CommonName)[0]));
    const QJsonObject upstreamLeg = capture["forward"].toObject()["upstream_tls"].toObject();
    CHECK(upstreamLeg["protocol"].toString().startsWith("TLSv1."));
    CHECK(!upstreamLeg["cipher"].toString().isEmpty());
    CHECK(upstreamLeg["server_name"].toString() == "localhost");
    const QSslCertificate real = QSslCertificate::fromPath(server.listener.tlsIdentity()->certificatePath).value(0);
    CHECK(upstreamLeg["certificate_subject"].toString().contains(real.subjectInfo(QSslCertificate::CommonName)[0]));
    CHECK(upstreamLeg["certificate_issuer"].toString().contains(real.issuerInfo(QSslCertificate::CommonName)[0]));
    CHECK(upstreamLeg["certificate_issuer"].toString() != clientLeg["certificate_issuer"].toString());
    CHECK_FALSE(capture["forward"].toObject().contains("certificate_refused"));
    // parse says both legs too.
    const QDir root(p->listener.captureRoot());
    QProcess parse;
    parse.start(UPIN_CLI_PATH, {"parse", root.filePath(root.entryList({"capture-*-forward"}, QDir::Dirs).first())});
    REQUIRE(parse.waitForFinished(20000));
    const QString parsed = QString::fromUtf8(parse.readAllStandardOutput());
    INFO(parsed.toStdString());
    CHECK(parsed.contains("\nclient TLS: TLSv1."));
    CHECK(parsed.contains(QStringLiteral("\nupstream TLS: TLSv1.") + upstreamLeg["protocol"].toString().mid(6)));
    CHECK(parsed.contains("issued by \"" + upstreamLeg["certificate_issuer"].toString() + "\"\n"));

    // Python requests, trusting the same authority.
    QProcess python;
    const QString script = "import requests, sys\n"
                           "r = requests.post(sys.argv[1], files={'py': b'from python'}, verify=sys.argv[2],\n"
                           "                  proxies={'https': sys.argv[3]})\n"
                           "print(r.status_code, r.json()['parts'][0]['size'])\n";
    python.start("python3", {"-c", script, url, ca, proxyUrl(*p)});
    REQUIRE(python.waitForFinished(30000));
    INFO(python.readAllStandardError().toStdString());
    CHECK(python.readAllStandardOutput().trimmed() == "200 11");
}

TEST_CASE("proxy over https: Node's fetch through undici's ProxyAgent, trusting the authority by NODE_EXTRA_CA_CERTS",
          "[proxy][tls]")
{
    test::requireNodePackage(QStringLiteral("undici"));
    TlsServerBehindProxy setup;
    ListenerFixture& server = setup.server;
    const auto& p = setup.p;
    const QByteArray data = test::randomBytes(1 << 20, 75);
    const QString file = server.file("from-node.bin", data);
    QProcess node;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("NODE_EXTRA_CA_CERTS", p->listener.proxyCa()->certificatePath());
    node.setProcessEnvironment(environment);
    node.start("node", {UPIN_TESTS_DIR "/peers/node/proxy_upload.js",
                        QStringLiteral("https://localhost:%1/file-part").arg(server.listener.tlsPort()), proxyUrl(*p),
                        file}); // undici from the npm registry, installed by scripts/install-deps
    REQUIRE(node.waitForFinished(30000));
    INFO(node.readAllStandardError().toStdString());
    const QList<QByteArray> out = node.readAllStandardOutput().split('\n');
    REQUIRE(out.size() >= 2);
    CHECK(out[0] == "200");
    const QJsonObject answer = QJsonDocument::fromJson(out[1]).object();
    CHECK(partNamed(answer, "node")["sha256"].toString().toStdString() == test::sha256(data)); // the server's
    const QJsonObject capture = forwardCaptures(*p, 1).first();                                // the proxy's
    CHECK(partNamed(capture, "node")["sha256"].toString().toStdString() == test::sha256(data));
    CHECK(partNamed(capture, "note")["size"].toInt() == 9);
}

TEST_CASE("proxy over https: the leaf is for the name the client's SNI asks, and the server is checked for it",
          "[proxy][tls]")
{
    TlsServerBehindProxy setup;
    ListenerFixture& server = setup.server;
    const auto& p = setup.p;
    // openssl s_client tunnels to an address and names a host in SNI, as a client that resolves names itself may
    // (curl and browsers name the CONNECT's host in both).
    auto through = [&](const QStringList& sni) {
        return test::sClientThroughProxy(p->listener.port(), server.listener.tlsPort(),
                                         QStringList{"-CAfile", p->listener.proxyCa()->certificatePath()} + sni);
    };
    const QString named = through({"-servername", "localhost", "-verify_hostname", "localhost"});
    INFO(named.toStdString());
    CHECK(named.contains("subject=O = Upload Inspector, CN = localhost"));
    CHECK(named.contains("Verification: OK"));
    CHECK(named.contains("HTTP/1.1 200 OK"));
    const QString unnamed = through({"-noservername"});
    CHECK(unnamed.contains("subject=O = Upload Inspector, CN = 127.0.0.1")); // the CONNECT's host
    CHECK(unnamed.contains("HTTP/1.1 200 OK"));
    // A name the server's certificate is not for: checked for the name asked, the address does not excuse it.
    const QString other = through({"-servername", "other.test"});
    CHECK(other.contains("subject=O = Upload Inspector, CN = other.test"));
    CHECK(other.contains("HTTP/1.1 502"));
    CHECK(other.contains("upstream certificate not trusted"));
}

TEST_CASE("proxy over https: a server whose certificate is not trusted gets the client a 502 saying so, and "
          "nothing of the body",
          "[proxy][tls]")
{
    QTemporaryDir home;
    ListenerFixture server(test::tlsConfig(home.filePath("server")));
    auto p = proxy({}, home.filePath("proxy")); // trusts the system's authorities only
    const QString file = server.file("a.bin", test::randomBytes(1 << 20, 74));
    auto r = curl({"-x", proxyUrl(*p), "--cacert", p->listener.proxyCa()->certificatePath(), "-F", "a=@" + file,
                   QStringLiteral("https://localhost:%1/file-part").arg(server.listener.tlsPort())});
    CHECK(r.status == 502);
    CHECK(r.json["error"].toString() == "upstream certificate not trusted");
    CHECK(r.json["detail"].toString().contains("self-signed"));
    CHECK(r.json["body_bytes_to_upstream"].toInt() == 0);
    // The record says whose certificate was refused.
    const QJsonObject refusedExchange = forwardCaptures(*p, 1).first()["forward"].toObject();
    CHECK(refusedExchange["certificate_refused"].toBool());
    const QJsonObject refusedLeg = refusedExchange["upstream_tls"].toObject();
    const QSslCertificate real = QSslCertificate::fromPath(server.listener.tlsIdentity()->certificatePath).value(0);
    CHECK(refusedLeg["certificate_subject"].toString().contains(real.subjectInfo(QSslCertificate::CommonName)[0]));
    QThread::msleep(200);
    CHECK(QDir(server.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs).isEmpty()); // no request came
}

TEST_CASE("proxy: hostile requests: a user name or a fragment in the URL, bytes sent after CONNECT before its "
          "answer, each refused with a 400 saying which",
          "[proxy][faults]")
{
    auto p = proxy();
    auto exchange = [&](const QByteArray& request) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, p->listener.port());
        REQUIRE(socket.waitForConnected(2000));
        socket.write(request);
        QByteArray answer;
        while (socket.waitForReadyRead(2000))
            answer += socket.readAll();
        return answer;
    };
    const QByteArray userinfo = exchange("GET http://user:secret@127.0.0.1:1/x HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n");
    CHECK(userinfo.startsWith("HTTP/1.1 400 "));
    CHECK(userinfo.contains("fragment (#) or a user name"));
    const QByteArray fragment = exchange("GET http://127.0.0.1:1#/../captures HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n");
    CHECK(fragment.startsWith("HTTP/1.1 400 "));
    // A ClientHello's first bytes in the same write as CONNECT: read with it, they could never reach TLS.
    const QByteArray early = exchange("CONNECT localhost:443 HTTP/1.1\r\nHost: localhost:443\r\n\r\n\x16\x03\x01");
    CHECK(early.startsWith("HTTP/1.1 400 "));
    CHECK(early.contains("bytes after CONNECT"));
}

TEST_CASE("proxy over https: the client's Host goes on as it wrote it, not the CONNECT's authority", "[proxy][tls]")
{
    QTemporaryDir home;
    app::ServerConfig serverConfig = test::tlsConfig(home.filePath("server"));
    serverConfig.guards.allowedHosts = {"upload.test"};
    ListenerFixture server(serverConfig);
    app::ForwardSettings trusting;
    trusting.caCertificates = server.listener.tlsIdentity()->certificatePath;
    auto p = proxy(trusting, home.filePath("proxy"));
    auto r = curl({"-x", proxyUrl(*p), "--cacert", p->listener.proxyCa()->certificatePath(), "-H", "Host: upload.test",
                   "-F", "a=b", QStringLiteral("https://localhost:%1/part-event").arg(server.listener.tlsPort())});
    CHECK(r.status == 200);
    const QString head = forwardCaptures(*p, 1).first()["forward"].toObject()["request_head"].toString();
    CHECK(head.contains("\r\nHost: upload.test\r\n"));
}

TEST_CASE("proxy --no-intercept: a matching host's tunnel passes through unopened, the client sees the server's own "
          "certificate, and only byte counts are recorded",
          "[proxy][tls]")
{
    QTemporaryDir home;
    ListenerFixture server(test::tlsConfig(home.filePath("server")));
    app::ForwardSettings settings;
    settings.noIntercept = {"LOCAL*"}; // a glob, in any case
    auto p = proxy(settings, home.filePath("proxy"));
    const QByteArray data = test::randomBytes(1 << 20, 76);
    const QString file = server.file("private.bin", data);
    const QString serverCertificate = server.listener.tlsIdentity()->certificatePath;
    const QString url = QStringLiteral("https://localhost:%1/part-event").arg(server.listener.tlsPort());
    // Trusting the server's certificate alone: only a tunnel that is not opened can satisfy it.
    auto r = curl({"-x", proxyUrl(*p), "--cacert", serverCertificate, "-F", "private=@" + file, url});
    REQUIRE(r.status == 200);
    CHECK(partNamed(r.json, "private")["sha256"].toString().toStdString() == test::sha256(data));
    const QJsonObject capture = forwardCaptures(*p, 1).first();
    CHECK(capture["parts"].toArray().isEmpty()); // nothing of it was read
    const QJsonObject tunnel = capture["forward"].toObject()["tunnel"].toObject();
    CHECK(tunnel["reached"].toBool());
    CHECK(tunnel["bytes_up"].toInteger() > data.size()); // the form, encrypted
    CHECK(tunnel["bytes_down"].toInteger() > 0);
    // An intercepted host's certificate is the proxy's: the same client refuses it.
    auto q = proxy({}, home.filePath("proxy"));
    auto refused = curl({"-x", proxyUrl(*q), "--cacert", serverCertificate, url});
    CHECK(refused.exitCode == 60); // curl: the peer's certificate cannot be checked with the given CA
    // A server that cannot be reached: the client gets a 502 in place of the 200.
    QProcess unreachable;
    unreachable.start("curl",
                      {"-s", "-o", "/dev/null", "-w", "%{http_connect}", "-x", proxyUrl(*p), "https://localhost:1/"});
    REQUIRE(unreachable.waitForFinished(10000));
    CHECK(unreachable.readAllStandardOutput() == "502");
}

TEST_CASE("proxy: plain HTTP in a tunnel (curl --proxytunnel to an http URL) is read and relayed as plain HTTP",
          "[proxy]")
{
    ListenerFixture server;
    auto p = proxy();
    const QByteArray data = test::randomBytes(300'000, 78);
    const QString file = server.file("tunnelled.bin", data);
    auto r = curl({"-p", "-x", proxyUrl(*p), "-F", "t=@" + file, server.url("/part-event")});
    REQUIRE(r.status == 200);
    CHECK(partNamed(r.json, "t")["sha256"].toString().toStdString() == test::sha256(data));
    const QJsonObject capture = forwardCaptures(*p, 1).first();
    CHECK(capture["forward"].toObject()["upstream"].toString() ==
          QStringLiteral("http://127.0.0.1:%1").arg(server.listener.port()));
    CHECK(partNamed(capture, "t")["sha256"].toString().toStdString() == test::sha256(data));
    CHECK_FALSE(capture["request"].toObject()["transport"].toObject()["tls"].toBool());
}

TEST_CASE("proxy --no-intercept: a name given only in SNI passes the tunnel through too, and a tunnel to the proxy "
          "itself is a loop",
          "[proxy][tls]")
{
    QTemporaryDir home;
    ListenerFixture server(test::tlsConfig(home.filePath("server")));
    app::ForwardSettings settings;
    settings.noIntercept = {"localhost"};
    settings.onlyHosts = {"localhost"}; // the SNI name keeps its record, as it keeps an opened tunnel's
    auto p = proxy(settings, home.filePath("proxy"));
    // CONNECT to the address, the name in SNI only: trusting the server's own certificate alone, it verifies.
    const QString out = test::sClientThroughProxy(p->listener.port(), server.listener.tlsPort(),
                                                  {"-servername", "localhost", "-verify_hostname", "localhost",
                                                   "-CAfile", server.listener.tlsIdentity()->certificatePath});
    INFO(out.toStdString());
    CHECK(out.contains("Verification: OK"));
    CHECK(out.contains("HTTP/1.1 200 OK"));
    const QJsonObject passed = forwardCaptures(*p, 1).first();
    const QJsonObject tunnel = passed["forward"].toObject()["tunnel"].toObject();
    CHECK(tunnel["reached"].toBool());
    CHECK(tunnel["bytes_down"].toInteger() > 0);
    CHECK(passed["endpoint"].toString().contains("(passed through: SNI localhost)"));
    // The same by SNI to the proxy's own port: the 200 went already, so the connection is closed, and said.
    test::sClientThroughProxy(p->listener.port(), p->listener.port(), {"-servername", "localhost"});
    const QJsonObject selfFault = forwardCaptures(*p, 2).last()["forward"].toObject()["error"].toObject();
    CHECK(selfFault["error"].toString() == "loop");
    CHECK(selfFault["detail"].toString().contains("the client had its 200"));

    // --no-intercept '*' and CONNECT to the proxy's own port: refused before a byte goes, not relayed for ever.
    app::ForwardSettings everything;
    everything.noIntercept = {"*"};
    auto q = proxy(everything, home.filePath("proxy"));
    QProcess loop;
    loop.start("curl", {"-s", "-o", "/dev/null", "-w", "%{http_connect}", "-x", proxyUrl(*q),
                        QStringLiteral("https://127.0.0.1:%1/").arg(q->listener.port())});
    REQUIRE(loop.waitForFinished(10000));
    CHECK(loop.readAllStandardOutput() == "508");
    const QJsonObject looped = forwardCaptures(*q, 1).first()["forward"].toObject();
    CHECK(looped["error"].toObject()["error"].toString() == "loop");
}

TEST_CASE("proxy --no-intercept: a tunnel after a plain request on the same connection carries TLS end to end, "
          "untouched by the earlier exchange",
          "[proxy][tls]")
{
    QTemporaryDir home;
    ListenerFixture server(test::tlsConfig(home.filePath("server")));
    app::ForwardSettings settings;
    settings.noIntercept = {"localhost"};
    auto p = proxy(settings, home.filePath("proxy"));
    QSslSocket socket; // plain to the proxy first, TLS to the server through the tunnel after
    socket.connectToHost(QHostAddress::LocalHost, p->listener.port());
    REQUIRE(socket.waitForConnected(2000));
    auto readAnswer = [&socket] { return readHttpAnswer(socket); };
    // A kept-alive exchange with the server's plain port: its upstream connection stays open.
    socket.write(QStringLiteral("GET http://127.0.0.1:%1/captures HTTP/1.1\r\nHost: 127.0.0.1:%1\r\n\r\n")
                     .arg(server.listener.port())
                     .toLatin1());
    CHECK(readAnswer().startsWith("HTTP/1.1 200"));
    socket.write(QStringLiteral("CONNECT localhost:%1 HTTP/1.1\r\nHost: localhost:%1\r\n\r\n")
                     .arg(server.listener.tlsPort())
                     .toLatin1());
    REQUIRE(readAnswer() == "HTTP/1.1 200 Connection established\r\n\r\n");
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setCaCertificates(QSslCertificate::fromPath(server.listener.tlsIdentity()->certificatePath));
    socket.setSslConfiguration(tls);
    socket.setPeerVerifyName("localhost");
    socket.startClientEncryption(); // the server's own certificate, through the proxy
    REQUIRE(socket.waitForEncrypted(5000));
    socket.write(QStringLiteral("GET /captures HTTP/1.1\r\nHost: localhost:%1\r\nConnection: close\r\n\r\n")
                     .arg(server.listener.tlsPort())
                     .toLatin1());
    CHECK(readAnswer().startsWith("HTTP/1.1 200"));
    socket.disconnectFromHost(); // done here: no event loop runs the close otherwise
    if (socket.state() != QAbstractSocket::UnconnectedState)
        socket.waitForDisconnected(5000);
    const QList<QJsonObject> captures = forwardCaptures(*p, 2);
    CHECK(captures[1]["forward"].toObject()["tunnel"].toObject()["reached"].toBool());
    CHECK(captures[1]["forward"].toObject()["status"].isNull()); // nothing of the earlier answer in it
}

TEST_CASE("proxy over https: a tunnel whose SNI names another server is not relayed over an upstream connection "
          "checked for an earlier request's name",
          "[proxy][tls]")
{
    TlsServerBehindProxy setup;
    ListenerFixture& server = setup.server;
    const auto& p = setup.p;
    const QString address = QStringLiteral("127.0.0.1:%1").arg(server.listener.tlsPort());
    QSslSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, p->listener.port());
    REQUIRE(socket.waitForConnected(2000));
    // First https://127.0.0.1:PORT in absolute form: the proxy's upstream connection, checked as 127.0.0.1, stays.
    socket.write(("GET https://" + address + "/captures HTTP/1.1\r\nHost: " + address + "\r\n\r\n").toLatin1());
    CHECK(readHttpAnswer(socket).startsWith("HTTP/1.1 200"));
    // Then a tunnel to the same address whose client names evil.example in SNI, and trusts the proxy's leaf for it.
    socket.write(("CONNECT " + address + " HTTP/1.1\r\nHost: " + address + "\r\n\r\n").toLatin1());
    REQUIRE(readHttpAnswer(socket) == "HTTP/1.1 200 Connection established\r\n\r\n");
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setCaCertificates(QSslCertificate::fromPath(p->listener.proxyCa()->certificatePath()));
    socket.setSslConfiguration(tls);
    socket.setPeerVerifyName("evil.example");
    socket.startClientEncryption();
    REQUIRE(socket.waitForEncrypted(5000));
    socket.write("GET /captures HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
    const QByteArray answer = readHttpAnswer(socket);
    CHECK(answer.startsWith("HTTP/1.1 502"));
    CHECK(answer.contains("upstream certificate not trusted"));
    CHECK(answer.contains("checked as evil.example"));
}

// Issue 49, item 7: 64 quiet --no-intercept tunnels held every slot for the ten minutes of their idle deadline, and
// every other client got 503. A tunnel quiet as long as a kept-alive connection may wait gives its slot up as one.
TEST_CASE("proxy --no-intercept: quiet tunnels give their slots to new clients, as idle kept-alive connections do",
          "[proxy][guards]")
{
    ListenerFixture server; // the tunnels' far end: they carry nothing
    app::ForwardSettings settings;
    settings.noIntercept = {"127.0.0.1"};
    app::ServerConfig config;
    config.maxConnections = 2;
    config.guards.keepAliveTimeoutMs = 300;
    auto p = proxy(settings, {}, config);
    std::vector<std::unique_ptr<QTcpSocket>> tunnels;
    for (int i = 0; i < 2; ++i) { // both slots, each a tunnel that then says nothing
        tunnels.push_back(std::make_unique<QTcpSocket>());
        openTunnel(*tunnels.back(), *p, server.listener.port());
    }
    const auto said = [&] { // in the tunnel's capture, once written
        QDir root(p->listener.captureRoot());
        for (const QString& folder : root.entryList({"capture-*"}, QDir::Dirs)) {
            QFile file(root.filePath(folder + "/capture.json"));
            if (file.open(QIODevice::ReadOnly) && file.readAll().contains("its slot went to a new client"))
                return true;
        }
        return false;
    };
    // A new client has a quiet tunnel's slot (it got 503 while they were busy or not yet quiet).
    // Well within the far end's 10 s head deadline, which would close the tunnels and free their slots anyway.
    UPIN_WAIT_FOR(curl({"-x", proxyUrl(*p), "-F", "a=b", server.url("/part-event")}).status == 200, 5000);
    // A quiet tunnel was closed for it, and its record says why.
    UPIN_WAIT_FOR(said(), 5000);
    UPIN_WAIT_FOR(tunnels[0]->state() == QAbstractSocket::UnconnectedState ||
                      tunnels[1]->state() == QAbstractSocket::UnconnectedState,
                  5000);
}

// Issue 49, item 7: 64 intercepted tunnels that finished their TLS handshake and sent nothing held every slot until
// their deadline. Waiting for a first request, such a tunnel gives its slot up as a kept-alive connection does.
TEST_CASE("proxy: an intercepted tunnel that sent nothing after its handshake gives its slot to a new client",
          "[proxy][guards][tls]")
{
    ListenerFixture server;
    app::ServerConfig config;
    config.maxConnections = 2;
    auto p = proxy({}, {}, config);
    std::vector<std::unique_ptr<QSslSocket>> tunnels;
    for (int i = 0; i < 2; ++i) {
        auto tunnel = std::make_unique<QSslSocket>();
        tunnel->setPeerVerifyMode(QSslSocket::VerifyNone); // the proxy's leaf: what it is does not matter here
        openTunnel(*tunnel, *p, server.listener.port());
        tunnel->startClientEncryption();
        UPIN_WAIT_FOR(tunnel->isEncrypted(), 5000);
        tunnels.push_back(std::move(tunnel));
    }
    // Well within the head deadline (10 s): the first try after the proxy's side of the handshakes is served.
    UPIN_WAIT_FOR(curl({"-x", proxyUrl(*p), "-F", "a=b", server.url("/part-event")}).status == 200, 5000);
    UPIN_WAIT_FOR(tunnels[0]->state() == QAbstractSocket::UnconnectedState ||
                      tunnels[1]->state() == QAbstractSocket::UnconnectedState,
                  5000);
}
