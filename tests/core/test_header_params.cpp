#include "upin/core/header_params.h"

#include <catch2/catch.hpp>

using namespace upin::core;

TEST_CASE("Content-Disposition parameters in any order, quoted or not, with escapes", "[headers]")
{
    auto cd = parseContentDisposition(R"(form-data; filename="a \"q\" b.txt"; name=field)");
    CHECK(cd.type == "form-data");
    CHECK(cd.name == "field");
    CHECK(cd.filename == "a \"q\" b.txt");
    CHECK(parseContentDisposition("form-data; name=\"\"").name == "");
    CHECK_FALSE(parseContentDisposition("form-data").name.has_value());
    CHECK(parseContentDisposition("form-data; name=\"a;b\"; filename=x").name == "a;b");
}

TEST_CASE("RFC 5987 filename* is decoded and wins over filename", "[headers]")
{
    auto cd = parseContentDisposition("attachment; filename=\"plain.txt\"; filename*=UTF-8''%e2%82%ac%20rates.txt");
    CHECK(cd.filename == "\xe2\x82\xac rates.txt");
    CHECK(decodeExtValue("iso-8859-1'en'%A3") == "\xc2\xa3");
    CHECK_FALSE(decodeExtValue("UTF-8''%zz").has_value());
    CHECK_FALSE(decodeExtValue("no quotes").has_value());
    // an undecodable filename* falls back to filename
    CHECK(parseContentDisposition("form-data; filename=\"p\"; filename*=koi8-r''x").filename == "p");
}

TEST_CASE("name* is decoded and wins over name, as Go's mime/multipart reads it", "[headers]")
{
    CHECK(parseContentDisposition("form-data; name*=UTF-8''%C3%A9t%C3%A9").name == "\xc3\xa9t\xc3\xa9");
    CHECK(parseContentDisposition("form-data; name=\"ete\"; name*=UTF-8''%C3%A9t%C3%A9").name == "\xc3\xa9t\xc3\xa9");
    CHECK(parseContentDisposition("form-data; NAME*=utf-8''a; name=b").name == "a");
    CHECK(parseContentDisposition("form-data; name=\"p\"; name*=koi8-r''x").name == "p"); // undecodable: name
    CHECK_FALSE(parseContentDisposition("form-data; name*=UTF-8''%zz").name.has_value());
    CHECK(parseContentDisposition("form-data; name*=us-ascii''abc").name == "abc"); // Go and werkzeug decode it
    CHECK_FALSE(parseContentDisposition("form-data; name*=us-ascii''%E9").name.has_value()); // not ASCII
    CHECK(dispositionFacts("form-data; name*=UTF-8''a").named);
    CHECK(dispositionFacts("form-data; name=\"b\"; name*=UTF-8''a").namedByExtValue);
    CHECK_FALSE(dispositionFacts("form-data; name=\"b\"; name*=koi8-r''a").namedByExtValue); // b: not by name*
    CHECK_FALSE(dispositionFacts("form-data; name=\"b\"").namedByExtValue);
    CHECK_FALSE(dispositionFacts("form-data; name=\"a\"; name*=UTF-8''").named); // it wins, and it is empty
}

TEST_CASE("RFC 2231 pieces are joined as Go's mime package joins them", "[headers]")
{
    // Each value's name and filename as Go 1.19's mime.ParseMediaType gives them (run by hand on these values).
    const struct {
        const char* value;
        std::optional<std::string> name;
        bool fromExt = true; // from name* or the pieces, else from the plain name or none
    } cases[] = {
        {"form-data; name*0=\"ab\"; name*1=\"cd\"", "abcd"},
        {"form-data; name*1=\"cd\"; name*0=\"ab\"", "abcd"},             // in any order
        {"form-data; NAME*0=\"ab\"; Name*1=\"c\"", "abc"},               // names in any case
        {"form-data; name=\"x\"; name*0=\"ab\"; name*1=\"cd\"", "abcd"}, // over the plain name
        {"form-data; name*0*=UTF-8''%C3%A9; name*1=\"t\"; name*2*=%C3%A9", "\xc3\xa9t\xc3\xa9"},
        {"form-data; name*=UTF-8''z; name*0=\"ab\"", "z"},                     // name* wins
        {"form-data; name=\"q\"; name*=koi8-r''z; name*0=\"ab\"", "q", false}, // even when it does not decode
        {"form-data; name*1=\"cd\"", std::nullopt, false},                     // no piece 0: none
        {"form-data; name*0=\"ab\"; name*2=\"cd\"", "ab"},                     // to the first missing index
        {"form-data; name*0=\"ab\"; name*01=\"cd\"", "ab"},                    // 01 is no index
        {"form-data; name*0*=koi8-r''ab; name*1=\"cd\"", "cd"},                // an undecodable piece adds nothing
        {"form-data; name*0*=UTF-8''%zz; name*1=\"x\"", "x"},
        {"form-data; name=\"x\"; name*0*=koi8-r''ab", ""},               // and still wins, empty
        {"form-data; name*0=\"a%41\"; name*1*=%42", "a%41B"},            // a plain piece is not decoded
        {"form-data; name*0*=utf-8''a; name*0=b", "b"},                  // at one index, the plain piece
        {"form-data; name*0*=us-ascii''a; name*1*=%C3%A9", "a\xc3\xa9"}, // later pieces: bytes, no charset
    };
    for (const auto& c : cases) {
        INFO(c.value);
        const ContentDisposition cd = parseContentDisposition(c.value);
        CHECK(cd.name == c.name);
        CHECK(cd.nameFromExtValue == c.fromExt);
        CHECK(dispositionFacts(c.value).namedByExtValue == c.fromExt);
    }
    const auto withFile = parseContentDisposition("form-data; name=\"a\"; filename*0=\"f1\"; filename*1=\".txt\"");
    CHECK(withFile.filename == "f1.txt");
    CHECK_FALSE(withFile.nameFromExtValue);
    CHECK(parseContentDisposition("form-data; filename=\"p\"; filename*0=\"q\"").filename == "q");
    CHECK(parseContentDisposition("form-data; filename*=UTF-8''r; filename*0=\"q\"").filename == "r");
    CHECK(dispositionFacts("form-data; filename*0=\"q\"").hasFilename);
}

TEST_CASE("hostile parameter values cost linear time and do not crash", "[headers][adversarial]")
{
    std::string value = "form-data; name=\"" + std::string(200000, '\\');
    auto cd = parseContentDisposition(value);
    REQUIRE(cd.name.has_value());
    CHECK(cd.name->size() == 100000); // each quoted-pair is one backslash
    std::string many = "form-data";
    for (int i = 0; i < 10000; ++i)
        many += "; p" + std::to_string(i) + "=\"";
    CHECK(parseHeaderValue(many).token == "form-data");
    std::string pieces = "form-data"; // 20,000 pieces, last first: sorted once, joined once
    for (int i = 19999; i >= 0; --i)
        pieces += "; name*" + std::to_string(i) + "=x";
    CHECK(parseContentDisposition(pieces).name == std::string(20000, 'x'));
}

TEST_CASE("the first of repeated parameters counts, names in any case, as parseHeaderValue finds them", "[headers]")
{
    const std::string values[] = {
        R"(form-data; NAME="a"; name="b"; FileName="f1"; filename="f2")",
        R"(form-data; filename*=UTF-8''x%41; Filename*=UTF-8''y; filename=z)",
        R"(Form-Data ; name = "C:\files\a.txt" junk; filename="\\server\share\")",
        R"(form-data; name="unterminated \" quote; filename=x)",
        R"(form-data; =v; ; name; filename=; name=late)",
    };
    for (const auto& value : values) {
        INFO(value);
        const ContentDisposition cd = parseContentDisposition(value);
        const HeaderValue parsed = parseHeaderValue(value);
        CHECK(cd.type == parsed.token);
        const std::string* name = parsed.param("name");
        CHECK(cd.name == (name ? std::optional(*name) : std::nullopt));
        const std::string* ext = parsed.param("filename*");
        const std::string* plain = parsed.param("filename");
        std::optional<std::string> filename = ext ? decodeExtValue(*ext) : std::nullopt;
        if (!filename && plain)
            filename = *plain;
        CHECK(cd.filename == filename);
    }
    CHECK(parseContentDisposition(values[0]).name == "a");
    CHECK(parseContentDisposition(values[0]).filename == "f1");
    CHECK(parseContentDisposition(values[1]).filename == "xA");
    CHECK(parseContentDisposition(values[2]).type == "form-data");
    CHECK(parseContentDisposition(values[2]).name == R"(C:\files\a.txt)");
    CHECK(parseContentDisposition(values[2]).filename == R"(\server\share")"); // the last quote escaped: to the end
    CHECK(parseContentDisposition(values[3]).name == "unterminated \" quote; filename=x");
    CHECK(parseContentDisposition(values[4]).name == "");
    CHECK(parseContentDisposition(values[4]).filename == "");
    // Each of these gives a parameter twice, in any case: said, since Go refuses such a header and werkzeug takes
    // the last. The third gives each once.
    CHECK(parseContentDisposition(values[0]).repeatedParameter);
    CHECK(parseContentDisposition(values[1]).repeatedParameter);
    CHECK_FALSE(parseContentDisposition(values[2]).repeatedParameter);
    CHECK(parseContentDisposition(values[4]).repeatedParameter);
    // name and name*, filename and filename*, and the pieces beside them are each a different parameter.
    CHECK_FALSE(parseContentDisposition(R"(form-data; name=a; name*=UTF-8''b; filename=c; filename*=UTF-8''d)")
                    .repeatedParameter);
    CHECK_FALSE(parseContentDisposition("form-data; name=a; name*0=b; name*1=c").repeatedParameter);
}

TEST_CASE("dispositionFacts finds a name and a filename where parseContentDisposition does", "[headers]")
{
    // Values made of the pieces that decide: names in any case, repeats, empty and escaped values, a filename* that
    // does or does not decode, quotes left open, and the common shape that is read without the general walk (one name
    // and one filename, quoted). 20,000 of them, each checked against the parser that makes strings.
    const std::string_view pieces[] = {
        "; name=a",
        "; NAME=\"\"",
        "; name=",
        "; name=\"\\\"\"",
        "; filename=f",
        "; FileName=",
        "; filename*=UTF-8''x%41",
        "; filename*=koi8-r''x",
        "; filename*=UTF-8''%zz",
        "; name=\"a;b",
        "; =v",
        " ; x=\"y\"",
        "; name",
        "; name=\"f1\"",
        "; name=\"a\\\"",
        "; name=\"\"",
        "; filename=\"a b;c.txt\"",
        "; filename=\"C:\\x\"",
        "; filename=\"\"",
        "; name*=UTF-8''%C3%A9",
        "; Name*=UTF-8''",
        "; name*=koi8-r''x",
        "; name*=\"UTF-8''q\"",
        "; name*0=a",
        "; name*1*=%41",
        "; name*0*=UTF-8''",
        "; filename*0=\"\"",
        "; filename*1=x",
    };
    uint64_t state = 0x9E3779B97F4A7C15ull;
    for (int n = 0; n < 20000; ++n) {
        std::string value = "form-data";
        for (uint64_t k = 0, count = 1 + state % 4; k < count; ++k) {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            value += pieces[state % std::size(pieces)];
        }
        INFO(value);
        const ContentDisposition cd = parseContentDisposition(value);
        const DispositionFacts facts = dispositionFacts(value);
        REQUIRE(facts.named == (cd.name && !cd.name->empty()));
        REQUIRE(facts.hasFilename == cd.filename.has_value());
        REQUIRE(facts.namedByExtValue == cd.nameFromExtValue);
        REQUIRE(facts.repeatedParameter == cd.repeatedParameter);
    }
    CHECK(dispositionFacts("form-data; name=\"\\\\\"").named);
    CHECK_FALSE(dispositionFacts("form-data; name=\"\"; name=b").named);
    CHECK(dispositionFacts("form-data; filename*=koi8-r''x; filename=p").hasFilename);
    CHECK_FALSE(dispositionFacts("form-data; filename*=koi8-r''x").hasFilename);
}
