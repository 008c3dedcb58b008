// Golden logs for HTTP/1.1 responses, in the manner of llhttp's test/response: each answer is read whole, byte by
// byte and split at every position (readResponseEveryWay), and the log must be the one written here by hand.

#include "support/http_log.h"

#include <catch2/catch.hpp>

using namespace upin;
using test::HttpMessageOptions;
using test::readResponseEveryWay;

namespace {

HttpMessageOptions relay() // as the forwarder reads its upstream
{
    HttpMessageOptions options;
    options.limits.strictLineEnds = true;
    return options;
}

} // namespace

TEST_CASE("responses: length, chunked, close-delimited and bodiless answers", "[http][response][golden]")
{
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhelloNEXT",
                               relay()) == "response HTTP/1.1 200 \"OK\"\n"
                                           "field \"Content-Type\" \"text/plain\"\n"
                                           "field \"Content-Length\" \"5\"\n"
                                           "framing content-length 5 keep-alive\n"
                                           "body 5 \"hello\"\n"
                                           "complete, 4 bytes after\n");
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                               "5;ext=1\r\nhello\r\n0\r\nX-T: 1\r\n\r\n",
                               relay()) == "response HTTP/1.1 200 \"OK\"\n"
                                           "field \"Transfer-Encoding\" \"gzip, chunked\"\n"
                                           "framing chunked keep-alive\n"
                                           "body 5 \"hello\"\n"
                                           "chunks 1, trailer bytes 8\n"
                                           "complete, 0 bytes after\n");
    // No length: the body runs to the close, and the connection cannot be kept.
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nServer: x\r\n\r\nall of it", relay()) ==
          "response HTTP/1.1 200 \"OK\"\n"
          "field \"Server\" \"x\"\n"
          "framing until-close close\n"
          "body 9 \"all of it\"\n"
          "complete, 0 bytes after\n");
    // A reason is optional, and so (as many servers send it) is the space before an empty one.
    CHECK(readResponseEveryWay("HTTP/1.1 404\r\nContent-Length: 0\r\n\r\n", relay()) ==
          "response HTTP/1.1 404 \"\"\n"
          "field \"Content-Length\" \"0\"\n"
          "framing content-length 0 keep-alive\n"
          "body 0 \"\"\n"
          "complete, 0 bytes after\n");
    // 204 and 304 have no body whatever they say; neither has the answer to a HEAD.
    CHECK(readResponseEveryWay("HTTP/1.1 204 No Content\r\nContent-Length: 7\r\n\r\nHTTP/1.1", relay()) ==
          "response HTTP/1.1 204 \"No Content\"\n"
          "field \"Content-Length\" \"7\"\n"
          "framing none keep-alive\n"
          "body 0 \"\"\n"
          "complete, 8 bytes after\n");
    HttpMessageOptions head = relay();
    head.answersHead = true;
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", head) ==
          "response HTTP/1.1 200 \"OK\"\n"
          "field \"Content-Length\" \"1000\"\n"
          "framing none keep-alive\n"
          "body 0 \"\"\n"
          "complete, 0 bytes after\n");
    // HTTP/1.0 closes unless it says keep-alive; HTTP/1.1 keeps unless it says close.
    CHECK(readResponseEveryWay("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok", relay()) ==
          "response HTTP/1.0 200 \"OK\"\n"
          "field \"Connection\" \"keep-alive\"\n"
          "field \"Content-Length\" \"2\"\n"
          "framing content-length 2 keep-alive\n"
          "body 2 \"ok\"\n"
          "complete, 0 bytes after\n");
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok", relay()) ==
          "response HTTP/1.1 200 \"OK\"\n"
          "field \"Connection\" \"close\"\n"
          "field \"Content-Length\" \"2\"\n"
          "framing content-length 2 close\n"
          "body 2 \"ok\"\n"
          "complete, 0 bytes after\n");
    // Interim answers come first; the final one follows.
    CHECK(readResponseEveryWay("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
                               "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n",
                               relay()) == "response HTTP/1.1 100 \"Continue\"\n"
                                           "response HTTP/1.1 103 \"Early Hints\"\n"
                                           "field \"Link\" \"</a>\"\n"
                                           "response HTTP/1.1 201 \"Created\"\n"
                                           "field \"Content-Length\" \"0\"\n"
                                           "framing content-length 0 keep-alive\n"
                                           "body 0 \"\"\n"
                                           "complete, 0 bytes after\n");
}

TEST_CASE("responses a relay refuses say what and where", "[http][response][golden]")
{
    // Status lines that are not HTTP/1.x SP 3DIGIT SP reason.
    CHECK(readResponseEveryWay("FOO BAR\r\n\r\n", relay()) == "error in head: malformed_status_line at 0\n");
    CHECK(readResponseEveryWay("HTTP/1.1  200 OK\r\n\r\n", relay()) == "error in head: malformed_status_line at 8\n");
    CHECK(readResponseEveryWay("HTTP/1.1 20 OK\r\n\r\n", relay()) == "error in head: malformed_status_line at 8\n");
    CHECK(readResponseEveryWay("HTTP/1.1 2000 OK\r\n\r\n", relay()) == "error in head: malformed_status_line at 12\n");
    CHECK(readResponseEveryWay("HTTP/1.1 099 OK\r\n\r\n", relay()) == "error in head: malformed_status_line at 8\n");
    CHECK(readResponseEveryWay("HTTP/2.0 200 OK\r\n\r\n", relay()) == "error in head: unsupported_http_version at 0\n");
    CHECK(readResponseEveryWay("\r\nHTTP/1.1 200 OK\r\n\r\n", relay()) ==
          "error in head: malformed_status_line at 0\n");
    // HTTP/0.9: a body with no head at all. It never has a blank line, so it runs into the head limit.
    HttpMessageOptions small = relay();
    small.limits.maxHeadBytes = 64;
    CHECK(readResponseEveryWay("<html>" + std::string(100, 'x'), small) == "error in head: head_too_large at 64\n");
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nServer: never ends\r\n", relay()) == "end of input in the head\n");
    // Line ends: LF alone, or a CR with no LF, are refused by a relay (the head's offset is where).
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\nContent-Length: 0\n\n", relay()) ==
          "error in head: bare_line_end at 15\n");
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nA: b\rc\r\n\r\n", relay()) ==
          "error in head: bare_line_end at 21\n");
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\n folded: x\r\n\r\n", relay()) ==
          "error in head: invalid_header_field at 17\n");
    // Content-Length: nothing but digits, one value, at most 19 digits; never beside Transfer-Encoding. Each error
    // is at the value (or field) that caused it.
    for (const char* length : {"-1", "+5", "99999999999999999999", "5, 5", "0x10"}) {
        INFO(length);
        CHECK(readResponseEveryWay(std::string("HTTP/1.1 200 OK\r\nContent-Length: ") + length + "\r\n\r\n", relay())
                  .ends_with("error in framing: invalid_content_length at 33\n"));
    }
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n", relay())
              .ends_with("error in framing: invalid_content_length at 32\n"));
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", relay())
              .ends_with("error in framing: invalid_content_length at 52\n"));
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", relay())
              .ends_with("error in framing: conflicting_framing at 36\n"));
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", relay())
              .ends_with("error in framing: unsupported_transfer_encoding at 45\n"));
    // Chunks: the size is hex of at most 15 digits, its line and the data's end are CRLF.
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", relay()) ==
          "response HTTP/1.1 200 \"OK\"\n"
          "field \"Transfer-Encoding\" \"chunked\"\n"
          "framing chunked keep-alive\n"
          "body 0 \"\"\n"
          "error in body: invalid_chunk_size at 47\n");
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1000000000000000\r\n", relay())
              .ends_with("error in body: invalid_chunk_size at 62\n"));
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\nok\r\n0\r\n\r\n", relay())
              .ends_with("error in body: bare_line_end at 48\n"));
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\n0\r\n\r\n", relay())
              .ends_with("error in body: bare_line_end at 52\n"));
    CHECK(
        readResponseEveryWay("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;a\rb\r\nok\r\n0\r\n\r\n", relay())
            .ends_with("error in body: bare_line_end at 51\n"));
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: y\n\r\n", relay())
              .ends_with("error in body: bare_line_end at 54\n"));
    // A close in the middle of a length-delimited or chunked body is no end.
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf", relay())
              .ends_with("end of input in the body after 4 bytes\n"));
    // Interim answers without end are cut off at a count.
    std::string interim;
    for (int i = 0; i < 20; ++i)
        interim += "HTTP/1.1 100 Continue\r\n\r\n";
    CHECK(readResponseEveryWay(interim, relay()).ends_with("error: more than 16 interim answers\n"));
}

TEST_CASE("a server that only reads takes LF alone, as before", "[http][response][golden]")
{
    CHECK(readResponseEveryWay("HTTP/1.1 200 OK\nContent-Length: 2\n\nok") == "response HTTP/1.1 200 \"OK\"\n"
                                                                              "field \"Content-Length\" \"2\"\n"
                                                                              "framing content-length 2 keep-alive\n"
                                                                              "body 2 \"ok\"\n"
                                                                              "complete, 0 bytes after\n");
}
