// The typed records (capture/capture_record.h, request_record.h, kept_part.h, forward_record.h,
// refused_request.h) survive capture.json and the refused log: toJson then fromJson gives the same values, and the
// JSON has the names docs/capture-format.md documents.

#include "capture/capture_record.h"
#include "capture/forward_record.h"
#include "capture/refused_request.h"

#include <QJsonDocument>

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

TEST_CASE("a capture's record round-trips through capture.json, its request, kept values and outcome included",
          "[records]")
{
    app::CaptureRecord r;
    r.id = 42;
    r.endpoint = "/capture";
    r.matcher = "simd";
    r.hash = "sha256";
    r.report.ok = false;
    r.report.boundary = "b";
    r.report.hash = core::HashKind::Sha256;
    core::PartSummary field;
    field.index = 0;
    field.name = "note";
    field.contentType = "text/plain; charset=iso-8859-1";
    field.size = 4;
    field.complete = true;
    r.report.parts.push_back(field);
    app::KeptPart kept;
    kept.setValue("caf\xe9", field.contentType); // Latin-1 text: kept as text, its bytes given back exactly
    kept.savedAs = "000-note";
    r.kept = {kept};
    r.bytes = 1234;
    r.framing = "chunked";
    r.state = app::CaptureState::Failed;
    r.error = core::Error{core::Errc::IoError, 1000};
    r.writeFailure = app::CaptureRecord::WriteFailure{"000-note", "No space left on device"};
    r.elapsedMs = 12.5;
    r.cpuMs.readParse = 1.5;
    r.cpuMs.store = 0.5;
    r.request = app::RequestRecord::fromRawHead("POST /capture?x=1 HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n\r\n");
    r.request.framing = "chunked";
    r.request.chunks = 3;
    r.request.client = "127.0.0.1:5000";
    r.request.receivedAt = QDateTime::fromString("2026-12-01T10:00:00.125Z", Qt::ISODateWithMs);
    r.request.headMs = 0.25;
    app::Transport tls;
    tls.tls = true;
    tls.protocol = "TLSv1.3";
    tls.alpn = "http/1.1";
    r.request.transport = tls;
    r.throughput = {{0, 0}, {50, 1234}};
    r.rawBodyKept = true;

    // Through JSON text, as the file is written and read.
    CHECK(r.toJson().endsWith("}\n")); // a text file: its last line ends
    const QJsonObject json = QJsonDocument::fromJson(r.toJson()).object();
    CHECK(json["capture_id"].toString() == "42");
    CHECK(json["state"].toString() == "failed");
    CHECK(json["error"].toObject()["file"].toString() == "000-note");
    CHECK(json["request"].toObject()["head_ms"].toDouble() == 0.25);
    CHECK(json["parts"].toArray()[0].toObject()["value_encoding"].toString() == "text");
    CHECK(json["cpu_ms"].toObject()["hash"].isNull());
    const QJsonObject answer = QJsonDocument::fromJson(r.answerJson().join()).object();
    CHECK_FALSE(answer.contains("request")); // the answer to the client has no copy of its own head
    CHECK(answer["error"].toObject()["system_message"].toString() == "No space left on device");
    CHECK(answer["parts"].toArray()[0].toObject()["saved_as"].toString() == "000-note");
    CHECK(answer["ok"] == false);
    const app::CaptureRecord back = app::CaptureRecord::fromJson(json);
    CHECK(back.id == 42);
    CHECK(back.endpoint == "/capture");
    CHECK(back.report.parts.size() == 1);
    REQUIRE(back.kept.size() == 1);
    CHECK(back.kept[0].savedAs == "000-note");
    CHECK(back.kept[0].valueBytes(field.contentType) == QByteArray("caf\xe9"));
    CHECK(back.bytes == 1234);
    CHECK(back.state == app::CaptureState::Failed);
    REQUIRE(back.error.has_value());
    CHECK(back.error->offset == 1000);
    CHECK(back.errorInWords() == "000-note: No space left on device");
    CHECK(back.elapsedMs == 12.5);
    CHECK(back.cpuMs.store == 0.5);
    CHECK_FALSE(back.cpuMs.hash.has_value());
    CHECK(back.request.method == "POST");
    CHECK(back.request.target == "/capture?x=1");
    REQUIRE(back.request.headers.has_value());
    CHECK(back.request.headers->size() == 2);
    CHECK(back.request.chunks == 3u);
    CHECK(back.request.receivedAt == r.request.receivedAt);
    REQUIRE(back.request.transport.has_value());
    CHECK(back.request.transport->label() == "TLSv1.3");
    CHECK(back.request.transport->alpn == "http/1.1");
    CHECK(back.throughput.size() == 2);
    CHECK(back.rawBodyKept);
}

TEST_CASE("a capture stored by an earlier version reads with what it has and says what it lacks", "[records]")
{
    // Early captures kept only target, content type and client in "request", and framing at the top.
    const auto back = app::CaptureRecord::fromJson(
        QJsonObject{{"capture_id", "7"},
                    {"state", "complete"},
                    {"framing", "content-length"},
                    {"request", QJsonObject{{"target", "/file-part"}, {"client", "127.0.0.1:1"}}}});
    CHECK(back.ok());
    CHECK_FALSE(back.request.headRecorded());
    CHECK_FALSE(back.request.headers.has_value());
    CHECK_FALSE(back.request.headMs.has_value());
    CHECK(back.request.framing == "content-length");
    CHECK_FALSE(back.request.transport.has_value());
}
