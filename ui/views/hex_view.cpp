#include "views/hex_view.h"

#include <QClipboard>
#include <QContextMenuEvent>
#include <QEvent>
#include <QGuiApplication>
#include <QHelpEvent>
#include <QMenu>
#include <QMimeData>
#include <QScrollBar>
#include <QStyle>

#include <QTextBlock>
#include <QToolTip>
#include <memory>

namespace upin::ui {

namespace {
const QColor kHeaderShade(0xd6, 0xe6, 0xff);
const QColor kBodyShade(0xdf, 0xf3, 0xdc);
const QColor kMarkShade(0xff, 0xd5, 0x4f);
const QColor kFoundShade(0xf6, 0xb3, 0xd7);

int hexDigitsFor(quint64 value)
{
    int digits = 1;
    while (value >>= 4)
        ++digits;
    return digits;
}
} // namespace

QColor HexView::headerColour()
{
    return kHeaderShade;
}

QColor HexView::bodyColour()
{
    return kBodyShade;
}

QColor HexView::markColour()
{
    return kMarkShade;
}

QColor HexView::foundColour()
{
    return kFoundShade;
}

HexView::HexView(QWidget* parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    // A note or a message wraps, read whole without a sideways scroll; a line of bytes never does, as the view is
    // never narrower than one (minimumSizeHint).
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setFont(QFont(QStringLiteral("monospace")));
}

QSize HexView::minimumSizeHint() const
{
    // The widest line: 16 bytes with 8-digit offsets and the ASCII column, a digit of room, a scroll bar, frames.
    const int line = fontMetrics().horizontalAdvance(QString(asciiColumn(15) + 2, QLatin1Char('0')));
    const int chrome = 2 * frameWidth() + int(2 * document()->documentMargin()) +
                       style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    return {line + chrome, QPlainTextEdit::minimumSizeHint().height()};
}

void HexView::showMessage(const QString& text)
{
    m_window.clear();
    m_ranges.clear();
    m_mark.reset();
    setExtraSelections({});
    setPlainText(text);
}

void HexView::showBytes(const QByteArray& window, quint64 start, quint64 mark, const QList<HexRange>& ranges,
                        const QString& note)
{
    m_window = window;
    m_start = start;
    m_ranges = ranges;
    m_mark = mark;
    m_noteLines = note.isEmpty() ? 0 : 1;
    // Eight digits up to 4 GiB, more past it: every line of one view the same width.
    m_offsetDigits = std::max(8, hexDigitsFor(start + quint64(window.size())));
    QString text = note.isEmpty() ? QString() : QStringLiteral("# %1\n").arg(note);
    for (qsizetype line = 0; line < window.size(); line += 16) {
        const quint64 at = start + quint64(line);
        QString hex, ascii;
        for (qsizetype i = line; i < line + 16; ++i) {
            if (i < window.size()) {
                const auto c = static_cast<unsigned char>(window[i]);
                hex += QStringLiteral("%1 ").arg(c, 2, 16, QLatin1Char('0'));
                ascii += (c >= 32 && c < 127) ? QChar(c) : QChar(u'.');
            } else {
                hex += QStringLiteral("   ");
            }
        }
        text += QStringLiteral("%1%2  %3 %4\n")
                    .arg(mark >= at && mark < at + 16 ? QLatin1Char('>') : QLatin1Char(' '))
                    .arg(at, m_offsetDigits, 16, QLatin1Char('0'))
                    .arg(hex, ascii);
    }
    setPlainText(text);
    setExtraSelections(shading());
    if (mark >= start && mark < start + quint64(window.size()) + 1) { // the marked line in the middle
        const int line = int((std::min(mark, start + quint64(window.size()) - 1) - start) / 16) + m_noteLines;
        setTextCursor(QTextCursor(document()->findBlockByNumber(line)));
        // Near the top, the top stays in view (the note line with it); further down, the byte in the middle.
        if (line < 8)
            verticalScrollBar()->setValue(0);
        else
            centerCursor();
    }
}

void HexView::addSpan(QList<QTextEdit::ExtraSelection>& out, quint64 from, quint64 to,
                      const QTextCharFormat& format) const
{
    const quint64 end = m_start + quint64(m_window.size());
    from = std::max(from, m_start);
    to = std::min(to, end);
    // One selection per line for the hex columns and one for the text columns.
    for (quint64 at = from; at < to;) {
        const quint64 lineStart = m_start + (at - m_start) / 16 * 16;
        const quint64 lineEnd = std::min(to, lineStart + 16);
        const QTextBlock block = document()->findBlockByNumber(int((lineStart - m_start) / 16) + m_noteLines);
        const int first = int(at - lineStart), last = int(lineEnd - lineStart) - 1;
        for (const auto& [begin, length] : {std::pair{hexColumn(first), hexColumn(last) + 2 - hexColumn(first)},
                                            std::pair{asciiColumn(first), last - first + 1}}) {
            QTextEdit::ExtraSelection selection;
            selection.cursor = QTextCursor(block);
            selection.cursor.setPosition(block.position() + begin);
            selection.cursor.setPosition(block.position() + begin + length, QTextCursor::KeepAnchor);
            selection.format = format;
            out.append(selection);
        }
        at = lineEnd;
    }
}

QList<QTextEdit::ExtraSelection> HexView::shading() const
{
    QList<QTextEdit::ExtraSelection> out;
    for (const HexRange& range : m_ranges) {
        QTextCharFormat format;
        format.setBackground(range.found ? kFoundShade : range.header ? kHeaderShade : kBodyShade);
        format.setForeground(QColor(Qt::black)); // readable on the shade in a dark theme too
        addSpan(out, range.from, range.to, format);
    }
    if (m_mark) {
        QTextCharFormat format;
        format.setBackground(kMarkShade);
        format.setForeground(QColor(Qt::black));
        format.setFontWeight(QFont::Bold);
        addSpan(out, *m_mark, *m_mark + 1, format);
    }
    return out;
}

QList<HexRange> HexView::shadedRanges() const
{
    QList<HexRange> shown;
    const quint64 end = m_start + quint64(m_window.size());
    for (HexRange range : m_ranges) {
        range.from = std::max(range.from, m_start);
        range.to = std::min(range.to, end);
        if (range.from < range.to)
            shown.append(range);
    }
    return shown;
}

std::optional<qint64> HexView::indexAt(int position) const
{
    const QTextBlock block = document()->findBlock(position);
    const int line = block.blockNumber() - m_noteLines;
    const int column = position - block.position();
    int byte = -1;
    if (column >= hexColumn(0) && column < hexColumn(16))
        byte = (column - hexColumn(0)) / 3;
    else if (column >= asciiColumn(0) && column < asciiColumn(16))
        byte = column - asciiColumn(0);
    const qint64 index = qint64(line) * 16 + byte;
    if (line < 0 || byte < 0 || index >= m_window.size())
        return std::nullopt;
    return index;
}

std::optional<quint64> HexView::offsetAt(const QPoint& viewportPos) const
{
    const auto index = indexAt(cursorForPosition(viewportPos).position());
    return index ? std::optional(m_start + quint64(*index)) : std::nullopt;
}

QByteArray HexView::selectedBytes() const
{
    const QTextCursor cursor = textCursor();
    if (!cursor.hasSelection() || m_window.isEmpty())
        return {};
    // The selection's ends as bytes: the first byte it touches, and the byte just before its end (a selection
    // that ends after "4f" ends after the space that follows it).
    std::optional<qint64> first, last;
    for (int at = cursor.selectionStart(); at < cursor.selectionEnd() && !first; ++at)
        first = indexAt(at);
    for (int at = cursor.selectionEnd() - 1; at >= cursor.selectionStart() && !last; --at)
        last = indexAt(at);
    if (!first || !last || *last < *first)
        return {};
    return m_window.mid(*first, *last - *first + 1);
}

void HexView::copySelection(bool asHex) const
{
    const QByteArray bytes = selectedBytes();
    if (bytes.isEmpty())
        return;
    auto* data = new QMimeData;
    if (asHex) {
        data->setText(QString::fromLatin1(bytes.toHex(' ')));
    } else {
        data->setText(QString::fromUtf8(bytes));
        data->setData(QStringLiteral("application/octet-stream"), bytes); // exact, for a hex editor's paste
    }
    QGuiApplication::clipboard()->setMimeData(data);
}

void HexView::contextMenuEvent(QContextMenuEvent* event)
{
    std::unique_ptr<QMenu> menu(createStandardContextMenu(event->pos()));
    const bool bytes = !selectedBytes().isEmpty();
    menu->addSeparator();
    QAction* hex = menu->addAction(tr("Copy bytes as hex"), this, [this] { copySelection(true); });
    QAction* raw = menu->addAction(tr("Copy bytes"), this, [this] { copySelection(false); });
    hex->setEnabled(bytes);
    raw->setEnabled(bytes);
    menu->exec(event->globalPos());
}

QString HexView::toolTipAt(const QPoint& viewportPos) const
{
    const auto offset = offsetAt(viewportPos);
    if (!offset)
        return {};
    QString tip = tr("offset 0x%1 = %2").arg(*offset, 0, 16).arg(*offset);
    for (const HexRange& range : m_ranges)
        if (*offset >= range.from && *offset < range.to)
            tip += tr("\n%1, its byte %2").arg(range.label).arg(*offset - range.from);
    return tip;
}

bool HexView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString tip = toolTipAt(help->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, viewport());
        return true;
    }
    return QPlainTextEdit::viewportEvent(event);
}

} // namespace upin::ui
