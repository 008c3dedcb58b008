#include "views/compare_view.h"
#include "status_colors.h"
#include "views/fitted_columns.h"

#include "charts/bar_chart.h"
#include "common/byte_size.h"
#include "sender/run_report.h"

#include "charts/chart_export.h"

#include <QChart>
#include <QMenu>
#include <QPainter>

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSet>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <numeric>

namespace upin::ui {

namespace {
constexpr int kChecksColumn = 7;  // the statistics table's "Checks": red when a run failed or a digest differed
constexpr int kBoundByColumn = 8; // "Bound by": what held the rate, in words
} // namespace

CompareView::CompareView(QWidget* parent)
    : QWidget(parent), m_chart(new BarChart(tr("Median throughput by target (whiskers: min to max)"), tr("MB/s"))),
      m_table(new QTableWidget(0, 9)), m_bodiesDiffer(new QLabel)
{
    setUpTable();
    QHBoxLayout* buttons = makeButtonRow();
    QWidget* chartPane = makeChartPane();
    auto* split = new QSplitter(Qt::Vertical);
    split->setObjectName(QStringLiteral("compareSplitter"));
    split->addWidget(chartPane);
    split->addWidget(m_table);
    split->setSizes({400, 200}); // the chart first: a table of a few targets needs few rows
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(split, 1);
}

// One row per target and body size: the figures, the checks, and what bound the runs.
void CompareView::setUpTable()
{
    m_table->setHorizontalHeaderLabels({tr("Target"), tr("Body"), tr("Runs ok"), tr("Median"), tr("Min"), tr("Max"),
                                        tr("Median MB/s"), tr("Checks"), tr("Bound by")});
    m_table->horizontalHeaderItem(1)->setToolTip(
        tr("What each run of the row sent: runs with another body size are a row of their own"));
    m_table->horizontalHeaderItem(8)->setToolTip(
        tr("What set the pace: our listener's CPU time parsing and hashing (its answer's cpu_ms) against the run's "
           "time; XXH3 is hashed while parsing and counts as parsing. The matcher shows only where parsing is most "
           "of it."));
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    // "Bound by" is a sentence: it fits up to half the table, and gives up width so that
    // the target, what a row is, keeps a third: it had been squeezed to "http:// / 127.…".
    auto* fitted = new FittedColumns(m_table, {kBoundByColumn},
                                     {fontMetrics().horizontalAdvance(QLatin1String("Bound by    "))}, 0.5);
    fitted->keepRoom(0, 1.0 / 3);
    // A longer one wraps onto a second line of its row rather than being cut (a few rows: one per target).
    m_table->setWordWrap(true);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->setToolTip(tr("Right-click a row to remove its runs"));
    connect(m_table, &QTableWidget::customContextMenuRequested, this, &CompareView::showTableMenu);
}

// What the tab shows, beside Export CSV, Export PNG and Clear.
QHBoxLayout* CompareView::makeButtonRow()
{
    auto* csv = new QPushButton(tr("E&xport CSV…"));
    auto* png = new QPushButton(tr("Export &PNG…"));
    auto* clearButton = new QPushButton(tr("Clea&r"));
    connect(csv, &QPushButton::clicked, this, &CompareView::exportCsv);
    connect(png, &QPushButton::clicked, this, &CompareView::exportPng);
    connect(clearButton, &QPushButton::clicked, this, &CompareView::clear);
    m_needRuns = {csv, png, clearButton}; // nothing to export or clear until a run comes (refresh)
    for (QPushButton* button : m_needRuns)
        button->setEnabled(false);
    auto* buttons = new QHBoxLayout;
    auto* about = new QLabel(tr("Every run sent from the Send tab this session, grouped by target URL and body size. "
                                "Send the same parts to /file-part?matcher=kmp and ?matcher=simd to see what "
                                "matching the delimiter one byte at a time costs (Spring WebFlux's slow uploads)."));
    about->setWordWrap(true); // one line at 1600 px, two at 1024: never a wider window
    buttons->addWidget(about, 1);
    buttons->addWidget(csv);
    buttons->addWidget(png);
    buttons->addWidget(clearButton);
    return buttons;
}

// The chart, the warning when the bodies differ, and why the ratio is smaller than the bench's.
QWidget* CompareView::makeChartPane()
{
    // Why Compare's ratio is smaller than the bench's, said where the numbers are.
    auto* why =
        new QLabel(tr("End to end, the matcher is one cost among others: the ratio the bench shows between "
                      "kmp and simd shows here only where parsing bounds the run (a fast network such as loopback, a "
                      "busy server CPU, content dense in CR LF or dashes). Elsewhere the wire, the client or "
                      "the hash set the pace: see Bound by."));
    why->setObjectName(QStringLiteral("compareWhy"));
    why->setWordWrap(true);
    auto* chartPane = new QWidget;
    auto* chartLayout = new QVBoxLayout(chartPane);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(m_bodiesDiffer);
    chartLayout->addWidget(m_chart, 1);
    chartLayout->addWidget(why);
    m_bodiesDiffer->setObjectName(QStringLiteral("compareBodiesDiffer"));
    m_bodiesDiffer->setWordWrap(true);
    m_bodiesDiffer->setStyleSheet(status::textStyle(status::warning()));
    m_bodiesDiffer->hide();
    return chartPane;
}

void CompareView::addRuns(const QList<app::RunResult>& runs)
{
    m_runs += runs;
    refresh();
}

void CompareView::clear()
{
    m_runs.clear();
    refresh();
}

// Words on lines of about `width` characters: Qt cuts a bar's label at the bar's width ("405 Method Not A…").
static QString wrappedWords(const QString& text, int width)
{
    QString out, line;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && line.size() + 1 + word.size() > width) {
            out += line + QLatin1Char('\n');
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    return out + line;
}

QStringList distinctLabels(const QStringList& targets)
{
    if (targets.size() < 2)
        return targets;
    qsizetype common = targets.first().size();
    for (const QString& t : targets) {
        qsizetype i = 0;
        while (i < common && i < t.size() && t[i] == targets.first()[i])
            ++i;
        common = i;
    }
    // Back to the start of the piece that differs: after a '/', '?' or '&'.
    while (common > 0 && !QStringLiteral("/?&").contains(targets.first()[common - 1]))
        --common;
    QStringList out;
    for (const QString& t : targets)
        out.append(t.size() > common ? t.mid(common) : t);
    return out;
}

// What tells the bars apart, short enough not to elide: path and query, after host and port when two targets differ
// only in their server, and after the method when any run was not a POST (a PUT and a POST to one URL).
static QStringList targetLabels(const QList<app::TargetStats>& stats)
{
    // As the table's Target says it (app::targetText): a method other than POST is named.
    const bool nameMethods =
        std::any_of(stats.begin(), stats.end(), [&](const auto& s) { return s.method != QLatin1String("POST"); });
    QStringList targets;
    QSet<QString> keys, urls;
    for (const auto& s : stats) {
        targets.append(s.target.path() + (s.target.hasQuery() ? QLatin1Char('?') + s.target.query() : QString()));
        keys.insert(s.method + QLatin1Char(' ') + targets.last());
        urls.insert(s.method + QLatin1Char(' ') + s.target.toString());
    }
    if (keys.size() < urls.size()) { // two servers, one path
        bool oneHost = true;
        for (const auto& s : stats)
            oneHost = oneHost && s.target.host() == stats.first().target.host();
        for (qsizetype i = 0; i < stats.size(); ++i) // ":9/file-part" when only the ports differ
            targets[i] = (oneHost ? QStringLiteral(":%1").arg(stats[i].target.port(80)) : stats[i].target.authority()) +
                         targets[i];
    }
    QStringList labels = distinctLabels(targets);
    if (nameMethods)
        for (qsizetype i = 0; i < stats.size(); ++i)
            labels[i] = stats[i].method + QLatin1Char(' ') + labels[i];
    // One target sent two bodies: each bar says which (the table's Body column always does).
    for (qsizetype i = 0; i < stats.size(); ++i)
        for (qsizetype j = 0; j < stats.size(); ++j)
            if (i != j && stats[i].target == stats[j].target && stats[i].method == stats[j].method) {
                labels[i] += QStringLiteral(", ") + app::formatBytes(stats[i].bodyBytes);
                break;
            }
    return labels;
}

void CompareView::refresh()
{
    for (QPushButton* button : m_needRuns)
        button->setEnabled(!m_runs.isEmpty());
    const auto stats = app::statsByTarget(m_runs);
    QList<BarChart::Bar> bars;
    m_table->setRowCount(0);
    m_statsRows.clear();
    m_rowGroups.clear();
    const QStringList labels = targetLabels(stats);
    for (qsizetype i = 0; i < stats.size(); ++i) {
        const auto& s = stats[i];
        // Axis labels are rich text: a query goes on a line of its own (at 1024 px a label has about 140 px), and
        // a target whose runs all failed has no rate: its bar is named for why, not drawn as a measured zero.
        QString label = labels[i].toHtmlEscaped().replace(QLatin1Char('?'), QStringLiteral("<br>?"));
        if (s.count == 0)
            label += tr("<br>failed: %1")
                         .arg(wrappedWords(s.lastFailure, 18)
                                  .toHtmlEscaped()
                                  .replace(QLatin1Char('\n'), QStringLiteral("<br>")));
        if (label.contains(QLatin1String("<br>"))) // lines centred on each other, as one-line labels are on the bar
            label = QStringLiteral("<div align=\"center\">%1</div>").arg(label);
        bars.append({label, s.medianMBps, s.minMBps, s.maxMBps, s.count > 0});
        int row = m_table->rowCount();
        m_table->insertRow(row);
        auto seconds = [&](double value) { return s.count > 0 ? app::formatSeconds(value) : QStringLiteral("—"); };
        const QStringList cells{app::targetText(s),
                                app::bodyText(s),
                                QString::number(s.count),
                                seconds(s.medianSeconds),
                                seconds(s.minSeconds),
                                seconds(s.maxSeconds),
                                s.count > 0 ? QString::number(s.medianMBps, 'f', 1) : QStringLiteral("—"),
                                app::checksText(s),
                                app::boundBy(s)};
        m_statsRows.append(cells);
        m_rowGroups.append(s);
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(cells[c]);
            if (c == kChecksColumn && (s.failures || s.integrityFailures))
                item->setForeground(status::failure());
            m_table->setItem(row, c, item);
        }
    }
    m_bars = bars;
    m_chart->setBars(bars, true);
    showBodiesDiffer(stats);
}

// Bars of bodies of different sizes side by side read as a race they were not: a small body's rate is mostly the
// round trip. Said above the chart whenever the groups' bodies differ.
void CompareView::showBodiesDiffer(const QList<app::TargetStats>& stats)
{
    const auto [smallest, largest] = std::minmax_element(
        stats.begin(), stats.end(), [](const auto& a, const auto& b) { return a.bodyBytes < b.bodyBytes; });
    const bool differ = !stats.isEmpty() && smallest->bodyBytes != largest->bodyBytes;
    m_bodiesDiffer->setVisible(differ);
    if (differ)
        m_bodiesDiffer->setText(
            tr("These runs sent bodies of different sizes (%1 to %2): a small body's MB/s is mostly the round trip, "
               "not the transfer. Compare rows of one body size, or send the same parts to each target.")
                .arg(app::formatBytes(smallest->bodyBytes), app::formatBytes(largest->bodyBytes)));
}

void CompareView::exportCsv()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Export runs as CSV"), QStringLiteral("runs.csv"));
    if (!path.isEmpty())
        exportCsvTo(path);
}

void CompareView::exportPng()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Export chart as PNG"), QStringLiteral("compare.png"));
    if (!path.isEmpty())
        exportPngTo(path);
}

void CompareView::exportCsvTo(const QString& path)
{
    saveExports(this, {{path, app::runsToCsv(m_runs).toUtf8()}});
}

void CompareView::exportPngTo(const QString& path)
{
    saveExports(this, {{path, pngBytes(picture())}});
}

QImage CompareView::picture() const
{
    constexpr int kWidth = 1600, kChartHeight = 600, kMargin = 16;
    // A chart of its own at the export's size: the window's may be too narrow for its labels.
    BarChart chart(m_chart->chart()->title(), tr("MB/s"));
    chart.setBars(m_bars, true);
    chart.setAttribute(Qt::WA_DontShowOnScreen);
    chart.resize(kWidth, kChartHeight);
    chart.show();
    const QImage drawn = chart.grab().toImage();
    const QFontMetrics metrics(font());
    const int line = metrics.height() + 6;
    QImage image(kWidth, kChartHeight + kMargin + line * int(m_statsRows.size() + 1) + kMargin, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.drawImage(0, 0, drawn);
    painter.setFont(font());
    // The table's columns: the target takes what the numbers leave.
    QList<QList<QString>> rows{{}};
    for (int c = 0; c < m_table->columnCount(); ++c)
        rows.first().append(m_table->horizontalHeaderItem(c)->text());
    rows += m_statsRows;
    QList<int> widths(m_table->columnCount(), 0);
    for (const auto& row : rows)
        for (int c = 1; c < row.size(); ++c)
            widths[c] = std::max(widths[c], metrics.horizontalAdvance(row[c]) + 24);
    widths[0] = kWidth - 2 * kMargin - std::accumulate(widths.begin() + 1, widths.end(), 0);
    int y = kChartHeight + kMargin;
    for (qsizetype r = 0; r < rows.size(); ++r, y += line) {
        QFont rowFont = font();
        rowFont.setBold(r == 0);
        painter.setFont(rowFont);
        int x = kMargin;
        for (int c = 0; c < rows[r].size(); ++c) {
            painter.drawText(QRect(x, y, widths[c] - 12, line), Qt::AlignVCenter | Qt::AlignLeft,
                             metrics.elidedText(rows[r][c], Qt::ElideMiddle, widths[c] - 12));
            x += widths[c];
        }
    }
    return image;
}

void CompareView::removeTarget(const QUrl& target, const QString& method)
{
    m_runs.removeIf([&](const app::RunResult& r) { return r.target == target && r.method == method; });
    refresh();
}

void CompareView::showTableMenu(const QPoint& at)
{
    const int row = m_table->indexAt(at).row();
    if (row < 0 || row >= m_rowGroups.size())
        return;
    QMenu menu(this);
    const app::TargetStats group = m_rowGroups[row];
    menu.addAction(tr("Remove this row's runs"), this, [this, group] {
        m_runs.removeIf([&](const app::RunResult& r) { return group.holds(r); });
        refresh();
    });
    menu.exec(m_table->viewport()->mapToGlobal(at));
}

} // namespace upin::ui
