#pragma once
// Runs a probe (probe_report.h): each body shape sent to the target, interleaved with the same bytes to the
// baseline, then the scaling of plain and the slowest shape, then rounds of parallel uploads; the target's process
// memory watched during each upload when it can be found. Uploads go through Sender (the raw client), several at
// once for the concurrency rounds. Create it, move it to a worker thread and call start() there: nothing of it
// runs on the GUI thread. The steps of each phase are made in probe_steps.cpp. Budgets of bytes and time bound it;
// cancel() stops it between and during uploads.

#include "probe/probe_report.h"
#include "sender/run_types.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

namespace upin::app {

class RssSampler;
class Sender;

class ProbeRunner final : public QObject {
    Q_OBJECT
public:
    explicit ProbeRunner(QObject* parent = nullptr);
    ~ProbeRunner() override;

    void start(const upin::app::ProbeSettings& settings); // settings.baseline must be set
    void cancel();
    // The plan of one upload of a shape, as the probe sends it (--dry-run prints them; tests send them).
    static UploadPlan planFor(const ProbeSettings& settings, const QString& shape, quint64 size, const QUrl& url);
    static UploadPlan requestFor(const ProbeSettings& settings, const QUrl& url); // planFor's without its parts
    // What a probe with these settings sends, before its rechecks (which depend on what it finds): --dry-run's sums.
    struct Estimate {
        int uploads = 0;
        quint64 bytes = 0;
    };
    static Estimate estimate(const ProbeSettings& settings);
    static QList<quint64> scalingSizes(quint64 size); // the scaling phase's, for a probe of this --size

signals:
    // The phase under way ("body shapes", "plain again", "rechecks", "scaling", "parallel uploads"), the step
    // starting and how many of the phase's steps are done: a phase's steps are made when it begins, from the results
    // of the one before.
    void progress(const QString& phase, const QString& step, int done, int total);
    void updated(const upin::app::ProbeReport& report); // after each step: the figures so far, for the charts
    void finished(const upin::app::ProbeReport& report);

private:
    struct Step {
        QString label;
        QList<UploadPlan> plans; // sent at once
        bool watchMemory = false;
        std::function<void(const QList<RunResult>&, double wallSeconds, quint64 rssGrowth)> record;
    };
    void addShapeSteps();
    // One of a shape's two runs, into its row: time, status, memory growth, what our forwarder saw.
    void recordShapeRun(qsizetype index, const QString& shape, int attempt, const QList<RunResult>& runs,
                        quint64 growth);
    void judgeWarmUp(const QUrl& side, const RunResult& r);
    void judgeCutRuns(const Step& step);
    void addPlainAgainStep();
    void addRecheckSteps();
    void onDeadline();
    void addScalingSteps();
    void addConcurrencySteps();
    void runNext();
    bool plainMeasured() const;
    void startStep(const Step& step);
    void stepDone();
    void checkAnswer(const QString& shape, const RunResult& result);
    void finish();

    enum class Phase : uint8_t { Shapes, PlainAgain, Recheck, Scaling, Concurrency };
    Phase m_phase = Phase::Shapes;
    ProbeSettings m_settings;
    ProbeReport m_report;
    QList<Step> m_steps;
    int m_done = 0;
    int m_phaseStart = 0; // the first step of the phase under way
    QList<Sender*> m_running;
    QList<RunResult> m_results;
    QElapsedTimer m_clock;
    QElapsedTimer m_stepClock;
    std::unique_ptr<RssSampler> m_memory;
    bool m_cancelled = false;
    QTimer* m_deadline; // --max-time: what runs then is stopped, and nothing more starts
    bool m_timedOut = false;
    double m_wireMBps = 0; // the baseline round before the concurrency round under way
};

} // namespace upin::app
