// The head the forwarder sends on: hop-by-hop fields, the framing that a Connection list may not remove, Host and
// the X-Forwarded-* chain, and the target in origin form.

#include "upin/core/http_relay.h"

#include <catch2/catch.hpp>

using namespace upin::core;

namespace {

Result<std::string> relay(const std::string& head, RelayTarget target = {})
{
    static std::string wire;
    static HeadReader reader;
    wire = head;
    reader.reset();
    auto used = reader.feed(wire);
    REQUIRE(used.has_value());
    REQUIRE(reader.complete());
    if (target.upstreamHost.empty())
        target.upstreamHost = "up:9000";
    if (target.clientAddress.empty())
        target.clientAddress = "127.0.0.1";
    return relayHead(reader.head(), target);
}

RelayTarget prefixed(std::string_view prefix)
{
    RelayTarget target;
    target.pathPrefix = prefix;
    return target;
}

RelayTarget preservingHost(std::string_view client)
{
    RelayTarget target;
    target.preserveHost = true;
    target.clientAddress = client;
    return target;
}

} // namespace

TEST_CASE("relayed heads: hop-by-hop fields and what Connection names dropped, framing and the rest kept",
          "[http][relay]")
{
    auto out = relay("POST /file-part?x=1 HTTP/1.1\r\nHost: localhost:8081\r\nConnection: keep-alive, X-Secret\r\n"
                     "Keep-Alive: 5\r\nX-Secret: s\r\nTE: trailers\r\nUpgrade: h2c\r\nProxy-Authorization: Basic x\r\n"
                     "Proxy-Connection: close\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                     "Content-Length: 10\r\nExpect: 100-continue\r\n\r\n",
                     prefixed("/api/"));
    REQUIRE(out.has_value());
    CHECK(*out == "POST /api/file-part?x=1 HTTP/1.1\r\n"
                  "Host: up:9000\r\n"
                  "Content-Type: multipart/form-data; boundary=b\r\n"
                  "Content-Length: 10\r\n"
                  "Expect: 100-continue\r\n"
                  "X-Forwarded-For: 127.0.0.1\r\n"
                  "X-Forwarded-Proto: http\r\n"
                  "X-Forwarded-Host: localhost:8081\r\n\r\n");
}

TEST_CASE("fields addressed to the relay itself are dropped, in any case, and nothing else", "[http][relay]")
{
    static constexpr std::string_view own[] = {"Upload-Inspector-Probe"};
    RelayTarget target = prefixed("");
    target.ownFields = own;
    auto out = relay("POST /u HTTP/1.1\r\nHost: h\r\nupload-inspector-probe: 5eed\r\nUpload-Inspector-Probed: kept\r\n"
                     "Content-Length: 0\r\n\r\n",
                     target);
    REQUIRE(out.has_value());
    CHECK(out->find("5eed") == std::string::npos);
    CHECK(out->find("Upload-Inspector-Probed: kept\r\n") != std::string::npos);
}

TEST_CASE("an absolute-form target's authority is the host passed on, not the Host field (RFC 9112 3.2.2)",
          "[http][relay]")
{
    auto out = relay("GET http://127.0.0.1:8081/x HTTP/1.1\r\nHost: evil.example\r\n\r\n", preservingHost("1.2.3.4"));
    REQUIRE(out.has_value());
    CHECK(out->find("Host: 127.0.0.1:8081\r\n") != std::string::npos);
    CHECK(out->find("X-Forwarded-Host: 127.0.0.1:8081\r\n") != std::string::npos);
    CHECK(out->find("evil.example") == std::string::npos);
    CHECK(authorityOf("https://h:1?q") == "h:1");
    CHECK(authorityOf("/x").empty());
}

TEST_CASE("a head whose framing is invalid is refused, never made valid by sending one Content-Length of several",
          "[http][relay][smuggling]")
{
    // Found by fuzz_http: the relay sent the first of repeated Content-Length fields and dropped the rest.
    auto out = relay("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5\r\nContent-Length: x5\r\n\r\n");
    REQUIRE_FALSE(out.has_value());
    CHECK(out.error().code == Errc::InvalidContentLength);
    CHECK(out.error().offset == 71);
}

TEST_CASE("a Connection list that names the framing or Host is refused: the body would become a request",
          "[http][relay][smuggling]")
{
    for (const char* connection :
         {"Content-Length", "close, Content-Length", "transfer-encoding", "Host", " keep-alive ,  CONTENT-LENGTH "}) {
        INFO(connection);
        auto out = relay(std::string("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nConnection: ") + connection +
                         "\r\n\r\n");
        REQUIRE_FALSE(out.has_value());
        CHECK(out.error().code == Errc::ConnectionNamesFraming);
    }
    // Where: at the token in the Connection field (the head up to the field's value is 57 bytes).
    CHECK(relay("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nConnection: close, Content-Length\r\n\r\n")
              .error()
              .offset == 64);
    // Named in a second Connection field too.
    CHECK_FALSE(relay("POST / HTTP/1.1\r\nConnection: close\r\nConnection: Transfer-Encoding\r\n"
                      "Transfer-Encoding: chunked\r\n\r\n")
                    .has_value());
}

TEST_CASE("relayed heads: Host preserved on request, X-Forwarded-For chained in order, a client's own Proto and "
          "Host replaced, absolute-form targets in origin form",
          "[http][relay]")
{
    auto out = relay("GET http://localhost:8081/a/b?c HTTP/1.1\r\nHost: other\r\nX-Forwarded-For: 1.1.1.1\r\n"
                     "X-Forwarded-Proto: https\r\nX-Forwarded-For: 2.2.2.2, 3.3.3.3\r\nX-Forwarded-Host: evil\r\n\r\n",
                     preservingHost("::1"));
    REQUIRE(out.has_value());
    CHECK(*out == "GET /a/b?c HTTP/1.1\r\n"
                  "Host: localhost:8081\r\n" // the absolute-form target's authority, not the Host field
                  "X-Forwarded-For: 1.1.1.1, 2.2.2.2, 3.3.3.3, ::1\r\n"
                  "X-Forwarded-Proto: http\r\n"
                  "X-Forwarded-Host: localhost:8081\r\n\r\n");
    CHECK(originForm("http://h:1") == "/");
    CHECK(originForm("http://h:1?q") == "?q");
    CHECK(originForm("https://h/x") == "/x");
    CHECK(originForm("/p") == "/p");
    CHECK(relay("GET http://h?q HTTP/1.1\r\n\r\n").value().starts_with("GET /?q HTTP/1.1\r\n"));
    CHECK(relay("OPTIONS * HTTP/1.1\r\n\r\n").value().starts_with("OPTIONS * HTTP/1.1\r\n"));
    // Content-Length repeated with one value goes on once.
    CHECK(relay("POST /x HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n").value() ==
          "POST /x HTTP/1.1\r\nHost: up:9000\r\nContent-Length: 5\r\nX-Forwarded-For: 127.0.0.1\r\n"
          "X-Forwarded-Proto: http\r\n\r\n");
    // HTTP/1.0 in, HTTP/1.1 out: what we send is ours.
    CHECK(relay("POST /x HTTP/1.0\r\nContent-Length: 0\r\n\r\n").value().starts_with("POST /x HTTP/1.1\r\n"));
}

TEST_CASE("a forward proxy's head: the client's request as it made it, Host the target's authority, no "
          "X-Forwarded-* added and a client's own passed on",
          "[http][relay]")
{
    RelayTarget proxy;
    proxy.upstreamHost = "example.test:8080";
    proxy.forwardedFields = false;
    auto out = relay("POST http://example.test:8080/up?x=1 HTTP/1.1\r\nHost: example.test:8080\r\n"
                     "Proxy-Connection: keep-alive\r\nX-Forwarded-For: 1.1.1.1\r\nX-Forwarded-Proto: https\r\n"
                     "Content-Length: 3\r\n\r\n",
                     proxy);
    REQUIRE(out.has_value());
    CHECK(*out == "POST /up?x=1 HTTP/1.1\r\n"
                  "Host: example.test:8080\r\n"
                  "X-Forwarded-For: 1.1.1.1\r\n"
                  "X-Forwarded-Proto: https\r\n"
                  "Content-Length: 3\r\n\r\n");
}
