#pragma once
// The hex view: 16 bytes a line under hexadecimal offsets (decimal in the tooltip), the selected part's header
// and body bytes shaded as Wireshark and HxD shade a selected field, and one byte marked (a diagnostic's, a part's
// first) by colour and a '>' in a column of its own, so that no line shifts. It shows the bytes it is given: the
// Inspect tab asks the part reader for them.

#include <QList>
#include <QPlainTextEdit>

namespace upin::ui {

struct HexRange {
    quint64 from = 0; // [from, to) in the offsets the view shows
    quint64 to = 0;
    QString label; // for the tooltip: "part 1 (photo) headers"
    bool header = false;
    bool found = false; // what Find found, shaded over the part's shade
};

class HexView final : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit HexView(QWidget* parent = nullptr);
    // The shades, for a legend and for views that mark the same byte in text.
    static QColor headerColour();
    static QColor bodyColour();
    static QColor markColour();
    static QColor foundColour();
    void showMessage(const QString& text); // "(reading…)", "(not kept: …)"
    // window holds the bytes from offset start; mark is centred; note, when given, is a first line ("# …").
    void showBytes(const QByteArray& window, quint64 start, quint64 mark, const QList<HexRange>& ranges,
                   const QString& note);
    // What is shaded: the given ranges clipped to the bytes shown (for tests, and what a user sees).
    QList<HexRange> shadedRanges() const;
    std::optional<quint64> markedOffset() const { return m_mark; }
    QString toolTipAt(const QPoint& viewportPos) const; // empty outside the bytes
    // The bytes the text selection covers, in the hex or the text columns; empty without a selection.
    QByteArray selectedBytes() const;
    void copySelection(bool asHex) const;   // "48 54 54 50", or the bytes themselves (as text and octet-stream)
    QSize minimumSizeHint() const override; // as wide as a line of bytes

protected:
    bool viewportEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    int hexColumn(int byteInLine) const { return 1 + m_offsetDigits + 2 + 3 * byteInLine; }
    int asciiColumn(int byteInLine) const { return 1 + m_offsetDigits + 2 + 48 + 1 + byteInLine; }
    QList<QTextEdit::ExtraSelection> shading() const;
    void addSpan(QList<QTextEdit::ExtraSelection>& out, quint64 from, quint64 to, const QTextCharFormat& format) const;
    std::optional<quint64> offsetAt(const QPoint& viewportPos) const;
    // The byte at a cursor position (its block and column); nearest is the byte a selection's end stops after.
    std::optional<qint64> indexAt(int position) const;

    QByteArray m_window;
    quint64 m_start = 0;
    int m_noteLines = 0;
    int m_offsetDigits = 8;
    QList<HexRange> m_ranges;
    std::optional<quint64> m_mark;
};

} // namespace upin::ui
