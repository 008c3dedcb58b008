#include "views/hex_pane.h"

#include "status_colors.h"
#include "views/hex_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace upin::ui {

std::optional<quint64> parseOffset(const QString& text)
{
    QString digits = text.trimmed().remove(QLatin1Char(' ')).remove(QLatin1Char(',')).remove(QLatin1Char('_'));
    const bool hex = digits.startsWith(QLatin1String("0x"), Qt::CaseInsensitive);
    bool ok = false;
    const quint64 value = hex ? digits.mid(2).toULongLong(&ok, 16) : digits.toULongLong(&ok, 10);
    return ok ? std::optional(value) : std::nullopt;
}

std::optional<QByteArray> parseHexBytes(const QString& text)
{
    QString digits = text;
    digits.remove(QLatin1Char(' ')).remove(QLatin1Char(':')).remove(QLatin1Char('-'));
    if (digits.startsWith(QLatin1String("0x"), Qt::CaseInsensitive))
        digits = digits.mid(2);
    if (digits.isEmpty() || digits.size() % 2 != 0)
        return std::nullopt;
    for (QChar c : digits)
        if (!c.isDigit() && !(c.toLower() >= u'a' && c.toLower() <= u'f'))
            return std::nullopt;
    return QByteArray::fromHex(digits.toLatin1());
}

namespace {
QString swatch(const QColor& colour, const QString& what)
{
    return QStringLiteral("<span style=\"background-color:%1; color:black\">&nbsp;%2&nbsp;</span>")
        .arg(colour.name(), what.toHtmlEscaped());
}
} // namespace

HexPane::HexPane(QWidget* parent)
    : QWidget(parent), m_view(new HexView(this)), m_goTo(new QLineEdit(this)), m_find(new QLineEdit(this)),
      m_findAs(new QComboBox(this)), m_status(new QLabel(this)), m_legend(new QLabel(this))
{
    m_goTo->setPlaceholderText(tr("Go to offset")); // the forms it takes in its tooltip: the box is narrow
    m_goTo->setToolTip(tr("An offset in decimal (1234) or hex (0x4d2), then Enter"));
    m_goTo->setClearButtonEnabled(true);
    m_find->setPlaceholderText(tr("Find"));
    m_find->setClearButtonEnabled(true);
    m_findAs->addItem(tr("Text"));
    m_findAs->addItem(tr("Hex bytes"));
    m_findAs->setToolTip(tr("Find the text's UTF-8 bytes, or bytes typed in hex (de ad be ef)"));
    auto* next = new QPushButton(tr("Find next"), this);
    connect(m_goTo, &QLineEdit::returnPressed, this, &HexPane::goTo);
    connect(m_find, &QLineEdit::returnPressed, this, &HexPane::find);
    connect(next, &QPushButton::clicked, this, &HexPane::find);
    m_legend->setText(tr("%1 %2 %3 %4 &nbsp;Hover a byte for its offset; select bytes and right-click to copy them.")
                          .arg(swatch(HexView::headerColour(), tr("part headers")),
                               swatch(HexView::bodyColour(), tr("part body")),
                               swatch(HexView::markColour(), tr("marked byte (a diagnostic's, a part's first)")),
                               swatch(HexView::foundColour(), tr("found"))));
    m_legend->setWordWrap(true);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_goTo, 2);
    bar->addWidget(m_find, 3);
    bar->addWidget(m_findAs);
    bar->addWidget(next);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    m_status->hide();
}

void HexPane::clearSearch()
{
    m_goTo->clear();
    m_find->clear();
    setStatus({});
}

void HexPane::setStatus(const QString& text, bool failure)
{
    m_status->setText(text);
    m_status->setStyleSheet(failure ? status::textStyle(status::failure()) : QString());
    m_status->setVisible(!text.isEmpty());
}

void HexPane::goTo()
{
    if (const auto offset = parseOffset(m_goTo->text()))
        emit goToRequested(*offset);
    else
        setStatus(tr("“%1” is not an offset: type 1234 or 0x4d2").arg(m_goTo->text()), true);
}

void HexPane::find()
{
    if (m_find->text().isEmpty())
        return;
    const bool hex = m_findAs->currentIndex() == 1;
    const std::optional<QByteArray> needle = hex ? parseHexBytes(m_find->text()) : m_find->text().toUtf8();
    if (needle)
        emit findRequested(*needle);
    else
        setStatus(tr("“%1” is not hex bytes: type pairs of digits such as de ad be ef").arg(m_find->text()), true);
}

} // namespace upin::ui
