#pragma once
// The Hex tab: the hex view with what users of a hex editor or Wireshark's bytes pane expect around it: go to an
// offset, find bytes (typed as text or as hex) from the byte shown onwards, copy a selection (the view's menu), and
// a legend for the shades. The pane asks; the view that holds the source (Inspect) reads on the part reader's
// thread and answers, as for every page, so that a find through gigabytes never holds the window.

#include <QByteArray>
#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;

namespace upin::ui {

class HexView;

// An offset as a user types it: "496", "0x1f0" (spaces and thousands separators ignored); none when not a number.
std::optional<quint64> parseOffset(const QString& text);
// Bytes typed in hex, "de ad be ef", "DEADBEEF" or "de:ad"; none for an odd number of digits or a non-hex digit.
std::optional<QByteArray> parseHexBytes(const QString& text);

class HexPane final : public QWidget {
    Q_OBJECT
public:
    explicit HexPane(QWidget* parent = nullptr);
    HexView* view() const { return m_view; }
    QLineEdit* goToEdit() const { return m_goTo; }
    QLineEdit* findEdit() const { return m_find; }
    QComboBox* findAs() const { return m_findAs; } // Text (UTF-8) or Hex
    QLabel* status() const { return m_status; }
    QLabel* legend() const { return m_legend; }
    void setStatus(const QString& text, bool failure = false);
    void clearSearch(); // another source opened: its offsets and bytes are not the last one's

signals:
    void goToRequested(quint64 offset);
    void findRequested(const QByteArray& needle); // from the byte shown, or after the last one found

private:
    void goTo();
    void find();

    HexView* m_view;
    QLineEdit* m_goTo;
    QLineEdit* m_find;
    QComboBox* m_findAs;
    QLabel* m_status;
    QLabel* m_legend;
};

} // namespace upin::ui
