#pragma once
// The vectors a MultipartParser reuses to split each part's header block, shared by the two files that hold the
// parser: multipart_parser.cpp (the body and delimiters) and multipart_part_headers.cpp (each part's headers).

#include "header_block.h"
#include "upin/core/multipart_parser.h"

#include <vector>

namespace upin::core {

struct MultipartParser::Scratch {
    std::vector<detail::HeaderField> fields;
    std::vector<detail::HeaderIssue> issues;
};

} // namespace upin::core
