// The forward proxy with a real browser: headless Chromium, trusting the proxy's authority through an NSS database
// made with certutil (as a user would trust it), submits a real multipart form with a file over https.

#include "app/browser_pages.h"
#include "app/forward_fixture.h"

#include <catch2/catch.hpp>

#include <QDir>

using namespace upin;
using test::ListenerFixture;
using test::partNamed;

namespace {

// HOME/.pki/nssdb, where Chromium on Linux looks for the authorities its user trusts, with the proxy's in it.
void trustInNss(const QString& home, const QString& authority)
{
    const QString db = QStringLiteral("sql:") + home + "/.pki/nssdb";
    REQUIRE(QDir().mkpath(home + "/.pki/nssdb"));
    for (const QStringList& arguments :
         {QStringList{"-N", "-d", db, "--empty-password"},
          QStringList{"-A", "-d", db, "-t", "C,,", "-n", "Upload Inspector proxy CA", "-i", authority}}) {
        QProcess certutil; // libnss3-tools, installed by scripts/install-deps
        certutil.start("certutil", arguments);
        REQUIRE(certutil.waitForFinished(20000));
        INFO(certutil.readAllStandardError().toStdString());
        REQUIRE(certutil.exitCode() == 0);
    }
}

// The proxy's record of the request for `target`, among the browser's others (its favicon, its own services'),
// once its exchange has ended (capture.json is written then).
std::optional<QJsonObject> recordOf(const ListenerFixture& p, const QString& target)
{
    const QDir root(p.listener.captureRoot());
    for (const QString& folder : root.entryList({"capture-*-forward"}, QDir::Dirs, QDir::Name)) {
        QFile file(root.filePath(folder + "/capture.json"));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        if (json["request"].toObject()["target"].toString() == target)
            return json;
    }
    return std::nullopt;
}

} // namespace

TEST_CASE("proxy over https: headless Chromium trusting the authority by NSS submits a real form with a file, and "
          "the proxy and the server see the file's bytes",
          "[proxy][tls][browser]")
{
    QTemporaryDir home;
    test::PageServer pages;
    app::ServerConfig serverConfig = test::tlsConfig(home.filePath("server"));
    serverConfig.guards.allowedOrigins = {pages.origin()}; // the form is posted from the page's origin
    ListenerFixture server(serverConfig);
    app::ForwardSettings trusting;
    trusting.caCertificates = server.listener.tlsIdentity()->certificatePath; // the "real server's" own
    auto p = test::proxy(trusting, home.filePath("proxy"));
    trustInNss(home.filePath("browser"), p->listener.proxyCa()->certificatePath());

    // The page fetches its file through the proxy, over http, and submits it in a real form.
    const QByteArray data = test::randomBytes(700'000, 77);
    test::setFormPage(pages, QStringLiteral("https://localhost:%1/file-part").arg(server.listener.tlsPort()), data);

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("HOME", home.filePath("browser"));
    // <-loopback>: Chromium sends requests for 127.0.0.1 and localhost through the proxy too.
    test::runChromium(
        pages.origin() + "/form",
        {"--proxy-server=" + test::proxyUrl(*p), "--proxy-bypass-list=<-loopback>", "--disable-background-networking",
         "--disable-component-update"},
        [&] { return recordOf(*p, "/file-part").has_value(); }, environment); // the answer relayed whole

    QFile file(QDir(server.waitForCaptureFolder("001-photo.bin")).filePath("001-photo.bin")); // the server's
    REQUIRE(file.open(QIODevice::ReadOnly));
    CHECK(file.readAll() == data);
    const QJsonObject record = recordOf(*p, "/file-part").value_or(QJsonObject{}); // the proxy's
    CHECK(partNamed(record, "upload")["sha256"].toString().toStdString() == test::sha256(data));
    CHECK(partNamed(record, "note")["size"].toInt() == 13);
    CHECK(record["forward"].toObject()["status"].toInt() == 200);
    CHECK(record["forward"].toObject()["upstream"].toString() ==
          QStringLiteral("https://localhost:%1").arg(server.listener.tlsPort()));
    CHECK(record["request"].toObject()["transport"].toObject()["tls"].toBool()); // the browser's leg, opened
    CHECK(recordOf(*p, "/photo.bin").value_or(QJsonObject{})["forward"].toObject()["status"].toInt() ==
          200); // the page's own fetch
}
