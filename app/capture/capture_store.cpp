#include "capture/capture_store.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>

#include <fcntl.h>

namespace upin::app {

namespace {
const QString kFolderPrefix = QStringLiteral("capture-");

quint64 folderBytes(const QString& path)
{
    quint64 total = 0;
    QDirIterator it(path, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += quint64(it.fileInfo().size());
    }
    return total;
}
} // namespace

CaptureStore::CaptureStore(QString root, RetentionPolicy retention) : m_root(std::move(root)), m_retention(retention)
{
    if (m_root.isEmpty())
        m_root = defaultRoot();
    QDir().mkpath(m_root);
    m_lastId = quint64(QDateTime::currentMSecsSinceEpoch()) * 1000; // ids stay unique across restarts
}

QString CaptureStore::defaultRoot()
{
    // GenericDataLocation/UploadInspector rather than AppDataLocation, which repeats the name
    // (.../UploadInspector/upload-inspector/captures).
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(QStringLiteral("UploadInspector/captures"));
}

quint64 CaptureStore::nextId()
{
    QMutexLocker lock(&m_mutex);
    return ++m_lastId;
}

QString CaptureStore::beginCapture(quint64 id, const QString& endpoint)
{
    QString name = kFolderPrefix + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")) +
                   QStringLiteral("-%1-%2").arg(id).arg(QString(endpoint).remove(QLatin1Char('/')));
    QDir dir(m_root);
    QMutexLocker lock(&m_mutex); // marked receiving before it exists, so no clean-up ever sees it unmarked
    m_receiving.insert(name, id);
    lock.unlock();
    if (dir.mkpath(name))
        return dir.filePath(name);
    lock.relock();
    m_receiving.remove(name);
    return {};
}

namespace {
const QString kReserveName = QStringLiteral(".capture.json.reserve");
// Room for a capture.json with a few hundred parts or a second of throughput samples; a larger one on a full
// disk still fails, and says so.
constexpr off_t kReserveBytes = off_t{256} * 1024;
} // namespace

void CaptureStore::reserveCaptureJsonSpace(const QString& folder)
{
    QFile reserve(QDir(folder).filePath(kReserveName));
    if (reserve.open(QIODevice::WriteOnly)) // posix_fallocate, unlike resize(), takes the blocks for real
        ::posix_fallocate(reserve.handle(), 0, kReserveBytes);
}

bool CaptureStore::writeCaptureJson(const QString& folder, const QJsonObject& capture, QString* error)
{
    QFile::remove(QDir(folder).filePath(kReserveName));
    QSaveFile file(QDir(folder).filePath(QStringLiteral("capture.json")));
    // Unbuffered: every write reaches the file engine, so a full disk fails the write we check here. (Buffered,
    // the failure surfaced only in close(), after which QSaveFile in Qt 6.4 still renamed an empty file in.)
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) {
        *error = file.errorString();
        return false;
    }
    const QByteArray json = QJsonDocument(capture).toJson(QJsonDocument::Indented);
    if (file.write(json) != json.size()) {
        *error = file.errorString();
        file.cancelWriting();
        file.commit(); // removes the temporary file; the previous capture.json, if any, stays
        return false;
    }
    if (!file.commit()) {
        *error = file.errorString();
        return false;
    }
    return true;
}

void CaptureStore::endCapture(const QString& folder, const QJsonObject& summary)
{
    QMutexLocker lock(&m_mutex);
    const QString name = folder.isEmpty() ? QString() : QDir(folder).dirName();
    m_receiving.remove(name);
    m_recent.append(summary);
    while (m_recent.size() > m_retention.keepCaptures)
        m_recent.removeFirst();
    const QStringList doomed = foldersToDelete(name);
    lock.unlock();
    // Deleting may take seconds for large captures: nobody waits for the lock meanwhile.
    for (const auto& name : doomed)
        QDir(QDir(m_root).filePath(name)).removeRecursively();
}

QStringList CaptureStore::foldersToDelete(const QString& justFinished) const
{
    QDir dir(m_root);
    // Newest first by when they finished (writing capture.json touches the folder), not by when they started: a
    // long upload that started first and just finished is the newest, not the oldest.
    const QStringList folders =
        dir.entryList({kFolderPrefix + QLatin1Char('*')}, QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time);
    QStringList doomed;
    int kept = 0;
    quint64 keptBytes = 0;
    bool full = false;
    for (const auto& name : folders) {
        if (m_receiving.contains(name))
            continue;
        if (name == justFinished) { // always kept, whatever the clock resolution says about its age
            keptBytes += m_retention.keepBytes > 0 ? folderBytes(dir.filePath(name)) : 0;
            ++kept;
            continue;
        }
        const quint64 bytes = m_retention.keepBytes > 0 ? folderBytes(dir.filePath(name)) : 0;
        full = full || kept >= m_retention.keepCaptures ||
               (m_retention.keepBytes > 0 && keptBytes + bytes > m_retention.keepBytes);
        if (!full) { // once one does not fit, every older one goes too
            ++kept;
            keptBytes += bytes;
        } else {
            doomed.append(name);
        }
    }
    return doomed;
}

QJsonArray CaptureStore::recent() const
{
    QMutexLocker lock(&m_mutex);
    return m_recent;
}

std::optional<QJsonObject> CaptureStore::report(const QString& id) const
{
    bool numeric = false;
    id.toULongLong(&numeric);
    if (!numeric)
        return std::nullopt;
    QMutexLocker lock(&m_mutex);
    for (auto it = m_receiving.cbegin(); it != m_receiving.cend(); ++it)
        if (QString::number(it.value()) == id)
            return QJsonObject{{"capture_id", id},
                               {"state", QStringLiteral("receiving")},
                               {"folder", QDir(m_root).filePath(it.key())}};
    lock.unlock();
    // Folder names carry the id: "capture-<time>-<id>-<endpoint>", also for captures of earlier sessions.
    const QStringList matches = QDir(m_root).entryList({kFolderPrefix + QStringLiteral("*-%1-*").arg(id)}, QDir::Dirs);
    if (matches.isEmpty())
        return std::nullopt;
    QFile file(QDir(QDir(m_root).filePath(matches.constFirst())).filePath(QStringLiteral("capture.json")));
    if (!file.open(QIODevice::ReadOnly))
        return QJsonObject{{"capture_id", id},
                           {"state", QStringLiteral("failed")},
                           {"error", QStringLiteral("capture.json is missing: the capture could not be written")}};
    return QJsonDocument::fromJson(file.readAll()).object();
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
