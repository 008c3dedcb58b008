#include "charts/part_timeline_chart.h"
#include "status_colors.h"

#include "charts/chart_export.h"
#include "charts/nice_axis.h"
#include "views/plain_tip.h"

#include <QChart>
#include <QFontInfo>
#include <QFontMetrics>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>
#include <algorithm>

namespace upin::ui {

namespace {
constexpr int kMaxBars = 40;
constexpr int kLabelGap = 6; // between a label and the plot
} // namespace

PartTimelineChart::PartTimelineChart(QWidget* parent)
    : QChartView(parent), m_time(new QValueAxis), m_rows(new QValueAxis)
{
    // The view's own chart: setChart() would release the default one, not delete it (a leak LSan found).
    QChart* chart = this->chart();
    // The rows' labels are ours (placeLabels): Qt's category axis pads each label by 8 px and cuts it to "..."
    // below that, which leaves four rows where twelve fit.
    m_rows->setLabelsVisible(false);
    m_rows->setGridLineVisible(false);
    m_rows->setLineVisible(false);
    chart->addAxis(m_time, Qt::AlignBottom);
    chart->addAxis(m_rows, Qt::AlignLeft);
    chart->legend()->hide();
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    chart->setTitle(tr("Parts over time"));
    setRenderHint(QPainter::Antialiasing);
    addPngExport(this);
    setMinimumHeight(160);
    m_labelFont = font();
    m_labelFont.setPixelSize(std::min(QFontInfo(font()).pixelSize(), 11)); // a dozen rows at 1024x700
    // The plot area settles after a layout: fit the rows and place the labels then (queued: not inside Qt's layout).
    connect(
        chart, &QChart::plotAreaChanged, this, [this] { refitRows(); }, Qt::QueuedConnection);
}

int PartTimelineChart::barCount() const
{
    return int(chart()->series().size());
}

QStringList PartTimelineChart::rowLabels() const
{
    QStringList shown;
    for (const QGraphicsSimpleTextItem* label : m_labels)
        shown << label->text();
    return shown;
}

int PartTimelineChart::rowsThatFit() const
{
    // Before the first layout the plot area is empty: take the view's height less the title and the time axis.
    const double plot = chart()->plotArea().height() > 0 ? chart()->plotArea().height() : height() - 60.0;
    const int pitch = QFontMetrics(m_labelFont).height() + 1; // a label's height and a pixel between rows
    return std::max(1, int(plot / pitch) - 1);
}

void PartTimelineChart::refitRows()
{
    const int fitting = std::min({int(m_row.partSpans.size()), kMaxBars, rowsThatFit()});
    if (fitting != barCount()) {
        setCapture(m_row);
        return;
    }
    makeLabels(fitting); // elided to the width there is now
    placeLabels();
}

void PartTimelineChart::placeLabels()
{
    const QRectF plot = chart()->plotArea();
    const QFontMetrics metrics(m_labelFont);
    const int count = int(m_labels.size());
    for (int i = 0; i < count; ++i) {
        const QPointF at = chart()->mapToPosition(QPointF(m_time->min(), count - i), chart()->series().at(i));
        QGraphicsSimpleTextItem* label = m_labels[i];
        const double width = metrics.horizontalAdvance(label->text());
        label->setPos(plot.left() - kLabelGap - width, at.y() - metrics.height() / 2.0);
    }
}

void PartTimelineChart::makeLabels(int count)
{
    qDeleteAll(m_labels);
    m_labels.clear();
    const QFontMetrics metrics(m_labelFont);
    const int widest = std::max(width() / 4, 60); // long names are cut in the middle, the plot keeps the room
    int used = 0;
    for (int i = 0; i < count; ++i) {
        auto* label =
            new QGraphicsSimpleTextItem(metrics.elidedText(m_row.partSpans[i].label, Qt::ElideMiddle, widest), chart());
        label->setFont(m_labelFont);
        label->setBrush(palette().text());
        if (label->text() != m_row.partSpans[i].label) // the whole of a name cut in the middle, on hover
            label->setToolTip(plainTip(m_row.partSpans[i].label));
        used = std::max(used, metrics.horizontalAdvance(label->text()));
        m_labels.append(label);
    }
    const QMargins margins(used + kLabelGap + 4, 2, 8, 2);
    if (chart()->margins() != margins) // a change lays the chart out again, and comes back here once
        chart()->setMargins(margins);
}

void PartTimelineChart::setCapture(const CaptureListModel::Row& row)
{
    m_row = row;
    chart()->removeAllSeries();
    // A chart of thousands of bars helps nobody and would cost the GUI thread: show the first kMaxBars, or as many
    // as keep their labels at this height (the title says how many of how many).
    const int count = std::min({int(row.partSpans.size()), kMaxBars, rowsThatFit()});
    qint64 end = std::max<qint64>(row.elapsedMs, 1);
    for (int i = 0; i < count; ++i)
        end = std::max(end, row.partSpans[i].endMs);
    const double minWidth = double(end) / 150; // a part that took no time still shows as a tick
    const double plot = chart()->plotArea().height() > 0 ? chart()->plotArea().height() : 120;
    for (int i = 0; i < count; ++i) {
        const auto& span = row.partSpans[i];
        const double y = count - i; // the first part on top
        auto* bar = new QLineSeries;
        bar->append(double(span.startMs), y);
        bar->append(std::max(double(span.endMs < 0 ? row.elapsedMs : span.endMs), double(span.startMs) + minWidth), y);
        using Kind = CaptureListModel::Row::PartSpan::Kind;
        QPen pen(span.endMs < 0                ? status::warning()        // still arriving
                 : span.kind == Kind::Transfer ? QColor(0x5a, 0x8f, 0x5a) // forward mode: bytes on their way
                 : span.kind == Kind::Server   ? QColor(0x8e, 0x44, 0xad) // and the server's own time
                                               : status::active());         // a part
        // As thick as the rows allow without touching: a forwarded capture adds three rows to its parts.
        pen.setWidth(std::clamp(int(plot / (count + 1) * 0.6), 2, std::max(4, 120 / std::max(count, 1))));
        pen.setCapStyle(Qt::FlatCap);
        bar->setPen(pen);
        chart()->addSeries(bar);
        bar->attachAxis(m_time);
        bar->attachAxis(m_rows);
    }
    makeLabels(count);
    // No bars: no invented time axis either. The unit in the labels, not an axis title: at 1024x700 every line of
    // chrome is a part row less.
    setNiceRange(m_time, count > 0 ? double(end) : 0, QStringLiteral(" ms"));
    m_time->setVisible(count > 0);
    m_rows->setRange(0, count + 1);
    placeLabels();
    // Why a chart is empty: no parts, or a capture listed from disk (part times are recorded while it arrives).
    const QString taller = count < kMaxBars ? tr(": a taller chart shows more") : QString();
    // A body of many parts has only some of them timed (app::kPartsAlwaysTimed says which): said, with the count.
    const auto timed = std::count_if(row.partSpans.begin(), row.partSpans.end(), [](const auto& span) {
        return span.kind == CaptureListModel::Row::PartSpan::Kind::Part;
    });
    const QString untimed = timed > 0 && row.parts > timed
                                ? tr("; %1 parts in all, timed: the first %2, then one each %3 ms")
                                      .arg(row.parts)
                                      .arg(app::kPartsAlwaysTimed)
                                      .arg(app::kPartTimingIntervalMs)
                                : QString();
    const QString note =
        row.partSpans.size() > count && count > 0
            ? tr(" (first %1 of %2 parts%3%4)").arg(count).arg(row.partSpans.size()).arg(taller, untimed)
        : count > 0 && !untimed.isEmpty() ? tr(" (%1)").arg(untimed.mid(2))
        : count > 0                       ? QString()
        : row.parts > 0                   ? tr(": part times are kept for this session's captures only")
                                          : tr(": no parts");
    chart()->setTitle((row.forward ? tr("Parts and the exchange over time — %1 %2%3") : tr("Parts over time — %1 %2%3"))
                          .arg(row.endpoint, row.receivedHere().toString(QStringLiteral("HH:mm:ss")), note));
}

void PartTimelineChart::clear()
{
    setCapture({});
    chart()->setTitle(tr("Parts over time"));
}

} // namespace upin::ui
