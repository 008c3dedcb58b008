#pragma once
// The parser limits a user can set, in one table shared by the CLI options (--max-field-size ...), the window's
// Limits dialog and the settings, with the two sets of defaults: protective ones for the listener (any client may
// send anything) and ones fitted to inspecting a body the user chose (no field is held in memory, so no field
// limit).

#include "upin/core/multipart_parser.h"

#include <QString>

#include <array>

namespace upin::app {

struct UserLimit {
    const char* option;      // CLI option and settings key, e.g. "max-field-size"
    const char* description; // for --help and the dialog
    bool isCount;            // a number of things rather than a size in bytes
    uint64_t (*get)(const core::Options&);
    void (*set)(core::Options&, uint64_t);
};

extern const std::array<UserLimit, 6> kUserLimits;

core::Options listenerLimits();
core::Options inspectLimits();
// "1.00 MiB" or "10000": a limit's value as a person reads it; "no limit" for the largest value.
QString formatLimit(const UserLimit& limit, uint64_t value);
// "1M", "10000" or "none": exact, in the form setLimit reads back.
QString limitText(const UserLimit& limit, uint64_t value);
// Sets a limit from text such as "4M", "1G", "500" or "none"; false when the text is not a size (or count).
bool setLimit(const UserLimit& limit, core::Options& options, const QString& text);

} // namespace upin::app
