// HTTP/1.1 request heads and body framing, fed whole, byte by byte and split at every position.

#include "support/http_log.h"
#include "upin/core/http.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace upin::core;

namespace {

struct Collect final : BodySink {
    std::string body;
    void onBody(ByteView data) override { body.append(data); }
};

struct Decoded {
    bool ok = false;
    Error error{Errc::Count, 0};
    std::string body;
    size_t consumed = 0;
    uint64_t chunks = 0;
    uint64_t trailerBytes = 0;
};

// Decodes wire split at `split` (or whole when split == npos).
Decoded decode(const BodyFraming& framing, const std::string& wire, size_t split, HttpLimits limits = {})
{
    BodyDecoder decoder(framing, limits);
    Collect sink;
    Decoded out;
    out.ok = true;
    auto pieces = split == std::string::npos ? std::vector<std::string_view>{wire}
                                             : std::vector<std::string_view>{std::string_view(wire).substr(0, split),
                                                                             std::string_view(wire).substr(split)};
    for (auto piece : pieces) {
        if (decoder.done())
            break;
        auto used = decoder.feed(piece, sink);
        if (!used) {
            out.ok = false;
            out.error = used.error();
            break;
        }
        out.consumed += *used;
    }
    out.ok = out.ok && decoder.done();
    out.body = sink.body;
    out.chunks = decoder.chunks();
    out.trailerBytes = decoder.trailerBytes();
    return out;
}

// Same result whole, byte by byte and at every split.
Decoded decodeEveryWay(const BodyFraming& framing, const std::string& wire, HttpLimits limits = {})
{
    Decoded whole = decode(framing, wire, std::string::npos, limits);
    for (size_t split = 0; split <= wire.size(); ++split) {
        Decoded other = decode(framing, wire, split, limits);
        INFO("split at " << split);
        REQUIRE(other.ok == whole.ok);
        REQUIRE(other.body == whole.body);
        if (whole.ok) {
            REQUIRE(other.consumed == whole.consumed);
            REQUIRE(other.chunks == whole.chunks);
            REQUIRE(other.trailerBytes == whole.trailerBytes);
        } else
            REQUIRE(other.error.offset == whole.error.offset);
    }
    BodyDecoder decoder(framing, limits);
    Collect sink;
    size_t consumed = 0;
    for (size_t i = 0; i < wire.size() && !decoder.done(); ++i) {
        auto used = decoder.feed(std::string_view(wire).substr(i, 1), sink);
        if (!used)
            break;
        consumed += *used;
    }
    REQUIRE(sink.body == whole.body);
    if (whole.ok) {
        REQUIRE(consumed == whole.consumed);
        REQUIRE(decoder.chunks() == whole.chunks);
        REQUIRE(decoder.trailerBytes() == whole.trailerBytes);
    }
    return whole;
}

BodyFraming chunked()
{
    return {BodyFraming::Kind::Chunked, 0, false, true};
}

} // namespace

TEST_CASE("request heads parse whole and byte by byte", "[http]")
{
    const std::string head = "\r\nPOST /file-part?matcher=kmp HTTP/1.1\r\nHost: localhost:8080\r\nContent-Type: "
                             "multipart/form-data; boundary=x\r\n"
                             "Content-Length: 10\r\nExpect: 100-continue\r\n\r\n";
    const std::string wire = head + "0123456789GET / HTTP/1.1\r\n\r\n";
    for (size_t step : {wire.size(), size_t(1), size_t(7)}) {
        HeadReader reader;
        size_t used = 0;
        for (size_t pos = 0; !reader.complete(); pos += step) {
            auto got = reader.feed(std::string_view(wire).substr(pos, step));
            REQUIRE(got.has_value());
            used = pos + *got;
        }
        CHECK(used == head.size());
        CHECK(reader.raw() == head); // kept as received (a capture's head.raw), the empty line before it too
        const RequestHead& h = reader.head();
        CHECK(h.method == "POST");
        CHECK(h.target == "/file-part?matcher=kmp");
        CHECK(h.minorVersion == 1);
        CHECK(h.fields.size() == 4);
        CHECK(h.field("content-type") == "multipart/form-data; boundary=x");
        auto framing = bodyFraming(h);
        REQUIRE(framing.has_value());
        CHECK(framing->kind == BodyFraming::Kind::ContentLength);
        CHECK(framing->contentLength == 10);
        CHECK(framing->expectContinue);
        CHECK(framing->keepAlive);
    }
}

TEST_CASE("request head errors say what and where", "[http]")
{
    struct Case {
        std::string wire;
        Errc code;
        uint64_t offset;
    };
    const Case cases[] = {
        {"POST /x\r\n\r\n", Errc::MalformedRequestLine, 0},
        {"POST /x HTTP/2.0\r\n\r\n", Errc::UnsupportedHttpVersion, 8},
        {"POST /x HTTP/1.1\r\nBad Name: v\r\n\r\n", Errc::InvalidHeaderField, 18},
        {"POST /x HTTP/1.1\r\nno colon\r\n\r\n", Errc::InvalidHeaderField, 18},
        {"POST /x HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", Errc::InvalidHeaderField, 24},
        // control characters in a value could split or hide a field downstream: NUL, bare CR, DEL
        {std::string("POST /x HTTP/1.1\r\nA: b\0c\r\n\r\n", 28), Errc::InvalidHeaderField, 22},
        {"POST /x HTTP/1.1\r\nA: b\rc: d\r\n\r\n", Errc::InvalidHeaderField, 22},
        {"POST /x HTTP/1.1\r\nA: b\x7f\r\n\r\n", Errc::InvalidHeaderField, 22},
        {"POST /x\x01y HTTP/1.1\r\n\r\n", Errc::MalformedRequestLine, 7},
    };
    for (const auto& c : cases) {
        INFO(c.wire);
        HeadReader reader;
        auto got = reader.feed(c.wire);
        REQUIRE_FALSE(got.has_value());
        CHECK(got.error().code == c.code);
        CHECK(got.error().offset == c.offset);
    }
    HttpLimits small;
    small.maxHeadBytes = 64;
    small.maxHeaderFields = 2;
    HeadReader tooLong(small);
    auto got = tooLong.feed("POST /x HTTP/1.1\r\nX-A: " + std::string(100, 'a'));
    CHECK(got.error().code == Errc::HeadTooLarge);
    HeadReader tab; // HTAB is allowed inside a value
    CHECK(tab.feed("POST /x HTTP/1.1\r\nA: b\tc\r\n\r\n").has_value());
    HeadReader tooMany(small);
    CHECK(tooMany.feed("POST /x HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n").error().code == Errc::TooManyHeaderFields);
}

TEST_CASE("a head that trickles in one byte at a time costs linear time", "[http][adversarial]")
{
    HttpLimits limits;
    limits.maxHeaderFields = 2000;
    HeadReader reader(limits);
    std::string line = "X-Filler: " + std::string(50, 'f') + "\r\n";
    std::string wire = "POST / HTTP/1.1\r\n";
    while (wire.size() + line.size() < limits.maxHeadBytes - 4)
        wire += line;
    wire += "\r\n";
    for (size_t i = 0; i < wire.size(); ++i)
        REQUIRE(reader.feed(std::string_view(wire).substr(i, 1)).has_value());
    CHECK(reader.complete());
}

TEST_CASE("body framing rules", "[http]")
{
    auto framingOf = [](const std::string& fields, int minor = 1) {
        static std::string wire;
        wire = "POST / HTTP/1." + std::to_string(minor) + "\r\n" + fields + "\r\n";
        static HeadReader reader;
        reader.reset();
        auto used = reader.feed(wire);
        REQUIRE(used.has_value());
        REQUIRE(reader.complete());
        return bodyFraming(reader.head());
    };
    CHECK(framingOf("Transfer-Encoding: chunked\r\n")->kind == BodyFraming::Kind::Chunked);
    CHECK(framingOf("")->kind == BodyFraming::Kind::None);
    CHECK(framingOf("Content-Length: 5\r\nContent-Length: 5\r\n")->contentLength == 5);
    CHECK(framingOf("Content-Length: 5\r\nContent-Length: 6\r\n").error().code == Errc::InvalidContentLength);
    CHECK(framingOf("Content-Length: -1\r\n").error().code == Errc::InvalidContentLength);
    CHECK(framingOf("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n").error().code == Errc::ConflictingFraming);
    CHECK(framingOf("Transfer-Encoding: gzip, chunked\r\n").error().code == Errc::UnsupportedTransferEncoding);
    // Each error says where in the head: the value, or the field, that made it (the request line is 17 bytes).
    CHECK(framingOf("Content-Length: -1\r\n").error().offset == 33);
    CHECK(framingOf("Content-Length: 5\r\nContent-Length: 6\r\n").error().offset == 52);
    CHECK(framingOf("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n").error().offset == 36);
    CHECK(framingOf("Transfer-Encoding: gzip, chunked\r\n").error().offset == 36);
    CHECK_FALSE(framingOf("Connection: close\r\n")->keepAlive);
    CHECK_FALSE(framingOf("", 0)->keepAlive);
    CHECK(framingOf("Connection: Keep-Alive\r\n", 0)->keepAlive);
}

TEST_CASE("Content-Length bodies stop at their length, and the rest is the next request", "[http]")
{
    auto d = decodeEveryWay({BodyFraming::Kind::ContentLength, 5, false, true}, "helloGET / HTTP/1.1");
    CHECK(d.ok);
    CHECK(d.body == "hello");
    CHECK(d.consumed == 5);
}

TEST_CASE("chunked bodies with extensions and trailers", "[http]")
{
    const std::string wire =
        "5;name=value\r\nhello\r\n1A\r\n" + std::string(26, 'z') + "\r\n0\r\nX-Trailer: t\r\nY: u\r\n\r\nNEXT";
    auto d = decodeEveryWay(chunked(), wire);
    REQUIRE(d.ok);
    CHECK(d.body == "hello" + std::string(26, 'z'));
    CHECK(d.consumed == wire.size() - 4);
    // Inspect's Request node shows these: two data chunks (the last, empty one ends the body), and the trailer
    // lines "X-Trailer: t\r\n" (14 bytes) and "Y: u\r\n" (6), which are skipped.
    CHECK(d.chunks == 2);
    CHECK(d.trailerBytes == 20);
    auto plain = decodeEveryWay(chunked(), "0\r\n\r\n");
    CHECK(plain.ok);
    CHECK(plain.body.empty());
    CHECK(plain.chunks == 0);
    CHECK(plain.trailerBytes == 0);
}

TEST_CASE("chunked errors carry wire offsets", "[http]")
{
    CHECK(decodeEveryWay(chunked(), "zz\r\n").error.code == Errc::InvalidChunkSize);
    auto bad = decodeEveryWay(chunked(), "3\r\nabcX\r\n");
    CHECK(bad.error.code == Errc::MalformedChunk);
    CHECK(bad.error.offset == 6);
    BodyDecoder failing(chunked());
    struct : BodySink {
        void onBody(ByteView) override {}
    } ignore;
    CHECK_FALSE(failing.feed("3\r\nabcX", ignore).has_value());
    CHECK(failing.failed()); // sticky, and what a report checks before it counts wire bytes
    CHECK_FALSE(failing.done());
    CHECK_FALSE(failing.feed("\r\n", ignore).has_value());
    CHECK(decodeEveryWay(chunked(), "ffffffffffffffff\r\n").error.code == Errc::InvalidChunkSize);
    HttpLimits limits;
    limits.maxChunkExtension = 10;
    limits.maxTrailerBytes = 10;
    CHECK(decodeEveryWay(chunked(), "1;" + std::string(20, 'e') + "\r\nx\r\n0\r\n\r\n", limits).error.code ==
          Errc::ChunkExtensionTooLarge);
    CHECK(decodeEveryWay(chunked(), "0\r\nX-T: " + std::string(20, 't') + "\r\n\r\n", limits).error.code ==
          Errc::TrailerTooLarge);
}

TEST_CASE("requests a relay refuses: two Hosts, LF alone, a CR alone, in the head and in chunk lines", "[http][relay]")
{
    using upin::test::readRequestEveryWay;
    upin::test::HttpMessageOptions relay;
    relay.limits.strictLineEnds = true;
    CHECK(readRequestEveryWay("POST / HTTP/1.1\r\nHost: a\r\nHost: b\r\nContent-Length: 0\r\n\r\n") ==
          "error in head: duplicate_host at 26\n");
    CHECK(readRequestEveryWay("POST / HTTP/1.1\r\nHost: a\nContent-Length: 0\r\n\r\n", relay) ==
          "error in head: bare_line_end at 24\n");
    CHECK(readRequestEveryWay("\nPOST / HTTP/1.1\r\nHost: a\r\n\r\n", relay) == "error in head: bare_line_end at 0\n");
    // A CR no LF follows at the request line's end (hex 474554202f20485454502f312e310d0d0a...): it was trimmed away
    // as white space, and the line taken as ending in CRLF.
    CHECK(readRequestEveryWay("GET / HTTP/1.1\r\r\nHost: a\r\n\r\n", relay) == "error in head: bare_line_end at 14\n");
    CHECK(readRequestEveryWay("GET / HTTP/1.1\r\r\nHost: a\r\n\r\n") ==
          "error in head: malformed_request_line at 14\n");
    const std::string chunkedHead = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"; // 47 bytes
    CHECK(readRequestEveryWay(chunkedHead + "3\nabc\r\n0\r\n\r\n", relay)
              .ends_with("error in body: bare_line_end at 48\n"));
    // The listener, which only reads, takes them as it always has.
    CHECK(readRequestEveryWay(chunkedHead + "3\nabc\n0\n\n").ends_with("complete, 0 bytes after\n"));
    CHECK(readRequestEveryWay(chunkedHead + "3\r\nabc\r\n0\r\n\r\n", relay) ==
          "request POST / HTTP/1.1\n"
          "field \"Transfer-Encoding\" \"chunked\"\n"
          "framing chunked keep-alive\n"
          "body 3 \"abc\"\n"
          "chunks 1, trailer bytes 0\n"
          "complete, 0 bytes after\n");
}

TEST_CASE("chunk lines a relay refuses: white space before the line end, control characters in extensions and trailers",
          "[http][relay]")
{
    using upin::test::readRequestEveryWay;
    upin::test::HttpMessageOptions relay;
    relay.limits.strictLineEnds = true;
    const std::string head = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"; // 47 bytes: offsets from here
    CHECK(readRequestEveryWay(head + "3 \r\nabc\r\n0\r\n\r\n", relay)
              .ends_with("error in body: invalid_chunk_line at 49\n"));
    CHECK(readRequestEveryWay(head + "3 \t x\r\nabc\r\n0\r\n\r\n", relay)
              .ends_with("error in body: invalid_chunk_line at 51\n"));
    CHECK(readRequestEveryWay(head + "3;a=\x01\r\nabc\r\n0\r\n\r\n", relay)
              .ends_with("error in body: invalid_chunk_line at 51\n"));
    CHECK(readRequestEveryWay(head + "3\r\nabc\r\n0\r\nX-T: a\x7f\r\n\r\n", relay)
              .ends_with("error in body: invalid_chunk_line at 64\n"));
    // The first byte of a trailer line too, and a folded one (RFC 9112 5.2: obs-fold is refused by a relay).
    CHECK(readRequestEveryWay(head + "3\r\nabc\r\n0\r\n\x01X: 1\r\n\r\n", relay)
              .ends_with("error in body: invalid_chunk_line at 58\n"));
    CHECK(readRequestEveryWay(head + "3\r\nabc\r\n0\r\nX-T: 1\r\n Smuggled: 1\r\n\r\n", relay)
              .ends_with("error in body: invalid_chunk_line at 66\n"));
    // BWS before an extension, an extension with a tab, and a trailer field are passed on.
    CHECK(readRequestEveryWay(head + "3 \t;a=\"b\tc\"\r\nabc\r\n0\r\nX-T: 1\r\n\r\n", relay)
              .ends_with("chunks 1, trailer bytes 8\ncomplete, 0 bytes after\n"));
    // The listener, which only reads, takes them as it always has.
    CHECK(readRequestEveryWay(head + "3 \r\nabc\r\n0\r\n\r\n").ends_with("complete, 0 bytes after\n"));
}

TEST_CASE("a head reader's error is sticky: more bytes, even a whole head, get the same error until reset", "[http]")
{
    HeadReader reader;
    const std::string bad = "POST /x HTTP/1.1\r\nNo colon\r\n\r\n--body bytes of the same read";
    const auto first = reader.feed(bad);
    REQUIRE_FALSE(first);
    CHECK(first.error().code == Errc::InvalidHeaderField);
    for (const std::string& more : {std::string("more"), std::string("GET / HTTP/1.1\r\nHost: a\r\n\r\n")}) {
        const auto again = reader.feed(more);
        REQUIRE_FALSE(again);
        CHECK(again.error().code == first.error().code);
        CHECK(again.error().offset == first.error().offset);
    }
    reader.reset();
    const auto fresh = reader.feed("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
    REQUIRE(fresh);
    CHECK(reader.complete());
}
