#pragma once
// A one-line label that never widens its window: text that does not fit ends in "…", and the whole text is in the
// tooltip. QLabel can only clip, which cut a capture's state off mid-word.

#include <QLabel>

namespace upin::ui {

class ElidedLabel final : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(const QString& text = {}, QWidget* parent = nullptr);
    void setFullText(const QString& text, const QString& tooltipExtra = {});
    const QString& fullText() const { return m_full; }
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void elide();
    QString m_full;
};

} // namespace upin::ui
