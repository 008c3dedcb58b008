#pragma once
// Parses a request body stored in a file, or a whole captured HTTP request (head + body in either framing),
// streaming it in fixed-size reads: a multi-GB file never sits in memory.

#include "upin/core/event_recorder.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <string>

namespace upin::app {

struct BodyFileRequest {
    QString path;
    std::optional<std::string> contentType; // when absent: from the request head, or guessed from the first delimiter line
    bool rawHttp = false;                    // the file holds a request line and head before the body
    core::EventRecorder::Settings settings;
};

struct BodyFileResult {
    core::ParseReport report;
    QString ioError;       // non-empty when the file could not be read
    bool guessed = false;  // the boundary came from the body, not a Content-Type
    QJsonObject request;   // rawHttp: method, target, version, headers, framing
};

BodyFileResult parseBodyFile(const BodyFileRequest& request);

} // namespace upin::app
