#pragma once
// Sizes as people type them: "200", "64K", "256M", "2G", "1GiB", "10MB" -> bytes (binary multiples).
// Shared by the CLI options and the sender's --synthetic parts.

#include <QString>

#include <optional>

namespace upin::app {

std::optional<qulonglong> parseByteSize(const QString& text); // nullopt when malformed

} // namespace upin::app
