// The typed records (capture/forward_record.h, capture/refused_request.h) survive capture.json and the refused
// log: toJson then fromJson gives the same values, and the JSON has the names the README documents.

#include "capture/forward_record.h"
#include "capture/refused_request.h"

#include <catch2/catch.hpp>

#include <QJsonArray>

using namespace upin;

TEST_CASE("a forwarded exchange's record round-trips through capture.json's \"forward\"", "[records]")
{
    app::ForwardRecord r;
    r.upstream = "http://127.0.0.1:9000/api";
    r.headAsSent = "POST /api/x HTTP/1.1\r\nHost: 127.0.0.1:9000\r\n\r\n";
    r.reusedConnection = true;
    r.status = 413;
    r.headers = {{"Content-Type", "text/plain"}, {"X-É", "é"}};
    r.answerBytes = 10240;
    r.answerPreview = QByteArray("\xff\xfe binary", 9); // not UTF-8
    r.earlyAtByte = 1048576;
    r.bodyBytesToUpstream = 1114112;
    r.at = {1.5, 2.5, 3.5, 4.5, 5.5};
    r.upstreamThroughput = {{0, 0}, {50, 65536}};
    r.bodyHashName = "xxh3";
    r.bodyDigest = "abcd";
    r.fault = app::ForwardRecord::Fault{502, "bad answer from upstream", "its head: ..."};
    const QJsonObject json = r.toJson();
    CHECK(json["timings_ms"].toObject()["client_last_byte"].toDouble() == 1.5);
    CHECK(json["early_at_byte"].toInteger() == 1048576);
    CHECK(json["server_ms"].isNull()); // an early answer has no server time
    CHECK(json["answer_preview_encoding"].toString() == "base64");
    CHECK(json["body_xxh3"].toString() == "abcd");
    CHECK(json["error"].toObject()["status"].toInt() == 502);
    const app::ForwardRecord back = app::ForwardRecord::fromJson(json);
    CHECK(back.upstream == r.upstream);
    CHECK(back.headAsSent == r.headAsSent);
    CHECK(back.reusedConnection);
    CHECK(back.status == 413);
    CHECK(back.headers == r.headers);
    CHECK(back.answerPreview == r.answerPreview);
    CHECK(back.earlyAtByte == r.earlyAtByte);
    CHECK(back.at.answerDone == 5.5);
    CHECK(back.upstreamThroughput.size() == 2);
    CHECK(back.upstreamThroughput[1].bytes == 65536);
    CHECK(back.bodyHashName == "xxh3");
    CHECK(back.bodyDigest == "abcd");
    REQUIRE(back.fault.has_value());
    CHECK(back.fault->detail == "its head: ...");
    CHECK(back.timings().faultStatus == 502);
    r.earlyAtByte = -1; // answered after the body: its server time is the gap
    CHECK(app::ForwardRecord::fromJson(r.toJson()).serverMs() == 1.0);
}

TEST_CASE("a refused request's record round-trips through the refused log", "[records][refused]")
{
    app::RefusedRequest r;
    r.id = 42;
    r.receivedAt = QDateTime::currentDateTimeUtc();
    r.client = "127.0.0.1:5000";
    r.method = "PUT";
    r.target = "/file-part";
    r.head = "PUT /file-part HTTP/1.1\r\nHost: x\r\n\r\n";
    r.status = 405;
    r.reason = "use POST";
    r.error = core::Error{core::Errc::InvalidHeaderField, 18};
    const auto back = app::RefusedRequest::fromJson(r.toJson());
    REQUIRE(back.has_value());
    CHECK(back->id == 42);
    CHECK(back->receivedAt == r.receivedAt);
    CHECK(back->label() == "PUT /file-part");
    CHECK(back->head == r.head);
    CHECK(back->status == 405);
    CHECK(back->error->offset == 18);
    CHECK_FALSE(app::RefusedRequest::fromJson(QJsonObject{{"state", "complete"}}).has_value());
}
