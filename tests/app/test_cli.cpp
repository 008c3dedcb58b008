// The real upload-inspector-cli binary, run as a user would, on real files.

#include "app/listener_fixture.h"

#include <catch2/catch.hpp>

#include "capture/kept_part.h"
#include "common/byte_size.h"
#include "inspect/body_file.h"
#include "inspect/inspect_worker.h"
#include "inspect/part_bytes.h"
#include "inspect/resend.h"

#include "support/corpus_dir.h"
#include "support/run_cli.h"
#include "support/sample_requests.h"
#include "upin_version.h"
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

namespace {

using Run = upin::test::CliRun;
using upin::test::ownCorpusFile;
using upin::test::runCli;
using upin::test::writeFile;

} // namespace

TEST_CASE("upload-inspector-cli --version prints the version the build was configured with, as the package numbers it",
          "[cli]")
{
    const upin::test::CliRun run = runCli({"--version"});
    CHECK(run.exitCode == 0);
    CHECK(run.out.trimmed().toStdString() == "upload-inspector-cli " UPIN_VERSION);
    // git describe's form as a Debian version: 1.2 or 1.2.3, then +N.gHASH after the tag, ~dirty; never a '-'.
    CHECK(QString::fromLatin1(UPIN_VERSION)
              .contains(QRegularExpression(QStringLiteral("^[0-9][0-9A-Za-z.~]*(\\+[0-9]+\\.g[0-9a-f]+)?(~dirty)?$"))));
}

TEST_CASE("parse --json reports parts with hashes and offsets", "[cli]")
{
    for (const char* matcher : {"kmp", "chunked", "simd"}) {
        // A real curl -F capture (tests/corpus/make-corpus.py): a field, a PNG and a binary file.
        Run run = runCli({"parse", ownCorpusFile("own/curl-field-and-files.bin"), "--json", "--matcher", matcher,
                          "--content-type", "multipart/form-data; boundary=------------------------52d4fb7645df32ee"});
        REQUIRE(run.exitCode == 0);
        QJsonObject doc = QJsonDocument::fromJson(run.out).object();
        REQUIRE(doc["ok"].toBool());
        CHECK(doc["error"].isNull());
        QJsonArray parts = doc["parts"].toArray();
        REQUIRE(parts.size() == 3);
        CHECK(parts[0].toObject()["filename"].isNull());
        CHECK(parts[0].toObject()["size"].toInt() == 15);
        CHECK(parts[1].toObject()["filename"].toString() == "dot.png");
        CHECK(parts[1].toObject()["sha256"].toString() ==
              "3f065128d50e346cce55f8ac1284a65e6b48e9db8cdb230a690e2c4d2c491a54");
        CHECK(parts[1].toObject()["headers"].toArray().size() == 2);
        CHECK(parts[2].toObject()["size"].toInt() == 3000);
    }
}

TEST_CASE("parse and send --hash xxh3: digests as xxh128sum prints them, checked end to end", "[cli][hash]")
{
    const QString body = ownCorpusFile("own/curl-field-and-files.bin");
    const QString type = "multipart/form-data; boundary=------------------------52d4fb7645df32ee";
    Run run = runCli({"parse", body, "--json", "--hash", "xxh3", "--content-type", type});
    REQUIRE(run.exitCode == 0);
    QJsonObject doc = QJsonDocument::fromJson(run.out).object();
    CHECK(doc["hash"].toString() == "xxh3");
    const QJsonObject png = doc["parts"].toArray()[1].toObject();
    CHECK_FALSE(png.contains("sha256"));
    QFile file(body);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll().mid(png["body_offset"].toInteger(), png["size"].toInteger());
    CHECK(png["xxh3"].toString().toStdString() == upin::test::digest(upin::core::HashKind::Xxh3, bytes));
    Run text = runCli({"parse", body, "--hash", "xxh3", "--content-type", type});
    CHECK(text.out.contains("size  xxh3"));
    CHECK(text.out.contains(png["xxh3"].toString().toUtf8()));
    const Run md5 = runCli({"parse", body, "--hash", "md5"}); // one rule, one message, every command
    CHECK((md5.exitCode == 2 && md5.err == "parse: --hash 'md5': give sha256, xxh3 or none\n"));
    upin::test::ListenerFixture f;
    const QString png2 = f.file("dot.png", bytes);
    Run sent = runCli({"send", "-F", "img=@" + png2, "-F", "note=hi", "--hash", "xxh3", "--json", f.url("/file-part")});
    INFO(sent.out.toStdString() << sent.err.toStdString());
    REQUIRE(sent.exitCode == 0);
    const QJsonObject first = QJsonDocument::fromJson(sent.out).array().first().toObject();
    CHECK(first["integrity"].toString() == "match");
    CHECK(first["hash"].toString() == "xxh3");
    const QJsonObject img = first["parts"].toArray().first().toObject();
    CHECK(img["sent_xxh3"].toString().toStdString() == upin::test::toolDigest(upin::core::HashKind::Xxh3, png2));
    CHECK(img["received_xxh3"] == img["sent_xxh3"]);
    const Run crc = runCli({"send", "-F", "a=b", "--hash", "crc", f.url("/file-part")}); // said once, not twice
    CHECK((crc.exitCode != 0 && crc.err.count("--hash 'crc': give sha256, xxh3 or none") == 1));
}

TEST_CASE("parse --raw-http of a whole body under a Content-Length that promises more blames the length, not the "
          "body",
          "[cli][verdict]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QByteArray body = upin::test::wholeMultipartBody();
    QFile file(upin::test::requestShortOfItsLength(dir));
    Run text = runCli({"parse", "--raw-http", file.fileName()});
    CHECK(text.exitCode == 1);
    INFO(text.out.toStdString());
    CHECK(QString::fromUtf8(text.out).contains(
        QStringLiteral("13 bytes missing: Content-Length %1, the file has %2 (the body itself is whole)")
            .arg(body.size() + 13)
            .arg(body.size())));
    CHECK_FALSE(text.out.contains("input ended inside a part"));
    CHECK(text.out.count("body_cut_short") == 1); // the error, not a note saying the same above it
    Run json = runCli({"parse", "--raw-http", file.fileName(), "--json"});
    const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
    CHECK(doc["error"].toObject()["code"].toString() == "body_cut_short");
    CHECK(doc["error"].toObject()["offset"].toInt() == body.size());
    const QJsonObject cut = doc["diagnostics"].toArray()[0].toObject();
    CHECK(cut["code"].toString() == "body_cut_short");
    CHECK(cut["offset"].toInt() == body.size());
    CHECK(cut["value"].toInt() == 13);
    CHECK(cut["message"].toString().contains("Content-Length"));
    CHECK(doc["parts"].toArray()[0].toObject()["complete"].toBool()); // what arrived is whole, and kept

    // Cut inside the content as well: said too.
    REQUIRE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("POST /upload HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 999\r\n\r\n" +
               body.left(40));
    file.close();
    CHECK(runCli({"parse", "--raw-http", file.fileName()}).out.contains("(the multipart body is cut short too)"));
}

TEST_CASE("parse --raw-http of a body longer than its Content-Length blames the length, and an empty file says so",
          "[cli]")
{
    QTemporaryDir dir;
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhello\r\n--b--\r\n";
    const QString request = writeFile(
        dir, "short.http",
        "POST /u HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 40\r\n\r\n" +
            body);
    const Run text = runCli({"parse", "--raw-http", request});
    INFO(text.out.toStdString());
    CHECK(text.exitCode == 1);
    CHECK(text.out.contains(QStringLiteral("bytes_after_body").toUtf8()));
    CHECK(text.out.contains(QStringLiteral("cut short by its Content-Length: 40 ends the body %1 bytes before the file "
                                           "does")
                                .arg(body.size() - 40)
                                .toUtf8()));
    const QJsonObject json = QJsonDocument::fromJson(runCli({"parse", "--raw-http", request, "--json"}).out).object();
    bool after = false;
    for (const auto& d : json["diagnostics"].toArray())
        after = after || (d.toObject()["code"] == "bytes_after_body" && d.toObject()["offset"] == 40 &&
                          d.toObject()["value"] == body.size() - 40);
    CHECK(after);
    const Run empty = runCli({"parse", writeFile(dir, "empty.bin", {})});
    CHECK(empty.exitCode == 1);
    CHECK(empty.err.contains("empty.bin is empty: nothing to parse"));
}

TEST_CASE("parse guesses the boundary and exits non-zero on a rejected body", "[cli]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    QFile file(dir.filePath("body.bin"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write("--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhello\r\n--xy");
    file.close();
    Run run = runCli({"parse", file.fileName(), "--json"});
    CHECK(run.exitCode == 1);
    QJsonObject doc = QJsonDocument::fromJson(run.out).object();
    CHECK(doc["boundary"].toString() == "xyz");
    CHECK(doc["error"].toObject()["code"].toString() == "unexpected_eof");
    CHECK(doc["error"].toObject()["offset"].toInt() == file.size());
    CHECK(doc["diagnostics"].toArray()[0].toObject()["code"].toString() == "boundary_guessed");
    CHECK(doc["parts"].toArray()[0].toObject()["size"].toInt() == 11); // "hello\r\n--xy": nothing received is lost

    Run text = runCli({"parse", file.fileName()});
    CHECK(text.exitCode == 1);
    CHECK(text.out.contains("error @"));
}

TEST_CASE("bench --json times every strategy beside the memchr ceiling", "[cli]")
{
    Run run = runCli({"bench", "--size", "2M", "--runs", "1", "--input", "mixed", "--json"});
    REQUIRE(run.exitCode == 0);
    QJsonArray results = QJsonDocument::fromJson(run.out).object()["results"].toArray();
    QStringList strategies;
    for (const auto& r : results) {
        strategies << r.toObject()["strategy"].toString();
        CHECK(r.toObject()["input"].toString() == "mixed");
        CHECK(r.toObject()["gbps"].toDouble() > 0);
        CHECK(r.toObject()["ok"].toBool());
    }
    CHECK(strategies == QStringList{"memchr", "kmp", "chunked", "simd"});
    CHECK(runCli({"bench", "--size", "banana"}).exitCode == 2);
}

TEST_CASE("parse --raw-http reads a whole request in either framing", "[cli]")
{
    QTemporaryDir dir;
    const QByteArray body =
        "--b\r\nContent-Disposition: form-data; name=\"a\"; filename=\"a.txt\"\r\n\r\nhello\r\n--b--\r\n";
    const QByteArray head =
        "POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\n";
    const QByteArray chunked = head + "Transfer-Encoding: chunked\r\n\r\n7;ext=1\r\n" + body.left(7) + "\r\n" +
                               QByteArray::number(body.size() - 7, 16) + "\r\n" + body.mid(7) +
                               "\r\n0\r\nX-T: y\r\n\r\n";
    const QByteArray sized = head + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    for (const auto& [wire, framing] : {std::pair{chunked, "chunked"}, std::pair{sized, "content-length"}}) {
        QFile file(dir.filePath("request.http"));
        REQUIRE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(wire);
        file.close();
        Run run = runCli({"parse", "--raw-http", file.fileName(), "--json"});
        REQUIRE(run.exitCode == 0);
        QJsonObject doc = QJsonDocument::fromJson(run.out).object();
        CHECK(doc["request"].toObject()["method"].toString() == "POST");
        CHECK(doc["request"].toObject()["framing"].toString() == framing);
        QJsonObject part = doc["parts"].toArray()[0].toObject();
        CHECK(part["filename"].toString() == "a.txt");
        CHECK(part["sha256"].toString() == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
    }
    QFile broken(dir.filePath("broken.http"));
    REQUIRE(broken.open(QIODevice::WriteOnly));
    broken.write(head + "Transfer-Encoding: chunked\r\n\r\n5\r\n--b\r\nXX");
    broken.close();
    Run run = runCli({"parse", "--raw-http", broken.fileName(), "--json"});
    CHECK(run.exitCode == 1);
    CHECK(QJsonDocument::fromJson(run.out).object()["error"].toObject()["code"].toString() == "malformed_chunk");
}

TEST_CASE("copyPartBytes copies a part's bytes out of a body file, in pieces", "[inspect]")
{
    QTemporaryDir dir;
    QByteArray body(3 * (1 << 20) + 123, Qt::Uninitialized);
    for (qsizetype i = 0; i < body.size(); ++i)
        body[i] = char(i * 7);
    QFile source(dir.filePath("body.raw"));
    REQUIRE(source.open(QIODevice::WriteOnly));
    source.write(body);
    source.close();
    const QString target = dir.filePath("part.bin");
    upin::app::PartBytes where;
    where.file = source.fileName();
    where.fileOffset = 100;
    where.available = quint64(body.size() - 200);
    QString error;
    REQUIRE(upin::app::copyPartBytes(where, target, &error));
    QFile copied(target);
    REQUIRE(copied.open(QIODevice::ReadOnly));
    CHECK(copied.readAll() == body.mid(100, body.size() - 200));
    where.available = quint64(body.size()); // the source ends first: a failure that says so
    CHECK_FALSE(upin::app::copyPartBytes(where, target, &error));
    CHECK(error.contains("ended 100 bytes early"));
}

TEST_CASE("parse takes a 4 MiB field by default, and --max-field-size rejects it by name", "[cli][limits]")
{
    QTemporaryDir dir;
    const QByteArray value(4 << 20, 'v');
    const QString path = writeFile(
        dir, "field.bin", "--b\r\nContent-Disposition: form-data; name=\"big\"\r\n\r\n" + value + "\r\n--b--\r\n");
    Run whole = runCli({"parse", path, "--json"});
    CHECK(whole.exitCode == 0);
    CHECK(QJsonDocument::fromJson(whole.out).object()["parts"].toArray()[0].toObject()["size"].toInteger() ==
          value.size());
    Run limited = runCli({"parse", path, "--max-field-size", "1M"});
    CHECK(limited.exitCode == 1);
    CHECK(limited.out.contains("field_too_large"));
    CHECK(limited.out.contains("--max-field-size"));
    CHECK_FALSE(limited.out.contains("Options::")); // no C++ names in what users read
    Run bad = runCli({"parse", path, "--max-parts", "many"});
    CHECK(bad.exitCode == 2);
    CHECK(bad.err.contains("--max-parts"));
}

TEST_CASE("parse and extract read a capture folder: part files and inline field values", "[cli][capture]")
{
    upin::test::ListenerFixture f;
    const QByteArray photo = upin::test::randomBytes(qsizetype{137} * 1024, 3);
    const QString photoPath = f.file("photo.jpg", photo);
    auto r = upin::test::curl(
        {"-F", "note=hello from curl", "-F", "photo=@" + photoPath + ";type=image/jpeg", f.url("/file-part")});
    REQUIRE(r.status == 200);
    const QString folder = f.onlyCaptureFolder();

    Run text = runCli({"parse", folder});
    CHECK(text.exitCode == 0);
    CHECK(text.out.contains("value: \"hello from curl\""));
    CHECK(text.out.contains("photo.jpg"));
    Run json = runCli({"parse", folder, "--json"});
    CHECK(upin::test::partNamed(QJsonDocument::fromJson(json.out).object(), "note")["value"].toString() ==
          "hello from curl");

    QTemporaryDir out;
    CHECK(runCli({"extract", folder, "--name", "photo", "-o", out.filePath("photo.jpg")}).exitCode == 0);
    CHECK(upin::test::readAll(out.filePath("photo.jpg")) == photo);
    Run value = runCli({"extract", folder, "--part", "0", "-o", "-"});
    CHECK(value.exitCode == 0);
    CHECK(value.out == "hello from curl");
    Run missing = runCli({"extract", folder, "--part", "7", "-o", "-"});
    CHECK(missing.exitCode == 1);
    CHECK(missing.err.contains("has no part 7 (it has 2 parts)"));
}

TEST_CASE("parse prints a hostile file name with its control characters escaped, not sent to the terminal", "[cli]")
{
    QTemporaryDir dir;
    const QString path =
        writeFile(dir, "evil.bin",
                  "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a\x1b[31mred\x07.txt\"\r\n"
                  "Content-Type: text/plain\x1b]0;title\x07\r\n\r\nx\r\n--b--\r\n");
    Run run = runCli({"parse", path});
    CHECK(run.exitCode == 0);
    CHECK_FALSE(run.out.contains('\x1b'));
    CHECK_FALSE(run.out.contains('\x07'));
    CHECK(run.out.contains("a\\x1b[31mred\\x07.txt"));
}

TEST_CASE("curl CAPTURE_FOLDER prints a command that sends the same parts again, run with sh and curl", "[cli][curl]")
{
    upin::test::ListenerFixture f;
    const QByteArray png = QByteArray::fromBase64(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==");
    auto first = upin::test::curl({"-F", "note=hello", "-F", "img=@" + f.file("x.png", png), f.url("/file-part")});
    REQUIRE(first.status == 200);
    const QString folder = f.onlyCaptureFolder();
    Run printed = runCli({"curl", folder});
    REQUIRE(printed.exitCode == 0);
    INFO(printed.out.toStdString());
    CHECK(printed.out.contains("--form-string 'note=hello'")); // a text field stays a field, not a file
    CHECK(printed.out.contains(f.url("/file-part").toUtf8())); // the listener that stored it, by default
    QProcess sh;
    sh.start("sh", {"-c", QString::fromUtf8(printed.out).trimmed() + " -s"});
    REQUIRE(sh.waitForFinished(30000));
    const QJsonObject again = QJsonDocument::fromJson(sh.readAllStandardOutput()).object();
    const QJsonArray before = first.json["parts"].toArray();
    const QJsonArray after = again["parts"].toArray();
    REQUIRE(after.size() == 2);
    for (qsizetype i = 0; i < 2; ++i)
        for (const char* key : {"name", "filename", "content_type", "sha256", "value"})
            CHECK(after[i].toObject()[key] == before[i].toObject()[key]);
    CHECK(after[1].toObject()["content_type"].toString() == "image/png");
    CHECK(after[0].toObject()["filename"].isNull()); // still a field
}

TEST_CASE("curl of a raw body writes its parts to --parts-dir and sends them from there", "[cli][curl]")
{
    QTemporaryDir dir;
    const QByteArray data = upin::test::randomBytes(100000, 5);
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"r.bin\"\r\nContent-Type: "
                            "application/x-thing\r\n\r\n" +
                            data +
                            "\r\n--b\r\nContent-Disposition: form-data; name=\"t\"\r\n\r\nsome text\r\n--b--\r\n";
    const QString path = writeFile(dir, "body.bin", body);
    upin::test::ListenerFixture f;
    Run printed = runCli({"curl", path, "--to", f.url("/file-part"), "--parts-dir", dir.filePath("parts")});
    REQUIRE(printed.exitCode == 0);
    INFO(printed.out.toStdString());
    CHECK(QFileInfo(dir.filePath("parts/000-r.bin")).size() == data.size());
    QProcess sh;
    sh.start("sh", {"-c", QString::fromUtf8(printed.out).trimmed() + " -s"});
    REQUIRE(sh.waitForFinished(30000));
    const QJsonArray parts = QJsonDocument::fromJson(sh.readAllStandardOutput()).object()["parts"].toArray();
    REQUIRE(parts.size() == 2);
    CHECK(parts[0].toObject()["sha256"].toString().toStdString() == upin::test::sha256(data));
    CHECK(parts[0].toObject()["filename"].toString() == "r.bin");
    CHECK(parts[0].toObject()["content_type"].toString() == "application/x-thing");
    CHECK(parts[1].toObject()["value"].toString() == "some text");
    CHECK(parts[1].toObject()["filename"].isNull());
}

// A part sent base64-encoded keeps its Content-Transfer-Encoding when sent again (it went missing: the server got the
// encoded text as if it were the file).
TEST_CASE("curl of a body or a capture with encoded parts sends them with their Content-Transfer-Encoding",
          "[cli][curl]")
{
    QTemporaryDir dir;
    const QByteArray encoded = upin::test::randomBytes(3000, 7).toBase64();
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"r.bin\"\r\n"
                            "Content-Transfer-Encoding: base64\r\n\r\n" +
                            encoded +
                            "\r\n--b\r\nContent-Disposition: form-data; name=\"t\"\r\nContent-Transfer-Encoding: "
                            "quoted-printable\r\n\r\ncaf=C3=A9\r\n--b--\r\n";
    const QString path = writeFile(dir, "body.bin", body);
    upin::test::ListenerFixture f;
    REQUIRE(upin::test::curl({"-H", "Content-Type: multipart/form-data; boundary=b", "--data-binary", "@" + path,
                              f.url("/file-part")})
                .status == 200);
    const QString capture = f.onlyCaptureFolder();
    for (const QString& source : {path, capture}) {
        INFO(source.toStdString());
        Run printed = runCli({"curl", source, "--to", f.url("/file-part"), "--parts-dir", dir.filePath("parts")});
        REQUIRE(printed.exitCode == 0);
        INFO(printed.out.toStdString());
        CHECK(printed.out.contains(";headers=\"Content-Transfer-Encoding: base64\""));
        QProcess sh;
        sh.start("sh", {"-c", QString::fromUtf8(printed.out).trimmed() + " -s"});
        REQUIRE(sh.waitForFinished(30000));
        const QJsonArray parts = QJsonDocument::fromJson(sh.readAllStandardOutput()).object()["parts"].toArray();
        REQUIRE(parts.size() == 2);
        CHECK(parts[0].toObject()["sha256"].toString().toStdString() == upin::test::sha256(encoded));
        CHECK(parts[0].toObject()["transfer_encoding"].toString() == "base64");
        CHECK(parts[1].toObject()["transfer_encoding"].toString() == "quoted-printable");
        CHECK(parts[1].toObject()["size"].toInt() == 9); // caf=C3=A9, as it was
    }
    // A value that is no token would end the header (or the -F piece) it goes into: refused, with why.
    QByteArray hostile = body;
    hostile.replace("Content-Transfer-Encoding: base64", "Content-Transfer-Encoding: base64\";type=x");
    Run refused = runCli({"curl", writeFile(dir, "hostile.bin", hostile), "--to", f.url("/file-part"), "--parts-dir",
                          dir.filePath("parts2"), "--content-type", "multipart/form-data; boundary=b"});
    CHECK(refused.exitCode != 0);
    CHECK(refused.err.contains("is not a token a command can carry"));
    // A Content-Type that holds curl's own -F options would make the copied command read a local file of the user's
    // into the request (a fresh walk sent one this way): refused too, whatever quotes surround it.
    for (const QByteArray& type :
         {QByteArray("text/plain;headers=@/etc/hostname"), QByteArray("text/plain; x=\"a;headers=@/etc/hostname\""),
          QByteArray("text/plain; FileName=evil.sh")}) {
        QByteArray typed = body;
        typed.replace("Content-Transfer-Encoding: base64", "Content-Type: " + type);
        Run typedRun = runCli({"curl", writeFile(dir, "typed.bin", typed), "--to", f.url("/file-part"), "--parts-dir",
                               dir.filePath("parts3"), "--content-type", "multipart/form-data; boundary=b"});
        INFO(type.toStdString());
        CHECK(typedRun.exitCode != 0);
        CHECK(typedRun.err.contains("holds a parameter curl's -F would take as its own option"));
        CHECK_FALSE(typedRun.out.contains("headers=@"));
    }
}

// The window's Copy as curl and `curl SOURCE` aim where the source points: a whole request at its own path (not
// its Host, which may be a real server), a body at /file-part, both on the listener given as the fallback.
TEST_CASE("curl of a whole request keeps its path, and a source without parts says why", "[cli][curl]")
{
    QTemporaryDir dir;
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"t\"\r\n\r\nhi\r\n--b--\r\n";
    const QString http = writeFile(dir, "r.http",
                                   "POST /upload?x=1 HTTP/1.1\r\nHost: api.example.com\r\nContent-Type: "
                                   "multipart/form-data; boundary=b\r\nContent-Length: " +
                                       QByteArray::number(body.size()) + "\r\n\r\n" + body);
    const QString bare = writeFile(dir, "body.bin", body);
    const auto limits = upin::app::inspectLimits();
    QString why;
    auto plan = upin::app::resendPlanFor(upin::app::inspectSource(http, {}, limits), {}, dir.filePath("p1"), &why,
                                         "http://127.0.0.1:9");
    REQUIRE(plan);
    CHECK(plan->targets.first().toString() == "http://127.0.0.1:9/upload?x=1");
    plan = upin::app::resendPlanFor(upin::app::inspectSource(bare, {}, limits), {}, dir.filePath("p2"), &why,
                                    "http://127.0.0.1:9");
    REQUIRE(plan);
    CHECK(plan->targets.first().toString() == "http://127.0.0.1:9/file-part");
    const QString none = writeFile(dir, "none.bin", "no delimiter here");
    CHECK_FALSE(upin::app::resendPlanFor(upin::app::inspectSource(none, {}, limits), {}, dir.filePath("p3"), &why));
    CHECK(why.startsWith("the source has no parts: ")); // and why it has none, with the byte
    // A part that did not arrive whole: refused before anything is written (a folder was left behind).
    const QString cut = writeFile(dir, "cut.bin", "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\npartial");
    CHECK_FALSE(upin::app::resendPlanFor(upin::app::inspectSource(cut, {}, limits), {}, dir.filePath("p4"), &why));
    CHECK(why.endsWith("did not arrive whole"));
    CHECK_FALSE(QFileInfo::exists(dir.filePath("p4")));
}

// Issue 14's case: send to a path that answers 404 at once. Exit 1, the status as the server said it, and no
// figures for what did not happen (the line read "answer -1.000 s" and "0.0 MB/s" for a refused connection).
TEST_CASE("send reports an early 404 and a refused connection without invented figures", "[cli][send]")
{
    upin::test::ListenerFixture f;
    Run early = runCli({"send", "--synthetic", "big=64M", f.url("/nothing")});
    INFO(early.out.toStdString() << early.err.toStdString());
    CHECK(early.exitCode != 0);
    CHECK(early.out.contains("status 404 Not Found"));
    CHECK(early.out.contains("(answered before the whole body was sent)"));
    CHECK(early.out.contains("  - MB/s"));
    Run refused = runCli({"send", "-F", "a=b", "http://127.0.0.1:9/file-part"});
    INFO(refused.out.toStdString());
    CHECK(refused.exitCode != 0);
    CHECK(refused.out.contains("answer - s)"));
    CHECK_FALSE(refused.out.contains("-1.000"));
}

// Sizes and durations as the CLI options read them and every view shows them (finding 8 of issue 14: "7500 ms").
TEST_CASE("sizes and durations read as people write and read them", "[format]")
{
    using namespace upin::app;
    CHECK(parseByteSize("64K") == 65536u);
    CHECK(parseByteSize("1GiB") == 1073741824u);
    CHECK_FALSE(parseByteSize("12 apples").has_value());
    CHECK(exactByteSize(1048576) == "1M");
    CHECK(formatBytes(1536) == "1.50 KiB");
    CHECK(formatSeconds(0.00005) == "0.05 ms"); // a small request's head: not "0 ms"
    CHECK(formatSeconds(0.85) == "850 ms");
    CHECK(formatSeconds(7.5) == "7.50 s");
    CHECK(formatSeconds(42.4) == "42.4 s");
    CHECK(formatSeconds(125) == "2 min 5 s");
    CHECK(formatSeconds(-1) == "—"); // not measured
}
