// send --http2: the raw engine on libnghttp2 to our listener over h2c and h2, exact, with the frames recorded on
// both sides; against a listener that grants a server's 65,535-byte window both sides count the waits, and with
// the default windows the sender counts none. QNAM's HTTP/2 (prior knowledge over http) speaks it too.

#include "app/listener_fixture.h"
#include "support/run_cli.h"

#include <catch2/catch.hpp>

using namespace upin;
using test::ListenerFixture;

namespace {

app::UploadPlan planFor(const QUrl& target, const QString& file)
{
    app::UploadPlan plan;
    plan.targets = {target};
    app::PlanPart part;
    part.kind = app::PlanPart::Kind::File;
    part.name = "doc";
    part.path = file;
    plan.parts = {part};
    plan.http2 = true;
    return plan;
}

} // namespace

TEST_CASE("send --http2 to a 65,535-byte window: the sender and the listener both count the waits",
          "[sender][http2][flow]")
{
    app::ServerConfig config;
    config.guards.http2.streamWindow = 65'535;
    config.guards.http2.connectionWindow = 65'535;
    ListenerFixture f(config);
    const QByteArray data = test::randomBytes(8 << 20, 91);
    test::SenderThread s;
    const auto results = s.run(planFor(QUrl(f.url("/file-part")), f.file("doc.bin", data)));
    REQUIRE(results.size() == 1);
    const app::RunResult& r = results[0];
    INFO(r.error.toStdString());
    CHECK(r.httpStatus == 200);
    CHECK(r.integrityOk());
    CHECK(r.protocol == "HTTP/2");
    CHECK(r.statusLine == "HTTP/2 200");
    REQUIRE(r.http2);
    // The sender's figures are exact: it spent each window before the next WINDOW_UPDATE reached it.
    CHECK(r.http2->http == "h2c");
    CHECK(r.http2->initialWindow == 65'535);
    CHECK(r.http2->stalls > 0);
    CHECK(r.http2->stalledMs > 0);
    CHECK(r.http2->counts.value("DATA sent") == r.http2->dataFrames);
    CHECK(r.http2->dataBytes == quint64(r.bodyBytes));
    CHECK(r.http2->counts.value("WINDOW_UPDATE received") >= quint64{2} * ((8 << 20) / 65'535));
    // The listener's, a lower bound (it counts a window given back when it sends the update), agrees there were
    // waits.
    QFile file(QDir(f.onlyCaptureFolder()).filePath("capture.json"));
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QJsonObject flow = QJsonDocument::fromJson(file.readAll()).object()["http2"].toObject()["flow"].toObject();
    CHECK(flow["stalls"].toInteger() > 0);
    CHECK(flow["stalls"].toInteger() <= qint64(r.http2->stalls));
}

TEST_CASE("send --http2 with the default windows never waits, over h2c and h2 by ALPN, and QNAM's by prior knowledge",
          "[sender][http2][tls]")
{
    QTemporaryDir home;
    ListenerFixture f(test::tlsConfig(home.filePath("tls")));
    const QByteArray data = test::randomBytes(4 << 20, 92);
    const QString path = f.file("doc.bin", data);
    app::UploadPlan plan = planFor(QUrl(f.url("/file-part")), path);
    plan.targets.append(QUrl(QStringLiteral("https://localhost:%1/file-part").arg(f.listener.tlsPort())));
    plan.caCertificates = f.listener.tlsIdentity()->certificatePath;
    test::SenderThread s;
    const auto results = s.run(plan);
    REQUIRE(results.size() == 2);
    for (const auto& r : results) {
        INFO(r.target.toString().toStdString() << " " << r.error.toStdString());
        CHECK(r.integrityOk());
        CHECK(r.protocol == "HTTP/2");
        REQUIRE(r.http2);
        CHECK(r.http2->stalls == 0);
        CHECK(r.http2->stallsInWords() == "never blocked by flow control");
    }
    CHECK(results[0].http2->http == "h2c");
    CHECK(results[1].http2->http == "h2");
    CHECK(results[1].tls.startsWith("TLSv1."));
    plan.engine = app::UploadPlan::Engine::Qnam; // Qt's HTTP/2: the protocol shown, no frames
    plan.targets = {QUrl(f.url("/file-part"))};
    test::SenderThread q;
    const auto qnam = q.run(plan);
    REQUIRE(qnam.size() == 1);
    INFO(qnam[0].error.toStdString());
    CHECK(qnam[0].integrityOk());
    CHECK(qnam[0].protocol == "HTTP/2");
    CHECK_FALSE(qnam[0].http2);
}

TEST_CASE("send --http2: the CLI line says the waits, Copy as curl says --http2, and --chunked is refused",
          "[cli][sender][http2]")
{
    ListenerFixture f;
    const QString path = f.file("doc.bin", test::randomBytes(1 << 20, 93));
    const auto sent = test::runCli({"send", "--http2", "-F", "doc=@" + path, f.url("/file-part")});
    INFO(sent.err.toStdString());
    REQUIRE(sent.exitCode == 0);
    CHECK(sent.out.contains("status 200 (HTTP/2)"));
    CHECK(sent.out.contains("(never blocked by flow control)"));
    const auto curl = test::runCli({"send", "--http2", "--print-curl", "-F", "doc=@" + path, f.url("/file-part")});
    CHECK(curl.out.contains(" --http2-prior-knowledge "));
    const auto refused = test::runCli({"send", "--http2", "--chunked", "-F", "doc=@" + path, f.url("/file-part")});
    CHECK(refused.exitCode != 0);
    CHECK(refused.err.contains("HTTP/2 has no chunked framing"));
}
