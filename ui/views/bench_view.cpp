#include "views/bench_view.h"
#include "common/qt_text.h"

#include "charts/bar_chart.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace upin::ui {

namespace {
// Only a build without optimisation says its figures mean little (Release and RelWithDebInfo define NDEBUG).
#ifdef NDEBUG
constexpr bool kOptimisedBuild = true;
#else
constexpr bool kOptimisedBuild = false;
#endif
} // namespace

BenchView::BenchView(QWidget* parent)
    : QWidget(parent), m_source(new QComboBox), m_sizeMiB(new QSpinBox), m_runs(new QSpinBox),
      m_run(new QPushButton(tr("Run bench"))), m_summary(new QLabel),
      m_chart(new BarChart(tr("Parser throughput by matcher strategy"), tr("GB/s")))
{
    for (auto shape : core::kAllBenchInputs) {
        auto name = core::benchInputName(shape);
        m_source->addItem(tr("generated: %1").arg(app::toQString(name)), int(shape));
    }
    m_source->setToolTip(tr("random: one file part of random bytes; mixed: random, CRLF text and near-miss delimiters; "
                            "nearmiss: only near-miss delimiters; crlf: only CRLF; manyparts: 1 KiB parts"));
    m_sizeMiB->setRange(1, 4096);
    m_sizeMiB->setValue(64);
    m_sizeMiB->setSuffix(tr(" MiB"));
    m_runs->setRange(1, 21);
    m_runs->setValue(3);
    m_runs->setPrefix(tr("median of "));
    m_run->setShortcut(QKeySequence(QStringLiteral("Ctrl+R")));
    m_run->setToolTip(tr("Run (Ctrl+R)"));
    auto* pick = new QPushButton(tr("Body file…"));
    connect(pick, &QPushButton::clicked, this, [this] {
        QString path = QFileDialog::getOpenFileName(this, tr("A stored multipart body"));
        if (!path.isEmpty()) {
            setStoredBody(path, {});
            m_source->setCurrentIndex(m_source->findData(-1));
        }
    });
    connect(m_run, &QPushButton::clicked, this, [this] {
        app::BenchRequest request;
        if (m_source->currentData().toInt() < 0) {
            request.path = m_storedPath;
            request.contentType = m_storedType;
        } else {
            request.shape = core::BenchInput(m_source->currentData().toInt());
            request.size = quint64(m_sizeMiB->value()) << 20;
        }
        request.runs = m_runs->value();
        m_run->setEnabled(false);
        m_summary->setText(kOptimisedBuild
                               ? tr("Timing…")
                               : tr("Timing… (a Debug build: a Release build gives the meaningful figures)"));
        emit runRequested(request);
    });
    auto* top = new QHBoxLayout;
    top->addWidget(m_source, 1);
    top->addWidget(pick);
    top->addWidget(m_sizeMiB);
    top->addWidget(m_runs);
    top->addWidget(m_run);
    m_summary->setWordWrap(true);
    // Before the first run, what to do and what it shows: the empty chart said nothing.
    m_summary->setText(tr("Choose a body (a synthetic shape or a file of yours) and press Run bench: each "
                          "matcher parses it in memory, and the chart shows each one's GB/s beside memchr's."));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addWidget(m_chart, 1);
}

void BenchView::setStoredBody(const QString& path, const QString& contentType)
{
    m_storedPath = path;
    m_storedType = contentType;
    int index = m_source->findData(-1);
    QString label = tr("stored: %1").arg(QFileInfo(path).fileName());
    if (index < 0) {
        m_source->addItem(label, -1);
        index = m_source->count() - 1;
    }
    m_source->setItemText(index, label);
    m_source->setItemData(index, path, Qt::ToolTipRole);
}

void BenchView::offerInspected(const app::InspectResult& result)
{
    // Only a body file whose offsets start at 0 (a raw body or a capture's body.raw) can be timed as it is; a
    // de-chunked temporary copy is deleted when Inspect opens the next file.
    if (result.bodyFile.isEmpty() || result.bodyFileOffset != 0 || result.bodyFileOwner ||
        result.report.boundary.empty() || result.report.parts.empty())
        return;
    QString type = result.capture ? result.capture->request.contentType : QString();
    if (type.isEmpty()) // a raw body whose boundary was read from its first delimiter line
        type = QStringLiteral("multipart/form-data; boundary=") + QString::fromStdString(result.report.boundary);
    const int chosen = m_source->currentIndex();
    setStoredBody(result.bodyFile, type);
    m_source->setCurrentIndex(chosen);
}

QString BenchView::strategyToolTip(const QString& strategy)
{
    if (strategy == QLatin1String("kmp"))
        return tr("kmp: the delimiter matched one byte at a time (Knuth-Morris-Pratt), as Spring WebFlux did before "
                  "its fix: every byte costs a branch and a table step");
    if (strategy == QLatin1String("chunked"))
        return tr("chunked: memchr finds each CR, then the delimiter is compared whole (how Spring WebFlux fixed "
                  "its slow uploads), fast until the content is dense in CR LF");
    if (strategy == QLatin1String("simd"))
        return tr("simd: 32 bytes at a time (AVX2, SSE2 or plain code) look for the delimiter's first and last "
                  "bytes together, so dense CR LF or dashes do not slow it");
    return strategy;
}

void BenchView::showResult(const app::BenchResult& result)
{
    m_run->setEnabled(true);
    if (!result.error.isEmpty()) {
        m_summary->setText(result.error);
        m_chart->setBars({}); // the last body's figures are not this one's
        m_chart->setReferenceLine(0, {});
        return;
    }
    QList<BarChart::Bar> bars;
    double ceiling = 0, kmp = 0, simd = 0;
    QStringList tips;
    for (const auto& e : result.entries) {
        if (e.strategy == QLatin1String("memchr")) { // a reference to measure the matchers by, not one of them
            ceiling = e.gbps;
            continue;
        }
        bars.append({e.strategy, std::round(e.gbps * 100) / 100, 0, 0});
        tips.append(strategyToolTip(e.strategy));
        if (e.strategy == QLatin1String("kmp"))
            kmp = e.gbps;
        if (e.strategy == QLatin1String("simd"))
            simd = e.gbps;
    }
    m_chart->setBars(bars);
    m_chart->setBarToolTips(tips);
    m_chart->setReferenceLine(
        std::round(ceiling * 100) / 100,
        tr("memchr reference, %1 GB/s: one pass for the body's rarest byte, no matching").arg(ceiling, 0, 'f', 2));
    // A reference, not a ceiling: where even the rarest byte is common (a small or text file), memchr stops at
    // each one, and a matcher that checks fewer places passes it.
    m_summary->setText(tr("%1 (%2 bytes): simd parses at %3x the memchr reference, %4x faster than byte-at-a-time "
                          "kmp (how Spring WebFlux matched the delimiter before it scanned whole chunks).")
                           .arg(result.label)
                           .arg(result.bytes)
                           .arg(ceiling > 0 ? simd / ceiling : 0, 0, 'f', 2)
                           .arg(kmp > 0 ? simd / kmp : 0, 0, 'f', 1));
}

} // namespace upin::ui
