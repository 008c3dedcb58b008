// What an attacker tried against the forwarder (issue 22), and against the forward proxy in its place, each
// against a real upstream on 127.0.0.1: smuggling through a Connection list, hostile upstream answers, invalid
// upstream framing, and 64 trickling clients.

#include "app/forward_fixture.h"

#include <catch2/catch.hpp>

#include <QTcpServer>
#include <QTemporaryDir>

using namespace upin;
using test::PythonUpstream;
using test::RawUpstream;

namespace {

QByteArray post(const QByteArray& fields, const QByteArray& body)
{
    return "POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\n" + fields +
           "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

} // namespace

TEST_CASE("a Connection list naming the framing is refused with 400 and nothing reaches the upstream (smuggling)",
          "[forward][hostile][smuggling]")
{
    const bool viaProxy = GENERATE(false, true);
    INFO((viaProxy ? "proxy" : "forwarder"));
    QTemporaryDir dir;
    const QString log = dir.filePath(QStringLiteral("upstream.log"));
    PythonUpstream upstream(QStringLiteral("log"), {log});
    auto f = test::relay(viaProxy, upstream.url());
    // The body is a whole request of its own: an upstream that lost the Content-Length would read it as one.
    const QByteArray hidden = "POST /capture HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-For: 6.6.6.6\r\n"
                              "Content-Length: 0\r\n\r\n";
    for (const QByteArray connection : {"Content-Length", "close, Content-Length", "transfer-encoding", "Host"}) {
        INFO(connection.constData());
        const QByteArray answer = f.exchange(post("Connection: " + connection + "\r\n", hidden), 3000);
        CHECK(answer.startsWith("HTTP/1.1 400"));
        CHECK(answer.contains("connection_names_framing"));
    }
    QThread::msleep(300);
    CHECK(test::readAll(log).isEmpty());
}

TEST_CASE("hostile upstream answers give the client a 502 saying why, never an empty reply", "[forward][hostile]")
{
    const bool viaProxy = GENERATE(false, true);
    INFO((viaProxy ? "proxy" : "forwarder"));
    struct Case {
        const char* what;
        QByteArray answer;
        const char* detail; // in the 502's detail
    };
    const Case cases[] = {
        {"garbage status line", "FOO BAR\r\n\r\n", "malformed_status_line"},
        {"two spaces after the version", "HTTP/1.1  200 OK\r\nContent-Length: 2\r\n\r\nok", "malformed_status_line"},
        {"an HTTP/0.9 body", "hello, this is no head at all", "malformed_status_line"},
        {"a bare-LF answer", "HTTP/1.1 200 OK\nContent-Length: 2\n\nok", "bare_line_end"},
        {"a head over the limit", "HTTP/1.1 200 OK\r\nX-Big: " + QByteArray(70000, 'a') + "\r\n\r\n", "head_too_large"},
        {"Content-Length: -1", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "invalid_content_length"},
        {"a 20-digit length", "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n",
         "invalid_content_length"},
        {"two lengths", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok",
         "invalid_content_length"},
        {"+5", "HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\nhello", "invalid_content_length"},
        {"length and chunked", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n",
         "conflicting_framing"},
        {"too many interim answers", QByteArray("HTTP/1.1 100 Continue\r\n\r\n").repeated(100), "interim"},
        {"a close mid-head", "HTTP/1.1 200 OK\r\nContent-Le", "middle of its answer's head"},
        {"a broken first chunk that came with the head", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
         "invalid_chunk_size"},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        RawUpstream upstream(c.answer);
        auto f = test::relay(viaProxy, upstream.url());
        const QByteArray answer = f.exchange(post({}, "hi"), 5000);
        CHECK(answer.contains("HTTP/1.1 502 Bad Gateway\r\n")); // after any interim answers it relayed
        CHECK_FALSE(answer.startsWith("HTTP/1.1 200"));
        CHECK(answer.contains(c.detail));
        const QJsonObject capture = test::readJsonFile(f->onlyCaptureFolder() + "/capture.json");
        CHECK(capture["forward"].toObject()["error"].toObject()["status"].toInt() == 502);
    }
}

TEST_CASE("an answer that is not HTTP is said at once, even while the upstream keeps the connection open",
          "[forward][hostile]")
{
    const bool viaProxy = GENERATE(false, true);
    INFO((viaProxy ? "proxy" : "forwarder"));
    RawUpstream upstream("hello, this is no head at all", true);
    auto f = test::relay(viaProxy, upstream.url());
    QElapsedTimer clock;
    clock.start();
    const QByteArray answer = f.exchange(post({}, "hi"), 5000);
    CHECK(answer.startsWith("HTTP/1.1 502"));
    CHECK(answer.contains("malformed_status_line"));
    CHECK(clock.elapsed() < 2000); // not the 60 s answer deadline
}

TEST_CASE("an upstream head that never ends gives a 502 at the answer deadline", "[forward][hostile]")
{
    const bool viaProxy = GENERATE(false, true);
    INFO((viaProxy ? "proxy" : "forwarder"));
    RawUpstream upstream("HTTP/1.1 200 OK\r\nX: y\r\n", true);
    app::ForwardSettings settings;
    settings.upstreamAnswerTimeoutMs = 800;
    auto f = test::relay(viaProxy, upstream.url(), settings);
    QElapsedTimer clock;
    clock.start();
    const QByteArray answer = f.exchange(post({}, "hi"), 5000);
    CHECK(answer.startsWith("HTTP/1.1 502"));
    CHECK(answer.contains("its head did not end within 800 ms"));
    CHECK(clock.elapsed() < 3000);
}

TEST_CASE("a broken chunk in an answer already on its way closes the connection, and the capture says 502 and where",
          "[forward][hostile]")
{
    const bool viaProxy = GENERATE(false, true);
    INFO((viaProxy ? "proxy" : "forwarder"));
    RawUpstream upstream(QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n") +
                             QByteArray("\0SPLIT\0zz\r\n", 10),
                         true);
    auto f = test::relay(viaProxy, upstream.url());
    QElapsedTimer clock;
    clock.start();
    const QByteArray answer = f.exchange(post({}, "hi"), 5000);
    CHECK(answer.startsWith("HTTP/1.1 200 OK\r\n")); // the head went, and the bytes before the error
    CHECK(answer.endsWith("5\r\nhello\r\n"));        // but nothing of the broken chunk line
    CHECK(clock.elapsed() < 3000);                   // closed at once, not at a deadline
    const QJsonObject capture = test::readJsonFile(f->onlyCaptureFolder() + "/capture.json");
    const QJsonObject error = capture["forward"].toObject()["error"].toObject();
    CHECK(error["status"].toInt() == 502);
    CHECK(error["detail"].toString().contains("invalid_chunk_size"));
}

TEST_CASE("an upstream that stops taking the body gets a 504 at the answer deadline, and the client no 408",
          "[forward][hostile]")
{
    const bool viaProxy = GENERATE(false, true);
    INFO((viaProxy ? "proxy" : "forwarder"));
    PythonUpstream upstream(QStringLiteral("silent-reader"));
    app::ForwardSettings settings;
    settings.upstreamAnswerTimeoutMs = 3000;
    app::ServerConfig config;
    config.guards.minBodyBytesPerSecond = 1024;
    config.guards.bodyGraceMs = 500;
    config.guards.bodyRateWindowMs = 500;
    const auto f = test::relay(viaProxy, upstream.url(), settings, config);
    const QByteArray body(64 << 20, 'x');
    const auto [sentAll, answer] = test::sendAllThenRead(f.port(), f.as(post({}, body)));
    INFO(answer.left(300).constData());
    CHECK(answer.startsWith("HTTP/1.1 504"));
    CHECK(answer.contains("upstream stopped taking the body"));
}

TEST_CASE("64 clients trickling bodies are cut off by the minimum rate and a normal upload is then served",
          "[forward][hostile][slots]")
{
    const bool viaProxy = GENERATE(false, true);
    INFO((viaProxy ? "proxy" : "forwarder"));
    test::ListenerFixture upstream;
    app::ServerConfig config;
    config.guards.minBodyBytesPerSecond = 1024;
    // The 65th client must come while the 64 still hold their slots: the grace is what keeps them, so it is far
    // longer than connecting 65 clients takes on a loaded machine (tens of milliseconds).
    config.guards.bodyGraceMs = 4000;
    config.guards.bodyRateWindowMs = 1000;
    const auto f = test::relay(viaProxy, upstream.url(QString()), {}, config);
    std::vector<std::unique_ptr<QTcpSocket>> tricklers;
    for (int i = 0; i < 64; ++i) {
        auto socket = std::make_unique<QTcpSocket>();
        socket->connectToHost(QHostAddress::LocalHost, f.port());
        REQUIRE(socket->waitForConnected(2000));
        socket->write(f.as("POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; "
                           "boundary=b\r\nContent-Length: 1000000\r\n\r\n--b"));
        tricklers.push_back(std::move(socket));
    }
    for (auto& s : tricklers)
        s->waitForBytesWritten(100);
    // The accept thread gives slots in the order clients came (AcceptedSocket), so the 65th finds every slot taken.
    const QByteArray busy = f.exchange(post({}, "hi"), 3000);
    INFO(busy.left(200).constData());
    CHECK(busy.startsWith("HTTP/1.1 503"));
    CHECK(busy.contains("Retry-After: 2"));
    // The tricklers keep sending, far under the minimum rate, until one is cut and a normal upload gets its slot.
    // The deadline only ends a failing run.
    QElapsedTimer clock;
    clock.start();
    QByteArray served;
    while (clock.elapsed() < 30'000 && !served.startsWith("HTTP/1.1 200")) {
        for (auto& s : tricklers)
            if (s->state() == QAbstractSocket::ConnectedState)
                s->write("x");
        QThread::msleep(200);
        served = f.exchange(post("Connection: close\r\nContent-Type: multipart/form-data; boundary=b\r\n", "--b--\r\n"),
                            2000);
    }
    INFO(served.left(200).constData());
    CHECK(served.startsWith("HTTP/1.1 200"));
    // What freed the slots was the minimum rate, not some other deadline: every trickler was told so.
    int cutByRate = 0;
    for (auto& s : tricklers) {
        QByteArray answer = s->readAll();
        while (!answer.contains("under the minimum of 1024") && s->waitForReadyRead(10'000))
            answer += s->readAll();
        cutByRate += answer.startsWith("HTTP/1.1 408") && answer.contains("under the minimum of 1024");
    }
    CHECK(cutByRate == 64);
}

TEST_CASE("a client body whose framing breaks mid-way: the client and the capture name the same code and byte",
          "[forward][hostile]")
{
    const bool viaProxy = GENERATE(false, true);
    INFO((viaProxy ? "proxy" : "forwarder"));
    test::ListenerFixture upstream;
    auto f = test::relay(viaProxy, upstream.url(QString()));
    const QByteArray answer =
        f.exchange("POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
                   "Content-Type: multipart/form-data; boundary=b\r\n\r\n5\nhello\r\n0\r\n\r\n");
    CHECK(answer.startsWith("HTTP/1.1 400"));
    CHECK(answer.contains("bare_line_end at byte 1 of the body"));
    const QJsonObject capture = test::readJsonFile(f->onlyCaptureFolder() + "/capture.json");
    CHECK(capture["error"].toObject()["code"].toString() == "bare_line_end");
    CHECK(capture["error"].toObject()["offset"].toInteger() == 1);
}

TEST_CASE("a kept upstream connection that closes as a request arrives: a GET goes again, a POST without a body "
          "is not sent twice",
          "[forward][faults]")
{
    const bool viaProxy = GENERATE(false, true);
    INFO((viaProxy ? "proxy" : "forwarder"));
    QTemporaryDir dir;
    const QString log = dir.filePath("requests.log");
    test::PythonUpstream once("once", {log});
    auto f = test::relay(viaProxy, once.url());
    const auto secondAnswer = [&](const QByteArray& second) {
        test::RawClient client(f.port());
        client.send(f.as("GET /first HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
        REQUIRE(client.receive(1000).startsWith("HTTP/1.1 200")); // kept alive: read until the time is up
        client.send(f.as(second));
        return client.receive(3000);
    };
    CHECK(
        secondAnswer("GET /again HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").startsWith("HTTP/1.1 200"));
    const QByteArray post = secondAnswer("POST /order HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n");
    CHECK(post.startsWith("HTTP/1.1 502"));
    CHECK(post.contains("upstream closed the connection"));
    QFile file(log);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QByteArray lines = file.readAll();
    CHECK(lines.count("GET /again") == 2); // the stale connection's, then the new one's
    CHECK(lines.count("POST /order") == 1);
}

TEST_CASE("a chunk size line with white space before its end is refused, never passed on", "[forward][hostile]")
{
    const bool viaProxy = GENERATE(false, true);
    INFO((viaProxy ? "proxy" : "forwarder"));
    QTemporaryDir dir;
    const QString log = dir.filePath("upstream.log");
    test::PythonUpstream logging("log", {log});
    auto f = test::relay(viaProxy, logging.url());
    const QByteArray answer =
        f.exchange("POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
                   "Content-Type: multipart/form-data; boundary=b\r\n\r\n5 \r\nhello\r\n0\r\n\r\n");
    CHECK(answer.startsWith("HTTP/1.1 400"));
    CHECK(answer.contains("invalid_chunk_line at byte 2 of the body"));
    QThread::msleep(300);
    QFile file(log);
    const QByteArray seen = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    CHECK_FALSE(seen.contains("5 \r\n")); // the upstream had the head at most, never the line
}

TEST_CASE("an https upstream that takes the connection and never answers TLS is said so, not \"no connection\"",
          "[forward][hostile][tls]")
{
    QTcpServer silent; // the kernel takes connections into its backlog; nothing ever answers
    REQUIRE(silent.listen(QHostAddress::LocalHost));
    app::ForwardSettings settings;
    settings.connectTimeoutMs = 500;
    auto f = test::forwarder(QStringLiteral("https://127.0.0.1:%1").arg(silent.serverPort()), settings);
    const test::CurlResult r = test::curl({"-F", "a=b", f->url("/upload")});
    CHECK(r.status == 502);
    CHECK(r.json["detail"].toString() ==
          QStringLiteral("127.0.0.1:%1 took the connection but finished no TLS handshake within 500 ms")
              .arg(silent.serverPort()));
}
