// Every request leaves a record, refused ones included (capture/refused_request.h): a wrong method or path, a body
// that is not multipart, a missing boundary, a guard, a full house. Each is listed by GET /captures and on the
// CLI's line log with its status and reason, through the forwarder the same, and a flood of them stays within the
// rolling file's bound. (Through the forwarder, GET /captures is the upstream's; its refusals are in its own
// captures folder, its line log and the Listen tab.)

#include "app/forward_fixture.h"

#include <catch2/catch.hpp>

#include <QJsonArray>

using namespace upin;
using test::curl;
using test::ListenerFixture;

namespace {

// The requests of the issue that are turned away before their bodies, with what they are answered.
struct Refused {
    QStringList curlArguments; // after the URL's base
    QString path;
    int status;
    const char* reason; // in the record's reason
};

const QList<Refused>& commonRefusals()
{
    static const QList<Refused> all{
        {{"-X", "PUT", "--data-binary", "x"}, "/file-part", 405, "use POST"},
        {{"-F", "f=@/etc/hostname"}, "/no-such-path", 404, "not found"},
        {{"--data-urlencode", "a=b"}, "/file-part", 415, "not multipart"},
        {{"-H", "Content-Type: multipart/form-data", "--data-binary", "x"}, "/file-part", 415, "no boundary"},
    };
    return all;
}

QJsonArray recentList(const ListenerFixture& f)
{
    const QByteArray answer =
        test::rawExchange(f.listener.port(), "GET /captures HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    return QJsonDocument::fromJson(answer.mid(answer.indexOf("\r\n\r\n") + 4)).array();
}

QJsonObject recentEntry(const ListenerFixture& f, const QString& method, const QString& target)
{
    for (int i = 0; i < 50; ++i) {
        const QJsonArray recent = recentList(f);
        for (qsizetype j = recent.size(); j-- > 0;) { // the newest first
            const QJsonValue entry = recent[j];
            if (entry.toObject()["method"].toString() == method && entry.toObject()["target"].toString() == target)
                return entry.toObject();
        }
        QThread::msleep(20);
    }
    return {};
}

// The refused log's lines, once the store's thread has written at least `count` of them (or after 3 s).
QList<QByteArray> refusedLines(const QString& root, int count = 1)
{
    QList<QByteArray> lines;
    for (int i = 0; i < 150; ++i) {
        lines = test::readAll(QDir(root).filePath("refused.jsonl")).split('\n');
        lines.removeAll(QByteArray());
        if (lines.size() >= count)
            break;
        QThread::msleep(20);
    }
    return lines;
}

} // namespace

TEST_CASE("refused requests are listed by GET /captures with their status, reason and head", "[refused]")
{
    ListenerFixture f;
    for (const Refused& r : commonRefusals()) {
        INFO(r.path.toStdString() << " " << r.curlArguments.join(' ').toStdString());
        const auto answer = curl(r.curlArguments + QStringList{f.url(r.path)});
        CHECK(answer.status == r.status);
        const QString method = r.curlArguments.contains("PUT") ? "PUT" : "POST";
        const QJsonObject entry = recentEntry(f, method, r.path);
        REQUIRE_FALSE(entry.isEmpty());
        CHECK(entry["state"].toString() == "refused");
        CHECK(entry["status"].toInt() == r.status);
        CHECK(entry["reason"].toString().contains(QLatin1String(r.reason), Qt::CaseInsensitive));
        CHECK(entry["head"].toString().startsWith(method + " " + r.path + " HTTP/1.1\r\n"));
        // One capture's report by its id, as for any capture.
        const QByteArray one = test::rawExchange(f.listener.port(), "GET /captures/" + entry["id"].toString().toUtf8() +
                                                                        " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                                                        "Connection: close\r\n\r\n");
        CHECK(one.startsWith("HTTP/1.1 200"));
        CHECK(one.contains("\"state\":\"refused\""));
    }
    // A head that does not parse is recorded with its offset; no folder is made for any of them.
    CHECK(test::rawExchange(f.listener.port(), "POST /file-part HTTP/1.1\r\nBad Name: x\r\n\r\n")
              .startsWith("HTTP/1.1 400"));
    const QJsonObject bad = recentEntry(f, "POST", "/file-part");
    CHECK_FALSE(bad.isEmpty());
    CHECK(QDir(f.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs).isEmpty());
    CHECK(refusedLines(f.listener.captureRoot(), 5).size() == 5);
}

TEST_CASE("the CLI's line log says each refused request with its status and reason", "[refused][cli]")
{
    QTemporaryDir dir;
    QProcess listen;
    listen.start(QStringLiteral(UPIN_CLI_PATH), {"listen", "--port", "0", "--capture-dir", dir.filePath("caps")});
    REQUIRE(listen.waitForReadyRead(10000));
    const QByteArray first = listen.readLine();
    const QByteArray port = first.mid(first.lastIndexOf(':') + 1).split(' ').first().trimmed();
    REQUIRE(port.toInt() > 0);
    const QString base = "http://127.0.0.1:" + QString::fromLatin1(port);
    for (const Refused& r : commonRefusals())
        curl(r.curlArguments + QStringList{base + r.path});
    curl({"-F", "f=@/etc/hostname", base + "/nope?next=%2Fhome%3Dx"}); // percent escapes, as they came
    QByteArray log;
    for (int i = 0; i < 100 && log.count("refused") < 5; ++i)
        if (listen.waitForReadyRead(50))
            log += listen.readAll();
    listen.terminate();
    listen.waitForFinished(5000);
    INFO(log.constData());
    CHECK(log.contains("PUT /file-part  refused 405  use POST"));
    CHECK(log.contains("POST /no-such-path  refused 404  not found"));
    CHECK(log.contains("POST /file-part  refused 415"));
    CHECK(log.count("refused 415") == 2);
    CHECK(log.contains("POST /nope?next=%2Fhome%3Dx  refused 404  not found"));
}

TEST_CASE("through the forwarder a refused request is recorded the same, and never reaches the upstream",
          "[refused][forward]")
{
    ListenerFixture upstream;
    auto f = test::forwarder(upstream.url(QString()));
    CHECK(curl({"-H", "Origin: http://evil.example", "-F", "f=@/etc/hostname", f->url("/file-part")}).status == 403);
    // GET /captures through the forwarder is the upstream's: the forwarder's own record is in its captures folder.
    const QList<QByteArray> lines = refusedLines(f->listener.captureRoot());
    REQUIRE(lines.size() >= 1);
    const QJsonObject entry = QJsonDocument::fromJson(lines.first()).object();
    CHECK(entry["method"].toString() == "POST");
    CHECK(entry["target"].toString() == "/file-part");
    CHECK(entry["status"].toInt() == 403);
    CHECK(entry["reason"].toString().contains("evil.example"));
    CHECK(QDir(upstream.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs).isEmpty());
}

TEST_CASE("a flood of refused requests stays within the rolling file's bound and pushes no capture out",
          "[refused][retention]")
{
    app::ServerConfig config;
    config.retention.keepCaptures = 5;
    ListenerFixture f(config);
    REQUIRE(curl({"-F", "f=@/etc/hostname", f.url("/file-part")}).status == 200);
    // 6,000 refusals on one kept-alive connection: GETs of a path that is not there.
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, f.listener.port());
    REQUIRE(socket.waitForConnected(2000));
    QByteArray answers;
    for (int batch = 0; batch < 60; ++batch) {
        QByteArray requests;
        for (int i = 0; i < 100; ++i)
            requests +=
                "GET /nothing-here-" + QByteArray::number(batch * 100 + i) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        socket.write(requests);
        while (answers.count("HTTP/1.1 404") < qsizetype(batch + 1) * 100 && socket.waitForReadyRead(2000))
            answers += socket.readAll();
    }
    CHECK(answers.count("HTTP/1.1 404") == 6000);
    const QString log = QDir(f.listener.captureRoot()).filePath("refused.jsonl");
    for (int i = 0; i < 150 && !QFileInfo::exists(log + ".1"); ++i) // written on the store's own thread
        QThread::msleep(20);
    CHECK(QFileInfo(log).size() <= app::CaptureStore::kRefusedLogBytes + 4096);
    CHECK(QFileInfo(log + ".1").size() <= app::CaptureStore::kRefusedLogBytes + 4096);
    CHECK(QFileInfo(log + ".1").size() > 0);                                                // it rolled over
    CHECK(QDir(f.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs).size() == 1); // the upload is kept
    // In the recent list refusals have a quota of their own: the upload is still listed, beside the newest five.
    const QJsonArray recent = recentList(f);
    CHECK(recent.size() == 6);
    CHECK(recent.first().toObject()["state"].toString() == "complete");
}

TEST_CASE("the forward command takes the listener's guards: a page of an allowed origin posts through it",
          "[forward][cli][guards]")
{
    app::ServerConfig upstreamConfig; // the user's server allows its own page too
    upstreamConfig.guards.allowedOrigins = {QStringLiteral("http://localhost:3000")};
    ListenerFixture upstream(upstreamConfig);
    QTemporaryDir dir;
    QProcess forward;
    forward.start(QStringLiteral(UPIN_CLI_PATH), {"forward", upstream.url(QString()), "--port", "0", "--capture-dir",
                                                  dir.filePath("caps"), "--allow-origin", "http://localhost:3000"});
    REQUIRE(forward.waitForReadyRead(10000));
    const QByteArray first = forward.readLine();
    INFO(first.constData());
    const qsizetype colon = first.indexOf(':', first.indexOf("127.0.0.1"));
    const QByteArray port = first.mid(colon + 1).split(' ').first().trimmed();
    REQUIRE(port.toInt() > 0);
    const QString base = "http://127.0.0.1:" + QString::fromLatin1(port);
    const auto allowed = curl({"-H", "Origin: http://localhost:3000", "-F", "f=@/etc/hostname", base + "/file-part"});
    CHECK(allowed.status == 200);
    const auto refused = curl({"-H", "Origin: http://evil.example", "-F", "f=@/etc/hostname", base + "/file-part"});
    CHECK(refused.status == 403);
    // Refused by the forwarder, not the upstream.
    CHECK(refused.json["error"].toString().contains("may not use this forwarder"));
    forward.terminate();
    forward.waitForFinished(5000);
    QProcess bad;
    bad.start(QStringLiteral(UPIN_CLI_PATH), {"forward", upstream.url(QString()), "--head-timeout", "nan"});
    REQUIRE(bad.waitForFinished(10000));
    CHECK(bad.exitCode() == 2);
    CHECK(bad.readAllStandardError().contains("--head-timeout"));
}

// Seen in a run of the window's test: a refused row opened at once, before the store's thread had written its line,
// found nothing in the log. A recent refusal is found from memory, head and answer whole.
TEST_CASE("a refusal is found by its id at once, from memory, with its head and the answer sent", "[refused]")
{
    QTemporaryDir dir;
    app::CaptureStore store(dir.filePath("captures"), app::RetentionPolicy{});
    app::RefusedRequest refused;
    refused.method = "PUT";
    refused.target = "/file-part";
    refused.head = "PUT /file-part HTTP/1.1\r\nHost: here\r\n\r\n";
    refused.status = 405;
    refused.reason = "use POST";
    refused.answer = "HTTP/1.1 405 Method Not Allowed\r\nAllow: POST\r\n\r\nuse POST\n";
    store.recordRefused(refused);
    const std::optional<app::RefusedRequest> found = store.recentRefused(refused.id);
    REQUIRE(found);
    CHECK(found->head == refused.head);
    CHECK(found->answer == refused.answer);
    CHECK(found->label() == "PUT /file-part");
    CHECK_FALSE(store.recentRefused(refused.id + 1));
}

namespace {
core::ByteView view(const QByteArray& bytes)
{
    return {bytes.constData(), size_t(bytes.size())};
}
} // namespace

TEST_CASE("a head that did not parse is kept to its blank line, without the body's bytes of the same read", "[refused]")
{
    const QByteArray head = "POST /file-part HTTP/1.1\r\nHost: here\r\nNo colon in this line\r\n\r\n";
    core::HeadReader reader;
    const auto fed = reader.feed(view(head + "--body bytes that came along\r\n"));
    REQUIRE_FALSE(fed);
    const app::RefusedRequest refused = app::RefusedRequest::fromHead(reader, 400, "bad head", fed.error());
    CHECK(refused.head == head);
    CHECK(refused.method == "POST");
    // A head cut off before its blank line keeps what came.
    core::HeadReader cut;
    const QByteArray partial = "POST /x HTTP/1.1\r\nNo colon";
    REQUIRE(cut.feed(view(partial)));
    CHECK(app::RefusedRequest::fromHead(cut, 408, "too slow").head == partial);
}
