#pragma once
// A tooltip that holds what a client sent (a filename, a field, a reason) shown as the text it is. Qt takes a
// tooltip that looks like HTML for HTML, so a filename "<b>x</b>" was drawn bold: a client could style, or hide,
// what the user reads.

#include <QString>

namespace upin::ui {

inline QString plainTip(const QString& text)
{
    if (text.isEmpty())
        return text;
    return QStringLiteral("<qt style=\"white-space:pre-wrap\">%1</qt>").arg(text.toHtmlEscaped());
}

} // namespace upin::ui
