#pragma once
// Internal to the parser: splits one raw part header block into fields.

#include "upin/core/errors.h"

#include <string>
#include <string_view>
#include <vector>

namespace upin::core::detail {

struct HeaderField {
    std::string_view name;
    std::string_view value;
};

struct HeaderIssue {
    Errc code;
    size_t at; // index into the raw block as it was before unfolding
};

// block holds complete lines, each ending in LF (CRLF expected), without the empty line that ends the block.
// obs-fold continuation lines are joined to the previous value with one space, in place (block is rewritten where
// a continuation is moved back; it never grows). Lines that cannot be headers are left out and reported in issues.
// Views point into block.
void splitHeaderBlock(std::string& block, std::vector<HeaderField>& fields, std::vector<HeaderIssue>& issues);

} // namespace upin::core::detail
