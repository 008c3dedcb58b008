#pragma once
// Sizes as people type them and as people read them, in binary multiples. Shared by the CLI options, the
// sender's --synthetic parts and every view that shows a size.

#include <QString>

#include <optional>

namespace upin::app {

// "200", "64K", "256M", "2G", "1GiB", "10MB" -> bytes; nullopt when malformed.
std::optional<qulonglong> parseByteSize(const QString& text);
// 1048576 -> "1M", 1536 -> "1536": exact, in the form parseByteSize reads back (for fields a user edits).
QString exactByteSize(quint64 bytes);
// 1536 -> "1.50 KiB": three significant digits or so, for people.
QString formatBytes(quint64 bytes);
// "0.05 ms", "850 ms", "7.50 s", "2 min 5 s": the unit that reads best for the length.
QString formatSeconds(double seconds);

} // namespace upin::app
