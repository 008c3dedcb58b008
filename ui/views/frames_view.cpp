#include "views/frames_view.h"

#include "charts/window_chart.h"
#include "common/byte_size.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace upin::ui {

namespace {

enum Column { Ms, Direction, Type, Stream, Length, Detail, Columns };

QString settingsText(const QList<app::Http2Record::Setting>& settings)
{
    QStringList out;
    for (const auto& s : settings)
        out << QStringLiteral("%1=%2").arg(s.name).arg(s.value);
    return out.isEmpty() ? QObject::tr("none (the protocol's defaults)") : out.join(QStringLiteral(", "));
}

QString sizesText(const app::Http2Record& r)
{
    if (r.dataFrames == 0)
        return QObject::tr("no DATA frames");
    const auto& n = r.dataBySize;
    return QObject::tr("%1 DATA frames, %2 (%3 to %4 bytes; %5 up to 1 KiB, %6 up to 4 KiB, %7 up to 16 KiB, %8 "
                       "larger)")
        .arg(r.dataFrames)
        .arg(app::formatBytes(r.dataBytes))
        .arg(r.dataMin)
        .arg(r.dataMax)
        .arg(n[0])
        .arg(n[1])
        .arg(n[2])
        .arg(n[3]);
}

} // namespace

FramesView::FramesView(QWidget* parent)
    : QWidget(parent), m_summary(new QLabel), m_chart(new WindowChart), m_table(new QTableWidget(0, Columns))
{
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setHorizontalHeaderLabels({tr("ms"), tr("Way"), tr("Type"), tr("Stream"), tr("Length"), tr("Detail")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6); // a log: dense rows
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_chart);
    split->addWidget(m_table);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
}

QString FramesView::summaryText(const app::Http2Record& r)
{
    QStringList lines;
    QString first = tr("%1: %2").arg(r.http, r.stallsInWords());
    if (r.rttMs)
        first += tr(", a PING answered in %1 ms (the round trip and the client's own delay)").arg(*r.rttMs, 0, 'f', 1);
    lines << first;
    lines << tr("Window %1 bytes at the start, WINDOW_UPDATE %2")
                 .arg(r.initialWindow)
                 .arg(r.windowUpdates == QLatin1String("at-once") ? tr("after each DATA")
                                                                  : tr("once half of it was used"));
    lines << sizesText(r);
    lines << tr("We said: %1").arg(settingsText(r.settingsSent));
    lines << tr("The client said: %1").arg(settingsText(r.settingsReceived));
    return lines.join(QLatin1Char('\n'));
}

void FramesView::setRecord(const app::Http2Record& record)
{
    m_summary->setText(summaryText(record));
    m_chart->setRecord(record);
    m_table->setRowCount(0);
    for (const auto& f : record.firstFrames)
        addFrameRow(f);
    if (record.framesOmitted > 0) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        auto* gap = new QTableWidgetItem(tr("… %1 frames between, counted but not kept …").arg(record.framesOmitted));
        gap->setTextAlignment(Qt::AlignCenter);
        m_table->setItem(row, 0, gap);
        m_table->setSpan(row, 0, 1, Columns);
    }
    for (const auto& f : record.lastFrames)
        addFrameRow(f);
}

void FramesView::addFrameRow(const app::Http2Frame& f)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const QString cells[Columns] = {QString::number(f.ms, 'f', 3),
                                    f.sent ? tr("sent →") : tr("← received"),
                                    f.type,
                                    QString::number(f.stream),
                                    QString::number(f.length),
                                    f.detail};
    for (int c = 0; c < Columns; ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        if (c == Ms || c == Stream || c == Length)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (f.type == QLatin1String("WINDOW_UPDATE")) // the moments the client got its window back
            item->setBackground(QColor(0xe3, 0xf2, 0xfd));
        m_table->setItem(row, c, item);
    }
}

} // namespace upin::ui
