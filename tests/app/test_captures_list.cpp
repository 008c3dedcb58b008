// GET /captures and GET /captures/ID: the recent captures by id, oldest first, each with its summary's keys, a
// refusal among them; one capture by its exact id, while it arrives and when it stored no folder.

#include "app/listener_fixture.h"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>

#include <cmath>

using namespace upin;
using test::curl;
using test::ListenerFixture;

TEST_CASE("GET /captures/ID: a capture still receiving, an exact id only", "[listener][storage]")
{
    ListenerFixture f;
    QTcpSocket slow;
    slow.connectToHost(QHostAddress::LocalHost, f.listener.port());
    REQUIRE(slow.waitForConnected(2000));
    slow.write("POST /file-part HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\n"
               "Content-Length: 1000\r\n\r\n--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x\"\r\n\r\n");
    REQUIRE(slow.waitForBytesWritten(2000));
    const QString id = QDir(f.waitForCaptureFolder()).dirName().section('-', 4, 4);
    REQUIRE_FALSE(id.isEmpty());
    auto get = [&f](const QString& which) {
        return test::rawExchange(f.listener.port(),
                                 "GET /captures/" + which.toLatin1() + " HTTP/1.1\r\nConnection: close\r\n\r\n", 2000);
    };
    const QByteArray live = get(id);
    CHECK(live.startsWith("HTTP/1.1 200"));
    CHECK(live.contains("\"state\":\"receiving\""));
    slow.abort();
    // A piece of an id, or digits that occur in a folder's time fields, is not an id.
    CHECK(get(id.left(4)).startsWith("HTTP/1.1 404"));
    CHECK(get(id.right(5)).startsWith("HTTP/1.1 404"));
    // A capture that stored no folder is still there by its id, as GET /captures lists it.
    auto events = curl({"-F", "f=@" + f.file("e.txt", "e"), f.url("/part-event")});
    const QByteArray summary = get(events.json["capture_id"].toString());
    CHECK(summary.startsWith("HTTP/1.1 200"));
    CHECK(summary.contains("\"endpoint\":\"/part-event\""));
}

TEST_CASE("GET /captures lists recent captures by id, oldest first, one that finished late in its place",
          "[listener][storage]")
{
    ListenerFixture f;
    // A: begun first, finished last.
    QTcpSocket slow;
    slow.connectToHost(QHostAddress::LocalHost, f.listener.port());
    REQUIRE(slow.waitForConnected(2000));
    const QByteArray body = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x\"\r\n\r\nabc\r\n--b--\r\n";
    slow.write("POST /file-part HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\n"
               "Connection: close\r\nContent-Length: " +
               QByteArray::number(body.size()) + "\r\n\r\n" + body.left(10));
    REQUIRE(slow.waitForBytesWritten(2000));
    const QString first = QDir(f.waitForCaptureFolder()).dirName().section('-', 4, 4);
    // B: a whole upload meanwhile, then a refusal.
    const auto second = curl({"-F", "g=@" + f.file("g.txt", "hello"), f.url("/file-part")});
    REQUIRE(second.status == 200);
    REQUIRE(test::rawExchange(f.listener.port(), "PUT /file-part HTTP/1.1\r\nHost: localhost\r\n\r\n", 2000)
                .startsWith("HTTP/1.1 405"));
    slow.write(body.mid(10));
    REQUIRE(slow.waitForBytesWritten(2000));
    while (slow.state() == QAbstractSocket::ConnectedState && slow.waitForReadyRead(5000)) {} // its answer: finished
    const QByteArray answer =
        test::rawExchange(f.listener.port(), "GET /captures HTTP/1.1\r\nConnection: close\r\n\r\n", 2000);
    REQUIRE(answer.startsWith("HTTP/1.1 200"));
    const QJsonArray list = QJsonDocument::fromJson(answer.mid(answer.indexOf("\r\n\r\n") + 4)).array();
    REQUIRE(list.size() == 3);
    CHECK(list[0]["id"].toString() == first); // by id: the late one first, as it began first
    CHECK(list[1]["id"].toString() == second.json["capture_id"].toString());
    CHECK(list[0]["id"].toString().toULongLong() < list[1]["id"].toString().toULongLong());
    CHECK(list[1]["id"].toString().toULongLong() < list[2]["id"].toString().toULongLong());
    for (int i = 0; i < 2; ++i) {
        const QJsonObject capture = list[i].toObject();
        CHECK(capture["state"].toString() == "complete");
        CHECK(capture["endpoint"].toString() == "/file-part");
        CHECK(capture["parts"].toInt() == 1);
        CHECK(capture["client"].toString().startsWith("127.0.0.1:"));
        CHECK(capture["elapsed_ms"].toDouble() >= 1); // whole milliseconds, rounded up
        CHECK(capture["elapsed_ms"].toDouble() == std::floor(capture["elapsed_ms"].toDouble()));
        CHECK(QFileInfo(capture["folder"].toString()).isDir());
    }
    CHECK(list[0]["bytes"].toInteger() == body.size());
    CHECK(list[2]["state"].toString() == "refused");
    CHECK(list[2]["status"].toInt() == 405);
}
