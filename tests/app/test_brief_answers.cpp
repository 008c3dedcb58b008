// ?answer=brief on nested multipart bodies: a part that is itself multipart lists its parts, briefly, as the full
// answer lists them.

#include "app/listener_fixture.h"

#include <catch2/catch.hpp>

#include <QJsonArray>

using namespace upin;

TEST_CASE("?answer=brief lists a nested multipart part's own parts as its children", "[listener]")
{
    test::ListenerFixture f;
    const QByteArray inner = "--i\r\nContent-Disposition: file; filename=\"a.txt\"\r\n\r\nalpha\r\n"
                             "--i\r\nContent-Disposition: file; filename=\"b.txt\"\r\n\r\nbeta\r\n--i--";
    const QByteArray body = "--o\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
                            "--o\r\nContent-Disposition: form-data; name=\"files\"\r\n"
                            "Content-Type: multipart/mixed; boundary=i\r\n\r\n" +
                            inner + "\r\n--o--\r\n";
    const QString file = f.file("nested.bin", body);
    for (const char* answer : {"brief", "full"}) {
        INFO(answer);
        auto r = test::curl({"--data-binary", "@" + file, "-H", "Content-Type: multipart/form-data; boundary=o",
                             f.url(QStringLiteral("/part-event?answer=%1").arg(answer))});
        REQUIRE(r.status == 200);
        const QJsonArray parts = r.json["parts"].toArray();
        REQUIRE(parts.size() == 2);
        CHECK_FALSE(parts[0].toObject()["children"].toArray().size() > 0); // a flat part: none
        const QJsonArray children = parts[1].toObject()["children"].toArray();
        REQUIRE(children.size() == 2);
        CHECK(children[0].toObject()["filename"].toString() == "a.txt");
        CHECK(children[1].toObject()["filename"].toString() == "b.txt");
        CHECK(children[1].toObject()["size"].toInteger() == 4);
        CHECK(children[1].toObject()["sha256"].toString().toStdString() == test::sha256("beta"));
    }
}
