#include "views/elided_label.h"
#include "views/plain_tip.h"

namespace upin::ui {

ElidedLabel::ElidedLabel(const QString& text, QWidget* parent) : QLabel(parent)
{
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setTextFormat(Qt::PlainText); // a status may quote a client's name: "<b>x</b>" is that text, not bold
    setFullText(text);
}

void ElidedLabel::setFullText(const QString& text, const QString& tooltipExtra)
{
    m_full = text;
    // Plain: a status may hold what a server or a client sent (an error text, a URL, a name).
    setToolTip(plainTip(tooltipExtra.isEmpty() ? text : text + QLatin1Char('\n') + tooltipExtra));
    elide();
}

QSize ElidedLabel::minimumSizeHint() const
{
    return {0, QLabel::minimumSizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::setWrapping(bool wrapping)
{
    m_wrapping = wrapping;
    setWordWrap(wrapping);
    elide();
}

void ElidedLabel::elide()
{
    setText(m_wrapping ? m_full : fontMetrics().elidedText(m_full, Qt::ElideRight, width()));
}

} // namespace upin::ui
