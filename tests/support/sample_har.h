#pragma once
// A HAR file as Chromium's devtools export one: a multipart POST of a file and a field (the boundary in postData's
// mimeType, as Chromium writes it; withBoundaryInHeaderOnly moves it to the Content-Type header, as Firefox
// does), answered 201 with JSON, then a GET answered 200. Tests of Inspect and `parse` open it. twoUploadsHar adds a
// second upload after them.

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace upin::test {

inline QByteArray sampleHarBody()
{
    return "------x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\nContent-Type: "
           "text/plain\r\n\r\nhello file\r\n------x\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n"
           "------x--\r\n";
}

inline QByteArray sampleHar(bool withBoundaryInHeaderOnly = false)
{
    const QString type = QStringLiteral("multipart/form-data; boundary=----x");
    const QJsonObject post{
        {"method", "POST"},
        {"url", "https://example.test/upload"},
        {"httpVersion", "HTTP/1.1"},
        {"headers", QJsonArray{QJsonObject{{"name", "Content-Type"}, {"value", type}},
                               QJsonObject{{"name", "Authorization"}, {"value", "Bearer t0ken"}}}},
        {"postData", QJsonObject{{"mimeType", withBoundaryInHeaderOnly ? QStringLiteral("multipart/form-data") : type},
                                 {"text", QString::fromUtf8(sampleHarBody())}}}};
    const QJsonObject created{
        {"status", 201},
        {"statusText", "Created"},
        {"headers", QJsonArray{QJsonObject{{"name", "Content-Type"}, {"value", "application/json"}}}},
        {"content", QJsonObject{{"mimeType", "application/json"}, {"size", 20}, {"text", "{\"id\":7,\"ok\":true}"}}}};
    const QJsonObject get{{"method", "GET"},
                          {"url", "https://example.test/status"},
                          {"httpVersion", "HTTP/1.1"},
                          {"headers", QJsonArray{}}};
    const QJsonObject fine{{"status", 200},
                           {"statusText", "OK"},
                           {"headers", QJsonArray{}},
                           {"content", QJsonObject{{"mimeType", "text/plain"}, {"size", 2}, {"text", "up"}}}};
    const QJsonArray entries{QJsonObject{{"request", get}, {"response", fine}},
                             QJsonObject{{"request", post}, {"response", created}}};
    return QJsonDocument(QJsonObject{{"log", QJsonObject{{"version", "1.2"}, {"entries", entries}}}}).toJson();
}

// Two uploads with a GET between them, as a page that posts twice: the second one's part is named "second".
inline QByteArray twoUploadsHar()
{
    QJsonObject doc = QJsonDocument::fromJson(sampleHar()).object();
    QJsonObject log = doc["log"].toObject();
    QJsonArray entries = log["entries"].toArray();
    QJsonObject entry = entries[1].toObject();
    QJsonObject request = entry["request"].toObject();
    request["url"] = "https://example.test/second?draft=1";
    request["postData"] =
        QJsonObject{{"mimeType", "multipart/form-data; boundary=----y"},
                    {"text", "------y\r\nContent-Disposition: form-data; name=\"second\"\r\n\r\ntwo\r\n------y--\r\n"}};
    QJsonArray headers;
    headers.append(QJsonObject{{"name", "Content-Type"}, {"value", "multipart/form-data; boundary=----y"}});
    request["headers"] = headers;
    entry["request"] = request;
    entries.append(entry);
    log["entries"] = entries;
    doc["log"] = log;
    return QJsonDocument(doc).toJson();
}

} // namespace upin::test
