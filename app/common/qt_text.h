#pragma once
// The one place where core's std::string_view text becomes a QString (core holds UTF-8 or plain ASCII).

#include <QString>

#include <string_view>

namespace upin::app {

inline QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// Each character of text for which spell(c) holds as \xNN, or \uNNNN above 0xff ("\x202e" read as a space and
// "2e"), the rest as they are.
template <typename Predicate>
QString spellOut(const QString& text, Predicate spell)
{
    QString out;
    for (QChar c : text)
        out += !spell(c.unicode())  ? QString(c)
               : c.unicode() > 0xff ? QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'))
                                    : QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
    return out;
}

// The marks that reorder the text around them: "\u202egnp.exe" reads "exe.png".
inline bool reordersText(char16_t c)
{
    return c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

// Control characters a client sent (C0, DEL and C1, whose 0x9b starts an escape sequence as ESC [ does) must not
// drive a terminal or hide in a view, nor may the marks that reorder text ("\u202egnp.exe" read "exe.png"):
// spelt out.
inline QString printable(const QString& text)
{
    return spellOut(text, [](char16_t c) { return c < 0x20 || (c >= 0x7f && c <= 0x9f) || reordersText(c); });
}

// A header value as a view shows it: the bytes a field value may not hold (C0 but TAB, and DEL: core's
// control_byte_in_header) and the marks that reorder text spelt, and every other character a client may send,
// TAB and non-ASCII, as it is.
inline QString withControlsSpelt(const QString& text)
{
    return spellOut(text, [](char16_t c) { return (c < 0x20 && c != u'\t') || c == 0x7f || reordersText(c); });
}

} // namespace upin::app
