#include "charts/part_timeline_chart.h"

#include "charts/chart_export.h"
#include "charts/nice_axis.h"

#include <QCategoryAxis>
#include <QChart>
#include <QFontInfo>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

namespace upin::ui {

namespace {
constexpr int kMaxBars = 40;
}

PartTimelineChart::PartTimelineChart(QWidget* parent)
    : QChartView(parent), m_time(new QValueAxis), m_parts(new QCategoryAxis)
{
    // The view's own chart: setChart() would release the default one, not delete it (a leak LSan found).
    QChart* chart = this->chart();
    m_time->setTitleText(tr("ms since the capture started"));
    m_parts->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    chart->addAxis(m_time, Qt::AlignBottom);
    chart->addAxis(m_parts, Qt::AlignLeft);
    chart->legend()->hide();
    chart->setTitle(tr("Parts over time"));
    setRenderHint(QPainter::Antialiasing);
    addPngExport(this);
    setMinimumHeight(160);
}

int PartTimelineChart::barCount() const
{
    return int(chart()->series().size());
}

int PartTimelineChart::labelPixels() const
{
    return QFontInfo(m_parts->labelsFont()).pixelSize();
}

void PartTimelineChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    fitLabels();
}

void PartTimelineChart::fitLabels()
{
    const int rows = barCount() + 1;
    const double plot = chart()->plotArea().height() > 0 ? chart()->plotArea().height() : double(height()) / 2;
    QFont labels = font();
    // Qt keeps a label only with room around it: about a third of a row.
    labels.setPixelSize(std::clamp(int(plot / rows * 0.6), 7, QFontInfo(font()).pixelSize()));
    m_parts->setLabelsFont(labels);
}

void PartTimelineChart::setCapture(const CaptureListModel::Row& row)
{
    chart()->removeAllSeries();
    for (const QString& label : m_parts->categoriesLabels())
        m_parts->remove(label);
    // A chart of thousands of bars helps nobody and would cost the GUI thread: show the first kMaxBars.
    const int count = std::min(int(row.partSpans.size()), kMaxBars);
    qint64 end = std::max<qint64>(row.elapsedMs, 1);
    for (int i = 0; i < count; ++i)
        end = std::max(end, row.partSpans[i].endMs);
    const double minWidth = double(end) / 150; // a part that took no time still shows as a tick
    for (int i = 0; i < count; ++i) {
        const auto& span = row.partSpans[i];
        const double y = count - i; // the first part on top
        auto* bar = new QLineSeries;
        bar->append(double(span.startMs), y);
        bar->append(std::max(double(span.endMs < 0 ? row.elapsedMs : span.endMs), double(span.startMs) + minWidth), y);
        using Kind = CaptureListModel::Row::PartSpan::Kind;
        QPen pen(span.endMs < 0                ? QColor(0xb0, 0x6d, 0x00) // still arriving
                 : span.kind == Kind::Transfer ? QColor(0x5a, 0x8f, 0x5a) // forward mode: bytes on their way
                 : span.kind == Kind::Server   ? QColor(0x8e, 0x44, 0xad) // and the server's own time
                                               : QColor(0x1f, 0x6f, 0xd0)); // a part
        // As thick as the rows allow without touching: a forwarded capture adds three rows to its parts.
        const double plot = chart()->plotArea().height() > 0 ? chart()->plotArea().height() : 120;
        pen.setWidth(std::clamp(int(plot / (count + 1) * 0.6), 2, std::max(4, 120 / std::max(count, 1))));
        pen.setCapStyle(Qt::FlatCap);
        bar->setPen(pen);
        chart()->addSeries(bar);
        bar->attachAxis(m_time);
        bar->attachAxis(m_parts);
    }
    // Category labels must be added with increasing values: the last part (bottom) first.
    for (int i = count - 1; i >= 0; --i)
        m_parts->append(row.partSpans[i].label, count - i);
    setNiceRange(m_time, count > 0 ? double(end) : 0); // no bars: no invented time axis either
    m_time->setVisible(count > 0);
    m_parts->setVisible(count > 0);
    m_parts->setRange(0, count + 1);
    fitLabels();
    // Why a chart is empty: no parts, or a capture listed from disk (part times are recorded while it arrives).
    const QString note = row.partSpans.size() > kMaxBars
                             ? tr(" (first %1 of %2 parts)").arg(kMaxBars).arg(row.partSpans.size())
                         : count > 0     ? QString()
                         : row.parts > 0 ? tr(": part times are kept for this session's captures only")
                                         : tr(": no parts");
    chart()->setTitle((row.forward ? tr("Parts and the exchange over time — %1 %2%3") : tr("Parts over time — %1 %2%3"))
                          .arg(row.endpoint, row.started.toString(QStringLiteral("HH:mm:ss")), note));
}

} // namespace upin::ui
