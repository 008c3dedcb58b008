// The listener's HTTP/2 with the clients people upload with, none hand-written: headless Chromium submitting a
// form over https (it agrees h2 by ALPN itself), Go's net/http client, Node's http2 module and Python's httpx over
// TLS, and nghttp with 100 streams of 16 MiB on one h2c connection. Every part's digest must be the file's.

#include "app/browser_pages.h"
#include "app/listener_fixture.h"

#include <catch2/catch.hpp>

#include <QProcess>
#include <QRegularExpression>

using namespace upin;
using test::ListenerFixture;

namespace {

struct Run {
    QString firstLine; // the client's own words for the protocol and the status
    QJsonObject answer;
};

// A client that prints a line, then the listener's JSON answer.
Run runClient(const QString& program, const QStringList& arguments, const QString& workingDirectory = {})
{
    QProcess client;
    if (!workingDirectory.isEmpty())
        client.setWorkingDirectory(workingDirectory);
    client.start(program, arguments);
    REQUIRE(client.waitForFinished(120'000));
    INFO(client.readAllStandardError().constData());
    REQUIRE(client.exitCode() == 0);
    const QByteArray out = client.readAllStandardOutput();
    const qsizetype newline = out.indexOf('\n');
    return {QString::fromUtf8(out.left(newline)).trimmed(), QJsonDocument::fromJson(out.mid(newline + 1)).object()};
}

// The capture of the upload the answer names: it came over TLS and HTTP/2, with the file's bytes.
void checkExact(const ListenerFixture& f, const Run& run, const QByteArray& content)
{
    INFO(run.firstLine.toStdString());
    CHECK(test::partNamed(run.answer, "upload")["sha256"].toString().toStdString() == test::sha256(content));
    const QStringList folders =
        QDir(f.listener.captureRoot()).entryList({"capture-*-" + run.answer["capture_id"].toString() + "-file-part"});
    REQUIRE(folders.size() == 1);
    QFile file(QDir(f.listener.captureRoot()).filePath(folders.first() + "/capture.json"));
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QJsonObject request = QJsonDocument::fromJson(file.readAll()).object()["request"].toObject();
    CHECK(request["transport"].toObject()["http"].toString() == "h2");
    CHECK(request["transport"].toObject()["alpn"].toString() == "h2");
    CHECK(request["version"].toString() == "HTTP/2");
}

} // namespace

TEST_CASE("h2 over TLS: Go's net/http, Node's http2 and Python's httpx upload exactly, each agreeing h2 by ALPN",
          "[listener][http2][tls][peers]")
{
    QTemporaryDir home;
    ListenerFixture f(test::tlsConfig(home.filePath("tls")));
    const QString ca = f.listener.tlsIdentity()->certificatePath;
    const QByteArray content = test::randomBytes(3 << 20, 31);
    const QString path = f.file("upload.bin", content);
    const QString url = QStringLiteral("https://localhost:%1/file-part").arg(f.listener.tlsPort());
    QTemporaryDir goHome; // go run builds in its cache, kept between runs in the user's
    const Run go = runClient("go", {"run", QStringLiteral(UPIN_TESTS_DIR) + "/peers/go-h2/upload.go", url, ca, path},
                             goHome.path());
    CHECK(go.firstLine == "HTTP/2.0 200");
    checkExact(f, go, content);
    const Run node = runClient("node", {QStringLiteral(UPIN_TESTS_DIR) + "/peers/node/h2_upload.js", url, ca, path});
    CHECK(node.firstLine == "200");
    checkExact(f, node, content);
    const Run httpx =
        runClient("/usr/bin/python3", {QStringLiteral(UPIN_TESTS_DIR) + "/app/h2_httpx.py", url, ca, path});
    CHECK(httpx.firstLine == "HTTP/2 200");
    checkExact(f, httpx, content);
}

TEST_CASE("h2 over TLS: headless Chromium submits a form with a file over HTTP/2, and the capture is exact",
          "[listener][http2][tls][browser]")
{
    QTemporaryDir home;
    test::PageServer pages;
    app::ServerConfig config = test::tlsConfig(home.filePath("tls"));
    config.guards.allowedOrigins = {pages.origin()}; // the form is posted from the page's origin
    ListenerFixture f(config);
    const QByteArray data = test::randomBytes(900'000, 79);
    test::setFormPage(pages, QStringLiteral("https://localhost:%1/file-part").arg(f.listener.tlsPort()), data);
    // The listener's certificate is its own, self-signed: the browser is told not to check it.
    const QDir root(f.listener.captureRoot());
    auto recorded = [&root] { // capture.json is written once the capture has ended
        const QStringList folders = root.entryList({"capture-*"}, QDir::Dirs);
        return folders.size() == 1 && QFile::exists(root.filePath(folders.first() + "/capture.json"));
    };
    test::runChromium(pages.origin() + "/form", {"--ignore-certificate-errors"}, recorded);
    const QStringList folders = test::settledCaptureFolders(f.listener.captureRoot(), 1);
    REQUIRE(folders.size() == 1);
    QFile file(QDir(f.listener.captureRoot()).filePath(folders.first() + "/capture.json"));
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QJsonObject capture = QJsonDocument::fromJson(file.readAll()).object();
    CHECK(capture["request"].toObject()["transport"].toObject()["http"].toString() == "h2");
    CHECK(test::partNamed(capture, "upload")["sha256"].toString().toStdString() == test::sha256(data));
    CHECK(test::partNamed(capture, "note")["value"].toString() == "from chromium");
    CHECK(capture["http2"].toObject()["counts"].toObject()["DATA received"].toInteger() > 0);
}

TEST_CASE("h2c: 100 streams of 16 MiB at once on one connection (nghttp) are 100 exact captures",
          "[listener][http2][load]")
{
    ListenerFixture f;
    const QByteArray content = test::randomBytes(16 << 20, 13);
    const QString body = f.file("body.txt", "--h2many\r\nContent-Disposition: form-data; name=\"f\"; "
                                            "filename=\"f.bin\"\r\n\r\n" +
                                                content + "\r\n--h2many--\r\n");
    QProcess nghttp; // each stream's answer, the JSON of its capture, printed one after another
    nghttp.start("nghttp", {"-m", "100", "-H", "content-type: multipart/form-data; boundary=h2many", "-d", body,
                            f.url("/part-event")});
    REQUIRE(nghttp.waitForFinished(300'000));
    INFO(nghttp.readAllStandardError().constData());
    REQUIRE(nghttp.exitCode() == 0);
    const QString answers = QString::fromUtf8(nghttp.readAllStandardOutput());
    const QString digest = QString::fromStdString(test::sha256(content));
    CHECK(answers.count(QStringLiteral("\"state\":\"complete\"")) == 100);
    CHECK(answers.count(QStringLiteral("\"sha256\":\"") + digest + '"') == 100);
}
