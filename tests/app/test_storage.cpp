// What the listener keeps on disk, and what it claims about it: a full disk (a real tmpfs, and RLIMIT_FSIZE, the
// unprivileged way to make writes fail) answers 507 with sizes that match the files; retention never deletes a
// capture that is still receiving; form field values are kept in capture.json and served by GET /captures/ID.

#include "app/listener_fixture.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QProcess>
#include <QTcpSocket>
#include <QThread>

#include <csignal>
#include <sys/mount.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace upin;
using test::curl;
using test::filesUnder;
using test::ListenerFixture;
using test::partNamed;
using test::readAll;

namespace {

// Lowers this process's file size limit (the listener runs in it) until destroyed. With SIGXFSZ ignored, a write
// past the limit fails with EFBIG instead of killing the process.
struct FileSizeLimit {
    rlimit saved{};
    explicit FileSizeLimit(rlim_t bytes)
    {
        std::signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &saved);
        rlimit lowered = saved;
        lowered.rlim_cur = bytes;
        REQUIRE(setrlimit(RLIMIT_FSIZE, &lowered) == 0);
    }
    ~FileSizeLimit() { setrlimit(RLIMIT_FSIZE, &saved); }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;
};

QString onlyCapture(const ListenerFixture& f)
{
    QStringList folders = QDir(f.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs);
    REQUIRE(folders.size() == 1);
    return QDir(f.listener.captureRoot()).filePath(folders.first());
}

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
        const QString folder = onlyCapture(f);
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
    const QString folder = onlyCapture(f);
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
    const QString folder = onlyCapture(f);
    CHECK(r.status == 507);
    CHECK(r.json["state"].toString() == "failed");
    CHECK(r.json["error"].toObject()["file"].toString() == "capture.json");
    CHECK(r.json["parts"].toArray().size() == 60);
    CHECK(filesUnder(folder).isEmpty()); // neither capture.json nor its temporary file
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
    app::ListenerConfig config;
    config.port = 0;
    config.captureDir = mountPoint.filePath("captures");
    app::Listener listener;
    REQUIRE(listener.start(config));
    QTemporaryDir sources;
    const QString big = sources.filePath("big.bin");
    {
        QFile file(big);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write(test::randomBytes(6 << 20, 9));
    }
    const QString url = QStringLiteral("http://127.0.0.1:%1/file-part").arg(listener.port());
    auto r = curl({"-F", "file=@" + big, url});
    QStringList folders = QDir(listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs);
    REQUIRE(folders.size() == 1);
    const QString folder = QDir(listener.captureRoot()).filePath(folders.first());
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
    const QString small = sources.filePath("small.txt");
    {
        QFile file(small);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("small\n");
    }
    auto next = curl({"-F", "file=@" + small, url});
    CHECK(next.status == 200);
    CHECK(next.json["state"].toString() == "complete");
}

TEST_CASE("retention never deletes a capture that is still receiving", "[listener][storage]")
{
    app::ListenerConfig config;
    config.retention.keepCaptures = 2;
    ListenerFixture f(config);
    const QByteArray head = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"slow.bin\"\r\n\r\n";
    const QByteArray rest = "the second half\r\n--b--\r\n";
    QTcpSocket slow;
    slow.connectToHost(QHostAddress::LocalHost, f.listener.port());
    REQUIRE(slow.waitForConnected(2000));
    slow.write("POST /capture HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n"
               "Content-Length: " +
               QByteArray::number(head.size() + rest.size()) + "\r\n\r\n" + head);
    REQUIRE(slow.waitForBytesWritten(2000));
    QString live;
    for (int i = 0; i < 50 && live.isEmpty(); ++i) { // the folder appears once the head is parsed
        QThread::msleep(20);
        const QStringList folders = QDir(f.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs);
        if (!folders.isEmpty())
            live = folders.first();
    }
    REQUIRE_FALSE(live.isEmpty());
    const QString small = f.file("small.txt", "quick\n");
    for (int i = 0; i < 6; ++i)
        REQUIRE(curl({"-F", "f=@" + small, f.url("/file-part")}).status == 200);
    const QStringList after = QDir(f.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs);
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
    const QString folder = onlyCapture(f);
    CHECK(readAll(QDir(folder).filePath(big["saved_as"].toString())) == large);

    const QByteArray got = test::rawExchange(
        f.listener.port(),
        "GET /captures/" + r.json["capture_id"].toString().toLatin1() + " HTTP/1.1\r\nConnection: close\r\n\r\n", 2000);
    CHECK(got.startsWith("HTTP/1.1 200"));
    const QJsonObject report = QJsonDocument::fromJson(got.mid(got.indexOf("\r\n\r\n") + 4)).object();
    CHECK(partNamed(report, "note")["value"].toString() == "hello from curl");
    CHECK(report["state"].toString() == "complete");
    const QByteArray missing =
        test::rawExchange(f.listener.port(), "GET /captures/12345 HTTP/1.1\r\nConnection: close\r\n\r\n", 2000);
    CHECK(missing.startsWith("HTTP/1.1 404"));
}
