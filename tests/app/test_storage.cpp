// What the listener keeps on disk, and what it claims about it: a full disk (a real tmpfs, and RLIMIT_FSIZE, the
// unprivileged way to make writes fail) answers 507 with sizes that match the files; retention never deletes a
// capture that is still receiving; form field values are kept in capture.json and served by GET /captures/ID (test_captures_list.cpp: the list
// and one capture by its id).

#include "app/listener_fixture.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QProcess>
#include <QTcpSocket>
#include <QThread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace upin;
using test::curl;
using test::FileSizeLimit;
using test::filesUnder;
using test::ListenerFixture;
using test::partNamed;
using test::readAll;

namespace {

// The 507 answer of a part whose file could not be completed: failed, io_error naming the file and the system's
// reason, and the part's size equal to the bytes in its file, with no hash claimed.
void checkFailedPart(const test::CurlResult& r, const QString& folder, const QString& part)
{
    CHECK(r.status == 507);
    CHECK(r.json["state"].toString() == "failed");
    CHECK_FALSE(r.json["ok"].toBool());
    const QJsonObject error = r.json["error"].toObject();
    CHECK(error["code"].toString() == "io_error");
    CHECK_FALSE(error["system_message"].toString().isEmpty());
    const QJsonObject p = partNamed(r.json, part);
    REQUIRE_FALSE(p.isEmpty());
    CHECK_FALSE(p["complete"].toBool());
    CHECK(p["sha256"].isNull());
    const QString saved = QDir(folder).filePath(p["saved_as"].toString());
    CHECK(QFileInfo(saved).size() == p["size"].toInteger());
    CHECK(error["offset"].toInteger() == p["body_offset"].toInteger() + p["size"].toInteger());
    for (const auto& file : filesUnder(folder))
        CHECK_FALSE(file.contains(".tmp")); // no temporary capture.json left behind
}

} // namespace

TEST_CASE("a file part larger than the file size limit: 507, a failed capture, sizes as on disk, then uploads work",
          "[listener][storage]")
{
    ListenerFixture f;
    const QByteArray big = test::randomBytes(3 << 20, 7);
    const QString path = f.file("big.bin", big);
    const QString ok = f.file("ok.txt", "fits\n");
    {
        FileSizeLimit limit(1 << 20);
        auto r = curl({"-F", "note=hello", "-F", "file=@" + path, f.url("/file-part")});
        const QString folder = f.onlyCaptureFolder();
        checkFailedPart(r, folder, "file");
        CHECK(r.json["error"].toObject()["file"].toString() == "001-big.bin");
        CHECK(partNamed(r.json, "file")["size"].toInteger() == 1 << 20);
        CHECK(partNamed(r.json, "note")["value"].toString() == "hello"); // what arrived before is kept
        const QJsonObject stored = QJsonDocument::fromJson(readAll(QDir(folder).filePath("capture.json"))).object();
        CHECK(stored["state"].toString() == "failed");
        CHECK(partNamed(stored, "file")["size"].toInteger() == 1 << 20);
        // The listener keeps serving: an upload that fits succeeds while the limit is still in force.
        auto next = curl({"-F", "f=@" + ok, f.url("/file-part")});
        CHECK(next.status == 200);
        CHECK(next.json["state"].toString() == "complete");
    }
}

TEST_CASE("/capture with body.raw over the file size limit: 507 and parts that match their files",
          "[listener][storage]")
{
    ListenerFixture f;
    const QByteArray big = test::randomBytes(2 << 20, 8);
    const QString path = f.file("big.bin", big);
    FileSizeLimit limit(1 << 20);
    auto r = curl({"-F", "file=@" + path, f.url("/capture")});
    const QString folder = f.onlyCaptureFolder();
    CHECK(r.status == 507);
    CHECK(r.json["state"].toString() == "failed");
    CHECK(r.json["error"].toObject()["file"].toString() == "body.raw");
    CHECK(QFileInfo(QDir(folder).filePath("body.raw")).size() == 1 << 20);
    CHECK(r.json["error"].toObject()["offset"].toInteger() == 1 << 20);
    const QJsonObject p = partNamed(r.json, "file");
    CHECK_FALSE(p["complete"].toBool());
    CHECK(p["sha256"].isNull());
    CHECK(QFileInfo(QDir(folder).filePath(p["saved_as"].toString())).size() == p["size"].toInteger());
}

TEST_CASE("capture.json that cannot be written: 507, and no empty or partial capture.json", "[listener][storage]")
{
    ListenerFixture f;
    QStringList fields;
    for (int i = 0; i < 60; ++i)
        fields << "-F" << QStringLiteral("field%1=%2").arg(i).arg(QString(200, QLatin1Char('x')));
    FileSizeLimit limit(rlim_t{8} * 1024); // the fields are kept inline: only capture.json (~20 KB) exceeds this
    auto r = curl(fields + QStringList{f.url("/file-part")});
    const QString folder = f.onlyCaptureFolder();
    CHECK(r.status == 507);
    CHECK(r.json["state"].toString() == "failed");
    CHECK(r.json["error"].toObject()["file"].toString() == "capture.json");
    // The system's reason, not "Unknown error": the short write is written again, and that write says why.
    CHECK(r.json["error"].toObject()["system_message"].toString().contains("too large"));
    CHECK(r.json["parts"].toArray().size() == 60);
    CHECK(filesUnder(folder).isEmpty()); // neither capture.json nor its temporary file
}

TEST_CASE("the CLI under ulimit -f answers 507 for a file over the limit, and goes on serving",
          "[listener][storage][cli]")
{
    QTemporaryDir dir;
    QProcess listen; // bash sets the limit (in 1 KiB blocks) and becomes the listener
    listen.start("bash", {"-c", "ulimit -f 256; exec \"$0\" listen --port 0 --capture-dir \"$1\"",
                          QStringLiteral(UPIN_CLI_PATH), dir.filePath("caps")});
    REQUIRE(listen.waitForReadyRead(10000));
    const QByteArray first = listen.readLine();
    const QByteArray port = first.mid(first.lastIndexOf(':') + 1).split(' ').first().trimmed();
    REQUIRE(port.toInt() > 0);
    const QString base = "http://127.0.0.1:" + QString::fromLatin1(port);
    const QString big = dir.filePath("big.bin");
    QFile file(big);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(test::randomBytes(1 << 20, 12));
    file.close();
    auto r = curl({"-F", "f=@" + big, base + "/file-part"});
    CHECK(r.status == 507);
    CHECK(r.json["error"].toObject()["system_message"].toString().contains("too large"));
    CHECK(curl({"-F", "note=hi", base + "/file-part"}).status == 200);
    CHECK(listen.state() == QProcess::Running);
    listen.terminate();
    listen.waitForFinished(5000);
}

TEST_CASE("a full tmpfs: 507, the part as far as it was written, and the listener still serving",
          "[listener][storage][tmpfs]")
{
    if (geteuid() != 0) { // mounting needs root: run this test again as root of new user and mount namespaces
        QProcess again;
        again.setProcessChannelMode(QProcess::ForwardedChannels);
        again.start("unshare",
                    {"--user", "--map-root-user", "--mount", QFile::symLinkTarget("/proc/self/exe"), "[tmpfs]"});
        REQUIRE(again.waitForFinished(120000));
        REQUIRE(again.exitStatus() == QProcess::NormalExit);
        REQUIRE(again.exitCode() == 0);
        return;
    }
    QTemporaryDir mountPoint;
    REQUIRE(mount("tmpfs", mountPoint.path().toLocal8Bit().constData(), "tmpfs", 0, "size=4m") == 0);
    struct Unmount {
        QByteArray path;
        ~Unmount() { umount2(path.constData(), MNT_DETACH); }
    } unmount{mountPoint.path().toLocal8Bit()};
    app::ServerConfig config;
    config.captureDir = mountPoint.filePath("captures");
    ListenerFixture f(config);
    const QString big = f.file("big.bin", test::randomBytes(6 << 20, 9)); // the fixture's folder, not the tmpfs
    auto r = curl({"-F", "file=@" + big, f.url("/file-part")});
    const QString folder = f.onlyCaptureFolder();
    CHECK(r.status == 507);
    CHECK(r.json["state"].toString() == "failed");
    CHECK(r.json["error"].toObject()["file"].toString() == "000-big.bin");
    CHECK(r.json["error"].toObject()["system_message"].toString().contains("space"));
    const QJsonObject p = partNamed(r.json, "file");
    CHECK(QFileInfo(QDir(folder).filePath("000-big.bin")).size() == p["size"].toInteger());
    CHECK(p["size"].toInteger() > 0);
    CHECK(p["sha256"].isNull());
    // Space set aside when the capture began lets the full disk still hold the capture's own account of it.
    const QJsonObject stored = QJsonDocument::fromJson(readAll(QDir(folder).filePath("capture.json"))).object();
    CHECK(stored["state"].toString() == "failed");
    CHECK(partNamed(stored, "file")["size"] == p["size"]);
    // The user frees the space; the next upload succeeds on the same listener.
    REQUIRE(QDir(folder).removeRecursively());
    auto next = curl({"-F", "file=@" + f.file("small.txt", "small\n"), f.url("/file-part")});
    CHECK(next.status == 200);
    CHECK(next.json["state"].toString() == "complete");
}

TEST_CASE("retention never deletes a capture that is still receiving", "[listener][storage]")
{
    app::ServerConfig config;
    config.retention.keepCaptures = 2;
    ListenerFixture f(config);
    const QByteArray head = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"slow.bin\"\r\n\r\n";
    const QByteArray rest = "the second half\r\n--b--\r\n";
    QTcpSocket slow;
    slow.connectToHost(QHostAddress::LocalHost, f.listener.port());
    REQUIRE(slow.waitForConnected(2000));
    slow.write("POST /capture HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\n"
               "Content-Length: " +
               QByteArray::number(head.size() + rest.size()) + "\r\n\r\n" + head);
    REQUIRE(slow.waitForBytesWritten(2000));
    const QString live = QDir(f.waitForCaptureFolder()).dirName(); // made once the head is parsed
    REQUIRE(live.startsWith("capture-"));
    const QString small = f.file("small.txt", "quick\n");
    for (int i = 0; i < 6; ++i)
        REQUIRE(curl({"-F", "f=@" + small, f.url("/file-part")}).status == 200);
    const QStringList after = test::settledCaptureFolders(f.listener.captureRoot(), 3);
    CHECK(after.contains(live));
    CHECK(after.size() == 3); // the receiving one and the newest two
    slow.write(rest);
    QByteArray answer;
    while (!answer.endsWith("}\n")) { // the JSON answer ends the response
        REQUIRE(slow.waitForReadyRead(5000));
        answer += slow.readAll();
    }
    CHECK(answer.startsWith("HTTP/1.1 200"));
    const QDir folder(QDir(f.listener.captureRoot()).filePath(live));
    CHECK(readAll(folder.filePath("000-slow.bin")) == "the second half");
    CHECK(folder.exists("capture.json"));
}

TEST_CASE("form field values are kept in capture.json and served by GET /captures/ID", "[listener][storage]")
{
    ListenerFixture f;
    const QByteArray large(qsizetype{100} * 1024, 'L');
    const QString largePath = f.file("large.txt", large);
    const QString binary = f.file("latin1.txt", QByteArray("caf\xe9", 4));
    auto r =
        curl({"-F", "note=hello from curl", "-F", "large=<" + largePath, "-F", "bin=<" + binary, f.url("/file-part")});
    REQUIRE(r.status == 200);
    const QJsonObject note = partNamed(r.json, "note");
    CHECK(note["value"].toString() == "hello from curl");
    CHECK(note["value_encoding"].toString() == "text");
    CHECK_FALSE(note["value_truncated"].toBool());
    CHECK_FALSE(note.contains("saved_as"));
    const QJsonObject bin = partNamed(r.json, "bin"); // not valid UTF-8: kept as base64, byte for byte
    CHECK(bin["value_encoding"].toString() == "base64");
    CHECK(QByteArray::fromBase64(bin["value"].toString().toLatin1()) == QByteArray("caf\xe9", 4));
    const QJsonObject big = partNamed(r.json, "large"); // over 64 KiB: the first bytes inline, all of it in a file
    CHECK(big["value_truncated"].toBool());
    CHECK(big["value"].toString().size() == qsizetype{64} * 1024);
    const QString folder = f.onlyCaptureFolder();
    CHECK(readAll(QDir(folder).filePath(big["saved_as"].toString())) == large);

    const QByteArray got = test::rawExchange(
        f.listener.port(),
        "GET /captures/" + r.json["capture_id"].toString().toLatin1() + " HTTP/1.1\r\nConnection: close\r\n\r\n", 2000);
    CHECK(got.startsWith("HTTP/1.1 200"));
    const QJsonObject report = QJsonDocument::fromJson(got.mid(got.indexOf("\r\n\r\n") + 4)).object();
    // capture.json as it was written, summary first, not parsed and made again.
    CHECK(got.mid(got.indexOf("\r\n\r\n") + 4) == readAll(QDir(folder).filePath("capture.json")));
    CHECK(partNamed(report, "note")["value"].toString() == "hello from curl");
    CHECK(report["state"].toString() == "complete");
    const QByteArray missing =
        test::rawExchange(f.listener.port(), "GET /captures/12345 HTTP/1.1\r\nConnection: close\r\n\r\n", 2000);
    CHECK(missing.startsWith("HTTP/1.1 404"));
}

TEST_CASE("a capture folder that cannot be created: 507 before the body, naming the folder and the reason",
          "[listener][storage]")
{
    QTemporaryDir dir;
    QFile blocker(dir.filePath("not-a-folder"));
    REQUIRE(blocker.open(QIODevice::WriteOnly)); // a file where the captures folder should be
    blocker.close();
    app::ServerConfig config;
    config.captureDir = blocker.fileName();
    ListenerFixture f(config);
    const QString small = f.file("small.txt", "small\n");
    for (const char* endpoint : {"/file-part", "/capture"}) {
        auto r = curl({"-F", "f=@" + small, f.url(endpoint)});
        CHECK(r.status == 507);
        CHECK(r.json["state"].toString() == "failed");
        CHECK(r.json["error"].toObject()["file"].toString() == blocker.fileName());
        CHECK(r.json["error"].toObject()["system_message"].toString().contains("directory"));
    }
    // /part-event stores nothing: unaffected.
    CHECK(curl({"-F", "f=@" + small, f.url("/part-event")}).status == 200);
}

TEST_CASE("retention leaves alone a folder that another listener sharing the captures folder is receiving",
          "[listener][storage]")
{
    app::ServerConfig config;
    config.retention.keepCaptures = 1;
    ListenerFixture f(config);
    // What another process's capture looks like while it arrives: a folder with its space reserve, no capture.json.
    const QString other = QDir(f.listener.captureRoot()).filePath("capture-20000101-000000-000-1234-file-part");
    REQUIRE(QDir().mkpath(other));
    QFile reserve(other + "/.capture.json.reserve");
    REQUIRE(reserve.open(QIODevice::WriteOnly));
    reserve.close();
    const QString small = f.file("s.txt", "s");
    for (int i = 0; i < 3; ++i)
        REQUIRE(curl({"-F", "f=@" + small, f.url("/file-part")}).status == 200);
    const QStringList left = test::settledCaptureFolders(f.listener.captureRoot(), 2);
    CHECK(left.size() == 2); // the newest finished one, and the other process's
    CHECK(left.contains("capture-20000101-000000-000-1234-file-part"));
    const QByteArray report =
        test::rawExchange(f.listener.port(), "GET /captures/1234 HTTP/1.1\r\nConnection: close\r\n\r\n");
    CHECK(report.contains("\"state\":\"receiving\""));
}

TEST_CASE("retention by total size (--keep-bytes) keeps the newest captures that fit", "[listener][storage]")
{
    app::ServerConfig config;
    config.retention.keepBytes = quint64{250} * 1024; // two 100 KiB captures fit, three do not
    ListenerFixture f(config);
    const QString file = f.file("p.bin", test::randomBytes(qsizetype{100} * 1024, 5));
    QStringList ids;
    for (int i = 0; i < 4; ++i)
        ids << curl({"-F", "f=@" + file, f.url("/file-part")}).json["capture_id"].toString();
    const QStringList kept = test::settledCaptureFolders(f.listener.captureRoot(), 2);
    REQUIRE(kept.size() == 2);
    QStringList keptIds;
    for (const auto& name : kept)
        keptIds << name.section('-', 4, 4);
    keptIds.sort();
    CHECK(keptIds == QStringList{ids[2], ids[3]});
    // What the folder holds, as the retention pass measured it: the two kept, each a little over 100 KiB.
    std::optional<quint64> held;
    for (int i = 0; i < 100 && (!held || *held > quint64{250} * 1024); ++i, QThread::msleep(20))
        held = f.listener.capturesBytes();
    REQUIRE(held);
    CHECK(*held > quint64{200} * 1024);
    CHECK(*held <= quint64{250} * 1024);
}

TEST_CASE("retention by total size counts what was added to a kept capture later (parts/ of Send again)",
          "[listener][storage]")
{
    app::ServerConfig config;
    config.retention.keepBytes = quint64{250} * 1024;
    ListenerFixture f(config);
    const QString file = f.file("p.bin", test::randomBytes(qsizetype{60} * 1024, 6));
    const QString first = curl({"-F", "f=@" + file, f.url("/file-part")}).json["capture_id"].toString();
    const QString folder = f.onlyCaptureFolder();
    std::optional<quint64> held; // measured (once, then known) by the pass after it ended
    for (int i = 0; i < 100 && (!held || *held < quint64{60} * 1024); ++i, QThread::msleep(20))
        held = f.listener.capturesBytes();
    REQUIRE(held);
    REQUIRE(*held >= quint64{60} * 1024);
    QDir(folder).mkpath("parts");
    QFile added(folder + "/parts/000-p.bin"); // as Send again writes a capture's parts after it ended
    REQUIRE(added.open(QIODevice::WriteOnly));
    added.write(test::randomBytes(qsizetype{150} * 1024, 7));
    added.close();
    const QString second = curl({"-F", "f=@" + file, f.url("/file-part")}).json["capture_id"].toString();
    // 60 + 150 + 60 KiB are over 250: the first goes, with what was added to it.
    const QStringList kept = test::settledCaptureFolders(f.listener.captureRoot(), 1);
    REQUIRE(kept.size() == 1);
    CHECK(kept.first().contains(second));
    CHECK_FALSE(kept.first().contains(first));
}

TEST_CASE("the captures folder is kept to 5 GiB unless told otherwise, and measured from the start",
          "[listener][storage]")
{
    CHECK(app::RetentionPolicy{}.keepBytes == quint64{5} << 30);
    QTemporaryDir dir;
    QDir(dir.path()).mkpath("capture-20260101-000000-000-1-file-part");
    QFile part(dir.filePath("capture-20260101-000000-000-1-file-part/000-a.bin"));
    REQUIRE(part.open(QIODevice::WriteOnly));
    part.write(QByteArray(5000, 'a'));
    part.close();
    app::ServerConfig config;
    config.captureDir = dir.path();
    ListenerFixture f(config);
    std::optional<quint64> held;
    for (int i = 0; i < 100 && !held; ++i, QThread::msleep(20))
        held = f.listener.capturesBytes(); // an earlier session's folder, before any upload here
    REQUIRE(held);
    CHECK(*held >= 5000);
}

TEST_CASE("stopping the listener mid-upload ends the capture as incomplete, with its capture.json",
          "[listener][storage]")
{
    ListenerFixture f;
    QTcpSocket slow;
    slow.connectToHost(QHostAddress::LocalHost, f.listener.port());
    REQUIRE(slow.waitForConnected(2000));
    slow.write("POST /file-part HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\n"
               "Content-Length: 1000\r\n\r\n--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x\"\r\n\r\n"
               "partial");
    REQUIRE(slow.waitForBytesWritten(2000));
    const QString folder = f.waitForCaptureFolder("000-x");
    REQUIRE_FALSE(folder.isEmpty());
    QThread::msleep(100); // the 7 body bytes reach the part file
    f.listener.stop();
    const QJsonObject stored = QJsonDocument::fromJson(readAll(QDir(folder).filePath("capture.json"))).object();
    CHECK(stored["state"].toString() == "incomplete");
    CHECK(stored["error"].toObject()["detail"].toString().contains("listener stopped"));
    CHECK(readAll(QDir(folder).filePath("000-x")) == "partial");
    CHECK(QDir(folder).entryList(QDir::Files | QDir::Hidden) == QStringList({"000-x", "capture.json"})); // no reserve
}

TEST_CASE("a client that sends its whole body before reading gets the early answer, naming the limit",
          "[listener][http]")
{
    app::ServerConfig config;
    config.parser.maxFieldSize = 1024; // the 8 MiB field below is refused after its first KiB
    ListenerFixture f(config);
    const QByteArray body =
        "--b\r\nContent-Disposition: form-data; name=\"big\"\r\n\r\n" + QByteArray(8 << 20, 'x') + "\r\n--b--\r\n";
    const QByteArray request =
        "POST /part-event HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\n"
        "Content-Length: " +
        QByteArray::number(body.size()) + "\r\n\r\n" + body;
    for (int i = 0; i < 3; ++i) {
        const auto [sentAll, answer] = test::sendAllThenRead(f.listener.port(), request);
        CHECK(sentAll);
        CHECK(answer.startsWith("HTTP/1.1 400"));
        CHECK(answer.contains("field_too_large"));
        CHECK(answer.contains("\"limit\":\"max-field-size\"")); // the option, for a script; no front end's words
    }
}

TEST_CASE("clients that trickle their bodies are dropped with a 408 they can read, and slots free up",
          "[listener][http][slow]")
{
    app::ServerConfig config;
    config.maxConnections = 3;
    config.guards.minBodyBytesPerSecond = 1024; // over windows of 0.5 s after 0.5 s (the defaults are 10 s and 10 s)
    config.guards.bodyGraceMs = 500;
    config.guards.bodyRateWindowMs = 500;
    ListenerFixture f(config);
    std::vector<std::unique_ptr<QTcpSocket>> tricklers;
    for (int i = 0; i < 3; ++i) {
        auto socket = std::make_unique<QTcpSocket>();
        socket->connectToHost(QHostAddress::LocalHost, f.listener.port());
        REQUIRE(socket->waitForConnected(2000));
        socket->write(
            "POST /part-event HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\n"
            "Content-Length: 100000\r\n\r\n--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n");
        socket->waitForBytesWritten(1000);
        tricklers.push_back(std::move(socket));
    }
    QElapsedTimer clock;
    clock.start();
    QList<QByteArray> answers(3);
    while (clock.elapsed() < 5000) { // one byte per 100 ms each: 10 bytes/s, far under the minimum
        for (size_t i = 0; i < tricklers.size(); ++i) {
            if (tricklers[i]->state() == QAbstractSocket::ConnectedState)
                tricklers[i]->write("x");
            tricklers[i]->waitForReadyRead(30);
            answers[qsizetype(i)] += tricklers[i]->readAll();
        }
        bool allAnswered = true;
        for (const auto& a : answers)
            allAnswered = allAnswered && a.contains("}\n");
        if (allAnswered)
            break;
    }
    for (const auto& answer : answers) {
        CHECK(answer.startsWith("HTTP/1.1 408"));
        CHECK(answer.contains("--min-body-rate"));
    }
    CHECK(clock.elapsed() < 3000); // dropped after grace + one window, not at the 30 s idle timeout
    // The slots are free again: a normal upload goes through (retrying a 503 as its Retry-After says).
    auto r = curl({"--retry", "3", "-F", "f=@" + f.file("n.bin", test::randomBytes(1 << 20, 3)), f.url("/file-part")});
    CHECK(r.status == 200);
}
