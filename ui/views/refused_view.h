#pragma once
// A refused request opened from the Listen list: what the client sent (its head as received, as text and as hex,
// the byte a parse error names marked in both), what it was answered (status line, fields, body) and why, in
// words. The tools users know show every request's head, failures included; this is ours for requests turned away
// before their body was taken, which have no capture folder to open in Inspect.

#include "capture/refused_request.h"

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QTabWidget;

namespace upin::ui {

class HexView;

class RefusedView final : public QDialog {
    Q_OBJECT
public:
    explicit RefusedView(const app::RefusedRequest& refused, QWidget* parent = nullptr);

    QLabel* summary() const { return m_summary; }
    QPlainTextEdit* head() const { return m_head; }
    HexView* hex() const { return m_hex; }
    QPlainTextEdit* answer() const { return m_answer; }
    QTabWidget* tabs() const { return m_tabs; }

private:
    void showHead(const app::RefusedRequest& refused);

    QLabel* m_summary;
    QTabWidget* m_tabs;
    QPlainTextEdit* m_head;
    HexView* m_hex;
    QPlainTextEdit* m_answer;
};

// A head or an answer as a text view shows it: CR LF and LF as line breaks, a bare CR and other control bytes as
// \xNN (so that nothing the client sent hides or moves a line), and where byte `offset` of the bytes landed.
struct ReadableBytes {
    QString text;
    int position = -1; // of byte offset in text; -1 when offset is past the bytes
};
ReadableBytes readableBytes(const QByteArray& bytes, qint64 offset = -1);

} // namespace upin::ui
