#pragma once
// Request files the verdict tests open: a whole multipart body under a head whose Content-Length promises 13 bytes
// more than the file holds (the body itself is whole: the length is what is wrong).

#include <catch2/catch.hpp>

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

namespace upin::test {

inline QByteArray wholeMultipartBody()
{
    return "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhello\r\n--b--\r\n";
}

// Writes request.http in dir: the body above, its head saying Content-Length: body + 13. Returns the path.
inline QString requestShortOfItsLength(const QTemporaryDir& dir)
{
    const QByteArray body = wholeMultipartBody();
    QFile file(dir.filePath("request.http"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: " +
               QByteArray::number(body.size() + 13) + "\r\n\r\n" + body);
    return file.fileName();
}

} // namespace upin::test
