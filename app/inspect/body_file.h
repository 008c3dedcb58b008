#pragma once
// Parses a request body stored in a file, streaming it in fixed-size reads (a multi-GB file never sits in memory).

#include "upin/core/event_recorder.h"

#include <QString>

#include <optional>
#include <string>

namespace upin::app {

struct BodyFileRequest {
    QString path;
    std::optional<std::string> contentType; // when absent, the boundary is guessed from the first delimiter line
    core::EventRecorder::Settings settings;
};

struct BodyFileResult {
    core::ParseReport report;
    QString ioError;       // non-empty when the file could not be read
    bool guessed = false;  // the boundary came from the body, not a Content-Type
};

BodyFileResult parseBodyFile(const BodyFileRequest& request);

} // namespace upin::app
