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
}
