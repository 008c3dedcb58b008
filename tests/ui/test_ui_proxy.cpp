// The Listen tab's Proxy row, wired as the GUI main wires it (ServiceWiring): a proxy started with its filters, its
// authority's path shown and copied, and what went through it listed with the captures, with real curl -x.

#include "app/listener_fixture.h"
#include "main_window.h"
#include "models/capture_list_model.h"
#include "service_wiring.h"
#include "views/elided_label.h"
#include "views/listen_view.h"
#include "views/proxy_panel.h"
#include "views/request_text.h"
#include "views/tls_trust.h"

#include <catch2/catch.hpp>

#include <QCheckBox>
#include <QClipboard>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QTest>

using namespace upin;

namespace {

struct DataHome { // the proxy's authority in the test's folder, not the user's, until the test ends however it ends
    QByteArray before = qgetenv("XDG_DATA_HOME");
    explicit DataHome(const QString& folder) { qputenv("XDG_DATA_HOME", folder.toUtf8()); }
    ~DataHome() { qputenv("XDG_DATA_HOME", before); }
    DataHome(const DataHome&) = delete;
    DataHome& operator=(const DataHome&) = delete;
};

} // namespace

TEST_CASE("the Proxy row starts a proxy with its filters, says where its authority is, and lists what went through",
          "[ui][proxy]")
{
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings")); // not the user's
    DataHome dataHome(dir.filePath("data"));
    {
        ui::MainWindow window;
        ui::ServiceWiring wiring(window, dir.filePath("captures"));
        ui::ProxyPanel* panel = window.listenView()->proxyPanel();
        panel->findChild<QSpinBox*>("proxyPort")->setValue(0);
        panel->findChild<QLineEdit*>("proxyOnlyHosts")->setText("127.0.0.1, other.test");
        panel->findChild<QCheckBox*>("proxyOnlyUploads")->setChecked(true);
        panel->findChild<QCheckBox*>("proxyKeepRequests")->setChecked(true);
        auto* toggle = panel->findChild<QPushButton*>("proxyToggle");
        toggle->click();
        REQUIRE(toggle->text() == "Stop proxy");
        CHECK_FALSE(panel->findChild<QLineEdit*>("proxyOnlyHosts")->isEnabled());

        // Where the authority is: in the row, copied by its button, and the example line a user pastes.
        const QString status = panel->findChild<ui::ElidedLabel*>("proxyStatus")->fullText();
        INFO(status.toStdString());
        const QString ca = QRegularExpression("trust (\\S+proxy-ca\\.pem)").match(status).captured(1);
        REQUIRE(QFileInfo::exists(ca));
        CHECK(ca.startsWith(dir.filePath("data")));
        panel->findChild<QPushButton*>("proxyCopyCa")->click();
        CHECK(QGuiApplication::clipboard()->text() == ca);
        const QString examples = window.listenView()->examples()->toPlainText();
        const QString proxyUrl =
            QRegularExpression("curl -x (http://127\\.0\\.0\\.1:\\d+)").match(examples).captured(1);
        REQUIRE_FALSE(proxyUrl.isEmpty());

        test::ListenerFixture server;
        const QString file = server.file("pic.bin", test::randomBytes(200'000, 41));
        CHECK(test::curl({"-x", proxyUrl, server.url("/captures")}).status == 200); // no body: not listed
        const QString byName = QStringLiteral("http://localhost:%1/file-part").arg(server.listener.port());
        CHECK(test::curl({"-x", proxyUrl, "-F", "pic=@" + file, byName}).status == 200); // another host: not listed
        CHECK(test::curl({"-x", proxyUrl, "-F", "pic=@" + file, server.url("/file-part")}).status == 200);
        auto* model = window.listenView()->model();
        for (int i = 0; i < 100 && (model->rowCount() == 0 || model->row(0).state == app::CaptureState::Receiving); ++i)
            QTest::qWait(20);
        QTest::qWait(100);
        REQUIRE(model->rowCount() == 1);
        CHECK(model->row(0).endpoint == "proxy → " + server.url("/file-part")); // not a forwarded row's "→ "
        CHECK(model->row(0).state == app::CaptureState::Complete);
        CHECK(QFileInfo(QDir(model->row(0).folder).filePath("body.raw")).size() > 200'000); // kept whole
        // A body that is not multipart is kept whole too.
        CHECK(test::curl({"-x", proxyUrl, "-H", "Content-Type: application/json", "--data-binary", R"({"a": 1})",
                          server.url("/discard")})
                  .status == 200);
        for (int i = 0; i < 100 && (model->rowCount() < 2 || model->row(1).state == app::CaptureState::Receiving); ++i)
            QTest::qWait(20);
        REQUIRE(model->rowCount() == 2);
        const int json = model->row(0).endpoint.endsWith("/discard") ? 0 : 1;
        QFile kept(QDir(model->row(json).folder).filePath("body.raw"));
        REQUIRE(kept.open(QIODevice::ReadOnly));
        CHECK(kept.readAll() == R"({"a": 1})");

        // A client that does not trust the authority: said in the Proxy row, not in the listener's status.
        CHECK(test::curl({"-x", proxyUrl, QStringLiteral("https://localhost:%1/").arg(server.listener.port())})
                  .exitCode != 0);
        auto* proxyStatus = panel->findChild<ui::ElidedLabel*>("proxyStatus");
        for (int i = 0; i < 100 && !proxyStatus->fullText().contains("handshake failed"); ++i)
            QTest::qWait(20);
        CHECK(proxyStatus->fullText().contains("does it trust the authority?"));
        CHECK(window.listenView()->findChild<QLabel*>("tlsTrouble")->isHidden()); // the listener's certificate advice

        toggle->click();
        CHECK(toggle->text() == "Start proxy");
        CHECK(panel->findChild<QLineEdit*>("proxyOnlyHosts")->isEnabled());
        CHECK_FALSE(window.listenView()->examples()->toPlainText().contains("# through the proxy"));
    }
    { // the next start of the window offers the same filters
        ui::MainWindow window;
        ui::ServiceWiring wiring(window, dir.filePath("captures"));
        ui::ProxyPanel* panel = window.listenView()->proxyPanel();
        CHECK(panel->findChild<QLineEdit*>("proxyOnlyHosts")->text() == "127.0.0.1, other.test");
        CHECK(panel->findChild<QCheckBox*>("proxyOnlyUploads")->isChecked());
        CHECK(panel->findChild<QCheckBox*>("proxyKeep")->isChecked());
        CHECK(panel->findChild<QCheckBox*>("proxyKeepRequests")->isChecked());
        CHECK(panel->findChild<QSpinBox*>("proxyPort")->value() == 0);
    }
}

TEST_CASE("Inspect's request text shows both TLS legs of a proxied exchange: protocol, cipher, name and certificates",
          "[ui][proxy]")
{
    app::InspectResult result;
    result.request.method = "POST";
    result.request.target = "/file-part";
    result.request.version = "HTTP/1.1";
    app::Transport client;
    client.tls = true;
    client.protocol = "TLSv1.3";
    client.cipher = "TLS_AES_256_GCM_SHA384";
    client.serverName = "upload.example";
    client.certificateSubject = "O=Upload Inspector, CN=upload.example";
    client.certificateIssuer = "CN=Upload Inspector proxy authority";
    result.request.transport = client;
    app::CaptureRecord capture;
    app::ForwardRecord forward;
    forward.upstream = "https://upload.example";
    app::Transport upstream = client;
    upstream.cipher = "TLS_CHACHA20_POLY1305_SHA256";
    upstream.certificateSubject = "CN=upload.example";
    upstream.certificateIssuer = "C=US, O=Let's Encrypt, CN=R3";
    forward.upstreamTls = upstream;
    capture.forward = forward;
    result.capture = capture;
    SECTION("checked")
    {
        const QString text = ui::describeRequest(result);
        INFO(text.toStdString());
        CHECK(text.contains("Transport:  HTTP/1.1 over TLSv1.3, cipher TLS_AES_256_GCM_SHA384"));
        CHECK(text.contains("server name (SNI) upload.example"));
        CHECK(text.contains("issued by CN=Upload Inspector proxy authority"));
        CHECK(text.contains("Upstream:   HTTP/1.1 over TLSv1.3, cipher TLS_CHACHA20_POLY1305_SHA256"));
        CHECK(text.contains("certificate CN=upload.example\n            issued by C=US, O=Let's Encrypt, CN=R3"));
        CHECK(text.contains("its certificate checked against the trusted roots"));
    }
    SECTION("not checked")
    {
        result.capture->forward->unverified = true;
        CHECK(ui::describeRequest(result).contains("its certificate NOT checked (--insecure)"));
    }
    SECTION("refused")
    {
        result.capture->forward->certificateRefused = true;
        const QString text = ui::describeRequest(result);
        CHECK(text.contains("its certificate refused"));
        CHECK_FALSE(text.contains("checked against the trusted roots"));
    }
}

TEST_CASE("the Forward and Proxy rows offer again the CA file they trusted, while it is there", "[ui][proxy][forward]")
{
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings")); // not the user's
    DataHome dataHome(dir.filePath("data"));
    const QString caFile = dir.filePath("upstream-ca.pem");
    QFile written(caFile);
    REQUIRE(written.open(QIODevice::WriteOnly));
    written.write("not a certificate: the rows only remember where it is");
    written.close();
    const auto forwardTrust = [](ui::MainWindow& window) {
        return window.listenView()->findChild<QPushButton*>("forwardCa")->parentWidget();
    };
    {
        ui::MainWindow window;
        ui::ServiceWiring wiring(window, dir.filePath("captures"));
        CHECK(window.listenView()->proxyPanel()->findChild<ui::TlsTrust*>()->caFile().isEmpty());
        // Chosen and started: the forwarder (its upstream is not asked until a request comes) and the proxy.
        qobject_cast<ui::TlsTrust*>(forwardTrust(window))->setCaFile(caFile);
        window.listenView()->findChild<QLineEdit*>("forwardUpstream")->setText("http://127.0.0.1:9");
        window.listenView()->findChild<QSpinBox*>("forwardPort")->setValue(0);
        window.listenView()->findChild<QPushButton*>("forwardToggle")->click();
        REQUIRE(window.listenView()->findChild<QPushButton*>("forwardToggle")->text() == "Stop forwarding");
        ui::ProxyPanel* panel = window.listenView()->proxyPanel();
        panel->findChild<ui::TlsTrust*>()->setCaFile(caFile);
        panel->findChild<QSpinBox*>("proxyPort")->setValue(0);
        panel->findChild<QPushButton*>("proxyToggle")->click();
        REQUIRE(panel->findChild<QPushButton*>("proxyToggle")->text() == "Stop proxy");
    }
    {
        ui::MainWindow window;
        ui::ServiceWiring wiring(window, dir.filePath("captures"));
        CHECK(qobject_cast<ui::TlsTrust*>(forwardTrust(window))->caFile() == caFile);
        CHECK(window.listenView()->proxyPanel()->findChild<ui::TlsTrust*>()->caFile() == caFile);
    }
    REQUIRE(QFile::remove(caFile));
    ui::MainWindow window; // a file since removed is not offered: the rows trust the system's CAs, as they say
    ui::ServiceWiring wiring(window, dir.filePath("captures"));
    CHECK(qobject_cast<ui::TlsTrust*>(forwardTrust(window))->caFile().isEmpty());
    CHECK(window.listenView()->proxyPanel()->findChild<ui::TlsTrust*>()->caFile().isEmpty());
}
