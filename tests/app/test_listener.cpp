// The listener with real clients on 127.0.0.1: the system curl, QNetworkAccessManager and raw sockets.

#include "app/listener_fixture.h"

#include <catch2/catch.hpp>

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QEventLoop>
#include <QHttpMultiPart>
#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

using namespace upin;
using test::curl;
using test::ListenerFixture;

using test::filesUnder;
using test::partNamed;
using test::rawExchange;
using test::readAll;

TEST_CASE("curl -F with several files and fields: every part hash matches the source", "[listener][curl]")
{
    // With either hash: the digests are what sha256sum or xxh128sum print for the files.
    const char* hash = GENERATE("sha256", "xxh3");
    const core::HashKind kind = *core::kHashNames.find(hash);
    INFO("hash " << hash);
    ListenerFixture f;
    const QByteArray big = test::randomBytes(3 << 20, 1), small = "small text file\n", empty;
    QString a = f.file("a.bin", big), b = f.file("b.txt", small), c = f.file("empty.dat", empty);
    const QStringList variants[] = {{}, {"-H", "Transfer-Encoding: chunked"}, {"-H", "Expect: 100-continue"}};
    for (const auto& extra : variants) {
        INFO("curl extra args: " << extra.join(' ').toStdString());
        auto r = curl(extra + QStringList{"-F", "big=@" + a, "-F", "small=@" + b + ";type=text/plain", "-F",
                                          "none=@" + c, "-F", "field=value with spaces",
                                          f.url(QStringLiteral("/file-part?hash=") + hash)});
        REQUIRE(r.status == 200);
        REQUIRE(r.json["ok"].toBool());
        CHECK(r.json["hash"].toString() == hash);
        CHECK(r.json["parts"].toArray().size() == 4);
        CHECK(partNamed(r.json, "big")[hash].toString().toStdString() == test::toolDigest(kind, a));
        CHECK(partNamed(r.json, "big")[hash].toString().toStdString() == test::digest(kind, big));
        CHECK(partNamed(r.json, "big")["size"].toInteger() == big.size());
        CHECK(partNamed(r.json, "small")[hash].toString().toStdString() == test::toolDigest(kind, b));
        CHECK(partNamed(r.json, "small")["content_type"].toString() == "text/plain");
        CHECK(partNamed(r.json, "none")["size"].toInt() == 0);
        CHECK(partNamed(r.json, "none")[hash].toString().toStdString() == test::toolDigest(kind, c));
        CHECK(partNamed(r.json, "field")[hash].toString().toStdString() == test::digest(kind, "value with spaces"));
        // file parts are saved, byte for byte
        QStringList captures = QDir(f.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs, QDir::Time);
        REQUIRE_FALSE(captures.isEmpty());
        QDir folder(QDir(f.listener.captureRoot()).filePath(captures.first()));
        CHECK(readAll(folder.filePath(partNamed(r.json, "big")["saved_as"].toString())) == big);
        QJsonObject stored = QJsonDocument::fromJson(readAll(folder.filePath("capture.json"))).object();
        CHECK(stored["state"].toString() == "complete");
        CHECK(stored["throughput"].toArray().size() >= 1);
        // The request as it came (Inspect's Request row): line, fields in order, framing and its wire figures.
        const QJsonObject request = stored["request"].toObject();
        CHECK(request["method"].toString() == "POST");
        CHECK(request["version"].toString() == "HTTP/1.1");
        CHECK(request["headers"].toArray().first()["name"].toString() == "Host");
        CHECK(request["head_bytes"].toInteger() > 100);
        CHECK(request["head_ms"].toDouble() >= 0);
        CHECK(QDateTime::fromString(request["received_at"].toString(), Qt::ISODateWithMs)
                  .secsTo(QDateTime::currentDateTimeUtc()) < 60);
        const bool chunked = extra.contains("Transfer-Encoding: chunked");
        CHECK(request["framing"].toString() == (chunked ? "chunked" : "content-length"));
        CHECK(request["wire_bytes"].toInteger() >= stored["bytes"].toInteger());
        if (chunked)
            CHECK(request["chunks"].toInteger() > 1);
        else
            CHECK(request["content_length"].toInteger() == stored["bytes"].toInteger());
    }
}

TEST_CASE("each endpoint and matcher answers with the same parts", "[listener][curl]")
{
    ListenerFixture f;
    const QByteArray data = test::randomBytes(1 << 20, 2);
    QString a = f.file("a.bin", data);
    for (QString endpoint : {"/part-event", "/file-part", "/capture"})
        for (QString matcher : {"kmp", "chunked", "simd"}) {
            auto r = curl({"-F", "f=@" + a, f.url(endpoint + "?matcher=" + matcher)});
            REQUIRE(r.status == 200);
            CHECK(r.json["endpoint"].toString() == endpoint);
            CHECK(r.json["matcher"].toString() == matcher);
            CHECK(partNamed(r.json, "f")["sha256"].toString().toStdString() == test::sha256(data));
        }
    auto noHash = curl({"-F", "f=@" + a, f.url("/part-event?hash=none")});
    CHECK(partNamed(noHash.json, "f")["sha256"].isNull());
    auto discard = curl({"-F", "f=@" + a, f.url("/discard")});
    CHECK(discard.status == 200);
    CHECK(discard.json["bytes"].toInteger() > data.size());
    CHECK(curl({"-F", "f=@" + a, f.url("/part-event?matcher=bogus")}).status == 400);
}

TEST_CASE("?answer=brief lists each part's name, file name, size, digest and file, and nothing per part besides",
          "[listener]")
{
    ListenerFixture f;
    const QByteArray data = test::randomBytes(200'000, 4);
    const QString a = f.file("a.bin", data);
    for (QString endpoint : {"/part-event", "/file-part", "/capture"}) {
        auto r = curl({"-F", "f=@" + a, "-F", "note=hello", f.url(endpoint + "?answer=brief")});
        REQUIRE(r.status == 200);
        CHECK(r.json["state"].toString() == "complete");
        CHECK(r.json["bytes"].toInteger() > data.size());
        const QJsonObject file = partNamed(r.json, "f");
        CHECK(file["filename"].toString() == "a.bin");
        CHECK(file["size"].toInteger() == data.size());
        CHECK(file["sha256"].toString().toStdString() == test::sha256(data));
        CHECK(file.contains("saved_as") == (endpoint != "/part-event"));
        const QJsonObject note = partNamed(r.json, "note");
        CHECK(note["size"].toInteger() == 5);
        CHECK(note["filename"].isNull());
        for (const char* fullOnly : {"headers", "offset", "content_type", "children", "value"})
            CHECK_FALSE(note.contains(QLatin1String(fullOnly)));
    }
    // The capture itself keeps everything: the brief answer is only the answer.
    ListenerFixture g;
    REQUIRE(curl({"-F", "note=hello", g.url("/capture?answer=brief")}).status == 200);
    const QJsonObject stored = test::readJsonFile(g.onlyCaptureFolder() + "/capture.json");
    CHECK(stored["parts"].toArray()[0].toObject()["value"].toString() == "hello");
    CHECK(curl({"-F", "f=@" + a, f.url("/part-event?answer=short")}).status == 400);

    // Past the header budget a name is cut; the brief answer says so, as the full one does.
    app::ServerConfig small;
    small.parser.maxRecordedHeaderBytes = 16;
    ListenerFixture h(small);
    const QString longName(200, QLatin1Char('n'));
    auto cut = curl({"-F", longName + "=v", h.url("/part-event?answer=brief")});
    REQUIRE(cut.status == 200);
    const QJsonObject part = cut.json["parts"].toArray()[0].toObject();
    CHECK(part["name"].toString().size() == 64);
    CHECK(part["text_cut"].toBool());
}

TEST_CASE("/capture keeps the request whole, the file part in a file and the field inline", "[listener][capture]")
{
    ListenerFixture f;
    const QByteArray data = test::randomBytes(100'000, 3);
    auto r = curl({"-F", "photo=@" + f.file("a.bin", data), "-F", "note=hello", f.url("/capture")});
    REQUIRE(r.status == 200);
    const QDir folder(f.onlyCaptureFolder());
    CHECK(folder.entryList(QDir::Files) == QStringList({"000-a.bin", "body.raw", "capture.json", "head.raw"}));
    CHECK(readAll(folder.filePath("000-a.bin")) == data);
    const QJsonObject note = partNamed(r.json, "note");
    CHECK(note["value"].toString() == "hello");
    CHECK_FALSE(note.contains("saved_as"));
    CHECK(partNamed(r.json, "photo")["saved_as"].toString() == "000-a.bin");
}

TEST_CASE("the hash is ?hash=, else the Upload-Inspector-Hash header, else the listener's own", "[listener][hash]")
{
    app::ServerConfig config;
    config.hash = core::HashKind::Xxh3; // listen --hash xxh3
    ListenerFixture f(config);
    const QByteArray data = test::randomBytes(1 << 20, 12);
    const QString a = f.file("a.bin", data);
    auto plain = curl({"-F", "f=@" + a, f.url("/part-event")});
    CHECK(plain.json["hash"].toString() == "xxh3");
    CHECK(partNamed(plain.json, "f")["xxh3"].toString().toStdString() == test::digest(core::HashKind::Xxh3, data));
    CHECK_FALSE(partNamed(plain.json, "f").contains("sha256"));
    auto header = curl({"-H", "Upload-Inspector-Hash: sha256", "-F", "f=@" + a, f.url("/capture")});
    CHECK(header.json["hash"].toString() == "sha256");
    CHECK(partNamed(header.json, "f")["sha256"].toString().toStdString() == test::sha256(data));
    auto query = curl({"-H", "Upload-Inspector-Hash: sha256", "-F", "f=@" + a, f.url("/file-part?hash=none")});
    CHECK(query.json["hash"].toString() == "none");
    CHECK(partNamed(query.json, "f")["sha256"].isNull());
    // Where the time went, per thread: hashing and storing each on their own when the request does them.
    const QJsonObject cpu = header.json["cpu_ms"].toObject();
    CHECK(cpu["read_parse"].toDouble() > 0);
    CHECK(cpu["hash"].toDouble() > 0);
    CHECK(cpu["store"].toDouble() > 0);
    CHECK(query.json["cpu_ms"].toObject()["hash"].isNull());
    CHECK(plain.json["cpu_ms"].toObject()["store"].isNull());
    for (const QStringList& bad : {QStringList{f.url("/part-event?hash=md5")},
                                   QStringList{"-H", "Upload-Inspector-Hash: crc32", f.url("/part-event")}}) {
        auto r = curl(QStringList{"-F", "f=@" + a} + bad);
        CHECK(r.status == 400);
    }
}

TEST_CASE("QNetworkAccessManager with QHttpMultiPart", "[listener][qnam]")
{
    ListenerFixture f;
    const QByteArray data = test::randomBytes(2 << 20, 3);
    QNetworkAccessManager nam;
    auto* multi = new QHttpMultiPart(QHttpMultiPart::FormDataType);
    QHttpPart filePart;
    filePart.setHeader(QNetworkRequest::ContentDispositionHeader,
                       QStringLiteral("form-data; name=\"upload\"; filename=\"q.bin\""));
    filePart.setBody(data);
    QHttpPart textPart;
    textPart.setHeader(QNetworkRequest::ContentDispositionHeader, QStringLiteral("form-data; name=\"text\""));
    textPart.setBody("from qnam");
    multi->append(filePart);
    multi->append(textPart);
    QNetworkReply* reply = nam.post(QNetworkRequest(QUrl(f.url("/part-event"))), multi);
    multi->setParent(reply);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(20000, &loop, &QEventLoop::quit);
    loop.exec();
    REQUIRE(reply->isFinished());
    CHECK(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200);
    QJsonObject answer = QJsonDocument::fromJson(reply->readAll()).object();
    CHECK(partNamed(answer, "upload")["sha256"].toString().toStdString() == test::sha256(data));
    CHECK(partNamed(answer, "upload")["filename"].toString() == "q.bin");
    CHECK(partNamed(answer, "text")["size"].toInt() == 9);
    reply->deleteLater();
}

TEST_CASE("keep-alive: several requests on one connection", "[listener][http]")
{
    ListenerFixture f;
    QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nhello\r\n--b--\r\n";
    QByteArray one = "POST /part-event HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; "
                     "boundary=b\r\nContent-Length: " +
                     QByteArray::number(body.size()) + "\r\n\r\n" + body;
    QByteArray chunked =
        "POST /part-event HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\n"
        "Transfer-Encoding: chunked\r\n\r\n5\r\n" +
        body.left(5) + "\r\n" + QByteArray::number(body.size() - 5, 16) + "\r\n" + body.mid(5) + "\r\n0\r\n\r\n";
    QByteArray last = "GET /captures HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    QByteArray answer = rawExchange(f.listener.port(), one + chunked + one + last);
    CHECK(answer.count("HTTP/1.1 200 OK") == 4);
    CHECK(answer.count("\"sha256\":\"" + QByteArray(test::sha256("hello").c_str()) + "\"") == 3);
}

TEST_CASE("an answer of thousands of parts, sent in pieces, is as long as its Content-Length says", "[listener][http]")
{
    ListenerFixture f;
    QByteArray body;
    for (int i = 0; i < 3000; ++i)
        body += "--b\r\nContent-Disposition: form-data; name=\"field" + QByteArray::number(i) + "\"\r\n\r\n" +
                QByteArray(100, 'v') + "\r\n";
    body += "--b--\r\n";
    const QByteArray form = "POST /part-event HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; "
                            "boundary=b\r\nContent-Length: " +
                            QByteArray::number(body.size()) + "\r\n\r\n" + body;
    const QByteArray last = "GET /captures HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    const QByteArray answer = rawExchange(f.listener.port(), form + last, 20000);
    const qsizetype headEnd = answer.indexOf("\r\n\r\n") + 4;
    const qsizetype lengthAt = answer.indexOf("Content-Length: ") + 16;
    REQUIRE(headEnd > 4);
    const qsizetype length = answer.mid(lengthAt, answer.indexOf("\r\n", lengthAt) - lengthAt).toLongLong();
    CHECK(length > qsizetype{512} * 1024);                             // more than one piece
    CHECK(answer.mid(headEnd + length).startsWith("HTTP/1.1 200 OK")); // the next answer follows at once
    const QJsonObject json = QJsonDocument::fromJson(answer.mid(headEnd, length)).object();
    CHECK(json["parts"].toArray().size() == 3000);
    CHECK(json["parts"].toArray()[2999].toObject()["name"].toString() == "field2999");
}

TEST_CASE("HTTP errors: 404, 405, 411, 413 without reading the body, 415, 400 with offsets", "[listener][http]")
{
    app::ServerConfig config;
    config.maxBodyBytes = 1 << 20;
    ListenerFixture f(config);
    quint16 port = f.listener.port();
    CHECK(rawExchange(port, "GET /nothing HTTP/1.1\r\n\r\n", 1000).startsWith("HTTP/1.1 404"));
    CHECK(rawExchange(port, "GET /file-part HTTP/1.1\r\n\r\n", 1000).startsWith("HTTP/1.1 405"));
    CHECK(rawExchange(port, "POST /file-part HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=b\r\n\r\n", 1000)
              .startsWith("HTTP/1.1 411"));
    // 413 is answered from the head alone: the 100 MB body is never sent
    CHECK(rawExchange(port,
                      "POST /file-part HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: "
                      "100000000\r\n\r\n",
                      2000)
              .startsWith("HTTP/1.1 413"));
    CHECK(
        rawExchange(port, "POST /file-part HTTP/1.1\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nabc", 1000)
            .startsWith("HTTP/1.1 415"));
    QByteArray bad = "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nhello\r\n--"; // cut inside the delimiter
    QByteArray answer =
        rawExchange(port,
                    "POST /part-event HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: " +
                        QByteArray::number(bad.size()) + "\r\n\r\n" + bad,
                    2000);
    CHECK(answer.startsWith("HTTP/1.1 400"));
    QJsonObject json = QJsonDocument::fromJson(answer.mid(answer.indexOf("\r\n\r\n") + 4)).object();
    CHECK(json["error"].toObject()["code"].toString() == "unexpected_eof");
    CHECK(json["error"].toObject()["offset"].toInt() == bad.size());
    CHECK(json["parts"].toArray()[0].toObject()["size"].toInt() == 9); // what arrived is kept: "hello\r\n--"
    CHECK(rawExchange(port, "BREW /x HTTP/1.1\r\nBad Header\r\n\r\n", 1000).startsWith("HTTP/1.1 400"));
    // chunked bodies over the limit are cut off with 413 as soon as they pass it
    auto r = curl({"-H", "Transfer-Encoding: chunked", "-F", "f=@" + f.file("big.bin", test::randomBytes(3 << 20, 4)),
                   f.url("/part-event")});
    CHECK(r.status == 413);
}

TEST_CASE("a client killed mid-upload leaves an incomplete capture, no temp files, and a healthy listener",
          "[listener][faults]")
{
    ListenerFixture f;
    QString big = f.file("big.bin", test::randomBytes(8 << 20, 5));
    QProcess slow;
    slow.start("curl", {"-s", "--limit-rate", "2M", "-F", "f=@" + big, f.url("/file-part")});
    REQUIRE(slow.waitForStarted());
    QThread::msleep(1200);
    slow.kill();
    slow.waitForFinished();
    QThread::msleep(300);
    QStringList captures = QDir(f.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs);
    REQUIRE(captures.size() == 1);
    QDir folder(QDir(f.listener.captureRoot()).filePath(captures.first()));
    QJsonObject stored = QJsonDocument::fromJson(readAll(folder.filePath("capture.json"))).object();
    CHECK(stored["state"].toString() == "incomplete");
    CHECK(stored["bytes"].toInteger() > 0);
    CHECK(stored["bytes"].toInteger() < 8 << 20);
    // The cause is the transfer, in words, not the multipart content.
    CHECK(stored["error"].toObject()["code"].toString() == "body_cut_short");
    CHECK(stored["error"].toObject()["detail"].toString().startsWith("the client closed the connection after "));
    CHECK(stored["error"].toObject()["detail"].toString().contains(" of the body (of 8.00 MiB)"));
    QStringList files = folder.entryList(QDir::Files | QDir::Hidden);
    CHECK(files == QStringList({"000-big.bin", "capture.json"}));
    auto again = curl({"-F", "f=@" + f.file("s.txt", "still serving"), f.url("/part-event")});
    CHECK(again.status == 200);
}

TEST_CASE("16 concurrent uploads all arrive intact", "[listener][faults]")
{
    ListenerFixture f;
    std::vector<std::unique_ptr<QProcess>> clients;
    std::vector<QByteArray> payloads;
    for (int i = 0; i < 16; ++i) {
        payloads.push_back(test::randomBytes((1 << 20) + i * 777, 100 + quint32(i)));
        QString path = f.file(QString("c%1.bin").arg(i), payloads.back());
        auto p = std::make_unique<QProcess>();
        p->start("curl", {"-s", "-F", "f=@" + path, f.url(i % 2 ? "/file-part" : "/part-event")});
        clients.push_back(std::move(p));
    }
    for (int i = 0; i < 16; ++i) {
        REQUIRE(clients[size_t(i)]->waitForFinished(60000));
        QJsonObject answer = QJsonDocument::fromJson(clients[size_t(i)]->readAllStandardOutput()).object();
        INFO("client " << i);
        CHECK(answer["ok"].toBool());
        CHECK(partNamed(answer, "f")["sha256"].toString().toStdString() == test::sha256(payloads[size_t(i)]));
    }
}

TEST_CASE("a client that trickles its head is dropped by the timeout", "[listener][faults]")
{
    app::ServerConfig config;
    config.guards.headTimeoutMs = 600;
    ListenerFixture f(config);
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, f.listener.port());
    REQUIRE(socket.waitForConnected(2000));
    QByteArray head = "POST /part-event HTTP/1.1\r\nX-Slow: ";
    QElapsedTimer clock;
    clock.start();
    QByteArray answer;
    for (int i = 0; socket.state() == QAbstractSocket::ConnectedState && clock.elapsed() < 5000; ++i) {
        socket.write(i < head.size() ? head.mid(i, 1) : QByteArray("x"));
        socket.waitForBytesWritten(100);
        if (socket.waitForReadyRead(100))
            answer += socket.readAll();
    }
    CHECK(clock.elapsed() < 3000);
    CHECK(answer.startsWith("HTTP/1.1 408"));
}

TEST_CASE("hostile file names stay inside the capture folder", "[listener][faults]")
{
    ListenerFixture f;
    const QList<QByteArray> names = {"../../x",
                                     "..\\\\..\\\\x",
                                     "C:\\\\x",
                                     "/etc/passwd",
                                     QByteArray("nul\0byte", 8),
                                     QByteArray(2000, 'n'),
                                     ".hidden",
                                     ""};
    QByteArray body;
    for (const auto& name : names)
        body += "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"" + name + "\"\r\n\r\ncontent\r\n";
    body += "--b--\r\n";
    QByteArray answer =
        rawExchange(f.listener.port(), "POST /file-part HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                                       "Connection: close\r\nContent-Length: " +
                                           QByteArray::number(body.size()) + "\r\n\r\n" + body);
    REQUIRE(answer.startsWith("HTTP/1.1 200"));
    const QString root = QDir(f.listener.captureRoot()).canonicalPath();
    QStringList saved = filesUnder(f.dir.path());
    int partFiles = 0;
    for (const auto& path : saved) {
        if (path.startsWith(root)) {
            partFiles += path.endsWith("capture.json") ? 0 : 1;
            CHECK(QFileInfo(path).fileName().size() <= 104);
        } else {
            CHECK(QFileInfo(path).fileName() != "x"); // nothing escaped
        }
    }
    CHECK(partFiles == names.size());
    CHECK_FALSE(QFile::exists(QDir(f.dir.path()).filePath("x")));
}

TEST_CASE("retention keeps the newest capture folders, and GET /captures lists recent captures", "[listener]")
{
    app::ServerConfig config;
    config.retention.keepCaptures = 2;
    ListenerFixture f(config);
    QString a = f.file("a.txt", "retained?");
    for (int i = 0; i < 4; ++i)
        REQUIRE(curl({"-F", "f=@" + a, f.url("/file-part")}).status == 200);
    CHECK(test::settledCaptureFolders(f.listener.captureRoot(), 2).size() == 2);
    QByteArray listing = rawExchange(f.listener.port(), "GET /captures HTTP/1.1\r\nConnection: close\r\n\r\n", 2000);
    QJsonArray recent = QJsonDocument::fromJson(listing.mid(listing.indexOf("\r\n\r\n") + 4)).array();
    CHECK(recent.size() == 2);
    CHECK(recent.last().toObject()["state"].toString() == "complete");
    QByteArray form = rawExchange(f.listener.port(), "GET / HTTP/1.1\r\nConnection: close\r\n\r\n", 2000);
    CHECK(form.contains("enctype=\"multipart/form-data\""));
}

TEST_CASE("strict HTTP/1.1: no body on GET, HEAD without a body, 431 for too many fields, absolute-form targets",
          "[listener][http]")
{
    ListenerFixture f;
    const quint16 port = f.listener.port();
    // A GET whose body is another request: answered once, never run as a second request (smuggling's shape).
    const QByteArray smuggled = "GET /captures HTTP/1.1\r\n\r\n";
    const QByteArray desync = rawExchange(port, "GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: " +
                                                    QByteArray::number(smuggled.size()) + "\r\n\r\n" + smuggled);
    CHECK(desync.startsWith("HTTP/1.1 400"));
    CHECK(desync.count("HTTP/1.1 ") == 1);
    // HEAD: the head a GET would get, and no body after it.
    const QByteArray head = rawExchange(port, "HEAD / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    CHECK(head.startsWith("HTTP/1.1 200"));
    CHECK(head.contains("Content-Length: "));
    CHECK(head.endsWith("\r\n\r\n"));
    // 101 header fields: the head is too large in kind, not malformed.
    QByteArray many = "POST /file-part HTTP/1.1\r\n";
    for (int i = 0; i < 101; ++i)
        many += "X-" + QByteArray::number(i) + ": v\r\n";
    CHECK(rawExchange(port, many + "\r\n").startsWith("HTTP/1.1 431"));
    // Control characters in a field value are refused.
    CHECK(rawExchange(port, QByteArray("GET / HTTP/1.1\r\nX: a\0b\r\n\r\n", 26)).startsWith("HTTP/1.1 400"));
    // Absolute form: accepted, and stored in origin form.
    auto r = curl({"--request-target", f.url("/file-part"), "-F", "f=@" + f.file("a.txt", "a"), f.url("/file-part")});
    CHECK(r.status == 200);
    const QStringList folders = QDir(f.listener.captureRoot()).entryList({"capture-*"}, QDir::Dirs);
    REQUIRE(folders.size() == 1);
    const QJsonObject stored =
        QJsonDocument::fromJson(readAll(QDir(f.listener.captureRoot()).filePath(folders.first() + "/capture.json")))
            .object();
    CHECK(stored["request"].toObject()["target"].toString() == "/file-part");
}

TEST_CASE("a client that shuts its sending side after a kept-alive request still gets its answer", "[listener]")
{
    ListenerFixture f;
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nhello\r\n--b--\r\n";
    for (const char* path : {"/part-event", "/file-part", "/no-such-path"}) {
        INFO(path);
        test::RawClient client(f.listener.port());
        REQUIRE(client.send(QByteArray("POST ") + path +
                            " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                            "Content-Length: " +
                            QByteArray::number(body.size()) + "\r\n\r\n" + body));
        ::shutdown(client.fd, SHUT_WR); // as nc -N and socat do: before, Qt dropped the unsent answer at that end
        const QByteArray answer = client.receive(3000);
        CHECK(answer.startsWith(std::string_view(path) == "/no-such-path" ? "HTTP/1.1 404" : "HTTP/1.1 200"));
    }
}
