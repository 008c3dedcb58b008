#pragma once
// Reads a whole HTTP/1.1 message with core's HeadReader and BodyDecoder, fed in the given pieces, and writes what
// it saw as a log of lines (llhttp's golden-test shape): the start line, each field, the framing, the body, and
// how it ended or the error with its offset. The golden tests compare it with logs written by hand and across
// every chunking; the fuzz target compares chunkings.

#include "upin/core/http.h"

#include <string>
#include <vector>

namespace upin::test {

struct HttpMessageOptions {
    core::HttpLimits limits;
    bool answersHead = false; // a response to HEAD: no body, whatever its fields say
    bool closeAtEnd = true;   // the connection closes after the input (ends a close-delimited body)
    size_t maxInterim = 16;   // 1xx answers before the final one
};

// pieces: the sizes to feed (the last repeats); empty: whole.
std::string readResponse(std::string_view wire, const std::vector<size_t>& pieces,
                         const HttpMessageOptions& options = {});
std::string readRequest(std::string_view wire, const std::vector<size_t>& pieces,
                        const HttpMessageOptions& options = {});
// Both, whole, byte by byte and split at every position: the whole feed's log, or a log that says which
// chunking disagreed.
std::string readResponseEveryWay(std::string_view wire, const HttpMessageOptions& options = {});
std::string readRequestEveryWay(std::string_view wire, const HttpMessageOptions& options = {});

} // namespace upin::test
