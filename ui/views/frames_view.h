#pragma once
// Inspect's Frames tab, for a capture that came over HTTP/2: what flow control did to the upload in words (the
// stalls, the round trip, the DATA frames' sizes, the SETTINGS both ways), the window the client had over time
// with the stalls marked (WindowChart), and the frames as the listener kept them: the first and the last 100,
// both ways, the rest counted.

#include "capture/h2_record.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace upin::ui {

class WindowChart;

class FramesView final : public QWidget {
    Q_OBJECT
public:
    explicit FramesView(QWidget* parent = nullptr);
    void setRecord(const app::Http2Record& record);
    QLabel* summary() const { return m_summary; }
    WindowChart* chart() const { return m_chart; }
    QTableWidget* table() const { return m_table; }

    static QString summaryText(const app::Http2Record& record);

private:
    void addFrameRow(const app::Http2Frame& frame);

    QLabel* m_summary;
    WindowChart* m_chart;
    QTableWidget* m_table;
};

} // namespace upin::ui
