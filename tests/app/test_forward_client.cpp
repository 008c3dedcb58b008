// The forwarder's client that stops reading a relayed answer: it has the guards' answer deadline (as for the
// listener's own answers), not the upstream's 60 s answer timeout, and the upstream connection goes with it. And a
// client that closes its side as soon as its request is sent: what it sent is recorded.

#include "app/forward_fixture.h"
#include "app/listener_fixture.h"
#include "capture/forward_record.h"
#include "capture/outcome.h"
#include "support/run_cli.h"

#include <catch2/catch.hpp>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>

#include <cerrno>
#include <vector>

using namespace upin;

TEST_CASE("forward: a client that stops reading a long answer is dropped at the guards' answer deadline",
          "[forward][guards]")
{
    const QByteArray body(16 << 20, 'a'); // far more than the kernel's buffers and the 1 MiB relay backlog hold
    test::RawUpstream upstream("HTTP/1.1 200 OK\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" +
                               body);
    app::ServerConfig config;
    config.guards.answerTimeoutMs = 500;
    auto f = test::forwarder(upstream.url(), {}, config);
    QTcpSocket socket;
    socket.setReadBufferSize(1); // reads almost nothing: the kernel's buffers fill, as a stuck client's
    socket.connectToHost(QHostAddress::LocalHost, f->listener.port());
    REQUIRE(socket.waitForConnected(2000));
    socket.write("GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 2'000) // reads nothing meanwhile: Qt's one-byte buffer stays full
        socket.waitForBytesWritten(50);
    // Now read: what the kernels hold arrives, then the end. Without the deadline the whole answer would follow
    // and the connection would stay open for the 15 s keep-alive wait.
    socket.setReadBufferSize(0);
    qint64 got = 0;
    clock.restart();
    while (socket.state() == QAbstractSocket::ConnectedState && clock.elapsed() < 5'000)
        if (socket.waitForReadyRead(100))
            got += socket.readAll().size();
    CHECK(socket.state() != QAbstractSocket::ConnectedState);
    CHECK(got < body.size()); // cut off: the rest never went out
    // The record says who ended it: the forwarder, by the deadline, not the client (it had said "the client closed
    // the connection", of a client that was still connected).
    const QJsonObject capture = test::forwardCaptures(*f, 1).value(0);
    INFO(QJsonDocument(capture).toJson().left(2000).constData());
    CHECK(capture["forward"].toObject()["error"].toObject()["detail"].toString() ==
          "the client was dropped: it took nothing more of the answer for 500 ms before the whole answer");
}

TEST_CASE("forward's options: --upstream-timeout for the upstream, --answer-timeout for the client, as listen has it",
          "[forward][cli]")
{
    const auto help = upin::test::runCli({"forward", "--help"});
    CHECK_FALSE(help.err.contains("already having an option")); // two options had one name: the second was lost
    CHECK(help.out.contains("--upstream-timeout <S>"));
    CHECK(help.out.contains("--answer-timeout <SECONDS>"));
    const auto bad = upin::test::runCli({"forward", "http://127.0.0.1:1", "--port", "0", "--answer-timeout", "x"});
    CHECK(bad.exitCode == 2);
    CHECK(bad.err.contains("--answer-timeout"));
}

TEST_CASE("proxy's options leave out a server's --allow-origin and --allow-host, which name who may call a server",
          "[proxy][cli]")
{
    const auto help = upin::test::runCli({"proxy", "--help"});
    CHECK(help.out.contains("--no-intercept <HOST>"));
    CHECK(help.out.contains("--head-timeout"));
    CHECK_FALSE(help.out.contains("--allow-origin"));
    CHECK_FALSE(help.out.contains("--allow-host"));
    CHECK(upin::test::runCli({"forward", "--help"}).out.contains("--allow-origin"));
    const auto refused = upin::test::runCli({"proxy", "--port", "0", "--allow-host", "x.test"});
    CHECK(refused.exitCode != 0);
    CHECK(refused.err.contains("allow-host"));
    const auto network = upin::test::runCli({"proxy", "--port", "0", "--allow-client", "10.0.0.0/33"});
    CHECK(network.exitCode == 2);
    CHECK(network.err.contains("--allow-client '10.0.0.0/33': give an address or a network"));
}

namespace {
// A server whose kernel takes no more connections: its accept queue is full (nothing accepts), so a connect to it
// waits for the SYN to be retried, a second and more (Linux drops the SYN: net.ipv4.tcp_abort_on_overflow is 0 by
// default; set, it would refuse the connect at once, and the tests below would see a 502 too soon).
struct SlowToConnect {
    int listening = ::socket(AF_INET, SOCK_STREAM, 0);
    std::vector<int> queued;
    quint16 port = 0;
    SlowToConnect()
    {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t size = sizeof address;
        REQUIRE(::bind(listening, reinterpret_cast<sockaddr*>(&address), size) == 0);
        REQUIRE(::listen(listening, 0) == 0);
        REQUIRE(::getsockname(listening, reinterpret_cast<sockaddr*>(&address), &size) == 0);
        port = ntohs(address.sin_port);
        for (int i = 0; i < 3; ++i) { // fills the queue; further ones wait
            const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
            const int started = ::connect(fd, reinterpret_cast<sockaddr*>(&address), size);
            REQUIRE((started == 0 || errno == EINPROGRESS)); // non-blocking: under way, or made at once
            queued.push_back(fd);
        }
        QThread::msleep(100);
    }
    ~SlowToConnect()
    {
        for (int fd : queued)
            ::close(fd);
        ::close(listening);
    }
};
} // namespace

TEST_CASE("forward and proxy: a client that sends its whole request and closes while the upstream connects has "
          "its parts recorded, and its request goes no further",
          "[forward][proxy]")
{
    const bool viaProxy = GENERATE(false, true);
    INFO((viaProxy ? "proxy" : "forwarder"));
    SlowToConnect upstream;
    const QString url = QStringLiteral("http://127.0.0.1:%1").arg(upstream.port);
    const test::Relay relay = test::relay(viaProxy, url);
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nhello\r\n--b--\r\n";
    test::RawClient client(relay.port());
    REQUIRE(client.send(relay.as("POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; "
                                 "boundary=b\r\nContent-Length: " +
                                 QByteArray::number(body.size()) + "\r\n\r\n" + body)));
    ::shutdown(client.fd, SHUT_WR); // as `nc -N` and `socat` do at the end of their input
    const QJsonObject capture = test::forwardCaptures(*relay.fixture, 1).value(0);
    REQUIRE_FALSE(capture.isEmpty());
    INFO(QJsonDocument(capture).toJson().left(2000).constData());
    CHECK(capture["error"].isNull()); // before, body_cut_short at byte 0: the body was read, then lost
    CHECK(capture["bytes"].toInteger() == body.size());
    const QJsonArray parts = capture["parts"].toArray();
    REQUIRE(parts.size() == 1);
    CHECK(parts[0].toObject()["name"].toString() == "f");
    const QJsonObject forward = capture["forward"].toObject();
    CHECK(forward["body_bytes_to_upstream"].toInteger() == 0);
    // Why there is no answer, where the list and Inspect show it: nothing was answered (status 0).
    const QJsonObject fault = forward["error"].toObject();
    CHECK(fault["error"].toString() == "client gone");
    CHECK(fault["status"].toInt() == 0);
    CHECK(fault["detail"].toString().contains("after its whole request, before the upstream was reached"));
    const app::ForwardTimings shown = app::ForwardRecord::fromJson(forward).timings();
    CHECK(app::noAnswerInWords(shown.faultStatus, shown.faultError) == "no answer: client gone");
    CHECK(app::noAnswerInWords(504, "upstream too slow") == "no answer: 504 upstream too slow");
    CHECK(app::noAnswerInWords(0, {}) == "no answer");
    CHECK(client.receive(500).isEmpty()); // no answer can reach it: the connection is closed
}

// `upload-inspector-cli forward --port 0` as a user starts it, in its own process: the race below went the other
// way every time with the forwarder in the test's process.
struct ForwardProcess {
    QTemporaryDir captures;
    QProcess process;
    quint16 port = 0;
    explicit ForwardProcess(const QString& upstream)
    {
        process.start(QStringLiteral(UPIN_CLI_PATH),
                      {"forward", "--port", "0", "--capture-dir", captures.path(), upstream});
        REQUIRE(process.waitForReadyRead(10000));
        const QString said = QString::fromUtf8(process.readLine()); // forwarding http://127.0.0.1:PORT -> ...
        port = quint16(QRegularExpression(":(\\d+) ->").match(said).captured(1).toUInt());
        REQUIRE(port != 0);
    }
    ~ForwardProcess()
    {
        process.kill();
        process.waitForFinished(5000);
    }
};

TEST_CASE("forward: a client that sends its whole request and half-closes, to an upstream that connects at once, has "
          "its parts recorded, and its request goes no further or went on whole",
          "[forward]")
{
    test::PythonUpstream upstream("echo");
    ForwardProcess forward(upstream.url());
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nhello\r\n--b--\r\n";
    // The client's end races the upstream's connect and its answer: every way round is an outcome to accept.
    for (int round = 0; round < 5; ++round) {
        test::RawClient client(forward.port);
        REQUIRE(client.send("POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; "
                            "boundary=b\r\nContent-Length: " +
                            QByteArray::number(body.size()) + "\r\n\r\n" + body));
        ::shutdown(client.fd, SHUT_WR); // as `nc -N` does
        const QJsonObject capture = test::forwardCaptures(forward.captures.path(), round + 1).value(round);
        REQUIRE_FALSE(capture.isEmpty());
        INFO(QJsonDocument(capture).toJson().left(2000).constData());
        CHECK(capture["error"].isNull()); // before, body_cut_short at byte 0 once the head had gone on
        CHECK(capture["bytes"].toInteger() == body.size());
        CHECK(capture["parts"].toArray().size() == 1);
        // Ended where it stood when the client's end was read: held back whole, or already passed on whole.
        const QJsonObject fault = capture["forward"].toObject();
        const qint64 wentOn = fault["body_bytes_to_upstream"].toInteger();
        CHECK((wentOn == 0 || wentOn == body.size()));
        const QString detail = fault["error"].toObject()["detail"].toString();
        if (wentOn == 0)
            CHECK(detail.startsWith("the client closed the connection after its whole request, before "));
        else if (!fault.contains("error")) // the upstream answered, and the answer went back, before the end was read
            CHECK(fault["status"].toInt() == 200);
        else
            CHECK(detail.startsWith("the client closed the connection before the whole answer"));
    }
}

TEST_CASE("forward and proxy: a request whose upstream is never reached has what was read of its body recorded",
          "[forward][proxy]")
{
    const bool viaProxy = GENERATE(false, true);
    INFO((viaProxy ? "proxy" : "forwarder"));
    SlowToConnect upstream;
    app::ForwardSettings settings;
    settings.connectTimeoutMs = 300;
    const test::Relay relay = test::relay(viaProxy, QStringLiteral("http://127.0.0.1:%1").arg(upstream.port), settings);
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nhello\r\n--b--\r\n";
    const QByteArray answer =
        relay.exchange("POST /part-event HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; "
                       "boundary=b\r\nContent-Length: " +
                       QByteArray::number(body.size()) + "\r\n\r\n" + body);
    CHECK(answer.startsWith("HTTP/1.1 502"));
    const QJsonObject capture = test::forwardCaptures(*relay.fixture, 1).value(0);
    REQUIRE_FALSE(capture.isEmpty());
    INFO(QJsonDocument(capture).toJson().left(2000).constData());
    CHECK(capture["bytes"].toInteger() == body.size()); // before, 0: the body read with the head was never parsed
    REQUIRE(capture["parts"].toArray().size() == 1);
    CHECK(capture["forward"].toObject()["error"].toObject()["status"].toInt() == 502);
}
