// parse, run through the real upload-inspector-cli binary, on what its diagnostics say beyond their code: the
// offset and the value a code carries, in the text a person reads and in the JSON a script reads.

#include "capture/outcome.h"

#include <catch2/catch.hpp>

#include "support/run_cli.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

namespace {
using upin::test::runCli;
using upin::test::writeFile;
} // namespace

TEST_CASE("parse names a control byte in a part header value, where it lies and which byte it is", "[cli]")
{
    QTemporaryDir dir;
    const QByteArray head = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\nX-Note: a";
    const QString body = writeFile(dir, "body.bin", head + QByteArray(1, '\0') + "b\r\n\r\nx\r\n--b--\r\n");
    const QString type = QStringLiteral("multipart/form-data; boundary=b");

    const auto text = runCli({"parse", "--content-type", type, body});
    INFO(text.out.toStdString());
    CHECK(text.exitCode == 0); // kept as sent, reported
    CHECK(text.out.contains(QStringLiteral("warning @%1 control_byte_in_header").arg(head.size()).toUtf8()));
    CHECK(text.out.contains("(the byte is 0x00)"));

    const auto json = runCli({"parse", "--content-type", type, body, "--json"});
    const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
    const QJsonObject note = doc["diagnostics"].toArray().at(0).toObject();
    CHECK(note["code"].toString() == "control_byte_in_header");
    CHECK(note["offset"].toInt() == head.size());
    CHECK(note["value"].toInt(-1) == 0); // present though zero: the byte is a NUL
    const QJsonObject header = doc["parts"].toArray().at(0).toObject()["headers"].toArray().at(1).toObject();
    CHECK(header["value"].toString() == QStringLiteral("a%1b").arg(QChar(0)));

    const auto strict = runCli({"parse", "--content-type", type, body, "--strict"});
    CHECK(strict.exitCode != 0);
    CHECK(strict.out.contains(
        QStringLiteral("error @%1 control_byte_in_header").arg(head.size()).toUtf8())); // the error keeps the byte
    CHECK(strict.out.contains("(the byte is 0x00)"));
    const auto strictJson = runCli({"parse", "--content-type", type, body, "--strict", "--json"});
    const QJsonObject error = QJsonDocument::fromJson(strictJson.out).object()["error"].toObject();
    CHECK(error["code"].toString() == "control_byte_in_header");
    CHECK(error["value"].toInt(-1) == 0);
}

TEST_CASE("a body cut short without a length known says neither chunk nor a whole body it did not have", "[verdict]")
{
    upin::core::ParseReport report;
    report.bytes = 76;
    report.error = upin::core::Error{upin::core::Errc::BodyCutShort, 76};
    upin::core::PartSummary begun;
    begun.complete = false; // cut inside its first part
    report.parts.push_back(begun);
    const QString words = upin::app::parseOutcomeInWords(report, std::nullopt, upin::app::LimitHint::WindowFlag);
    INFO(words.toStdString());
    CHECK(words.contains("the body ended before its framing said, after 76 B (the multipart body is cut short too)"));
    CHECK_FALSE(words.contains("chunk"));
}
