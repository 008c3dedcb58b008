#include "header_block.h"

#include "upin/core/header_params.h"

#include <cstring>

namespace upin::core::detail {
namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t';
}

} // namespace

void splitHeaderBlock(std::string& block, std::vector<HeaderField>& fields, std::vector<HeaderIssue>& issues)
{
    fields.clear();
    issues.clear();
    char* data = block.data();
    bool canFold = false; // the previous line produced a field that a continuation may extend
    bool reportedBareLf = false;
    for (size_t lineStart = 0; lineStart < block.size();) {
        size_t lf = block.find('\n', lineStart);
        size_t next = lf + 1;
        size_t end = lf;
        if (end > lineStart && data[end - 1] == '\r') {
            --end;
        } else if (!reportedBareLf) {
            issues.push_back({Errc::BareLineFeed, lf});
            reportedBareLf = true;
        }
        std::string_view line(data + lineStart, end - lineStart);
        if (line.empty()) {
            lineStart = next;
            continue;
        }
        size_t start = lineStart;
        lineStart = next;

        if (line.find('\r') != std::string_view::npos) {
            issues.push_back({Errc::MalformedHeader, start + line.find('\r')});
            canFold = false;
            continue;
        }
        if (isSpace(line.front())) {
            if (!canFold) {
                issues.push_back({fields.empty() ? Errc::LeadingWhitespaceHeader : Errc::MalformedHeader, start});
                continue;
            }
            while (!line.empty() && isSpace(line.front()))
                line.remove_prefix(1);
            while (!line.empty() && isSpace(line.back()))
                line.remove_suffix(1);
            if (line.empty())
                continue;
            // Moved back to just after the value it extends: at least an LF and a blank lie between the two, room
            // for the joining space, and the bytes it lands on belong to no field.
            HeaderField& last = fields.back();
            char* write = data + (last.value.data() + last.value.size() - data);
            if (!last.value.empty())
                *write++ = ' ';
            std::memmove(write, line.data(), line.size());
            last.value =
                std::string_view(last.value.data(), static_cast<size_t>(write + line.size() - last.value.data()));
            continue;
        }
        size_t colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0) {
            issues.push_back({Errc::MalformedHeader, start});
            canFold = false;
            continue;
        }
        std::string_view name = line.substr(0, colon);
        size_t bad = 0;
        while (bad < name.size() && isTokenChar(name[bad]))
            ++bad;
        if (bad < name.size()) {
            issues.push_back({Errc::InvalidHeaderName, start + bad});
            canFold = false;
            continue;
        }
        std::string_view value = line.substr(colon + 1);
        while (!value.empty() && isSpace(value.front()))
            value.remove_prefix(1);
        while (!value.empty() && isSpace(value.back()))
            value.remove_suffix(1);
        // Both stay where they are: only a continuation line is moved (an empty value's view still marks the place).
        fields.push_back({name, value});
        canFold = true;
    }
}

} // namespace upin::core::detail
