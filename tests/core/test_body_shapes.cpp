// The probe's body shapes: each is what its name says (checked by counting what makes it hard), never holds the
// delimiter, reads the same by offset in any pieces, and a body made of it parses as one part of the size asked for
// with every matcher.

#include "support/chunking.h"
#include "upin/core/body_shapes.h"
#include "upin/core/multipart_parser.h"

#include <catch2/catch.hpp>

using namespace upin::core;

namespace {

size_t count(std::string_view text, std::string_view what)
{
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

std::string content(const ShapeContent& shape, size_t size, uint64_t offset = 0)
{
    std::string out(size, '\0');
    shape.fill(out.data(), size, offset);
    return out;
}

struct Sizes final : PartHandler {
    std::vector<uint64_t> parts;
    void onPartBegin(uint32_t, uint64_t) override { parts.push_back(0); }
    void onPartData(ByteView data, uint64_t) override { parts.back() += data.size(); }
};

} // namespace

TEST_CASE("every body shape is valid content, the same in any pieces, and one part to every matcher", "[shapes]")
{
    for (const std::string boundary : {"----WebKitFormBoundary7MA4YWxkTrZu0gW", "x", "abc-def"}) {
        for (const BodyShape kind : kBodyShapeNames.values()) {
            INFO(std::string(kBodyShapeNames.name(kind)) << " boundary " << boundary);
            const ShapeContent shape(kind, boundary);
            const size_t size = (size_t{3} << 20) + 123; // past the cycle's end, twice
            const std::string whole = content(shape, size);
            CHECK(whole.find("\r\n--" + boundary) == std::string::npos);
            std::string pieces;
            for (size_t at = 0, step = 1; at < size; at += step, step = step * 7 % 100'003 + 1)
                pieces += content(shape, std::min(step, size - at), at);
            CHECK(pieces == whole);
            std::string body = "--" + boundary;
            body += "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f\"\r\n\r\n";
            body += whole;
            body += "\r\n--";
            body += boundary;
            body += "--\r\n";
            for (const MatcherKind matcher : upin::test::matchersUnderTest()) {
                Options options;
                options.matcher = matcher;
                options.maxPartSize = options.maxBodySize = uint64_t{1} << 30;
                auto parser = MultipartParser::fromBoundary(boundary, options);
                REQUIRE(parser);
                Sizes sizes;
                REQUIRE(parser->feed(ByteView(body.data(), body.size()), sizes));
                REQUIRE(parser->finish(sizes));
                CHECK(sizes.parts == std::vector<uint64_t>{size});
            }
        }
    }
}

TEST_CASE("each shape is dense in what it is named for", "[shapes]")
{
    const std::string boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW";
    const size_t size = size_t{1} << 20;
    auto of = [&](BodyShape kind) { return content(ShapeContent(kind, boundary), size); };
    const std::string plain = of(BodyShape::Plain);
    CHECK(plain.find_first_of("\r\n") == std::string::npos);
    CHECK(count(of(BodyShape::Random), "\n") > size / 512); // about one in 256
    CHECK(count(of(BodyShape::CrlfDense), "\r\n") == size / 16);
    CHECK(count(of(BodyShape::DashDense), "\r\n--") == size / 8);
    const std::string prefixes = of(BodyShape::PrefixDense);
    CHECK(count(prefixes, "\r\n--") > size / 30);
    CHECK(count(prefixes, "\r\n--" + boundary.substr(0, boundary.size() - 1)) > 100); // the longest, often
    const std::string near = of(BodyShape::NearMiss);
    CHECK(count(near, "\r\n--") > size / 45);
    CHECK(count(near, "\r\n--" + boundary.substr(0, boundary.size() - 1)) > 100); // the last byte changed
    const std::string leading = of(BodyShape::LeadingCr);
    CHECK(leading[0] == '\r');
    CHECK(leading.find_first_of("\r\n", 1) == std::string::npos);
}

TEST_CASE("shaped content is shared while held: one per shape and boundary, the same bytes as one made alone",
          "[shapes]")
{
    const std::string boundary = "probe-boundary";
    auto first = ShapeContent::shared(BodyShape::PrefixDense, boundary);
    CHECK(ShapeContent::shared(BodyShape::PrefixDense, boundary) == first);
    CHECK(ShapeContent::shared(BodyShape::PrefixDense, "other") != first);
    CHECK(ShapeContent::shared(BodyShape::NearMiss, boundary) != first);
    CHECK(content(*first, 1 << 16) == content(ShapeContent(BodyShape::PrefixDense, boundary), 1 << 16));
    const std::weak_ptr<const ShapeContent> released = first;
    first.reset();
    CHECK(released.expired()); // the cache holds none of its own: memory goes with the last upload
}
