#include "cli/cli_args.h"

#include "capture/capture_store.h"

#include "common/limits.h"
#include "common/option_rules.h"
#include "inspect/inspect_worker.h"
#include "server/listener_guards.h"

#include <QFileInfo>

#include <atomic>
#include <csignal>

namespace upin::app::cli {

void printOut(const QString& text)
{
    QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
}

void printErr(const QString& text)
{
    QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
}

namespace {
std::atomic<bool> g_ctrlC{false};
void onCtrlC(int)
{
    g_ctrlC = true;
}
} // namespace

CancelOnCtrlC::CancelOnCtrlC(QObject* context, std::function<void()> cancel)
{
    g_ctrlC = false;
    std::signal(SIGINT, onCtrlC);
    QObject::connect(&m_poll, &QTimer::timeout, context, [cancel = std::move(cancel)] {
        if (g_ctrlC.exchange(false))
            cancel();
    });
    m_poll.start(100);
}

CancelOnCtrlC::~CancelOnCtrlC()
{
    std::signal(SIGINT, SIG_DFL);
}

std::optional<InspectResult> openSource(const char* command, const QString& source, const QString& contentType)
{
    if (!QFileInfo::exists(source)) {
        printErr(QStringLiteral("%1: %2 does not exist\n").arg(QLatin1String(command), source));
        return std::nullopt;
    }
    InspectResult result = inspectSource(source, contentType, inspectLimits());
    if (!result.error.isEmpty()) {
        printErr(QStringLiteral("%1: %2\n").arg(QLatin1String(command), result.error));
        return std::nullopt;
    }
    return result;
}

QList<QCommandLineOption> limitOptions(const core::Options& defaults)
{
    QList<QCommandLineOption> options;
    for (const auto& limit : kUserLimits)
        options.append(QCommandLineOption(
            QString::fromLatin1(limit.option),
            QStringLiteral("%1 (default: %2)")
                .arg(QString::fromLatin1(limit.description), formatLimit(limit, limit.get(defaults))),
            limit.isCount ? QStringLiteral("N") : QStringLiteral("SIZE")));
    return options;
}

GuardOptions::GuardOptions(bool forProxy) : forProxy(forProxy)
{
    options.reserve(kGuardSettings.size());
    for (const auto& guard : kGuardSettings)
        options.emplace_back(QString::fromLatin1(guard.option),
                             QString::fromLatin1(guard.help) + (guard.repeatable ? "; repeatable" : ""),
                             QString::fromLatin1(guard.valueName));
}

void GuardOptions::addTo(QCommandLineParser& cl) const
{
    for (size_t i = 0; i < kGuardSettings.size(); ++i)
        if (!(forProxy && kGuardSettings[i].serverOnly))
            cl.addOption(options[i]);
}

QString GuardOptions::apply(const QCommandLineParser& cl, ListenerGuards& guards) const
{
    for (size_t i = 0; i < kGuardSettings.size(); ++i) {
        const GuardSetting& guard = kGuardSettings[i];
        if (!(forProxy && guard.serverOnly) && cl.isSet(options[i]))
            if (const QString wrong = guard.set(guards, cl.values(options[i]).join(QLatin1Char(','))); !wrong.isEmpty())
                return badValue(cl, QLatin1String(guard.option), wrong);
    }
    return {};
}

QString badValue(const QCommandLineParser& cl, const QString& option, const QString& why)
{
    return QStringLiteral("--%1 '%2': %3").arg(option, cl.values(option).join(QLatin1String(", ")), why);
}

ServerOptions::ServerOptions(quint16 defaultPort)
    : port(QStringLiteral("port"), QStringLiteral("TCP port (default %1; 0 picks a free one)").arg(defaultPort),
           QStringLiteral("N"), QString::number(defaultPort)),
      bind(QStringLiteral("bind"), QStringLiteral("address to listen on (default 127.0.0.1)"), QStringLiteral("ADDR"),
           QStringLiteral("127.0.0.1")),
      captureDir(QStringLiteral("capture-dir"),
                 QStringLiteral("where captures are stored (default %1)").arg(CaptureStore::defaultRoot()),
                 QStringLiteral("DIR"))
{}

QString ServerOptions::apply(const QCommandLineParser& cl, ServerConfig& config) const
{
    config.captureDir = cl.value(captureDir);
    if (const QString wrong = checkPort(cl.value(port), &config.port); !wrong.isEmpty())
        return badValue(cl, port.names().constFirst(), wrong);
    if (const QString wrong = checkAddress(cl.value(bind), &config.bindAddress); !wrong.isEmpty())
        return badValue(cl, bind.names().constFirst(), wrong);
    return {};
}

HashOptions::HashOptions(const QString& what)
    : hash(QStringLiteral("hash"),
           QStringLiteral("%1: sha256 (default; what sha256sum prints), xxh3 (XXH3-128: an integrity check about "
                          "ten times faster, as xxh128sum prints it) or none")
               .arg(what),
           QStringLiteral("NAME"), QStringLiteral("sha256")),
      noHash(QStringLiteral("no-hash"), QStringLiteral("the same as --hash none"))
{}

std::optional<core::HashKind> HashOptions::chosen(const QCommandLineParser& cl, QString& error) const
{
    if (cl.isSet(noHash))
        return core::HashKind::None;
    const QString name = cl.value(hash);
    auto kind = core::kHashNames.find(name.toStdString());
    if (!kind)
        error = badValue(cl, hash.names().constFirst(), QStringLiteral("give sha256, xxh3 or none"));
    return kind;
}

std::optional<core::HashKind> HashOptions::chosen(const QCommandLineParser& cl, const char* command) const
{
    QString error;
    auto kind = chosen(cl, error);
    if (!kind)
        printErr(QStringLiteral("%1: %2\n").arg(QLatin1String(command), error));
    return kind;
}

QString applyLimitOptions(const QCommandLineParser& cl, core::Options& options)
{
    for (const auto& limit : kUserLimits) {
        const QString name = QString::fromLatin1(limit.option);
        if (cl.isSet(name) && !setLimit(limit, options, cl.value(name)))
            return badValue(cl, name,
                            limit.isCount ? QStringLiteral("give a positive number")
                                          : QStringLiteral("give a size such as 512K, 4M or 2G"));
    }
    return {};
}

} // namespace upin::app::cli
