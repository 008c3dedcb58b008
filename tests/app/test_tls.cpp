// The TLS listener with real clients on 127.0.0.1: curl trusting the listener's own certificate, and clients
// whose handshakes fail in the ways the wild makes them fail.

#include "app/listener_fixture.h"
#include "capture/stored_captures.h"
#include "sender/run_report.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTcpSocket>
#include <QThread>

using namespace upin;
using test::curl;
using test::ListenerFixture;
using test::partNamed;
using test::tlsConfig;

namespace {

QString httpsUrl(const ListenerFixture& f, const QString& path)
{
    return QStringLiteral("https://localhost:%1%2").arg(f.listener.tlsPort()).arg(path);
}

} // namespace

TEST_CASE("curl --cacert uploads over TLS with exact hashes, and the capture says how it came", "[listener][tls]")
{
    QTemporaryDir home;
    const QString folder = home.filePath("tls");
    QString fingerprint;
    {
        ListenerFixture f(tlsConfig(folder));
        REQUIRE(f.listener.tlsPort() != 0);
        REQUIRE(f.listener.port() != 0); // plain HTTP stays on its own port
        const auto identity = f.listener.tlsIdentity();
        REQUIRE(identity.has_value());
        CHECK(identity->certificatePath == QFileInfo(QDir(folder).filePath("cert.pem")).absoluteFilePath());
        // The key is the user's alone; the certificate is what they hand to clients.
        CHECK(QFileInfo(QDir(folder).filePath("key.pem")).permissions() ==
              (QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser | QFileDevice::WriteUser));
        // The fingerprint printed and shown is the one openssl computes.
        QProcess openssl;
        openssl.start("openssl", {"x509", "-noout", "-fingerprint", "-sha256", "-in", identity->certificatePath});
        REQUIRE(openssl.waitForFinished(10000));
        CHECK(openssl.readAllStandardOutput().trimmed().split('=').last() == identity->fingerprint.toLatin1());
        fingerprint = identity->fingerprint;

        const QByteArray data = test::randomBytes(8 << 20, 61);
        const QString file = f.file("big.bin", data);
        for (const char* host : {"localhost", "127.0.0.1"}) { // both are in the certificate
            INFO(host);
            auto r = curl({"--cacert", identity->certificatePath, "-F", "file=@" + file, "-F", "note=over tls",
                           QStringLiteral("https://%1:%2/file-part").arg(host).arg(f.listener.tlsPort())});
            REQUIRE(r.status == 200);
            CHECK(partNamed(r.json, "file")["sha256"].toString().toStdString() ==
                  test::toolDigest(core::HashKind::Sha256, file));
            CHECK(partNamed(r.json, "note")["value"].toString() == "over tls");
        }
        auto r = curl({"--cacert", identity->certificatePath, "-F", "a=b", httpsUrl(f, "/capture")});
        REQUIRE(r.status == 200);
        const QStringList folders =
            QDir(f.listener.captureRoot()).entryList({"capture-*-" + r.json["capture_id"].toString() + "-capture"});
        REQUIRE(folders.size() == 1);
        const QJsonObject transport =
            QJsonDocument::fromJson(
                test::readAll(QDir(f.listener.captureRoot()).filePath(folders.first() + "/capture.json")))
                .object()["request"]
                .toObject()["transport"]
                .toObject();
        CHECK(transport["tls"].toBool());
        CHECK(transport["protocol"].toString().startsWith("TLSv1."));
        CHECK_FALSE(transport["cipher"].toString().isEmpty());
        CHECK(transport["alpn"].toString() == "h2"); // curl offers h2 first, and it is agreed (test below)
        CHECK(transport["http"].toString() == "h2");
        CHECK_FALSE(transport["client_certificate"].toBool());
        CHECK(transport["handshake_ms"].toDouble() > 0);
        // Plain HTTP still records its transport as such.
        auto plain = curl({"-F", "a=b", f.url("/capture")});
        REQUIRE(plain.status == 200);
        // Read back as the Listen tab lists stored captures: those over TLS with its version (the two uploads to
        // /file-part and the one to /capture), the plain one without.
        const QList<app::CaptureSummary> stored = app::storedCaptures(f.listener.captureRoot(), 10);
        REQUIRE(stored.size() == 4);
        for (const auto& c : stored)
            CHECK(c.tls == (c.id == plain.json["capture_id"].toString().toULongLong()
                                ? QString()
                                : transport["protocol"].toString() + ", h2"));
        CHECK(f.listener.tlsHandshakeFailures() == 0);
    }
    ListenerFixture again(tlsConfig(folder)); // the certificate a client was told to trust is kept
    REQUIRE(again.listener.tlsIdentity().has_value());
    CHECK(again.listener.tlsIdentity()->fingerprint == fingerprint);
}

TEST_CASE("over TLS a connection that ends after its answer ends with close_notify, not a cut", "[listener][tls]")
{
    QTemporaryDir home;
    ListenerFixture f(tlsConfig(home.filePath("tls")));
    // openssl s_client reads until the end, and says "unexpected eof" when the TLS stream is cut without
    // close_notify (the lingering close's pause, 5 s, comes first).
    QProcess openssl;
    openssl.setProcessChannelMode(QProcess::MergedChannels);
    openssl.start("openssl", {"s_client", "-connect", QStringLiteral("127.0.0.1:%1").arg(f.listener.tlsPort()),
                              "-quiet", "-ign_eof"});
    openssl.write("GET /captures HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    openssl.closeWriteChannel();
    REQUIRE(openssl.waitForFinished(20000));
    const QString out = QString::fromUtf8(openssl.readAll());
    INFO(out.toStdString());
    CHECK(out.contains("HTTP/1.1 200 OK"));
    CHECK_FALSE(out.contains("unexpected eof"));
    CHECK(openssl.exitCode() == 0);
}

TEST_CASE("over TLS ALPN agrees what the client offers of h2 and http/1.1, and nothing when it offers neither",
          "[listener][tls][hostile]")
{
    QTemporaryDir home;
    ListenerFixture f(tlsConfig(home.filePath("tls")));
    // Qt's server alone would agree its first protocol with a client that offered none of them, which the
    // client's TLS refuses ("bad extension"): a client offering http/1.0 only could not connect.
    const std::pair<const char*, const char*> cases[] = {
        {"http/1.0", "No ALPN negotiated"},   {"http/1.1", "ALPN protocol: http/1.1"},
        {"http/1.1,h2", "ALPN protocol: h2"}, {"h2,http/1.1", "ALPN protocol: h2"},
        {"h2", "ALPN protocol: h2"},          {"spdy/3,h2c", "No ALPN negotiated"}};
    for (const auto& [alpn, agreed] : cases) {
        const bool h2 = QByteArray(agreed).endsWith("h2");
        QProcess openssl; // reads until the end: the listener closes after an answer to Connection: close
        openssl.setProcessChannelMode(QProcess::MergedChannels);
        QStringList arguments{"s_client", "-connect", QStringLiteral("127.0.0.1:%1").arg(f.listener.tlsPort()), "-alpn",
                              alpn};
        if (!h2) // an HTTP/1.1 request and its answer; over h2 the handshake is all (s_client ends at stdin's end)
            arguments << "-ign_eof";
        openssl.start("openssl", arguments);
        if (!h2)
            openssl.write("GET /captures HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        openssl.closeWriteChannel();
        REQUIRE(openssl.waitForFinished(20000));
        const QString out = QString::fromUtf8(openssl.readAll());
        INFO(alpn << "\n" << out.toStdString());
        CHECK_FALSE(out.contains("bad extension"));
        CHECK(out.contains(agreed));
        CHECK(out.contains("HTTP/1.1 200 OK") == !h2);
    }
}

TEST_CASE("100 failed TLS handshakes leave the listener serving with every slot free", "[listener][tls][faults]")
{
    QTemporaryDir home;
    app::ServerConfig config = tlsConfig(home.filePath("tls"));
    config.maxConnections = 8;
    config.guards.headTimeoutMs = 500; // the handshake is under the head deadline
    ListenerFixture f(config);
    const QString certificate = f.listener.tlsIdentity()->certificatePath;
    // 40 plain HTTP requests sent to the TLS port, 40 clients that do not trust the certificate and abort, and 20
    // that start a handshake (a TLS record header) and stall.
    for (int i = 0; i < 40; ++i) {
        QTcpSocket plain;
        plain.connectToHost(QHostAddress::LocalHost, f.listener.tlsPort());
        REQUIRE(plain.waitForConnected(2000));
        plain.write("POST /file-part HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\nabc");
        plain.waitForDisconnected(2000);
        CHECK(plain.state() == QAbstractSocket::UnconnectedState);
    }
    for (int i = 0; i < 40; ++i)
        CHECK(curl({"-F", "a=b", httpsUrl(f, "/file-part")}).exitCode != 0);
    std::vector<std::unique_ptr<QTcpSocket>> stalled;
    for (int i = 0; i < 20; ++i) {
        stalled.push_back(std::make_unique<QTcpSocket>());
        stalled.back()->connectToHost(QHostAddress::LocalHost, f.listener.tlsPort());
        REQUIRE(stalled.back()->waitForConnected(2000));
        stalled.back()->write(QByteArray::fromHex("1603010200")); // a ClientHello's record header, and no more
        stalled.back()->flush();
    }
    for (auto& client : stalled) // dropped at the head deadline
        CHECK(client->waitForDisconnected(3000));
    for (int i = 0; i < 50 && f.listener.tlsHandshakeFailures() < 100; ++i)
        QThread::msleep(20);
    CHECK(f.listener.tlsHandshakeFailures() == 100);
    // No slot leaked: as many uploads at once as there are slots all succeed, over TLS and plain HTTP.
    const QString file = f.file("f.bin", test::randomBytes(1 << 20, 62));
    std::vector<std::unique_ptr<QProcess>> uploads;
    for (int i = 0; i < config.maxConnections; ++i) {
        uploads.push_back(std::make_unique<QProcess>());
        const QString url = i % 2 ? f.url("/part-event") : httpsUrl(f, "/part-event");
        uploads.back()->start(
            "curl", {"-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", certificate, "-F", "f=@" + file, url});
    }
    for (auto& upload : uploads) {
        REQUIRE(upload->waitForFinished(30000));
        CHECK(upload->readAllStandardOutput() == "200");
    }
}

TEST_CASE("send over https: both engines with --cacert, --insecure said, an untrusted certificate refused",
          "[listener][tls][sender]")
{
    QTemporaryDir home;
    ListenerFixture f(tlsConfig(home.filePath("tls")));
    const QString certificate = f.listener.tlsIdentity()->certificatePath;
    const QByteArray data = test::randomBytes(3 << 20, 63);
    app::UploadPlan plan;
    plan.targets = {QUrl(httpsUrl(f, "/file-part"))};
    app::PlanPart file;
    file.kind = app::PlanPart::Kind::File;
    file.name = "doc";
    file.path = f.file("doc.bin", data);
    plan.parts = {file};
    plan.caCertificates = certificate;
    for (auto engine : {app::UploadPlan::Engine::Auto, app::UploadPlan::Engine::Qnam}) {
        INFO("engine " << int(engine));
        plan.engine = engine;
        test::SenderThread s;
        const auto results = s.run(plan);
        REQUIRE(results.size() == 1);
        INFO(results[0].error.toStdString());
        CHECK(results[0].httpStatus == 200);
        CHECK(results[0].integrityOk());
        CHECK(results[0].parts[0].sentDigest.toStdString() == test::sha256(data));
        CHECK(results[0].tls.startsWith("TLSv1."));
        // QNAM offers h2 by ALPN, and the listener agrees it; our raw engine speaks HTTP/1.1 only.
        CHECK(results[0].protocol == (engine == app::UploadPlan::Engine::Qnam ? "HTTP/2" : "HTTP/1.1"));
        CHECK_FALSE(results[0].insecure);
    }
    plan.caCertificates.clear(); // the system does not know this certificate
    for (auto engine : {app::UploadPlan::Engine::Auto, app::UploadPlan::Engine::Qnam}) {
        plan.engine = engine;
        test::SenderThread s;
        const auto refused = s.run(plan);
        REQUIRE(refused.size() == 1);
        CHECK(refused[0].httpStatus == 0);
        CHECK(refused[0].error.contains("self-signed"));
        CHECK(refused[0].error.contains("--cacert FILE")); // and what to do about it
    }
    plan.insecure = true;
    plan.engine = app::UploadPlan::Engine::Auto;
    test::SenderThread s;
    const auto unchecked = s.run(plan);
    REQUIRE(unchecked.size() == 1);
    CHECK(unchecked[0].httpStatus == 200);
    CHECK(unchecked[0].insecure);
    const QJsonObject json = app::runsToJson(unchecked).first().toObject();
    CHECK(json["insecure"].toBool());
    CHECK(json["tls"].toString().startsWith("TLSv1."));
    CHECK(plan.toCurl().contains("--insecure"));
    // The CSV says it too, in a column of its own.
    const QStringList csv = app::runsToCsv(unchecked).split('\n');
    CHECK(csv[0].endsWith(",protocol,tls,certificate_checked,method"));
    CHECK(csv[1].endsWith(",HTTP/1.1," + unchecked[0].tls + ",no,POST"));
}

TEST_CASE("over TLS an early answer stops the body, a passphrase-protected key is refused, not waited on",
          "[listener][tls]")
{
    QTemporaryDir home;
    ListenerFixture f(tlsConfig(home.filePath("tls")));
    app::UploadPlan plan;
    plan.targets = {QUrl(httpsUrl(f, "/nothing"))};
    app::PlanPart big;
    big.kind = app::PlanPart::Kind::Synthetic;
    big.name = "big";
    big.size = quint64{256} << 20;
    plan.parts = {big};
    plan.caCertificates = f.listener.tlsIdentity()->certificatePath;
    test::SenderThread s;
    const auto results = s.run(plan);
    REQUIRE(results.size() == 1);
    CHECK(results[0].httpStatus == 404);
    CHECK(results[0].answeredEarly); // the encrypted bytes waiting count: the body is not all queued at once
    CHECK(results[0].bytesSent < big.size / 4);

    QProcess openssl;
    const QString key = home.filePath("enc.key"), certificate = home.filePath("enc.crt");
    openssl.start("openssl", {"genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-aes256", "-pass",
                              "pass:secret", "-out", key});
    REQUIRE(openssl.waitForFinished(10000));
    openssl.start("openssl", {"req", "-x509", "-key", key, "-passin", "pass:secret", "-subj", "/CN=localhost", "-days",
                              "2", "-out", certificate});
    REQUIRE(openssl.waitForFinished(10000));
    QString error;
    CHECK_FALSE(app::tlsIdentityFromFiles(certificate, key, &error).has_value());
    CHECK(error.contains("not an unencrypted PEM private key"));
}
