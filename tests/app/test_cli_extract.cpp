// extract (and the inline field values it reads) run through the real upload-inspector-cli binary: a part's
// bytes out of a raw body, a whole HTTP request, a HAR file and a capture folder, decoded on request.

#include "app/listener_fixture.h"

#include <catch2/catch.hpp>

#include <algorithm>

#include "capture/kept_part.h"
#include "support/corpus_dir.h"
#include "support/run_cli.h"
#include "support/sample_requests.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

namespace {
using Run = upin::test::CliRun;
using upin::test::runCli;
using upin::test::writeFile;

using upin::test::ownCorpusFile;
} // namespace

TEST_CASE("extract writes a part from a raw body, a raw HTTP request and a HAR file", "[cli][extract]")
{
    QTemporaryDir dir;
    const QByteArray file("\x00\x01 binary \xff", 12);
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nfirst\r\n"
                            "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.bin\"\r\n\r\n" +
                            file + "\r\n--b--\r\n";
    const QString raw = writeFile(dir, "body.bin", body);
    const QString http = writeFile(dir, "request.http",
                                   "POST /up HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                                   "Content-Length: " +
                                       QByteArray::number(body.size()) + "\r\n\r\n" + body);
    QJsonObject postData{{"mimeType", "multipart/form-data; boundary=b"},
                         {"encoding", "base64"},
                         {"text", QString::fromLatin1(body.toBase64())}};
    QJsonObject request{{"method", "POST"}, {"url", "http://example/up"}, {"postData", postData}};
    QJsonObject har{{"log", QJsonObject{{"entries", QJsonArray{QJsonObject{{"request", request}}}}}}};
    const QString harPath = writeFile(dir, "upload.har", QJsonDocument(har).toJson());
    const QString chunked = writeFile(dir, "chunked.http",
                                      "POST /up HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                                      "Transfer-Encoding: chunked\r\n\r\n10\r\n" +
                                          body.left(16) + "\r\n" + QByteArray::number(body.size() - 16, 16) + "\r\n" +
                                          body.mid(16) + "\r\n0\r\n\r\n");
    for (const QString& source : {raw, http, harPath, chunked}) {
        INFO(source.toStdString());
        Run run = runCli({"extract", source, "--name", "f", "-o", "-"});
        CHECK(run.exitCode == 0);
        CHECK(run.out == file);
        Run first = runCli({"extract", source, "--part", "0", "-o", "-"});
        CHECK(first.out == "first");
    }
    CHECK(runCli({"extract", raw}).exitCode == 2); // neither --part nor --name
}

TEST_CASE("extract --decoded undoes a part's base64 or quoted-printable, from a body and from a capture",
          "[cli][extract][decoding]")
{
    upin::test::ListenerFixture f;
    const QByteArray file = upin::test::randomBytes(300000, 5);
    const QByteArray text = "caf\xc3\xa9 = 1\r\nline two\r\n";
    QByteArray base64 = file.toBase64();
    for (qsizetype at = 76; at < base64.size(); at += 78)
        base64.insert(at, "\r\n"); // broken into lines, as a mail client writes it
    const QByteArray body = "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"orig.bin\"\r\n"
                            "Content-Transfer-Encoding: base64\r\n\r\n" +
                            base64 +
                            "\r\n--B\r\nContent-Disposition: form-data; name=\"note\"\r\n"
                            "Content-Transfer-Encoding: quoted-printable\r\n\r\ncaf=C3=A9 =3D 1\r\nline =\r\ntwo\r\n"
                            "\r\n--B--\r\n";
    const QString raw = f.file("body.bin", body);
    const QString type = QStringLiteral("multipart/form-data; boundary=B");
    REQUIRE(upin::test::curl({"-H", "Content-Type: " + type, "--data-binary", "@" + raw, f.url("/file-part")}).status ==
            200);
    QTemporaryDir out;
    for (const QString& source : {raw, f.onlyCaptureFolder()}) {
        INFO(source.toStdString());
        const QString decoded = out.filePath("decoded.bin");
        Run run = runCli({"extract", source, "--content-type", type, "--name", "file", "--decoded", "-o", decoded});
        CHECK(run.exitCode == 0);
        CHECK(upin::test::readAll(decoded) == file);
        Run note = runCli({"extract", source, "--content-type", type, "--name", "note", "--decoded", "-o", "-"});
        CHECK(note.out == text);
        Run asReceived = runCli({"extract", source, "--content-type", type, "--name", "file", "-o", "-"});
        CHECK(asReceived.out == base64); // the raw bytes stay the default
    }
    // A bad byte: what decoded before it is written, and the error says where.
    QByteArray broken = body;
    broken[body.indexOf(base64) + 1000] = '*';
    Run bad = runCli({"extract", f.file("broken.bin", broken), "--content-type", type, "--part", "0", "--decoded", "-o",
                      out.filePath("bad.bin")});
    CHECK(bad.exitCode == 1);
    CHECK(bad.err.contains("base64 is invalid at byte 1000 of its body"));
    CHECK(upin::test::readAll(out.filePath("bad.bin")) == file.left(qsizetype((1000 - 1000 / 78 * 2) / 4 * 3)));
    // A part without a coding is written as received, with a word; an unknown coding is refused by name.
    Run plain = runCli({"extract", ownCorpusFile("own/curl-field-and-files.bin"), "--part", "0", "--decoded", "-o", "-",
                        "--content-type", "multipart/form-data; boundary=------------------------52d4fb7645df32ee"});
    CHECK(plain.exitCode == 0);
    CHECK(plain.err.contains("no transfer encoding to undo"));
    QByteArray uu = body;
    uu.replace("Content-Transfer-Encoding: base64", "Content-Transfer-Encoding: x-uuencode");
    Run unknown = runCli({"extract", f.file("uu.bin", uu), "--content-type", type, "--part", "0", "--decoded"});
    CHECK(unknown.exitCode == 1);
    CHECK(unknown.err.contains("'x-uuencode' is not one --decoded undoes"));
}

TEST_CASE("extract of a part that did not arrive whole writes what was kept and says so", "[cli][extract]")
{
    upin::test::ListenerFixture f;
    const QByteArray big = upin::test::randomBytes(2 << 20, 9);
    const QString path = f.file("big.bin", big);
    {
        upin::test::FileSizeLimit limit(1 << 20);
        REQUIRE(upin::test::curl({"-F", "big=@" + path, f.url("/file-part")}).status == 507);
    }
    QTemporaryDir out;
    Run run = runCli({"extract", f.onlyCaptureFolder(), "--name", "big", "-o", out.filePath("big.bin")});
    CHECK(run.exitCode == 1);
    CHECK(run.err.contains("did not arrive whole"));
    CHECK(upin::test::readAll(out.filePath("big.bin")) == big.left(1 << 20));
}

TEST_CASE("field values kept in capture.json give back exactly the bytes that arrived", "[capture]")
{
    const std::pair<QByteArray, const char*> cases[] = {
        {"plain text", nullptr},
        {"\xef\xbb\xbf"
         "bom text",
         nullptr},                                                           // a UTF-8 byte order mark is not dropped
        {QByteArray("\xfe\xff\x00h\x00i", 6), "text/plain; charset=utf-16"}, // nor a UTF-16 one
        {QByteArray("\xff\xfeh\x00i\x00", 6), "text/plain; charset=utf-16"},
        {QByteArray("\x00h\x00i", 4), "text/plain; charset=utf-16be"},
        {"caf\xe9", "text/plain; charset=iso-8859-1"},
        {"caf\xe9", nullptr}, // not UTF-8: base64
        {QByteArray("nul\0inside", 10), nullptr},
        {"tab\tand\r\nline \x7f", nullptr}, // ASCII with no type: kept as text as it is
        {"\xe2\x82", nullptr},              // a sequence cut short
    };
    for (const auto& [bytes, type] : cases) {
        INFO(bytes.toHex().toStdString());
        const auto contentType = type ? std::optional<std::string>(type) : std::nullopt;
        upin::app::KeptPart kept;
        kept.setValue(bytes, contentType);
        // through JSON text and back, as capture.json is written and read
        upin::app::JsonWriter json;
        json.beginObject();
        kept.writeTo(json);
        json.endObject();
        const QJsonObject part = QJsonDocument::fromJson(json.take()).object();
        kept = upin::app::KeptPart::fromJson(part);
        const auto back = kept.valueBytes(contentType);
        REQUIRE(back.has_value());
        CHECK(*back == bytes);
        if (part["value_encoding"] == "text") // text that people read: never a BOM or byte-order garbage
            CHECK_FALSE(part["value"].toString().startsWith(QChar(0xfeff)));
        const bool ascii = std::all_of(bytes.begin(), bytes.end(), [](char c) { return uchar(c) < 0x80; });
        if (!type && ascii)
            CHECK(part["value_encoding"] == "text");
    }
}
