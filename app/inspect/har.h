#pragma once
// HAR files (the HTTP Archive that browsers' devtools export): each entry's request and response as values, and
// the report Inspect and `parse` show of them. Every entry is a top-level node, in the file's order: a multipart
// request's node holds its parts as children (its Content-Type, with the boundary, from postData or the request's
// headers), any other request is a node of its own with its headers and body size, so nothing in the file is
// dropped without a word. HAR keeps bodies inline, as text or base64.

#include "upin/core/event_recorder.h"
#include "upin/core/multipart_parser.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>

namespace upin::app {

using HeaderList = QList<QPair<QString, QString>>;

struct HarEntry {
    QString method, url, httpVersion;
    HeaderList requestHeaders;
    QString contentType; // the request body's, with its parameters (the boundary); empty without a body
    QByteArray body;     // the request body, decoded from text or base64
    bool multipart = false;
    bool bodyFromParams = false; // the HAR kept postData.params, not its text: the body is made again from them
    // The response, as the HAR kept it; status 0 when it has none (a request that failed or was blocked).
    int status = 0;
    QString statusText;
    HeaderList responseHeaders;
    QString responseType;
    QByteArray responseBody;  // its first kMaxResponseBody bytes (HAR files may hold whole pages)
    bool responseCut = false; // the HAR held more of it than that
    quint64 responseSize = 0; // as the HAR says (exporters may keep no text at all)
    static constexpr qsizetype kMaxResponseBody = qsizetype{64} * 1024;
    // Its multipart body's error (the offset within this body), set by reportFromHar: one entry that does not
    // parse is that entry's fault, not the whole file's.
    std::optional<core::Error> bodyError;
};

// The entries of a HAR document; error says what is wrong when it is not one (nullopt).
std::optional<QList<HarEntry>> readHar(const QByteArray& json, QString* error);
// One top-level node per entry (its parts as children), the parts' digests SHA-256; the diagnostics of every
// multipart body, at offsets within that entry's body. An entry whose body does not parse gets its bodyError (the
// report's own error stays empty: the file is a HAR file all the same) and makes the report not ok.
core::ParseReport reportFromHar(QList<HarEntry>& entries, const core::Options& limits);
// The first entry that is a multipart upload (the one `extract` and Copy as curl number parts in), or -1.
int firstUpload(const QList<HarEntry>& entries);
// What the title line says of a HAR file: "3 requests, 1 upload with 2 parts".
QString harSummary(const QList<HarEntry>& entries, const core::ParseReport& report);

} // namespace upin::app
