// The hostile-client suite, run against every mode: the listener, and the forwarder and the forward proxy in front
// of a listener. Each guard is written once (app/server/) and must hold for all: strict heads, every deadline and
// the slowest body, slots with a 503 a client can read, and the lingering close with its caps; and who may call a
// server (not a proxy's to check: its clients name other servers).

#include "app/forward_fixture.h"

#include <catch2/catch.hpp>

#include <sys/socket.h>

using namespace upin;
using test::ListenerFixture;

namespace {

enum class Mode { Listener, Forwarder, Proxy };

// The server under test on port(), configured by `config`: the listener itself, or a forwarder or a forward proxy
// with that config in front of a default listener.
struct ModeServer {
    std::unique_ptr<ListenerFixture> upstream;
    std::unique_ptr<ListenerFixture> front;
    bool proxy = false;
    // upstreamConfig: the upstream listener's.
    ModeServer(Mode mode, app::ServerConfig config = {}, const app::ServerConfig& upstreamConfig = {})
        : proxy(mode == Mode::Proxy)
    {
        if (mode == Mode::Listener) {
            front = std::make_unique<ListenerFixture>(config);
            return;
        }
        upstream = std::make_unique<ListenerFixture>(upstreamConfig);
        if (proxy) {
            front = test::proxy({}, {}, config);
            return;
        }
        app::ForwardSettings forward;
        forward.upstream = QUrl(upstream->url(QString()));
        config.forward = forward;
        front = std::make_unique<ListenerFixture>(config);
    }
    quint16 port() const { return front->listener.port(); }
    // The request as this server's client sends it: a proxy's names its server in an absolute-form target.
    QByteArray as(const QByteArray& request) const
    {
        return proxy ? test::absoluteForm(request, upstream->url(QString())) : request;
    }
};

const char* name(Mode mode)
{
    return mode == Mode::Listener ? "listener" : mode == Mode::Forwarder ? "forwarder" : "proxy";
}

QByteArray upload(const QByteArray& extraFields, const QByteArray& path = "/part-event")
{
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nhello\r\n--b--\r\n";
    return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extraFields +
           "Content-Type: multipart/form-data; boundary=b\r\nContent-Length: " + QByteArray::number(body.size()) +
           "\r\n\r\n" + body;
}

std::unique_ptr<QTcpSocket> connectAndSend(quint16 port, const QByteArray& bytes)
{
    auto socket = std::make_unique<QTcpSocket>();
    socket->connectToHost(QHostAddress::LocalHost, port);
    REQUIRE(socket->waitForConnected(2000));
    socket->write(bytes);
    socket->waitForBytesWritten(1000);
    return socket;
}

// What the server sends until it closes the socket (or timeoutMs).
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

// Waits until the server closes the socket (or timeoutMs); true if it did.
bool closedWithin(QTcpSocket& socket, int timeoutMs)
{
    readUntilClosed(socket, timeoutMs);
    return socket.state() != QAbstractSocket::ConnectedState;
}

// A request as the server's client sends it (ModeServer::as), and its answer; or the socket it went on.
QByteArray exchange(const ModeServer& server, const QByteArray& request)
{
    return test::rawExchange(server.port(), server.as(request));
}

std::unique_ptr<QTcpSocket> sendTo(const ModeServer& server, const QByteArray& request)
{
    return connectAndSend(server.port(), server.as(request));
}

} // namespace

TEST_CASE("every mode: a normal upload is served", "[modes]")
{
    const Mode mode = GENERATE(Mode::Listener, Mode::Forwarder, Mode::Proxy);
    INFO(name(mode));
    ModeServer server(mode);
    const QByteArray answer = exchange(server, upload("Connection: close\r\n"));
    CHECK(answer.startsWith("HTTP/1.1 200"));
    CHECK(answer.contains("\"complete\""));
}

TEST_CASE("every mode: strict heads (two Hosts, a GET with a body, control characters, odd targets) are refused "
          "with 400",
          "[modes][strict]")
{
    const Mode mode = GENERATE(Mode::Listener, Mode::Forwarder, Mode::Proxy);
    INFO(name(mode));
    ModeServer server(mode);
    const QByteArray bad[] = {
        "POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nContent-Length: 0\r\n\r\n",
        "GET /captures HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello",
        "GET /captures HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        QByteArray("POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a") + '\0' + "b\r\nContent-Length: 0\r\n\r\n",
        "POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
        "POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
        // Targets a relay and its upstream could read differently: neither a path nor an absolute URL, or a ".."
        // that climbs out of the forwarder's path prefix once the upstream normalises it.
        "GET captures HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "GET http:/captures HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "GET /a/../../captures HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "GET /a/%2e%2e/%2E%2E/captures HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    };
    for (const QByteArray& request : bad) {
        INFO(request.left(80).constData());
        CHECK(exchange(server, request).startsWith("HTTP/1.1 400"));
    }
    if (server.upstream) // nothing of them went on
        CHECK(QDir(server.upstream->listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs).isEmpty());
}

TEST_CASE("every mode: pages of another origin get 403, other host names and absolute-form targets naming "
          "another host 421",
          "[modes][guards]")
{
    const Mode mode = GENERATE(Mode::Listener, Mode::Forwarder);
    INFO(name(mode));
    ModeServer server(mode);
    CHECK(test::rawExchange(server.port(), upload("Origin: http://evil.example\r\n")).startsWith("HTTP/1.1 403"));
    CHECK(test::rawExchange(server.port(), "GET /captures HTTP/1.1\r\nHost: rebound.example\r\n\r\n")
              .startsWith("HTTP/1.1 421"));
    CHECK(test::rawExchange(server.port(), "GET http://rebound.example/captures HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
              .startsWith("HTTP/1.1 421"));
    if (server.upstream)
        CHECK(QDir(server.upstream->listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs).isEmpty());
}

TEST_CASE("every mode: a head that trickles gets 408 at the head deadline, a body slower than the minimum rate 408",
          "[modes][deadlines]")
{
    const Mode mode = GENERATE(Mode::Listener, Mode::Forwarder, Mode::Proxy);
    INFO(name(mode));
    app::ServerConfig config;
    config.guards.headTimeoutMs = 800;
    config.guards.minBodyBytesPerSecond = 1024;
    config.guards.bodyGraceMs = 500;
    config.guards.bodyRateWindowMs = 500;
    ModeServer server(mode, config);
    auto head = sendTo(server, "POST /part-event HTTP/1.1\r\nHost: 127");
    QByteArray got;
    for (int i = 0; i < 60 && !got.contains("408"); ++i) {
        head->waitForReadyRead(50);
        got += head->readAll();
    }
    CHECK(got.startsWith("HTTP/1.1 408"));
    auto slow = sendTo(server, "POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                               "multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n--b");
    QElapsedTimer clock;
    clock.start();
    QByteArray answer;
    while (clock.elapsed() < 4000 && !answer.contains("408")) {
        if (slow->state() == QAbstractSocket::ConnectedState) {
            slow->write("x"); // 20 bytes a second
            slow->waitForBytesWritten(100);
        }
        // What came may already be buffered (read while writing, the server then closing): taken either way.
        slow->waitForReadyRead(50);
        answer += slow->readAll();
    }
    CHECK(answer.startsWith("HTTP/1.1 408"));
    CHECK(clock.elapsed() < 3000);
}

TEST_CASE("every mode: when every slot holds an upload a new client reads a whole 503 with Retry-After, and once "
          "the holders go a normal upload is served",
          "[modes][slots]")
{
    const Mode mode = GENERATE(Mode::Listener, Mode::Forwarder, Mode::Proxy);
    INFO(name(mode));
    app::ServerConfig config;
    config.maxConnections = 2;
    ModeServer server(mode, config);
    const QByteArray partial = "POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; "
                               "boundary=b\r\nContent-Length: 100000\r\n\r\n--b\r\n";
    std::vector<std::unique_ptr<QTcpSocket>> holders;
    holders.push_back(sendTo(server, partial));
    holders.push_back(sendTo(server, partial));
    QThread::msleep(300);
    const QByteArray big(4 << 20, 'x');
    const auto [sentAll, answer] = test::sendAllThenRead(
        server.port(), server.as("POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; "
                                 "boundary=b\r\nContent-Length: " +
                                 QByteArray::number(big.size()) + "\r\n\r\n" + big));
    CHECK(sentAll); // lingered: the refused client sent its body without a reset
    CHECK(answer.startsWith("HTTP/1.1 503"));
    CHECK(answer.contains("Retry-After: 2\r\n"));
    CHECK(answer.endsWith("\n")); // whole
    // Two more are refused and stay connected (lingering, up to 5 s of quiet); then the holders go.
    auto refused1 = sendTo(server, partial);
    auto refused2 = sendTo(server, partial);
    QByteArray refusal = refused1->readAll(); // it may have come in while the request was written
    for (int i = 0; i < 40 && !refusal.contains("too many connections"); ++i)
        if (refused1->waitForReadyRead(50))
            refusal += refused1->readAll();
    CHECK(refusal.startsWith("HTTP/1.1 503"));
    holders.clear();
    QThread::msleep(300);
    // The lingering refused clients hold no slot: a new upload is served at once.
    CHECK(exchange(server, upload("Connection: close\r\n")).startsWith("HTTP/1.1 200"));
    CHECK(refused2->state() == QAbstractSocket::ConnectedState); // still lingering meanwhile
}

TEST_CASE("every mode: a kept-alive connection waits keep-alive-timeout for its next request, then closes quietly",
          "[modes][slots]")
{
    const Mode mode = GENERATE(Mode::Listener, Mode::Forwarder, Mode::Proxy);
    INFO(name(mode));
    app::ServerConfig config;
    config.guards.keepAliveTimeoutMs = 300;
    config.guards.headTimeoutMs = 5'000;
    ModeServer server(mode, config);
    QElapsedTimer clock;
    clock.start();
    auto socket = sendTo(server, "GET /captures HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    QByteArray got;
    for (int i = 0; i < 60 && socket->state() == QAbstractSocket::ConnectedState; ++i)
        if (socket->waitForReadyRead(50))
            got += socket->readAll();
    got += socket->readAll();
    CHECK(got.startsWith("HTTP/1.1 200"));
    CHECK(got.count("HTTP/1.1") == 1); // closed without a 408: nothing was asked
    CHECK(socket->state() != QAbstractSocket::ConnectedState);
    CHECK(clock.elapsed() < 2000); // the keep-alive wait, not the 5 s head deadline
}

TEST_CASE("every mode: a kept-alive connection waiting for its next request gives its slot to a new client",
          "[modes][slots]")
{
    const Mode mode = GENERATE(Mode::Listener, Mode::Forwarder, Mode::Proxy);
    INFO(name(mode));
    app::ServerConfig config;
    config.maxConnections = 1;
    ModeServer server(mode, config);
    auto kept = sendTo(server, upload({}));
    QByteArray first;
    for (int i = 0; i < 60 && !first.contains("\"complete\""); ++i)
        if (kept->waitForReadyRead(50))
            first += kept->readAll();
    REQUIRE(first.startsWith("HTTP/1.1 200"));
    QThread::msleep(200); // its exchange has ended: it waits for a next request
    const QByteArray second = exchange(server, upload("Connection: close\r\n"));
    INFO(second.left(300).constData());
    CHECK(second.startsWith("HTTP/1.1 200"));
    CHECK(closedWithin(*kept, 2000)); // the waiting connection was closed for it
}

TEST_CASE("every mode: after an early answer the rest of the body is dropped within the linger caps: 256 MiB, "
          "and a 5 s pause",
          "[modes][linger]")
{
    const Mode mode = GENERATE(Mode::Listener, Mode::Forwarder, Mode::Proxy);
    INFO(name(mode));
    ModeServer server(mode);
    // Plain sockets: a half close (our answer, then our sending side shut) and a full close look alike to Qt's,
    // but a send after a full close fails (the peer resets it), which is what says the linger ended.
    const QByteArray head =
        server.as("POST /no-such-path HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4000000000\r\n\r\n");
    test::RawClient flood(server.port());
    flood.send(head);
    const QByteArray block(1 << 20, 'x');
    qint64 sent = 0;
    QElapsedTimer clock;
    clock.start();
    while (sent < (qint64{600} << 20) && clock.elapsed() < 30000 && flood.send(block))
        sent += block.size();
    INFO("sent " << sent);
    CHECK(sent > (qint64{200} << 20)); // it lingered: the answer was not followed by a reset at once
    CHECK(sent < (qint64{400} << 20)); // and not for ever
    test::RawClient pausing(server.port());
    pausing.send(head + "some of the body");
    CHECK(pausing.receive(2000).startsWith("HTTP/1.1 404"));
    QThread::msleep(1000);
    CHECK(pausing.send("more")); // still lingering: the quiet time starts again
    QThread::msleep(200);
    CHECK(pausing.send("more"));
    QThread::msleep(6500); // longer than the 5 s pause
    pausing.send("late");
    QThread::msleep(100);
    CHECK_FALSE(pausing.send("late")); // closed: reset
}

TEST_CASE("every mode: a body that pauses longer than the idle deadline gets 408 saying so", "[modes][deadlines]")
{
    const Mode mode = GENERATE(Mode::Listener, Mode::Forwarder, Mode::Proxy);
    INFO(name(mode));
    app::ServerConfig config;
    config.guards.idleTimeoutMs = 400;
    ModeServer server(mode, config);
    auto paused = sendTo(server, "POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                 "multipart/form-data; boundary=b\r\nContent-Length: 1000\r\n\r\n--b");
    QElapsedTimer clock;
    clock.start();
    const QByteArray got = readUntilClosed(*paused, 3000);
    CHECK(got.startsWith("HTTP/1.1 408"));
    CHECK(got.contains("no byte from the client for 400 ms"));
    CHECK(clock.elapsed() < 2000);
    CHECK(paused->state() != QAbstractSocket::ConnectedState);
}

TEST_CASE("every mode: a client that sends requests but never reads the answers is dropped at the answer deadline",
          "[modes][slots]")
{
    const Mode mode = GENERATE(Mode::Listener, Mode::Forwarder, Mode::Proxy);
    INFO(name(mode));
    app::ServerConfig config;
    config.guards.answerTimeoutMs = 500;
    // Answers large enough to fill the sending side in a few dozen requests: the listener's form page, and through
    // the forwarder an upstream's 256 KiB (each exchange also stores a record: with small answers it took minutes
    // under a sanitizer to fill 4 MiB).
    std::unique_ptr<test::PythonUpstream> bigAnswers;
    QByteArray server; // a proxy's client names it in each request
    if (mode != Mode::Listener) {
        bigAnswers = std::make_unique<test::PythonUpstream>("big", QStringList{"262144"});
        if (mode == Mode::Proxy)
            server = bigAnswers->url().toLatin1();
    }
    const auto front = mode == Mode::Listener ? std::make_unique<ListenerFixture>(config)
                                              : test::relay(mode == Mode::Proxy, bigAnswers->url(), {}, config).fixture;
    const quint16 port = front->listener.port();
    QTcpSocket socket;
    // A small receive window: the server's sending side fills after a few hundred answers, not after megabytes
    // (the forwarder takes each answer from its upstream, and would still be making progress at the deadline).
    socket.setSocketOption(QAbstractSocket::ReceiveBufferSizeSocketOption, 8192);
    socket.connectToHost(QHostAddress::LocalHost, port);
    REQUIRE(socket.waitForConnected(2000));
    socket.setReadBufferSize(1); // Qt reads no more than this for us: the kernel's buffers fill, as a stuck client's
    // 20,000 pipelined requests for the form page: 26 MB of answers if the server wrote them all.
    QByteArray requests;
    for (int i = 0; i < 20'000; ++i)
        requests += "GET " + server + "/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    socket.write(requests);
    // Until the server gives up on us (its answer deadline resets the connection), or 20 s.
    const auto reset = [&socket] {
        int error = 0;
        socklen_t size = sizeof error;
        ::getsockopt(int(socket.socketDescriptor()), SOL_SOCKET, SO_ERROR, &error, &size);
        return error != 0;
    };
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 20'000 && !reset())
        if (!socket.waitForBytesWritten(50))
            QThread::msleep(20);
    INFO("waited " << clock.elapsed() << " ms");
    // Now read: what the kernel holds arrives, then the end; without the deadline all 20,000 answers would
    // follow and the connection would stay open for the 15 s keep-alive wait.
    socket.setReadBufferSize(0);
    const QByteArray got = readUntilClosed(socket, 3000);
    CHECK(socket.state() != QAbstractSocket::ConnectedState);
    CHECK(got.count("HTTP/1.1 200") > 0);
    CHECK(got.count("HTTP/1.1 200") < 20'000);
    // The server held the rest of the requests back rather than piling up their answers, and is still serving.
    CHECK(test::rawExchange(port, upload("Connection: close\r\n", server + "/part-event")).startsWith("HTTP/1.1 200"));
}

TEST_CASE("every mode: what a HEAD or an allowed page asked of one answer does not carry over to the next request's",
          "[modes]")
{
    const Mode mode = GENERATE(Mode::Listener, Mode::Forwarder, Mode::Proxy);
    INFO(name(mode));
    app::ServerConfig config;
    config.guards.allowedOrigins = {"http://localhost:3000"};
    ModeServer server(mode, config, config); // through the forwarder, the upstream allows the page too
    for (const QByteArray& first : {QByteArray("HEAD /captures HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
                                    QByteArray("GET /captures HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: "
                                               "http://localhost:3000\r\n\r\n")}) {
        INFO(first.left(20).constData());
        auto socket = sendTo(server, first);
        QByteArray got;
        for (int i = 0; i < 40 && !got.contains("\r\n\r\n"); ++i)
            if (socket->waitForReadyRead(50))
                got += socket->readAll();
        QThread::msleep(100);
        got += socket->readAll();
        socket->write("GARBAGE\r\n\r\n");
        const QByteArray all = got + readUntilClosed(*socket, 3000);
        const qsizetype second = all.indexOf("HTTP/1.1 400");
        REQUIRE(second >= 0);
        const QByteArray refusal = all.mid(second);
        const qsizetype bodyAt = refusal.indexOf("\r\n\r\n") + 4;
        CHECK(refusal.size() > bodyAt); // its body came: it answers no HEAD
        CHECK_FALSE(refusal.left(bodyAt).contains("Access-Control-Allow-Origin"));
    }
}
