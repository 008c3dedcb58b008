// The raw sender reads the server's answer with core's response parser (common/http_answer.h): answers framed
// every way end the run as soon as they are whole, and answers that are not HTTP say so, instead of waiting for
// the stall deadline or taking a status from the ninth byte.

#include "app/forward_fixture.h"

#include <catch2/catch.hpp>

using namespace upin;
using test::RawUpstream;

namespace {

app::RunResult sendTo(const RawUpstream& server)
{
    app::UploadPlan plan;
    plan.targets = {QUrl(server.url() + "/upload")};
    plan.engine = app::UploadPlan::Engine::Raw;
    app::PlanPart part;
    part.name = QStringLiteral("note");
    part.value = QStringLiteral("hi");
    plan.parts = {part};
    plan.stallTimeoutMs = 10'000;
    test::SenderThread sender;
    const auto results = sender.run(plan);
    REQUIRE(results.size() == 1);
    return results.first();
}

} // namespace

TEST_CASE("the raw sender takes answers in every framing, LF alone included, as soon as they are whole",
          "[sender][answers]")
{
    struct Case {
        const char* what;
        QByteArray answer;
        bool hold; // the server keeps the connection open after it
        int status;
        QByteArray body;
        QByteArray statusLine;
    };
    const Case cases[] = {
        {"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", true,
         200, "hello world", "HTTP/1.1 200 OK"},
        {"until the close", "HTTP/1.1 202 Accepted\r\nServer: t\r\n\r\nall of it", false, 202, "all of it",
         "HTTP/1.1 202 Accepted"},
        {"LF alone", "HTTP/1.1 201 Created\nContent-Length: 2\n\nok", true, 201, "ok", "HTTP/1.1 201 Created"},
        {"no reason", "HTTP/1.1 204\r\n\r\n", true, 204, "", "HTTP/1.1 204"},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        RawUpstream server(c.answer, c.hold);
        QElapsedTimer clock;
        clock.start();
        const app::RunResult r = sendTo(server);
        CHECK(r.error.isEmpty());
        CHECK(r.httpStatus == c.status);
        CHECK(r.response == c.body);
        CHECK(r.statusLine == c.statusLine);
        CHECK(clock.elapsed() < 5000); // not the stall deadline
    }
}

TEST_CASE("the raw sender says when an answer is not HTTP, or is cut off", "[sender][answers]")
{
    struct Case {
        const char* what;
        QByteArray answer;
        const char* error;
    };
    const Case cases[] = {
        {"garbage", "FOO BAR\r\n\r\n", "malformed_status_line"},
        {"a negative length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "invalid_content_length"},
        {"a broken chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "invalid_chunk_size"},
        {"a close mid-body", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf", "cut off"},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        RawUpstream server(c.answer);
        const app::RunResult r = sendTo(server);
        INFO(r.error.toStdString());
        CHECK(r.error.contains(QLatin1String(c.error)));
    }
}
