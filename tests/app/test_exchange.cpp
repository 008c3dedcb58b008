// The server's transport knows no mode: a handler made by a factory gets each admitted request of a connection in
// turn, unframes its body with the exchange's decoder, and answers through the exchange. The handler here is no mode
// of the tool, yet it runs on the real HTTP/1.1 connection, over a real socket on 127.0.0.1: what a new mode (or
// an HTTP/2 stream's handler) can count on.

#include "server/exchange.h"
#include "server/request_admission.h"
#include "server/server_connection.h"

#include "support/wait_for.h"

#include <catch2/catch.hpp>

#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>

using namespace upin;

namespace {

// What the handlers of one test saw, kept beyond their lives.
struct Seen {
    int made = 0;
    int destroyed = 0;
    int closing = 0;
    QStringList requests; // "METHOD /path"
};

// Answers each request with the number of body bytes it took, unframed: "request N: M bytes".
class CountingHandler final : public app::ExchangeHandler, private core::BodySink {
public:
    CountingHandler(app::Exchange& exchange, Seen& seen) : ExchangeHandler(exchange), m_seen(seen) { ++m_seen.made; }
    ~CountingHandler() override { ++m_seen.destroyed; }

    void onRequest(const app::RequestAdmission& admission) override
    {
        m_seen.requests << admission.method + ' ' + admission.path;
        m_bytes = 0;
        if (exchange().decoder().done())
            answer();
        else
            exchange().beginBody();
    }
    size_t onBody(core::ByteView data, const core::BlockPool::Block& /*block*/) override
    {
        auto used = exchange().decoder().feed(data, *this);
        REQUIRE(used);
        if (exchange().decoder().done())
            answer();
        return *used;
    }
    void onBodyDeadline(app::ClientDeadlines::Missed /*missed*/, const QString& /*why*/) override {}
    void onClientGone(const QString& /*how*/) override {}
    void onClosing() override { ++m_seen.closing; }

private:
    void onBody(core::ByteView data) override { m_bytes += data.size(); }
    void answer()
    {
        exchange().respond(200, "text/plain",
                           QByteArray("request %1: %2 bytes\n")
                               .replace("%1", QByteArray::number(m_seen.requests.size()))
                               .replace("%2", QByteArray::number(m_bytes)),
                           !exchange().framing().keepAlive);
    }

    Seen& m_seen;
    quint64 m_bytes = 0;
};

// Accepts on 127.0.0.1 and gives each client a ServerConnection with a CountingHandler, on this thread.
class CountingServer final : public QTcpServer {
public:
    explicit CountingServer(Seen& seen) : m_seen(seen)
    {
        app::ServerConfig config;
        config.captureDir = m_dir.filePath(QStringLiteral("captures"));
        m_shared = std::make_shared<app::ServerShared>(config);
        REQUIRE(listen(QHostAddress::LocalHost));
    }

protected:
    void incomingConnection(qintptr descriptor) override
    {
        const app::AcceptedSocket accepted{descriptor, false, m_shared->takeSlot()};
        auto factory = [this](app::Exchange& exchange) { return std::make_unique<CountingHandler>(exchange, m_seen); };
        new app::ServerConnection(
            accepted, m_shared, [](const app::CaptureEvent& /*event*/) {}, {}, factory, this);
    }

private:
    QTemporaryDir m_dir;
    std::shared_ptr<app::ServerShared> m_shared;
    Seen& m_seen;
};

} // namespace

TEST_CASE("a handler no mode knows gets a connection's requests in turn, bodies unframed, refusals kept from it",
          "[server][exchange]")
{
    Seen seen;
    {
        CountingServer server(seen);
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, server.serverPort());
        // Two requests kept alive, the second chunked, sent together; then one the transport refuses itself
        // (two Content-Lengths that disagree), which the handler never sees.
        client.write("POST /one HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello"
                     "POST /two HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                     "3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n"
                     "POST /three HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n");
        QByteArray answers;
        UPIN_WAIT_FOR((answers += client.readAll(), client.state() == QAbstractSocket::UnconnectedState), 10000);
        answers += client.readAll();
        INFO(answers.toStdString());
        CHECK(answers.contains("request 1: 5 bytes\n"));
        CHECK(answers.contains("request 2: 7 bytes\n"));
        CHECK(answers.indexOf("request 1") < answers.indexOf("request 2"));
        CHECK(answers.count("HTTP/1.1 200") == 2);
        CHECK(answers.contains("HTTP/1.1 400")); // the transport's own refusal, after the two
        CHECK(seen.requests == QStringList{"POST /one", "POST /two"});
        CHECK(seen.made == 1); // one handler for the connection's exchanges in turn
        UPIN_WAIT_FOR(seen.closing == 1, 10000);
    }
    CHECK(seen.destroyed == seen.made); // with its connection
}
