// The listener's guards against slow, stuck and cross-site clients (ListenerGuards): who may call it (Host,
// Origin, CORS), and how connections that hold a slot without progress give it up. Real sockets on 127.0.0.1.

#include "app/browser_pages.h"
#include "app/listener_fixture.h"
#include "common/option_rules.h"
#include "server/listener_guards.h"

#include <catch2/catch.hpp>

using namespace upin;
using test::ListenerFixture;
using test::rawExchange;

namespace {

const QByteArray kBody = "--b\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n--b--\r\n";

QByteArray upload(const QByteArray& extraHeaders, const QByteArray& host = "127.0.0.1")
{
    return "POST /file-part HTTP/1.1\r\nHost: " + host + "\r\n" + extraHeaders +
           "Content-Type: multipart/form-data; boundary=b\r\nContent-Length: " + QByteArray::number(kBody.size()) +
           "\r\nConnection: close\r\n\r\n" + kBody;
}

int captureCount(const ListenerFixture& f)
{
    return int(QDir(f.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs).size());
}

// The connection is closed by the listener within timeoutMs; returns what it sent before.
QByteArray readUntilClosed(QTcpSocket& socket, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    QByteArray got;
    while (clock.elapsed() < timeoutMs && socket.state() == QAbstractSocket::ConnectedState)
        if (socket.waitForReadyRead(50))
            got += socket.readAll();
    return got + socket.readAll();
}

} // namespace

TEST_CASE("a page of another origin cannot upload or read captures but an allowed one can with CORS",
          "[listener][guards]")
{
    SECTION("refused by default: 403 naming the option, nothing stored")
    {
        ListenerFixture f;
        const QByteArray answer = rawExchange(f.listener.port(), upload("Origin: http://attacker.example\r\n"));
        CHECK(answer.startsWith("HTTP/1.1 403"));
        CHECK(answer.contains("--allow-origin http://attacker.example"));
        CHECK_FALSE(answer.contains("Access-Control-Allow-Origin"));
        CHECK(captureCount(f) == 0);
        CHECK(rawExchange(f.listener.port(), "GET /captures HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: "
                                             "http://attacker.example\r\nConnection: close\r\n\r\n")
                  .startsWith("HTTP/1.1 403"));
        // "null" is what sandboxed frames and file:// pages send: another origin too.
        CHECK(rawExchange(f.listener.port(), upload("Origin: null\r\n")).startsWith("HTTP/1.1 403"));
    }
    SECTION("the listener's own form page (same origin) and clients without Origin are served")
    {
        ListenerFixture f;
        const QByteArray own = "http://127.0.0.1:" + QByteArray::number(f.listener.port());
        CHECK(rawExchange(f.listener.port(),
                          upload("Origin: " + own + "\r\n", "127.0.0.1:" + QByteArray::number(f.listener.port())))
                  .startsWith("HTTP/1.1 200"));
        CHECK(rawExchange(f.listener.port(), upload({})).startsWith("HTTP/1.1 200"));
        CHECK(captureCount(f) == 2);
    }
    SECTION("allowed: the preflight and the upload carry CORS headers for that origin only")
    {
        app::ServerConfig config;
        config.guards.allowedOrigins = {"http://localhost:3000"};
        ListenerFixture f(config);
        const QByteArray preflight = rawExchange(
            f.listener.port(), "OPTIONS /file-part HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://localhost:3000\r\n"
                               "Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: x-trace\r\n"
                               "Access-Control-Request-Private-Network: true\r\nConnection: close\r\n\r\n");
        CHECK(preflight.startsWith("HTTP/1.1 204"));
        CHECK(preflight.contains("Access-Control-Allow-Origin: http://localhost:3000\r\n"));
        CHECK(preflight.contains("Access-Control-Allow-Methods: GET, HEAD, POST\r\n"));
        CHECK(preflight.contains("Access-Control-Allow-Headers: x-trace\r\n"));
        CHECK(preflight.contains("Access-Control-Allow-Private-Network: true\r\n"));
        const QByteArray answer = rawExchange(f.listener.port(), upload("Origin: http://localhost:3000\r\n"));
        CHECK(answer.startsWith("HTTP/1.1 200"));
        CHECK(answer.contains("Access-Control-Allow-Origin: http://localhost:3000\r\nVary: Origin\r\n"));
        CHECK(rawExchange(f.listener.port(), upload("Origin: http://localhost:3001\r\n")).startsWith("HTTP/1.1 403"));
        const QByteArray otherPreflight =
            rawExchange(f.listener.port(), "OPTIONS /file-part HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: "
                                           "http://localhost:3001\r\nAccess-Control-Request-Method: POST\r\n\r\n");
        CHECK(otherPreflight.startsWith("HTTP/1.1 403"));
        CHECK(captureCount(f) == 1);
    }
}

TEST_CASE("requests that name the listener by a host name it does not have get 421 (DNS rebinding)",
          "[listener][guards]")
{
    app::ServerConfig config;
    config.guards.allowedHosts = {"uploads.test"};
    ListenerFixture f(config);
    const auto get = [&](const QByteArray& host) {
        return rawExchange(f.listener.port(),
                           "GET /captures HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
    };
    const QByteArray rebound = get("attacker.example:" + QByteArray::number(f.listener.port()));
    CHECK(rebound.startsWith("HTTP/1.1 421"));
    CHECK(rebound.contains("--allow-host"));
    CHECK_FALSE(rebound.contains("capture")); // no listing
    for (const QByteArray host : {"127.0.0.1", "127.0.0.1:8080", "localhost:8080", "LOCALHOST", "app.localhost",
                                  "[::1]:8080", "uploads.test", "Uploads.Test:80"})
        CHECK(get(host).startsWith("HTTP/1.1 200"));
    CHECK(get("uploads.test.attacker.example").startsWith("HTTP/1.1 421"));
}

TEST_CASE("when every slot is taken, a waiting kept-alive connection gives its slot to a new client",
          "[listener][guards]")
{
    app::ServerConfig config;
    config.maxConnections = 3;
    ListenerFixture f(config);
    std::vector<std::unique_ptr<QTcpSocket>> waiting;
    for (int i = 0; i < 3; ++i) { // each asks once and keeps its connection open (15 s keep-alive by default)
        auto socket = std::make_unique<QTcpSocket>();
        socket->connectToHost(QHostAddress::LocalHost, f.listener.port());
        REQUIRE(socket->waitForConnected(2000));
        socket->write("GET /captures HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        REQUIRE(socket->waitForReadyRead(2000));
        socket->readAll();
        waiting.push_back(std::move(socket));
    }
    std::vector<std::unique_ptr<QTcpSocket>> newcomers; // they stay connected too: each needs a slot of its own
    QByteArray keepAliveUpload = upload({});
    keepAliveUpload.replace("Connection: close\r\n", "");
    for (int i = 0; i < 3; ++i) {
        if (i == 1) { // after the first newcomer: the longest-waiting connection went, and only it
            readUntilClosed(*waiting[0], 1000);
            CHECK(waiting[0]->state() != QAbstractSocket::ConnectedState);
            CHECK(waiting[1]->state() == QAbstractSocket::ConnectedState);
            CHECK(waiting[2]->state() == QAbstractSocket::ConnectedState);
        }
        auto socket = std::make_unique<QTcpSocket>();
        socket->connectToHost(QHostAddress::LocalHost, f.listener.port());
        REQUIRE(socket->waitForConnected(2000));
        socket->write(keepAliveUpload);
        QByteArray answer;
        for (int wait = 0; wait < 40 && !answer.contains("}\n"); ++wait)
            if (socket->waitForReadyRead(50))
                answer += socket->readAll();
        CHECK(answer.startsWith("HTTP/1.1 200")); // a 503 would say the slots were kept
        newcomers.push_back(std::move(socket));
    }
    int closed = 0;
    for (auto& socket : waiting)
        closed += readUntilClosed(*socket, 1000).isEmpty() && socket->state() != QAbstractSocket::ConnectedState;
    CHECK(closed == 3); // closed quietly, oldest first
}

namespace {

// The test page, from a second port, a different origin from the listener's. It uploads a field and a file to the
// listener with fetch() and a custom header (so the browser sends a CORS preflight first), then reports the status
// and the answer's hashes, or the error the browser gave the page. /page?simple: the request a hostile page would
// make, a plain cross-site POST that needs no preflight (its answer is opaque to the page; what matters is that
// nothing is stored).
QString reportFromChromium(test::PageServer& pages, quint16 listenerPort, bool simple = false)
{
    QByteArray page = R"(<!doctype html><script>
const fd = new FormData();
fd.append('note', 'from a page');
fd.append('file', new Blob(['browser bytes']), 'b.txt');
const simple = location.search == '?simple';
fetch('http://127.0.0.1:LISTENER/file-part',
      simple ? {method: 'POST', body: fd, mode: 'no-cors'} : {method: 'POST', body: fd, headers: {'X-Trace': '1'}})
  .then(r => simple ? 'status=opaque'
                    : r.json().then(j => 'status=' + r.status + '&sha=' + j.parts.map(p => p.sha256).join(',')))
  .catch(e => 'error=' + encodeURIComponent(e))
  .then(q => fetch('/report?' + q));
</script>)";
    pages.set("/page", {"text/html", page.replace("LISTENER", QByteArray::number(listenerPort))});
    pages.report.clear();
    test::runChromium(pages.origin() + (simple ? "/page?simple" : "/page"), {},
                      [&] { return !pages.report.isEmpty(); });
    return pages.report;
}

} // namespace

TEST_CASE("a real browser page of another origin cannot upload but with --allow-origin it uploads and reads the answer",
          "[listener][guards][browser]")
{
    SECTION("not allowed: the browser gets no answer to read, nothing is stored")
    {
        ListenerFixture f;
        test::PageServer pages;
        const QString simple = reportFromChromium(pages, f.listener.port(), true); // sent without asking: refused
        CHECK(simple == "status=opaque");
        CHECK(captureCount(f) == 0);
        const QString report = reportFromChromium(pages, f.listener.port()); // the preflight is refused: no POST
        INFO(report.toStdString());
        CHECK(report.startsWith("error="));
        CHECK(captureCount(f) == 0);
    }
    SECTION("allowed: preflight, upload, and the page reads the JSON answer")
    {
        test::PageServer pages;
        app::ServerConfig config;
        config.guards.allowedOrigins = {pages.origin()};
        ListenerFixture f(config);
        const QString report = reportFromChromium(pages, f.listener.port());
        INFO(report.toStdString());
        CHECK(report == "status=200&sha=" + QString::fromStdString(test::sha256("from a page")) + "," +
                            QString::fromStdString(test::sha256("browser bytes")));
        CHECK(captureCount(f) == 1);
    }
}

TEST_CASE("the guards' settings read what users type and refuse what cannot work", "[listener][guards][settings]")
{
    const auto setting = [](const char* option) {
        for (const auto& guard : app::kGuardSettings)
            if (QLatin1String(guard.option) == QLatin1String(option))
                return guard;
        FAIL(option);
        return app::kGuardSettings.front();
    };
    app::ListenerGuards g;
    const auto timeout = setting("keep-alive-timeout");
    CHECK(timeout.set(g, "2.5s").isEmpty());
    CHECK(g.keepAliveTimeoutMs == 2500);
    for (const char* bad : {"nan", "inf", "-1", "0", "abc", "", "100000"}) { // nan once made every deadline 0 ms
        CHECK(timeout.set(g, bad) == app::checkSeconds(bad, nullptr));       // the one rule's words, for CLI and window
        CHECK(g.keepAliveTimeoutMs == 2500);
    }
    const auto hosts = setting("allow-host");
    CHECK(hosts.set(g, "Uploads.Test:8080, other.test").isEmpty());
    CHECK(g.allowedHosts == QStringList{"uploads.test", "other.test"}); // the port is never compared: dropped
    CHECK(hosts.set(g, "http://uploads.test/").contains("host names such as uploads.test"));
    const auto origins = setting("allow-origin");
    CHECK(origins.set(g, "HTTP://LocalHost:3000, null").isEmpty());
    CHECK(g.allowedOrigins == QStringList{"http://localhost:3000", "null"});
    CHECK(origins.set(g, "http://localhost:3000/app").contains("(no path)"));
    CHECK_FALSE(origins.set(g, "localhost:3000").isEmpty());
    CHECK(setting("min-body-rate").set(g, "1P").contains("up to 1T")); // past 1 TiB/s
}
