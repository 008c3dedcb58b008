// The parser-related inputs of shared/ADVERSARIAL.md (numbered as there). Each is fed whole, byte by byte (up to
// 2 MiB) and in random chunks with every matcher, and must give a correct parse or the right error and offset.
// Linear time is guarded by the sizes used here (quadratic behaviour would not finish), not by timed assertions.

#include "support/chunking.h"

#include <catch2/catch.hpp>

using namespace upin::core;
using upin::test::hasDiagnostic;
using upin::test::parseLarge;

namespace {

const std::string kType = "multipart/form-data; boundary=------FormBoundary";
const std::string kOpen = "--------FormBoundary\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x\"\r\n\r\n";
const std::string kClose = "\r\n--------FormBoundary--\r\n";

} // namespace

TEST_CASE("1. the boundary never appears", "[adversarial]")
{
    std::string body(100u << 20, 'A');
    auto r = upin::test::parseChunked(kType, body, {}, {body.size()}).report;
    CHECK(r.error->code == Errc::NoDelimiter);
    CHECK(r.error->offset == body.size());
    body.resize(4u << 20);
    CHECK(parseLarge(kType, body).report.error->code == Errc::NoDelimiter);
}

TEST_CASE("2. 1 MB of CRLF before the first delimiter, 1 MB of junk after the close", "[adversarial]")
{
    std::string crlf;
    for (int i = 0; i < (1 << 19); ++i)
        crlf += "\r\n";
    auto r = parseLarge(kType, crlf + kOpen + "data" + kClose + std::string(1u << 20, 'j')).report;
    REQUIRE(r.ok);
    REQUIRE(r.parts.size() == 1);
    CHECK(r.parts[0].digest == Digest::hex(HashKind::Sha256, "data"));
    CHECK(hasDiagnostic(r, Errc::Preamble));
}

TEST_CASE("3. a part body that starts with CR or LF then runs megabytes without either", "[adversarial]")
{
    for (const char* start : {"\r", "\n"}) {
        std::string data = start + std::string(3u << 20, 'z');
        auto r = parseLarge(kType, std::string(kOpen).append(data).append(kClose)).report;
        REQUIRE(r.ok);
        CHECK(r.parts[0].size == data.size());
        CHECK(r.parts[0].digest == Digest::hex(HashKind::Sha256, data));
    }
}

TEST_CASE("4. bodies of only CRLF, only LF, or near-delimiters", "[adversarial]")
{
    std::string crlf, lf, near;
    for (int i = 0; i < 200000; ++i) {
        crlf += "\r\n";
        lf += "\n";
        near += "\r\n--------FormBoundar";
    }
    for (const auto* body : {&crlf, &lf, &near})
        CHECK(parseLarge(kType, *body).report.error->code == Errc::NoDelimiter);
    auto r = parseLarge(kType, kOpen + near + kClose).report; // near-delimiters inside a part are data
    REQUIRE(r.ok);
    CHECK(r.parts[0].size == near.size());
}

TEST_CASE("5. the boundary followed by other text is part data and never buffered", "[adversarial]")
{
    std::string data;
    for (int i = 0; i < 100000; ++i)
        data += "\r\n--------FormBoundaryX";
    auto r = parseLarge(kType, kOpen + data + kClose).report;
    REQUIRE(r.ok);
    CHECK(r.parts[0].size == data.size());
    CHECK(r.parts[0].digest == Digest::hex(HashKind::Sha256, data));
}

TEST_CASE("6. 100,000 tiny parts are stopped by the parts limit", "[adversarial][limits]")
{
    std::string body;
    for (int i = 0; i < 100000; ++i)
        body += "--------FormBoundary\r\nContent-Disposition: form-data; name=\"p\"\r\n\r\nv\r\n";
    body += "--------FormBoundary--";
    auto r = parseLarge(kType, body).report;
    REQUIRE(r.error->code == Errc::TooManyParts);
    CHECK(r.parts.size() == Options{}.maxParts);
}

TEST_CASE("7. endless headers: 10,000 lines, one 1 MB line, a block that never ends", "[adversarial][limits]")
{
    std::string lines = "--------FormBoundary\r\n";
    for (int i = 0; i < 10000; ++i)
        lines += "X-H: v\r\n";
    CHECK(parseLarge(kType, lines + "\r\n" + kClose).report.error->code == Errc::TooManyHeaders);
    std::string longLine = "--------FormBoundary\r\nX-Long: " + std::string(1u << 20, 'v') + "\r\n\r\n" + kClose;
    auto r = parseLarge(kType, longLine).report;
    CHECK(r.error->code == Errc::HeaderBlockTooLarge);
    CHECK(r.error->offset == 22 + Options{}.maxHeaderBytes);
    CHECK(parseLarge(kType, "--------FormBoundary\r\nX-A: b").report.error->code == Errc::UnexpectedEof);
}

TEST_CASE("8. one enormous non-file field is stopped by the field size limit", "[adversarial][limits]")
{
    std::string body = "--------FormBoundary\r\nContent-Disposition: form-data; name=\"big\"\r\n\r\n" +
                       std::string(3u << 20, 'f') + kClose;
    auto r = parseLarge(kType, body).report;
    REQUIRE(r.error->code == Errc::FieldTooLarge);
    CHECK(r.parts[0].size == Options{}.maxFieldSize);
}

TEST_CASE("9. first header line starting with whitespace", "[adversarial]")
{
    auto r = parseLarge(kType, "--------FormBoundary\r\n Content-Disposition: form-data; name=\"a\"\r\n\r\nv" + kClose)
                 .report;
    REQUIRE(r.ok);
    CHECK(hasDiagnostic(r, Errc::LeadingWhitespaceHeader));
}

TEST_CASE("12. an empty name and a missing Content-Disposition are reported", "[adversarial]")
{
    auto r = parseLarge(kType, "--------FormBoundary\r\nContent-Disposition: form-data; name=\"\"\r\n\r\nv\r\n"
                               "--------FormBoundary\r\nContent-Type: text/plain\r\n\r\nw" +
                                   kClose)
                 .report;
    REQUIRE(r.ok);
    REQUIRE(r.parts.size() == 2);
    CHECK(hasDiagnostic(r, Errc::EmptyFieldName));
    CHECK(hasDiagnostic(r, Errc::MissingContentDisposition));
}

TEST_CASE("13. a truncated close delimiter", "[adversarial]")
{
    std::string body = kOpen + "data\r\n------FormBoundar";
    auto r = parseLarge(kType, body).report;
    REQUIRE(r.error->code == Errc::UnexpectedEof);
    CHECK(r.error->offset == body.size());
    CHECK(r.parts[0].size == std::string("data\r\n------FormBoundar").size()); // the held bytes were kept as data
}

TEST_CASE("7b. many parts of many long header lines: the report keeps a bounded share of them", "[adversarial][limits]")
{
    // The listener's amplification probe, scaled down: 2,000 parts x 60 header lines of 230 bytes would be 27 MB
    // of headers in the report (and more in JSON). Past maxRecordedHeaderBytes they are counted, not kept.
    const std::string line = "X-Padding: " + std::string(217, 'p') + "\r\n";
    const std::string longName(1000, 'n');
    std::string body;
    for (int i = 0; i < 2000; ++i) {
        body += "--------FormBoundary\r\nContent-Disposition: form-data; name=\"" + longName + "\"\r\n";
        for (int h = 0; h < 60; ++h)
            body += line;
        body += "\r\nv\r\n";
    }
    body += "--------FormBoundary--\r\n";
    Options options;
    options.maxRecordedHeaderBytes = uint64_t{64} * 1024;
    auto r = upin::test::parseChunked(kType, body, options, {body.size(), 65536}).report;
    REQUIRE(r.ok);
    REQUIRE(r.parts.size() == 2000);
    uint64_t kept = 0;
    uint64_t counted = 0;
    for (const auto& part : r.parts) {
        for (const auto& [name, value] : part.headers)
            kept += name.size() + value.size();
        counted += part.headers.size() + part.headersNotKept;
        CHECK(part.digest == Digest::hex(HashKind::Sha256, "v")); // parsing itself is untouched
    }
    CHECK(kept <= options.maxRecordedHeaderBytes);
    CHECK(kept > options.maxRecordedHeaderBytes - 2 * line.size() - longName.size());
    CHECK(counted == uint64_t{2000} * 61);
    CHECK(r.parts.back().headersNotKept == 61);
    CHECK(r.parts.back().name->size() <= kRecordedTextCap); // past the budget, names are cut, and say so
    CHECK(r.parts.back().textCut);
    CHECK(*r.parts.front().name == longName);
    CHECK_FALSE(r.parts.front().textCut);
    size_t notKeptDiagnostics = 0;
    for (const auto& d : r.diagnostics)
        notKeptDiagnostics += d.code == Errc::HeadersNotKept;
    CHECK(notKeptDiagnostics == 1);
}

TEST_CASE("7c. many nested bodies of many parts: the report holds at most max-parts parts, nested ones included",
          "[adversarial][limits]")
{
    // Each nested body has a parser (and a parts limit) of its own; 20 of them with 1,000 parts each would record
    // 20,000 parts from a 0.5 MB body. The report's budget is shared: each nested parser gets what is left.
    std::string inner;
    for (int i = 0; i < 1000; ++i)
        inner += "--in\r\nContent-Disposition: form-data; name=\"p\"\r\n\r\nv\r\n";
    inner += "--in--";
    std::string body;
    for (int i = 0; i < 20; ++i)
        body += "--------FormBoundary\r\nContent-Disposition: form-data; name=\"n\"\r\n"
                "Content-Type: multipart/mixed; boundary=in\r\n\r\n" +
                inner + "\r\n";
    body += "--------FormBoundary--\r\n";
    Options options;
    options.maxParts = 2500;
    auto r = upin::test::parseChunked(kType, body, options, {body.size(), 4096}).report;
    REQUIRE(r.ok); // the top level is fine; nested bodies past the budget are kept as opaque data
    REQUIRE(r.parts.size() == 20);
    size_t nested = 0;
    for (const auto& part : r.parts) {
        nested += part.children.size();
        CHECK(part.digest.size() == 64);
    }
    CHECK(r.parts[1].children.size() == 1000);
    CHECK(r.parts[2].children.size() == 497); // its parser got what was left (2500 - 3 - 2000), and stopped there
    CHECK(nested + 3 == options.maxParts);
    CHECK(r.parts[3].children.empty());
    CHECK(hasDiagnostic(r, Errc::TooManyParts));
    CHECK(r.diagnostics.size() <= options.maxDiagnostics + 2);
}
