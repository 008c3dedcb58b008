#pragma once
// Parses a request body stored in a file, or a whole captured HTTP request (head + body in either framing),
// streaming it in fixed-size reads: a multi-GB file never sits in memory.

#include "capture/request_record.h"

#include "upin/core/event_recorder.h"

#include <QString>

#include <QFile>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace upin::app {

struct BodyFileRequest {
    QString path;
    std::optional<std::string>
        contentType;      // when absent: from the request head, or guessed from the first delimiter line
    bool rawHttp = false; // the file holds a request line and head before the body
    // A chunked body's part offsets do not map into the file: with this set, the de-chunked body is written to a
    // temporary file as it is parsed, and offsets map into that (see BodyFileResult::decodedBody).
    bool keepDecodedBody = false;
    core::EventRecorder::Settings settings;
    // Called after each read with bytes read so far and the file size; returning false cancels.
    std::function<bool(qint64 done, qint64 total)> progress;
};

struct BodyFileResult {
    core::ParseReport report;
    QString ioError;           // non-empty when the file could not be read
    bool guessed = false;      // the boundary came from the body, not a Content-Type
    RequestRecord request;     // rawHttp: method, target, version, headers, framing
    qint64 bodyFileOffset = 0; // where body offset 0 is in the file; -1 when body offsets do not map (chunked)
    // keepDecodedBody and a chunked body: the body, de-chunked, in a temporary file deleted with the last copy of
    // this pointer; body offsets map into it from 0.
    std::shared_ptr<QFile> decodedBody;
    QString decodedBodyError; // why the de-chunked copy could not be kept, when it could not
    bool cancelled = false;
};

// "FILE is empty: nothing to parse" for a file of 0 bytes (a body or a request file; a capture's empty body.raw
// is a capture of an empty body, not this), else empty.
QString emptyFileError(const QString& path);
BodyFileResult parseBodyFile(const BodyFileRequest& request);

} // namespace upin::app
