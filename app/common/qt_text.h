#pragma once
// The one place where core's std::string_view text becomes a QString (core holds UTF-8 or plain ASCII).

#include <QString>

#include <string_view>

namespace upin::app {

inline QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

} // namespace upin::app
