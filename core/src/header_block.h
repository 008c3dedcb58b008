#pragma once
// Internal to the parser: splits one raw part header block into fields.

#include "upin/core/errors.h"

#include <cstdint>
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
    size_t at;          // index into the raw block as it was before unfolding
    uint64_t value = 0; // the diagnostic's value (the byte, for a control byte)
};

// block holds complete lines, each ending in LF (CRLF expected), without the empty line that ends the block.
// obs-fold continuation lines are joined to the previous value with one space, in place (block is rewritten where
// a continuation is moved back; it never grows). Lines that cannot be headers are left out and reported in issues;
// a value with a control byte is kept and its first such byte reported.
// Views point into block.
void splitHeaderBlock(std::string& block, std::vector<HeaderField>& fields, std::vector<HeaderIssue>& issues);

// The common block read in one pass where it lies: text starts with a block that ends (its blank line included)
// within text's first 128 bytes and within maxBytes, has at most maxLines lines, each ending in CRLF, with no other
// CR, no control byte but TAB, no fold, none starting with '-' (a delimiter line would), and each a token name and a
// colon. Then fields are what splitHeaderBlock would give, views into text, blockSize is the block's length, and the
// answer is true. Anything else answers false (fields and blockSize are then not to be used): the caller takes the
// general path, which says what is wrong.
bool splitCleanHeaderBlock(std::string_view text, size_t maxBytes, size_t maxLines, std::vector<HeaderField>& fields,
                           size_t& blockSize);

} // namespace upin::core::detail
