// upload-inspector-cli listen: the HTTP listener without a window; one line per finished capture.

#include "cli/cli_args.h"
#include "common/byte_size.h"
#include "common/limits.h"
#include "common/qt_text.h"
#include "listener/listener.h"
#include "listener/listener_guards.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QTimer>

#include <atomic>
#include <csignal>

namespace upin::app::cli {
namespace {

std::atomic<bool> g_stop{false};

void onSignal(int)
{
    g_stop = true;
}

QString captureLine(const ListenerEvent& e)
{
    double seconds = double(e.elapsedMs) / 1000.0;
    double mbps = seconds > 0 ? double(e.bytes) / 1e6 / seconds : 0;
    QString line = QStringLiteral("%1  %2  %3  %4  %5 bytes  %6 parts  %7 ms  %8 MB/s  matcher=%9")
                       .arg(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss")), e.client, e.endpoint,
                            captureStateName(e.state))
                       .arg(e.bytes)
                       .arg(e.partCount)
                       .arg(e.elapsedMs)
                       .arg(mbps, 0, 'f', 1)
                       .arg(e.matcher);
    if (e.error) {
        auto name = core::codeName(e.error->code);
        line += QStringLiteral("  error=%1@%2").arg(toQString(name)).arg(e.error->offset);
    }
    if (!e.errorDetail.isEmpty())
        line += QStringLiteral("  (%1)").arg(e.errorDetail);
    if (!e.folder.isEmpty())
        line += QStringLiteral("  %1").arg(e.folder);
    return line + QLatin1Char('\n');
}

} // namespace

int runListen(const QStringList& arguments)
{
    QCommandLineParser cl;
    cl.setApplicationDescription(
        QStringLiteral("Receive uploads over HTTP/1.1 and parse them as they stream in. Ctrl-C stops."));
    cl.addHelpOption();
    QCommandLineOption port(QStringLiteral("port"), QStringLiteral("TCP port (default 8080; 0 picks a free one)"),
                            QStringLiteral("N"), QStringLiteral("8080"));
    QCommandLineOption bind(QStringLiteral("bind"), QStringLiteral("address to listen on (default 127.0.0.1)"),
                            QStringLiteral("ADDR"), QStringLiteral("127.0.0.1"));
    QCommandLineOption captureDir(
        QStringLiteral("capture-dir"),
        QStringLiteral("where captures are stored (default %1)").arg(CaptureStore::defaultRoot()),
        QStringLiteral("DIR"));
    QCommandLineOption keepRaw(QStringLiteral("keep-raw"), QStringLiteral("also keep the raw body for /file-part"));
    QCommandLineOption keep(QStringLiteral("keep"),
                            QStringLiteral("finished captures kept; older ones are deleted (default 200)"),
                            QStringLiteral("N"), QStringLiteral("200"));
    QCommandLineOption keepBytes(
        QStringLiteral("keep-bytes"),
        QStringLiteral("total size of finished captures kept, e.g. 10G; older ones are deleted (default: no limit)"),
        QStringLiteral("SIZE"));
    QCommandLineOption hash = hashOption(QStringLiteral("digest of each part when the request has no ?hash="));
    QCommandLineOption noHash(QStringLiteral("no-hash"), QStringLiteral("the same as --hash none"));
    cl.addOptions({port, bind, captureDir, keepRaw, keep, keepBytes, hash, noHash});
    std::vector<QCommandLineOption> guardOptions;
    guardOptions.reserve(kGuardSettings.size());
    for (const auto& guard : kGuardSettings)
        guardOptions.emplace_back(QString::fromLatin1(guard.option),
                                  QString::fromLatin1(guard.help) + (guard.repeatable ? "; repeatable" : ""),
                                  QString::fromLatin1(guard.valueName));
    cl.addOptions({guardOptions.begin(), guardOptions.end()});
    cl.addOptions(limitOptions(listenerLimits()));
    cl.process(QStringList{QStringLiteral("upload-inspector-cli listen")} + arguments);

    ListenerConfig config;
    bool portOk = false, keepOk = false;
    config.port = quint16(cl.value(port).toUInt(&portOk));
    config.retention.keepCaptures = cl.value(keep).toInt(&keepOk);
    auto keepSize = cl.isSet(keepBytes) ? parseByteSize(cl.value(keepBytes)) : std::optional<qulonglong>(0);
    QString bad = !portOk                                          ? QStringLiteral("--port")
                  : !keepOk || config.retention.keepCaptures < 1   ? QStringLiteral("--keep")
                  : !keepSize                                      ? QStringLiteral("--keep-bytes")
                  : !config.bindAddress.setAddress(cl.value(bind)) ? QStringLiteral("--bind")
                                                                   : QString();
    for (size_t i = 0; i < kGuardSettings.size() && bad.isEmpty(); ++i)
        if (cl.isSet(guardOptions[i]) &&
            !kGuardSettings[i].set(config.guards, cl.values(guardOptions[i]).join(QLatin1Char(','))))
            bad = QLatin1String("--") + QLatin1String(kGuardSettings[i].option);
    if (!bad.isEmpty()) {
        printErr(QStringLiteral("listen: %1: '%2' is not a valid value (see --help)\n")
                     .arg(bad, cl.values(bad.mid(2)).join(QLatin1String(", "))));
        return 2;
    }
    config.retention.keepBytes = *keepSize;
    config.parser = listenerLimits();
    if (!applyLimitOptions(cl, config.parser))
        return 2;
    config.maxBodyBytes = config.parser.maxBodySize;
    config.captureDir = cl.value(captureDir);
    config.keepRaw = cl.isSet(keepRaw);
    auto hashKind = chosenHash(cl, hash, noHash, "listen");
    if (!hashKind)
        return 2;
    config.hash = *hashKind;

    Listener listener;
    if (!listener.start(config)) {
        printErr(QStringLiteral("listen: cannot listen on %1:%2: %3\n")
                     .arg(cl.value(bind))
                     .arg(config.port)
                     .arg(listener.errorString()));
        return 1;
    }
    if (!QDir().mkpath(listener.captureRoot())) // the listener runs; /file-part and /capture will answer 507
        printErr(QStringLiteral("listen: warning: cannot create the captures folder %1; uploads that store files will "
                                "fail with 507 (use --capture-dir)\n")
                     .arg(listener.captureRoot()));
    QString host = listener.address().protocol() == QAbstractSocket::IPv6Protocol
                       ? QStringLiteral("[%1]").arg(listener.address().toString())
                       : listener.address().toString();
    printOut(QStringLiteral(
                 "listening on http://%1:%2  (captures in %3)\n  try: curl -F file=@somefile http://%1:%2/file-part\n")
                 .arg(host)
                 .arg(listener.port())
                 .arg(listener.captureRoot()));
    std::fflush(stdout);
    QObject::connect(&listener, &Listener::events, [](const QList<ListenerEvent>& batch) {
        for (const auto& e : batch)
            if (e.kind == ListenerEvent::Kind::CaptureFinished) {
                printOut(captureLine(e));
                std::fflush(stdout);
            }
    });
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    QTimer stopPoll;
    QObject::connect(&stopPoll, &QTimer::timeout, [] {
        if (g_stop)
            QCoreApplication::quit();
    });
    stopPoll.start(100);
    int rc = QCoreApplication::exec();
    listener.stop();                   // uploads in progress end as incomplete...
    QCoreApplication::processEvents(); // ...and their lines are printed before we go
    printOut(QStringLiteral("stopped\n"));
    return rc;
}

} // namespace upin::app::cli
