#pragma once
// How to raise the limit an error says was passed, in the words of the place where the user raises it: a CLI
// flag ("raise it with --max-field-size"), the window's command line for what Inspect opens, or the field of the
// Listen tab's Settings for what the listener took ("raise “Max field size” in Listen › Settings…"). Core's
// descriptions name the limit only, so that each front end says it its own way, and a JSON answer names the limit
// by its option ("limit": "max-field-size") for a script to read.

#include "upin/core/errors.h"

#include <QString>

namespace upin::app {

struct UserLimit;

enum class LimitHint : uint8_t {
    CliFlag,        // upload-inspector-cli: the command's own flag
    WindowFlag,     // a file the window inspects: its limits are the window's command-line flags
    ListenSettings, // what the window's listener took: the Settings dialog's field
};

// The user limit whose passing this code reports; null for a code no user limit sets.
const UserLimit* limitPassed(core::Errc code);
// The Settings dialog's label of a limit: "max-field-size" reads "Max field size".
QString limitLabel(const UserLimit& limit);
// Core's description, then how to raise the limit it names, if it names one.
QString describeError(core::Errc code, LimitHint how);

} // namespace upin::app
