#pragma once
// The listener's guards as settings with a text form: one table serves the CLI's `listen` options, the Listen
// tab's settings dialog and the values it remembers, so a guard added once appears in all three.

#include "server/server_config.h"

#include <array>

namespace upin::app {

struct GuardSetting {
    const char* option; // "head-timeout": --head-timeout, and the remembered setting's key
    const char* label;  // the settings dialog's row
    const char* help;   // --help and the row's tooltip
    const char* valueName;
    bool repeatable;                              // a list: the CLI option may be given many times
    QString (*get)(const ListenerGuards& guards); // text form; a list joined with ", "
    // Empty when set; else what is wrong with text, in words (guards unchanged).
    QString (*set)(ListenerGuards& guards, const QString& text);
    // Who may call a server (its Origin, its Host): not a proxy's, whose clients name other servers.
    bool serverOnly = false;
};

extern const std::array<GuardSetting, 11> kGuardSettings;

// A Host header naming us (the listener or the forwarder): an IP address (a DNS-rebinding page reaches us under its
// own name, never an address), localhost, or a name the user allowed (ListenerGuards::allowedHosts).
bool hostAllowed(const QString& host, const QStringList& allowed);

} // namespace upin::app
