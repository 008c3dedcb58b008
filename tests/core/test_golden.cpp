// Golden event logs for the parser's trickiest places, written out by hand with their offsets (llhttp's way).
// parseEveryWay already proves that every matcher and every chunking give the same log; these prove that the log
// is the right one, so a mistake that every matcher makes the same way still fails. Offsets are absolute body
// offsets: "begin" is where a part's header block starts, "headers" where its data starts, "end" where its data
// ends (the CRLF before the next delimiter belongs to the delimiter).

#include "support/chunking.h"

#include <catch2/catch.hpp>

using namespace upin::core;
using upin::test::joinLog;
using upin::test::parseEveryWay;

namespace {

std::string end(uint64_t offset, std::string_view data)
{
    return "end @" + std::to_string(offset) + " size " + std::to_string(data.size()) + " " +
           Digest::hex(HashKind::Sha256, data);
}

void expectLog(std::string_view boundary, std::string_view body, const std::vector<std::string>& expected)
{
    auto outcome = parseEveryWay("multipart/form-data; boundary=" + std::string(boundary), body);
    REQUIRE(outcome.report.ok);
    CHECK(joinLog(outcome.log) == joinLog(expected));
}

} // namespace

TEST_CASE("golden: a body that starts with its delimiter (the virtual CRLF before the first one)", "[parser][golden]")
{
    // RFC 2046 puts a CRLF before every delimiter; the first has none in the body, so the parser acts as if one
    // had been seen. The part starts after "--b\r\n", at 5.
    expectLog(
        "b", "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b--",
        {"begin 0 @5", "header Content-Disposition: form-data; name=\"a\"", "headers @49", "data 1", end(50, "x")});
}

TEST_CASE("golden: a CR at the end of part data is held, then released as data", "[parser][golden]")
{
    // "ab\r" then "\r\n--b--": the first CR could begin the delimiter until the second CR proves it data.
    expectLog(
        "b", "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nab\r\r\n--b--",
        {"begin 0 @5", "header Content-Disposition: form-data; name=\"a\"", "headers @49", "data 3", end(52, "ab\r")});
}

TEST_CASE("golden: delimiter prefixes inside data, cut at every chunk edge, stay data", "[parser][golden]")
{
    // "\r\n--boun" (a prefix), "\r\n--bounD" (one byte off) and "\r\n-" are all data; only "\r\n--bound--" closes.
    expectLog("bound",
              "--bound\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n1\r\n--boun\r\n--bounD\r\n-\r\n--bound--",
              {"begin 0 @9", "header Content-Disposition: form-data; name=\"f\"", "headers @53", "data 21",
               end(74, "1\r\n--boun\r\n--bounD\r\n-")});
}

TEST_CASE("golden: a boundary that ends in dashes, so its close delimiter ends in four", "[parser][golden]")
{
    // boundary "b--": "--b--" opens a part (it is the delimiter, not a close), "--b----" closes. The data "--b-" of
    // the first part is a delimiter prefix; the second part is empty, its data ends where it starts.
    expectLog("b--",
              "--b--\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n--b-\r\n--b--\r\n"
              "Content-Disposition: form-data; name=\"c\"\r\n\r\n\r\n--b----",
              {"begin 0 @7", "header Content-Disposition: form-data; name=\"a\"", "headers @51", "data 4",
               end(55, "--b-"), "begin 1 @64", "header Content-Disposition: form-data; name=\"c\"", "headers @108",
               end(108, "")});
}

TEST_CASE("golden: preamble and epilogue", "[parser][golden]")
{
    // "pre\r\n" before the first delimiter is reported (offset 0, 3 bytes of text); "\r\npost" after the close
    // delimiter is ignored without a word, as RFC 2046 says.
    expectLog("b", "pre\r\n--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b--\r\npost",
              {"diag preamble @0 = 3", "begin 0 @10", "header Content-Disposition: form-data; name=\"a\"",
               "headers @54", "data 1", end(55, "x")});
}
