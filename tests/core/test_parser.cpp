// Parser behaviour on hand-made bodies. Every body goes through parseEveryWay: whole, byte by byte, every split,
// random chunks, all three matchers, with identical event logs.

#include "support/chunking.h"

#include <catch2/catch.hpp>

using namespace upin::core;
using upin::test::hasDiagnostic;
using upin::test::parseEveryWay;

namespace {

const std::string kType = "multipart/form-data; boundary=b";

Options strictOptions()
{
    Options options;
    options.strict = true;
    return options;
}

} // namespace

TEST_CASE("a plain form with a field and a file", "[parser]")
{
    const std::string body = "--b\r\n"
                             "Content-Disposition: form-data; name=\"field\"\r\n\r\n"
                             "value\r\n"
                             "--b\r\n"
                             "Content-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
                             "Content-Type: text/plain\r\n\r\n"
                             "line 1\r\nline 2\r\n\r\n"
                             "--b--\r\n";
    auto outcome = parseEveryWay(kType, body);
    const auto& r = outcome.report;
    REQUIRE(r.ok);
    REQUIRE(r.diagnostics.empty());
    REQUIRE(r.parts.size() == 2);
    CHECK(r.parts[0].name == "field");
    CHECK_FALSE(r.parts[0].filename.has_value());
    CHECK(r.parts[0].size == 5);
    CHECK(r.parts[0].offset == 5);
    CHECK(r.parts[0].bodyOffset == body.find("value"));
    CHECK(r.parts[0].digest == Digest::hex(HashKind::Sha256, "value"));
    CHECK(r.parts[1].filename == "a.txt");
    CHECK(r.parts[1].contentType == "text/plain");
    CHECK(r.parts[1].size == std::string("line 1\r\nline 2\r\n").size());
    CHECK(r.parts[1].headers.size() == 2);
    CHECK(r.bytes == body.size());
}

TEST_CASE("structural edge cases", "[parser]")
{
    SECTION("only the close delimiter")
    {
        auto r = parseEveryWay(kType, "--b--").report;
        REQUIRE(r.ok);
        REQUIRE(r.parts.empty());
    }
    SECTION("an empty part with no headers and no body")
    {
        auto r = parseEveryWay(kType, "--b\r\n\r\n--b--").report;
        REQUIRE(r.ok);
        REQUIRE(r.parts.size() == 1);
        CHECK(r.parts[0].size == 0);
        CHECK(r.parts[0].headers.empty());
        CHECK(r.parts[0].complete);
    }
    SECTION("an empty value whose delimiter ends at a chunk edge")
    {
        const std::string body = "--b\r\nContent-Disposition: form-data; name=\"e\"\r\n\r\n\r\n--b--";
        auto r = parseEveryWay(kType, body).report;
        REQUIRE(r.ok);
        REQUIRE(r.parts.size() == 1);
        CHECK(r.parts[0].size == 0);
    }
    SECTION("headers followed directly by the delimiter: empty body (RFC 2046 makes the body's CRLF optional)")
    {
        auto r = parseEveryWay(kType, "--b\r\nContent-Disposition: form-data; name=\"e\"\r\n\r\n--b--").report;
        REQUIRE(r.ok);
        REQUIRE(r.parts.size() == 1);
        CHECK(r.parts[0].size == 0);
    }
    SECTION("preamble and epilogue are skipped; the preamble is reported")
    {
        const std::string body =
            "junk before\r\n--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b--\r\nepilogue junk";
        auto r = parseEveryWay(kType, body).report;
        REQUIRE(r.ok);
        REQUIRE(r.parts.size() == 1);
        CHECK(r.parts[0].size == 1);
        REQUIRE(hasDiagnostic(r, Errc::Preamble));
        CHECK(r.diagnostics[0].value == std::string("junk before").size());
    }
    SECTION("transport padding after a delimiter")
    {
        auto r =
            parseEveryWay(kType, "--b  \t\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b-- \r\n").report;
        REQUIRE(r.ok);
        REQUIRE(r.diagnostics.empty());
        REQUIRE(r.parts.size() == 1);
    }
    SECTION("a line that only starts with the delimiter is data (Go's --sepFAKE)")
    {
        const std::string body =
            "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--bFAKE\r\n--b-y\r\n--b--";
        auto r = parseEveryWay(kType, body).report;
        REQUIRE(r.ok);
        REQUIRE(r.parts.size() == 1);
        CHECK(r.parts[0].size == std::string("x\r\n--bFAKE\r\n--b-y").size());
        CHECK(r.parts[0].digest == Digest::hex(HashKind::Sha256, "x\r\n--bFAKE\r\n--b-y"));
    }
    SECTION("a body part may contain CRs and LFs right before the delimiter")
    {
        const std::string data = "\r\r\n\n\r";
        auto r = parseEveryWay(kType, "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n" + data + "\r\n--b--")
                     .report;
        REQUIRE(r.ok);
        CHECK(r.parts[0].digest == Digest::hex(HashKind::Sha256, data));
    }
}

TEST_CASE("lenient mode reports irregularities, strict mode rejects them", "[parser]")
{
    struct Case {
        const char* what;
        std::string body;
        Errc code;
    };
    const Case cases[] = {
        {"bare LF line endings", "--b\nContent-Disposition: form-data; name=\"a\"\n\nx\n--b--\n", Errc::BareLineFeed},
        {"missing close delimiter", "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b\r\n",
         Errc::MissingCloseDelimiter},
        {"header block ended by the next delimiter", "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n--b--",
         Errc::HeadersEndedByDelimiter},
        {"text after a delimiter", "--b  x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b--",
         Errc::TextAfterDelimiter},
        {"header name with a space",
         "--b\r\nBad Name: v\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b--", Errc::InvalidHeaderName},
        {"header line without a colon", "--b\r\nno colon here\r\n\r\nx\r\n--b--", Errc::MalformedHeader},
        {"CR inside a header line", "--b\r\nContent-Disposition: form-data;\r name=\"a\"\r\n\r\nx\r\n--b--",
         Errc::MalformedHeader},
        {"first header line starts with whitespace", "--b\r\n  folded: nothing\r\n\r\nx\r\n--b--",
         Errc::LeadingWhitespaceHeader},
        {"control byte in a header value",
         "--b\r\nContent-Disposition: form-data; name=\"a\"\r\nX-Note: a\x1b"
         "b\r\n\r\nx\r\n--b--",
         Errc::ControlByteInHeader},
    };
    for (const auto& c : cases) {
        INFO(c.what);
        auto lenient = parseEveryWay(kType, c.body).report;
        CHECK(lenient.ok);
        CHECK(hasDiagnostic(lenient, c.code));
        auto strict = parseEveryWay(kType, c.body, strictOptions()).report;
        REQUIRE_FALSE(strict.ok);
        CHECK(strict.error->code == c.code);
    }
}

TEST_CASE("errors carry the byte offset where the input went wrong", "[parser]")
{
    SECTION("truncated in a part body")
    {
        const std::string body = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhello\r\n--";
        auto r = parseEveryWay(kType, body).report;
        REQUIRE_FALSE(r.ok);
        CHECK(r.error->code == Errc::UnexpectedEof);
        CHECK(r.error->offset == body.size());
        REQUIRE(r.parts.size() == 1);
        CHECK_FALSE(r.parts[0].complete);
        CHECK(r.parts[0].size == std::string("hello\r\n--").size()); // nothing received is lost
    }
    SECTION("truncated in part headers")
    {
        auto r = parseEveryWay(kType, "--b\r\nContent-Disp").report;
        REQUIRE_FALSE(r.ok);
        CHECK(r.error->code == Errc::UnexpectedEof);
    }
    SECTION("no delimiter at all")
    {
        auto r = parseEveryWay(kType, "just some text").report;
        REQUIRE_FALSE(r.ok);
        CHECK(r.error->code == Errc::NoDelimiter);
    }
}

TEST_CASE("limits stop oversized input and name the limit", "[parser][limits]")
{
    Options options;
    options.maxParts = 3;
    options.maxHeaderBytes = 100;
    options.maxHeadersPerPart = 4;
    options.maxFieldSize = 10;
    options.maxPartSize = 20;
    std::string part = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n";
    SECTION("parts")
    {
        std::string body = part + part + part + part + "--b--";
        auto r = parseEveryWay(kType, body, options).report;
        REQUIRE(r.error->code == Errc::TooManyParts);
        CHECK(r.error->offset == 3 * part.size() + 5);
        CHECK(r.parts.size() == 3);
    }
    SECTION("header bytes")
    {
        auto r = parseEveryWay(kType, "--b\r\nX-Long: " + std::string(200, 'v') + "\r\n\r\n--b--", options).report;
        REQUIRE(r.error->code == Errc::HeaderBlockTooLarge);
        CHECK(r.error->offset == 5 + 100);
    }
    SECTION("header count")
    {
        std::string headers;
        for (int i = 0; i < 5; ++i)
            headers += "X-" + std::to_string(i) + ": v\r\n";
        auto r = parseEveryWay(kType, "--b\r\n" + headers + "\r\n--b--", options).report;
        REQUIRE(r.error->code == Errc::TooManyHeaders);
    }
    SECTION("field size")
    {
        std::string body =
            "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n" + std::string(11, 'f') + "\r\n--b--";
        auto r = parseEveryWay(kType, body, options).report;
        REQUIRE(r.error->code == Errc::FieldTooLarge);
        CHECK(r.error->offset == body.find("ffff") + 10);
        CHECK(r.parts[0].size == 10);
    }
    SECTION("file part size")
    {
        std::string body = "--b\r\nContent-Disposition: form-data; name=\"a\"; filename=\"f\"\r\n\r\n" +
                           std::string(25, 'f') + "\r\n--b--";
        auto r = parseEveryWay(kType, body, options).report;
        REQUIRE(r.error->code == Errc::PartTooLarge);
    }
    SECTION("body size")
    {
        options.maxBodySize = 30;
        auto r = parseEveryWay(kType, part + part, options).report;
        REQUIRE(r.error->code == Errc::BodyTooLarge);
        CHECK(r.error->offset == 30);
    }
}

TEST_CASE("boundaries from Content-Type", "[parser][boundary]")
{
    CHECK(MultipartParser::fromContentType("multipart/form-data; boundary=\"quoted b\"").has_value());
    CHECK(MultipartParser::fromContentType("Multipart/Form-Data; charset=utf-8; BOUNDARY=abc").value().boundary() ==
          "abc");
    CHECK(MultipartParser::fromContentType("text/plain; boundary=abc").error().code == Errc::NotMultipart);
    CHECK(MultipartParser::fromContentType("multipart/form-data").error().code == Errc::MissingBoundary);
    CHECK(MultipartParser::fromContentType("multipart/form-data; boundary=\"\"").error().code == Errc::InvalidBoundary);
    CHECK(MultipartParser::fromContentType("multipart/form-data; boundary=a{b}", strictOptions()).error().code ==
          Errc::InvalidBoundary);
    CHECK(MultipartParser::fromContentType("multipart/form-data; boundary=a\tb").error().code == Errc::InvalidBoundary);
    for (size_t length : {1u, 70u})
        CHECK(MultipartParser::fromBoundary(std::string(length, 'x')).has_value());
    for (size_t length : {71u, 256u, 257u, 1024u, 4096u})
        CHECK(MultipartParser::fromBoundary(std::string(length, 'x')).error().code == Errc::BoundaryTooLong);
    Options raised;
    raised.maxBoundaryLength = 1000; // capped at kMaxBoundaryCap
    CHECK(MultipartParser::fromBoundary(std::string(256, 'x'), raised).has_value());
    CHECK(MultipartParser::fromBoundary(std::string(257, 'x'), raised).error().code == Errc::BoundaryTooLong);
    std::string body = "--" + std::string(256, 'x') + "\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--" +
                       std::string(256, 'x') + "--";
    auto r = parseEveryWay("multipart/form-data; boundary=" + std::string(256, 'x'), body, raised).report;
    REQUIRE(r.ok);
    CHECK(r.parts.size() == 1);
}

TEST_CASE("boundary guessed from the first delimiter line", "[parser][boundary]")
{
    CHECK(MultipartParser::guessBoundary("\r\n--abc123 \r\nContent-Disposition: x\r\n") == "abc123");
    CHECK(MultipartParser::guessBoundary("no delimiter\r\n--abc\r\n").empty());
    CHECK(MultipartParser::guessBoundary("--abc").empty()); // the line must be complete
}

TEST_CASE("nested multipart is reported with its children", "[parser][nested]")
{
    const std::string inner =
        "--in\r\nContent-Type: text/plain\r\n\r\nplain\r\n--in\r\nContent-Type: text/html\r\n\r\n<b>x</b>\r\n--in--";
    const std::string body =
        "--b\r\nContent-Disposition: form-data; name=\"m\"\r\nContent-Type: multipart/mixed; boundary=in\r\n\r\n" +
        inner + "\r\n--b--";
    auto r = parseEveryWay(kType, body).report;
    REQUIRE(r.ok);
    REQUIRE(r.parts.size() == 1);
    CHECK(r.parts[0].size == inner.size());
    REQUIRE(r.parts[0].children.size() == 2);
    CHECK(r.parts[0].children[0].digest == Digest::hex(HashKind::Sha256, "plain"));
    CHECK(r.parts[0].children[1].contentType == "text/html");
    CHECK(r.parts[0].children[1].bodyOffset == body.find("<b>"));

    Options shallow;
    shallow.maxDepth = 0;
    auto flat = parseEveryWay(kType, body, shallow).report;
    CHECK(flat.parts[0].children.empty());
    CHECK(hasDiagnostic(flat, Errc::NestingTooDeep));
}

TEST_CASE("a boundary outside bchars: taken as written in lenient mode, rejected in strict mode", "[parser][boundary]")
{
    // Sent unquoted by some clients and test suites; backslash and slash are outside RFC 2046's bchars.
    const std::string type = R"(multipart/form-data; boundary=\/\/\/\/)";
    const std::string body = "--\\/\\/\\/\\/\r\n"
                             "Content-Disposition: form-data; name=\"a\"\r\n\r\n"
                             "value\r\n"
                             "--\\/\\/\\/\\/--\r\n";
    auto r = parseEveryWay(type, body).report;
    REQUIRE(r.ok);
    REQUIRE(r.parts.size() == 1);
    CHECK(r.parts[0].digest == Digest::hex(HashKind::Sha256, "value"));
    CHECK(r.boundary == R"(\/\/\/\/)");
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].code == Errc::InvalidBoundary);
    CHECK(r.diagnostics[0].offset == 0);
    auto strict = MultipartParser::fromContentType(type, strictOptions());
    REQUIRE_FALSE(strict.has_value());
    CHECK(strict.error().code == Errc::InvalidBoundary);
}

TEST_CASE("a recorder that keeps no header lines still names every part as the full one does", "[parser]")
{
    const std::string body = "--b\r\n"
                             "Content-Disposition: form-data; name=\"field\"\r\n\r\n"
                             "value\r\n"
                             "--b\r\n"
                             "Content-Disposition: form-data; name=\"file\"; filename*=UTF-8''%C3%A9.txt\r\n"
                             "Content-Type: text/plain; charset=utf-8\r\n"
                             "X-Extra: 1\r\n\r\n"
                             "data\r\n"
                             "--b--\r\n";
    auto report = [&](bool keepHeaders) {
        auto parser = MultipartParser::fromContentType(kType, {});
        REQUIRE(parser.has_value());
        EventRecorder recorder({HashKind::None, false, {}, keepHeaders});
        REQUIRE(parser->feed({body.data(), body.size()}, recorder));
        REQUIRE(parser->finish(recorder));
        return recorder.takeReport(Result<void>{}, *parser);
    };
    const ParseReport full = report(true);
    const ParseReport names = report(false);
    REQUIRE(names.parts.size() == 2);
    CHECK(full.parts[1].headers.size() == 3);
    for (const auto& part : names.parts)
        CHECK(part.headers.empty());
    for (size_t i = 0; i < 2; ++i) {
        CHECK(names.parts[i].name == full.parts[i].name);
        CHECK(names.parts[i].filename == full.parts[i].filename);
        CHECK(names.parts[i].contentType == full.parts[i].contentType);
        CHECK(names.parts[i].size == full.parts[i].size);
    }
    CHECK(names.parts[1].filename == "\xc3\xa9.txt");
}

TEST_CASE("folded header lines join their field's value with one space, and the fields around them are untouched",
          "[parser]")
{
    const std::string body = "--b\r\n"
                             "Content-Disposition: form-data;\r\n"
                             " name=\"f\"; filename=\"a.txt\"\r\n"
                             "X-Empty:\r\n"
                             "\tfirst  \r\n"
                             "   second\r\n"
                             "Content-Type:   text/plain   \r\n"
                             "X-Last: z\r\n\r\n"
                             "data\r\n--b--";
    const auto& r = parseEveryWay(kType, body).report;
    REQUIRE(r.ok);
    REQUIRE(r.parts.size() == 1);
    using Field = std::pair<std::string, std::string>;
    CHECK(r.parts[0].headers == std::vector<Field>{{"Content-Disposition", "form-data; name=\"f\"; filename=\"a.txt\""},
                                                   {"X-Empty", "first second"},
                                                   {"Content-Type", "text/plain"},
                                                   {"X-Last", "z"}});
    CHECK(r.parts[0].filename == "a.txt");
    CHECK(r.parts[0].contentType == "text/plain");
}
