#pragma once
// The colours that say how something went, one set for every list, chart and message of the window, so that a
// failure reads alike in the Listen list, the Send runs, Inspect's diagnostics and Compare. Chosen to read on a
// light and a dark theme alike (GNOME's palette: red 3, yellow 5, green 5, blue 3, grey).

#include <QColor>
#include <QString>

namespace upin::ui::status {

inline QColor failure()
{
    return {0xc0, 0x1c, 0x28};
} // refused, failed, an error
inline QColor warning()
{
    return {0xb0, 0x6d, 0x00};
} // incomplete, with diagnostics, still arriving
inline QColor success()
{
    return {0x1a, 0x7f, 0x37};
} // complete and clean
inline QColor active()
{
    return {0x1f, 0x6f, 0xd0};
} // under way
inline QColor muted()
{
    return {0x77, 0x76, 0x7b};
} // cancelled, not run

// An HTTP status by its class: 2xx success, 3xx under way (followed elsewhere), 4xx and 5xx failure, else muted.
inline QColor forHttpStatus(int status)
{
    return status >= 400 ? failure() : status >= 300 ? active() : status >= 200 ? success() : muted();
}
// A method by whether it sends a body as uploads do (POST, PUT, PATCH): those stand out, the rest are muted.
inline QColor forMethod(const QString& method)
{
    return method == QLatin1String("POST") || method == QLatin1String("PUT") || method == QLatin1String("PATCH")
               ? active()
               : muted();
}

// For a QLabel: "color: #c01c28".
inline QString textStyle(const QColor& colour)
{
    return QStringLiteral("color: ") + colour.name();
}

} // namespace upin::ui::status
