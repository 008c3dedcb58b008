// upload-inspector: the desktop app. Reads the command line, builds the window and hands it to ServiceWiring,
// which owns the services and their threads; the GUI thread only applies value events.

#include "cli/cli_args.h"
#include "common/file_size_limit.h"
#include "common/limits.h"
#include "common/malloc_tuning.h"
#include "common/option_rules.h"
#include "main_window.h"
#include "models/plan_parts_model.h"
#include "service_wiring.h"
#include "upin_version.h"
#include "views/send_view.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QScreen>
#include <QSettings>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <string_view>

using namespace upin;

namespace {
// --help and --version only print: they must work without a display (help2man runs them to make the man page, and
// a user may in a terminal), where QApplication would abort for want of a platform plugin.
void printWithoutDisplay(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view option = argv[i];
        if (option == "-h" || option == "--help" || option == "--help-all" || option == "-v" || option == "--version") {
            if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            return;
        }
    }
}
// The window's command line options.
// The tab to start on, in --tab's words, in the window's order.
QStringList tabNames()
{
    return {QStringLiteral("send"),    QStringLiteral("listen"), QStringLiteral("inspect"),
            QStringLiteral("compare"), QStringLiteral("probe"),  QStringLiteral("bench")};
}

struct GuiOptions {
    void addTo(QCommandLineParser& cl) const;

    QCommandLineOption port{QStringLiteral("port"),
                            QStringLiteral("listener port (default: last used, else 8080; the next free one if taken)"),
                            QStringLiteral("N")};
    QCommandLineOption tab{QStringLiteral("tab"),
                           QStringLiteral("start on this tab: %1").arg(tabNames().join(QLatin1String(", "))),
                           QStringLiteral("NAME")};
    QCommandLineOption stalls{
        QStringLiteral("measure-stalls"),
        QStringLiteral(
            "measure how long the GUI thread goes without running a 5 ms timer; print the worst stall at exit")};
    QCommandLineOption quitAfter{QStringLiteral("quit-after"),
                                 QStringLiteral("quit after N seconds (for scripted runs)"), QStringLiteral("N")};
    QCommandLineOption send{QStringLiteral("send"),
                            QStringLiteral("add FILE to the Send tab's parts (repeat for more)"),
                            QStringLiteral("FILE")};
    QCommandLineOption captureDir{QStringLiteral("capture-dir"),
                                  QStringLiteral("where the listener stores captures (default %1)")
                                      .arg(upin::ui::ServiceWiring::defaultCaptureRoot()),
                                  QStringLiteral("DIR")};
};

void GuiOptions::addTo(QCommandLineParser& cl) const
{
    cl.setApplicationDescription(QStringLiteral("Send, receive and inspect HTTP file uploads."));
    cl.addHelpOption();
    cl.addVersionOption();
    cl.addOptions({port, tab, send, stalls, quitAfter, captureDir});
    // The limits for what Inspect opens (the listener's are in its Settings dialog), as `parse` takes them.
    cl.addOptions(upin::app::cli::limitOptions(upin::app::inspectLimits()));
    cl.addPositionalArgument(QStringLiteral("FILE"),
                             QStringLiteral("a body, HTTP request or capture folder to inspect"),
                             QStringLiteral("[FILE]"));
}

// The --tab value's index in the window's tab order; -1 when it names none.
int tabIndex(const QString& name)
{
    // "shootout": the bench tab's earlier name, still in scripts people keep.
    return int(tabNames().indexOf(name == QLatin1String("shootout") ? QStringLiteral("bench") : name));
}

// The tab to start on, a file to inspect, files to send.
void applyStart(const QCommandLineParser& cl, const GuiOptions& options, ui::MainWindow& window,
                ui::ServiceWiring& wiring)
{
    if (cl.isSet(options.tab))
        window.tabs()->setCurrentIndex(tabIndex(cl.value(options.tab)));
    if (!cl.positionalArguments().isEmpty())
        wiring.open(cl.positionalArguments().first());
    if (cl.isSet(options.send)) {
        window.sendView()->addFiles(cl.values(options.send));
        for (const QString& path : cl.values(options.send))
            if (!QFileInfo(path).isFile())
                std::fprintf(stderr, "--send %s: not a file\n", qPrintable(path));
        window.tabs()->setCurrentWidget(window.sendView());
    }
}

// --measure-stalls: a 5 ms timer on the GUI thread; the longest gap between its ticks, less 5 ms, is the worst stall.
class StallMeter {
public:
    void start()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_sinceStart.start();
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const qint64 stall = m_sinceTick.restart() - 5;
            m_worstMs = std::max(m_worstMs, stall);
            if (stall > 50) // each one over the 50 ms a user notices, with when it ended: what was the window doing?
                std::fprintf(stderr, "GUI thread stall: %lld ms, ending %.1f s after start\n",
                             static_cast<long long>(stall), double(m_sinceStart.elapsed()) / 1000);
        });
        m_sinceTick.start();
        m_timer.start(5);
    }
    qint64 worstMs() const { return m_worstMs; }

private:
    QTimer m_timer;
    QElapsedTimer m_sinceStart, m_sinceTick;
    qint64 m_worstMs = 0;
};

} // namespace

int main(int argc, char** argv)
{
    upin::app::keepFreedMemory();
    upin::app::failWritesPastFileSizeLimit();
    printWithoutDisplay(argc, argv);
    QApplication application(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("UploadInspector"));
    QApplication::setApplicationName(QStringLiteral("upload-inspector"));
    QApplication::setApplicationVersion(QStringLiteral(UPIN_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/upload-inspector.svg")));

    const GuiOptions options;
    QCommandLineParser cl;
    options.addTo(cl);
    cl.process(application);
    core::Options inspectLimits = app::inspectLimits();
    if (const QString wrong = app::cli::applyLimitOptions(cl, inspectLimits); !wrong.isEmpty()) {
        std::fprintf(stderr, "upload-inspector: %s\n", qPrintable(wrong));
        return 2;
    }
    quint16 listenPort = quint16(QSettings().value(QStringLiteral("listen/port"), 8080).toUInt());
    if (const QString wrong = cl.isSet(options.port) ? app::checkPort(cl.value(options.port), &listenPort) : QString();
        !wrong.isEmpty()) {
        std::fprintf(stderr, "upload-inspector: %s\n", qPrintable(app::cli::badValue(cl, "port", wrong)));
        return 2;
    }
    if (cl.isSet(options.tab) && tabIndex(cl.value(options.tab)) < 0) {
        const QString why = QStringLiteral("no such tab (%1)").arg(tabNames().join(QLatin1String(", ")));
        std::fprintf(stderr, "upload-inspector: %s\n", qPrintable(app::cli::badValue(cl, "tab", why)));
        return 2;
    }

    ui::MainWindow window;
    ui::ServiceWiring wiring(window, cl.isSet(options.captureDir)
                                         ? cl.value(options.captureDir)
                                         : QSettings().value(QStringLiteral("listen/captureDir")).toString());
    wiring.setInspectLimits(inspectLimits);
    window.restoreSettings();
    wiring.startListener(listenPort);
    applyStart(cl, options, window, wiring);
    // 1200x760 at least, but never more than the screen holds (a restored or default size on a small screen put the
    // status bar off it).
    const QSize screen = window.screen() ? window.screen()->availableGeometry().size() : QSize(1200, 760);
    window.resize(window.size().expandedTo(QSize(1200, 760)).boundedTo(screen));
    window.show();

    StallMeter stalls;
    if (cl.isSet(options.stalls))
        stalls.start();
    if (cl.isSet(options.quitAfter))
        QTimer::singleShot(cl.value(options.quitAfter).toInt() * 1000, &application, &QApplication::quit);
    const int rc = QApplication::exec();
    if (cl.isSet(options.stalls))
        std::fprintf(stderr, "worst GUI thread stall: %lld ms\n", static_cast<long long>(stalls.worstMs()));
    return rc;
}
