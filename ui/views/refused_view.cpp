#include "views/refused_view.h"

#include "common/qt_text.h"
#include "views/hex_view.h"

#include "upin/core/errors.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTextBlock>
#include <QVBoxLayout>

#include <limits>

namespace upin::ui {

ReadableBytes readableBytes(const QByteArray& bytes, qint64 offset)
{
    ReadableBytes out;
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        if (i == offset)
            out.position = int(out.text.size());
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c == '\r' && i + 1 < bytes.size() && bytes[i + 1] == '\n')
            continue; // the LF after it breaks the line
        if (c == '\n' || c == '\t' || (c >= 0x20 && c != 0x7f))
            out.text += QChar(c); // Latin-1, as HTTP reads a head
        else
            out.text += QStringLiteral("\\x%1").arg(c, 2, 16, QLatin1Char('0'));
    }
    if (offset == bytes.size())
        out.position = int(out.text.size());
    return out;
}

namespace {
QPlainTextEdit* textPane(QWidget* parent)
{
    auto* pane = new QPlainTextEdit(parent);
    pane->setReadOnly(true);
    pane->setLineWrapMode(QPlainTextEdit::WidgetWidth); // a long target or field is read whole, not scrolled to
    pane->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return pane;
}

QString summaryHtml(const app::RefusedRequest& r)
{
    const QString connection = r.tls.isEmpty() ? QObject::tr("plain HTTP") : r.tls.toHtmlEscaped();
    QString html = QObject::tr("<b>Answered %1</b>: %2<br>%3 from %4 at %5, over %6")
                       .arg(r.status)
                       .arg(app::printable(r.reason).toHtmlEscaped(), app::printable(r.label()).toHtmlEscaped(),
                            r.client.toHtmlEscaped(),
                            QLocale().toString(r.receivedAt.toLocalTime(), QLocale::ShortFormat), connection);
    if (r.error)
        html += QObject::tr("<br>Where: byte %1 of the head, marked below (%2)")
                    .arg(QLocale().toString(qulonglong(r.error->offset)),
                         QString::fromStdString(std::string(core::codeName(r.error->code))).toHtmlEscaped());
    html += QObject::tr("<br>Refused before its body was taken: it has no parts and no capture folder.");
    return html;
}
} // namespace

RefusedView::RefusedView(const app::RefusedRequest& refused, QWidget* parent)
    : QDialog(parent), m_summary(new QLabel(summaryHtml(refused), this)), m_tabs(new QTabWidget(this)),
      m_head(textPane(this)), m_hex(new HexView(this)), m_answer(textPane(this))
{
    setWindowTitle(tr("Refused: %1").arg(app::printable(refused.label())));
    setAttribute(Qt::WA_DeleteOnClose);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tabs->addTab(m_head, tr("Head as received"));
    m_tabs->addTab(m_hex, tr("Hex"));
    m_tabs->addTab(m_answer, tr("Answer sent"));
    showHead(refused);
    m_answer->setPlainText(refused.answer.isEmpty() ? tr("(not recorded: refused by an earlier version)")
                                                    : readableBytes(refused.answer).text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(buttons);
    resize(760, 520);
}

void RefusedView::showHead(const app::RefusedRequest& refused)
{
    const qint64 offset = refused.error ? qint64(refused.error->offset) : -1;
    const ReadableBytes head = readableBytes(refused.head, offset);
    m_head->setPlainText(head.text.isEmpty() ? tr("(nothing arrived)") : head.text);
    // No byte is marked without an error: the mark goes past every line.
    m_hex->showBytes(refused.head, 0, offset >= 0 ? quint64(offset) : std::numeric_limits<quint64>::max(), {}, {});
    if (head.position < 0)
        return;
    QTextCursor at(m_head->document());
    at.setPosition(std::min(head.position, int(head.text.size())));
    at.movePosition(QTextCursor::NextCharacter, QTextCursor::KeepAnchor);
    QTextEdit::ExtraSelection mark;
    mark.cursor = at;
    mark.format.setBackground(HexView::markColour());
    m_head->setExtraSelections({mark});
    at.clearSelection(); // the cursor at the byte, unselected: a selection would hide the mark's colour
    m_head->setTextCursor(at);
}

} // namespace upin::ui
