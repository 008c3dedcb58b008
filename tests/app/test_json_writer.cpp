// The streaming JSON writer (common/json_writer.h): what it writes reads back through QJsonDocument as the values
// given, compact and indented, and any bytes as text give a document that parses (not UTF-8: U+FFFD, as Qt's).

#include "common/json_writer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <catch2/catch.hpp>

#include <random>

using upin::app::JsonWriter;

namespace {

QJsonObject parsed(const QByteArray& text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    INFO(text.toStdString());
    REQUIRE(error.error == QJsonParseError::NoError);
    return doc.object();
}

QByteArray sample(JsonWriter::Style style)
{
    JsonWriter w(style);
    w.beginObject();
    w.key("int").number(int64_t(-42));
    w.key("big").number(uint64_t(18446744073709551615ULL));
    w.key("ms").number(66.042854);
    w.key("inf").number(1.0 / 0.0);
    w.key("yes").boolean(true);
    w.key("none").null();
    w.key("absent").string(std::optional<std::string>{});
    w.key("text").string(std::string_view("a \"quoted\" \\ line\r\n\t\x01 end"));
    w.key("qt").string(QStringLiteral("é ✓"));
    w.key("empty_list").beginArray().endArray();
    w.key("empty_object").beginObject().endObject();
    w.key("list").beginArray();
    w.number(int64_t(1)).beginObject().key("a").number(int64_t(2)).endObject();
    w.json(QJsonObject{{"from", "qt"}, {"n", 3}});
    w.endArray();
    w.endObject();
    return w.take();
}

} // namespace

TEST_CASE("json writer: values, escapes and nesting read back as written, in both styles", "[json]")
{
    for (auto style : {JsonWriter::Style::Compact, JsonWriter::Style::Indented}) {
        const QByteArray text = sample(style);
        const QJsonObject o = parsed(text);
        CHECK(o["int"].toInteger() == -42);
        CHECK(o["ms"].toDouble() == 66.042854);
        CHECK(o["inf"].isNull());
        CHECK(o["yes"].toBool());
        CHECK(o["none"].isNull());
        CHECK(o["absent"].isNull());
        CHECK(o["text"].toString() == QStringLiteral("a \"quoted\" \\ line\r\n\t\x01 end"));
        CHECK(o["qt"].toString() == QStringLiteral("é ✓"));
        CHECK(o["empty_list"].toArray().isEmpty());
        CHECK(o["empty_object"].toObject().isEmpty());
        const QJsonArray list = o["list"].toArray();
        REQUIRE(list.size() == 3);
        CHECK(list[1].toObject()["a"].toInt() == 2);
        CHECK(list[2].toObject()["from"].toString() == "qt");
        CHECK(list[2].toObject()["n"].toInt() == 3);
        CHECK(text.contains('\n') == (style == JsonWriter::Style::Indented));
    }
    CHECK(sample(JsonWriter::Style::Compact).contains("\"ms\":66.042854,"));
    CHECK(sample(JsonWriter::Style::Compact).contains("\"big\":18446744073709551615,"));
    CHECK(sample(JsonWriter::Style::Indented).startsWith("{\n    \"int\": -42,\n"));
    // Two levels on lines of their own, compact below: a part a line in capture.json.
    CHECK(sample(JsonWriter::Style::Indented).contains("\n        1,\n        {\"a\":2},\n"));
}

TEST_CASE("json writer: any bytes as text make a document that parses, as QString::fromUtf8 reads them", "[json]")
{
    std::mt19937 random(7);
    for (int round = 0; round < 2000; ++round) {
        std::string bytes(size_t(random() % 40), '\0');
        for (char& c : bytes) // mostly the interesting bytes: controls, quotes, high bytes
            c = char(random() % 4 == 0 ? "\"\\\x7f\x80\xc3\xe2\xf0\xff"[random() % 8] : random() % 256);
        JsonWriter w;
        w.beginObject().key("v").string(std::string_view(bytes)).endObject();
        const QJsonObject o = parsed(w.take());
        CHECK(o["v"].toString() == QString::fromUtf8(bytes.data(), qsizetype(bytes.size())));
    }
}

TEST_CASE("json writer: with a sink, a document of megabytes goes in pieces and reads as the buffered one", "[json]")
{
    auto write = [](JsonWriter& w) {
        w.beginObject().key("parts").beginArray();
        for (int i = 0; i < 20'000; ++i)
            w.beginObject().key("name").string(QStringLiteral("field%1").arg(i)).key("size").number(i).endObject();
        w.endArray();
        const std::string longText(700'000, 'x');
        w.key("long").string(std::string_view(longText)); // one string longer than a piece
        w.endObject();
    };
    JsonWriter buffered(JsonWriter::Style::Indented);
    write(buffered);
    const QByteArray whole = buffered.take();
    REQUIRE(size_t(whole.size()) > 3 * JsonWriter::kSinkPieceBytes);

    QByteArray pieces;
    int calls = 0;
    JsonWriter streamed(JsonWriter::Style::Indented, [&](const char* data, size_t size) {
        ++calls;
        pieces.append(data, qsizetype(size));
        return true;
    });
    write(streamed);
    CHECK(streamed.finish());
    CHECK(pieces == whole);
    CHECK(calls >= 3);

    // A sink that fails gets no more pieces, and finish() says so.
    int refusedCalls = 0;
    JsonWriter refused(JsonWriter::Style::Compact, [&](const char*, size_t) {
        ++refusedCalls;
        return false;
    });
    write(refused);
    CHECK_FALSE(refused.finish());
    CHECK(refusedCalls == 1);
}
