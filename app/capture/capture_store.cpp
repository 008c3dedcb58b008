#include "capture/capture_store.h"

#include <QDateTime>
#include <QDir>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>

namespace upin::app {

namespace {
const QString kFolderPrefix = QStringLiteral("capture-");
}

CaptureStore::CaptureStore(QString root, int retain) : m_root(std::move(root)), m_retain(retain)
{
    if (m_root.isEmpty())
        m_root = defaultRoot();
    QDir().mkpath(m_root);
    m_lastId = quint64(QDateTime::currentMSecsSinceEpoch()) * 1000; // ids stay unique across restarts
}

QString CaptureStore::defaultRoot()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("captures"));
}

quint64 CaptureStore::nextId()
{
    QMutexLocker lock(&m_mutex);
    return ++m_lastId;
}

QString CaptureStore::createFolder(quint64 id, const QString& endpoint)
{
    QString name = kFolderPrefix + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")) +
                   QStringLiteral("-%1-%2").arg(id).arg(QString(endpoint).remove(QLatin1Char('/')));
    QDir dir(m_root);
    if (!dir.mkpath(name))
        return {};
    return dir.filePath(name);
}

bool CaptureStore::writeCaptureJson(const QString& folder, const QJsonObject& capture)
{
    QSaveFile file(QDir(folder).filePath(QStringLiteral("capture.json")));
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(QJsonDocument(capture).toJson(QJsonDocument::Indented));
    return file.commit();
}

void CaptureStore::remember(const QJsonObject& summary)
{
    QMutexLocker lock(&m_mutex);
    m_recent.append(summary);
    while (m_recent.size() > m_retain)
        m_recent.removeFirst();
    enforceRetention();
}

QJsonArray CaptureStore::recent() const
{
    QMutexLocker lock(&m_mutex);
    return m_recent;
}

void CaptureStore::enforceRetention()
{
    QDir dir(m_root);
    // Names start with a UTC timestamp, so name order is age order.
    QStringList folders =
        dir.entryList({kFolderPrefix + QLatin1Char('*')}, QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (qsizetype i = 0; i + m_retain < folders.size(); ++i)
        QDir(dir.filePath(folders[i])).removeRecursively();
}

QString CaptureStore::safePartFileName(uint32_t index, const std::optional<std::string>& filename,
                                       const std::optional<std::string>& fieldName)
{
    QString source = QString::fromUtf8(filename ? *filename : fieldName.value_or("part"));
    source = source.mid(std::max(source.lastIndexOf(QLatin1Char('/')), source.lastIndexOf(QLatin1Char('\\'))) + 1);
    QString safe;
    for (QChar c : source) {
        bool ok = (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
                  (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
                  (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('.') || c == QLatin1Char('_') ||
                  c == QLatin1Char('-');
        safe += ok ? c : QLatin1Char('_');
    }
    while (safe.startsWith(QLatin1Char('.')))
        safe.remove(0, 1);
    safe.truncate(100);
    if (safe.isEmpty())
        safe = QStringLiteral("part");
    return QStringLiteral("%1-%2").arg(index, 3, 10, QLatin1Char('0')).arg(safe);
}

} // namespace upin::app
