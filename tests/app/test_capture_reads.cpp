// How a capture's bytes are read back: a /capture that kept its body once serves its parts from body.raw (Inspect,
// extract, Copy as curl); Inspect reads nothing to show a capture, and a part file gone since says so when read.

#include "app/listener_fixture.h"
#include "inspect/inspect_worker.h"
#include "inspect/part_bytes.h"
#include "inspect/part_reader.h"
#include "inspect/resend.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>

using namespace upin;
using test::curl;
using test::ListenerFixture;
using test::partNamed;
using test::readAll;

TEST_CASE("/capture --capture-body-only keeps head.raw and body.raw once, and every part reads back from body.raw",
          "[listener][storage]")
{
    app::ServerConfig config;
    config.captureBodyOnly = true;
    ListenerFixture f(config);
    const QByteArray file = test::randomBytes(300 << 10, 21);
    const QByteArray longField((100 << 10) + 7, 'v'); // over the 64 KiB kept inline: a part file before
    auto r = curl({"-F", "file=@" + f.file("photo.bin", file), "-F", "note=<" + f.file("note.txt", longField), "-F",
                   "tag=x", f.url("/capture")});
    REQUIRE(r.status == 200);
    const QString folder = f.onlyCaptureFolder();
    QStringList names = QDir(folder).entryList(QDir::Files);
    names.sort();
    CHECK(names == QStringList{"body.raw", "capture.json", "head.raw"}); // nothing stored twice
    CHECK_FALSE(partNamed(r.json, "file").contains("saved_as"));

    const app::InspectResult opened = app::inspectSource(folder, {}, app::inspectLimits());
    REQUIRE(opened.error.isEmpty());
    REQUIRE(opened.report.parts.size() == 3);
    QTemporaryDir out;
    for (const auto& [index, expected] : {std::pair{0, file}, std::pair{1, longField}}) {
        QString error;
        const QString target = out.filePath(QString::number(index));
        REQUIRE(app::copyPartBytes(app::locatePart(opened, opened.report.parts[size_t(index)]), target, &error));
        CHECK(readAll(target) == expected);
    }
    // Copy as curl sends body.raw itself, with the captured Content-Type: the same parts arrive, and nothing is
    // written to send them (the point of keeping the body once).
    REQUIRE(app::partsOnlyInBody(opened));
    QString why;
    const auto command = app::resendCommandFor(opened, f.url(""), {}, &why);
    REQUIRE(command);
    CHECK(command->contains("--data-binary @"));
    QProcess shell;
    shell.start("bash", {"-c", *command + " -s"});
    REQUIRE(shell.waitForFinished(30000));
    const QJsonObject again = QJsonDocument::fromJson(shell.readAllStandardOutput()).object();
    REQUIRE(again["parts"].toArray().size() == 3);
    for (const QString name : {"file", "note", "tag"})
        CHECK(partNamed(again, name)["sha256"].toString() == partNamed(r.json, name)["sha256"].toString());
    CHECK_FALSE(QDir(folder).exists("parts"));
}

TEST_CASE("Inspect reads nothing to show a capture, and a part file deleted since says so when it is read",
          "[listener][storage][inspect]")
{
    ListenerFixture f;
    const QByteArray data = test::randomBytes(100 << 10, 5);
    REQUIRE(curl({"-F", "file=@" + f.file("a.bin", data), f.url("/file-part")}).status == 200);
    const app::InspectResult opened = app::inspectSource(f.onlyCaptureFolder(), {}, app::inspectLimits());
    REQUIRE(opened.report.parts.size() == 1);
    app::ByteRequest request;
    request.source = app::locatePart(opened, opened.report.parts[0]);
    request.length = 1 << 20;
    CHECK(app::readBytes(request).bytes == data);
    REQUIRE(QFile::remove(request.source.file));
    request.source = app::locatePart(opened, opened.report.parts[0]); // from the record: the same, no stat
    CHECK(request.source.available == quint64(data.size()));
    const app::ByteReply reply = app::readBytes(request);
    CHECK(reply.bytes.isEmpty());
    CHECK(reply.error.endsWith(" is gone"));
    // The whole capture deleted since it was listed: the worker says so (the list does not stat on the GUI thread).
    const QString folder = f.onlyCaptureFolder();
    REQUIRE(QDir(folder).removeRecursively());
    const app::InspectResult gone = app::inspectSource(folder, {}, app::inspectLimits());
    CHECK(gone.error == folder + " does not exist");
}

TEST_CASE("a whole-request file is sized when it is opened, and the request view's bytes are located without a stat",
          "[inspect]")
{
    QTemporaryDir dir;
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhello\r\n--b--\r\n";
    const QByteArray request = "POST /u HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                               "Content-Length: " +
                               QByteArray::number(body.size()) + "\r\n\r\n" + body;
    const QString path = dir.filePath("request.http");
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(request);
    file.close();
    const app::InspectResult opened = app::inspectSource(path, {}, app::inspectLimits());
    CHECK(opened.sourceSize == request.size());
    REQUIRE(QFile::remove(path));
    const app::PartBytes where = app::locateRequest(opened); // from what was read when it opened: still its size
    CHECK(where.file == path);
    CHECK(where.available == quint64(request.size()));
}
