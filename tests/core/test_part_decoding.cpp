// Golden tests for a part's Content-Transfer-Encoding decoder: each encoded input, fed whole and in every split
// into two pieces and byte by byte, gives the same decoded bytes, or the same error at the same offset with the
// bytes before it decoded.

#include "upin/core/part_decoding.h"

#include <catch2/catch.hpp>

using namespace upin::core;

namespace {

struct Decoded {
    std::string bytes;
    std::optional<Error> error;
    bool operator==(const Decoded& o) const
    {
        return bytes == o.bytes && bool(error) == bool(o.error) &&
               (!error || (error->code == o.error->code && error->offset == o.error->offset));
    }
};

Decoded decodeIn(PartEncoding encoding, std::string_view input, const std::vector<size_t>& cuts)
{
    PartDecoder decoder(encoding);
    Decoded d;
    size_t at = 0;
    for (size_t cut : cuts) {
        if (auto r = decoder.feed(input.substr(at, cut - at), d.bytes); !r) {
            d.error = r.error();
            return d;
        }
        at = cut;
    }
    auto r = decoder.feed(input.substr(at), d.bytes);
    if (r)
        r = decoder.finish(d.bytes);
    if (!r)
        d.error = r.error();
    return d;
}

// Whole, every two-piece split, and byte by byte must agree; the whole reading is returned.
Decoded decode(PartEncoding encoding, std::string_view input)
{
    Decoded whole = decodeIn(encoding, input, {});
    for (size_t cut = 1; cut < input.size(); ++cut)
        REQUIRE(decodeIn(encoding, input, {cut}) == whole);
    std::vector<size_t> every;
    for (size_t cut = 1; cut < input.size(); ++cut)
        every.push_back(cut);
    REQUIRE(decodeIn(encoding, input, every) == whole);
    return whole;
}

void checkError(PartEncoding encoding, std::string_view input, Errc code, uint64_t offset, std::string_view before)
{
    INFO(input);
    const Decoded d = decode(encoding, input);
    REQUIRE(d.error);
    CHECK(d.error->code == code);
    CHECK(d.error->offset == offset);
    CHECK(d.bytes == before);
}

} // namespace

TEST_CASE("Content-Transfer-Encoding names", "[decoding]")
{
    CHECK(partEncodingFromName("") == PartEncoding::Identity);
    CHECK(partEncodingFromName(" 8BIT ") == PartEncoding::Identity);
    CHECK(partEncodingFromName("binary") == PartEncoding::Identity);
    CHECK(partEncodingFromName("Base64") == PartEncoding::Base64);
    CHECK(partEncodingFromName("quoted-printable") == PartEncoding::QuotedPrintable);
    CHECK_FALSE(partEncodingFromName("x-uuencode").has_value());
    CHECK(partEncodingName(PartEncoding::QuotedPrintable) == "quoted-printable");
}

TEST_CASE("base64 decodes in any pieces, with line breaks and without padding", "[decoding]")
{
    const auto b64 = PartEncoding::Base64;
    CHECK(decode(b64, "").bytes.empty());
    CHECK(decode(b64, "aGVsbG8gd29ybGQ=").bytes == "hello world");
    CHECK(decode(b64, "aGVs\r\nbG8g\r\nd29y bGQ=\r\n").bytes == "hello world");
    CHECK(decode(b64, "aGVsbG8gd29ybGQ").bytes == "hello world"); // padding left out
    CHECK(decode(b64, "YQ==").bytes == "a");
    CHECK(decode(b64, "YQ").bytes == "a");
    CHECK(decode(b64, "YWI=").bytes == "ab");
    CHECK(decode(b64, "/+8A").bytes == std::string("\xff\xef\x00", 3));
    CHECK(decode(b64, "YQ==\r\n\r\n").bytes == "a");
}

TEST_CASE("base64 errors say which byte, and keep what was decoded before it", "[decoding]")
{
    const auto b64 = PartEncoding::Base64;
    checkError(b64, "aGVs*G8=", Errc::InvalidBase64, 4, "hel");
    checkError(b64, "YQ==YQ==", Errc::InvalidBase64, 4, "");
    checkError(b64, "=", Errc::InvalidBase64, 0, "");
    checkError(b64, "aGVs=", Errc::InvalidBase64, 4, "hel");
    checkError(b64, "YWI==", Errc::InvalidBase64, 4, "");
    checkError(b64, "aGVsY", Errc::InvalidBase64, 5, "hel"); // one character cannot be a byte
    checkError(b64, std::string("YQ\0", 3), Errc::InvalidBase64, 2, "");
}

TEST_CASE("quoted-printable decodes escapes and soft breaks, and drops trailing white space", "[decoding]")
{
    const auto qp = PartEncoding::QuotedPrintable;
    CHECK(decode(qp, "caf=C3=A9").bytes == "caf\xc3\xa9");
    CHECK(decode(qp, "caf=c3=a9").bytes == "caf\xc3\xa9"); // lower-case hex, as some encoders write it
    CHECK(decode(qp, "a long line=\r\nwrapped").bytes == "a long linewrapped");
    CHECK(decode(qp, "soft with padding=  \r\nnext").bytes == "soft with paddingnext");
    CHECK(decode(qp, "unix soft=\nbreak").bytes == "unix softbreak");
    CHECK(decode(qp, "line one   \r\nline two\t\r\n").bytes == "line one\r\nline two\r\n");
    CHECK(decode(qp, "inner  spaces stay").bytes == "inner  spaces stay");
    CHECK(decode(qp, "ends with spaces  ").bytes == "ends with spaces");
    CHECK(decode(qp, "ends soft=").bytes == "ends soft");
    CHECK(decode(qp, "=3D=0D=0A").bytes == "=\r\n");
}

TEST_CASE("quoted-printable errors point at the '=' that began them", "[decoding]")
{
    const auto qp = PartEncoding::QuotedPrintable;
    checkError(qp, "ab=ZZcd", Errc::InvalidQuotedPrintable, 2, "ab");
    checkError(qp, "ab=4Z", Errc::InvalidQuotedPrintable, 2, "ab");
    checkError(qp, "ab=4", Errc::InvalidQuotedPrintable, 2, "ab");
    checkError(qp, "x = y\r\n", Errc::InvalidQuotedPrintable, 2, "x ");
    checkError(qp, "x=\rY", Errc::InvalidQuotedPrintable, 1, "x");
}

TEST_CASE("held white space stays bounded: a long run is data, not memory", "[decoding][adversarial]")
{
    PartDecoder decoder(PartEncoding::QuotedPrintable);
    std::string out;
    const std::string spaces(1 << 20, ' ');
    REQUIRE(decoder.feed(spaces, out));
    CHECK(out.size() >= spaces.size() - 1024);
    REQUIRE(decoder.feed("x", out));
    CHECK(out == spaces + "x");
}

TEST_CASE("an error is sticky", "[decoding]")
{
    PartDecoder decoder(PartEncoding::Base64);
    std::string out;
    REQUIRE_FALSE(decoder.feed("Y*", out));
    auto again = decoder.feed("YQ==", out);
    REQUIRE_FALSE(again);
    CHECK(again.error().offset == 1);
    CHECK_FALSE(decoder.finish(out));
}
