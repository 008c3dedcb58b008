#include "capture/capture_store.h"
#include "common/qt_text.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <sys/stat.h>
#include <vector>

namespace upin::app {

namespace {
const QString kFolderPrefix = QStringLiteral("capture-");
const QString kReserveName = QStringLiteral(".capture.json.reserve");
// Room for a capture.json with a few hundred parts or a second of throughput samples; a larger one on a full
// disk still fails, and says so.
constexpr off_t kReserveBytes = off_t{256} * 1024;
constexpr int kMaxRecent = 1000; // GET /captures lists at most this many
constexpr quint64 kIdStride = 10000;

// A short report for GET /captures/ID, as a listener's JSON answers end: one compact line.
QByteArray compactLine(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

// When a capture folder's capture finished: capture.json's time (written last), else the folder's own.
QDateTime finishTime(const QString& folder)
{
    const QFileInfo json(folder + QStringLiteral("/capture.json"));
    return json.exists() ? json.lastModified() : QFileInfo(folder).lastModified();
}

// The bytes of the files in a folder, with its subfolders' or without them.
quint64 filesBytes(const QString& path, bool subfolders)
{
    quint64 total = 0;
    QDirIterator it(path, QDir::Files | QDir::Hidden,
                    subfolders ? QDirIterator::Subdirectories : QDirIterator::NoIteratorFlags);
    while (it.hasNext()) {
        it.next();
        total += quint64(it.fileInfo().size());
    }
    return total;
}

// Its subfolders' files (parts/, written by Send again or Copy as curl after the capture ended), measured anew.
quint64 subfoldersBytes(const QString& path)
{
    quint64 total = 0;
    for (const QString& sub : QDir(path).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden))
        total += filesBytes(path + QLatin1Char('/') + sub, true);
    return total;
}
} // namespace

CaptureStore::CaptureStore(QString root, RetentionPolicy retention) : m_root(std::move(root)), m_retention(retention)
{
    if (m_root.isEmpty())
        m_root = defaultRoot();
    QDir().mkpath(m_root);
    m_cleaner.setMaxThreadCount(1);
    m_cleaner.setThreadPriority(QThread::LowestPriority);
    m_cleanupQueued = true; // the folder as an earlier session left it: measured, and held to the policy
    m_cleaner.start([this] { deleteOldFolders(); });
}

std::optional<quint64> CaptureStore::keptBytes() const
{
    const qint64 bytes = m_keptBytes;
    return bytes < 0 ? std::nullopt : std::optional(quint64(bytes));
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
    // One counter for every store of the process: the window lists its listener's, forwarder's and proxy's captures
    // in one list, by id, and two stores counting from their own start collided (a store started 100 ms after
    // another gave its first capture the id of the other's hundredth). Unique across restarts (the clock) and
    // across processes sharing a folder (the pid in the low digits): the n-th capture of a process is
    // (start ms + n) * 10000 + pid % 10000.
    static std::atomic<quint64> last{quint64(QDateTime::currentMSecsSinceEpoch()) * kIdStride +
                                     quint64(QCoreApplication::applicationPid()) % kIdStride};
    return last.fetch_add(kIdStride, std::memory_order_relaxed) + kIdStride;
}

QString CaptureStore::beginCapture(quint64 id, const QString& endpoint, QString* error)
{
    QString name = kFolderPrefix + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")) +
                   QStringLiteral("-%1-%2").arg(id).arg(QString(endpoint).remove(QLatin1Char('/')));
    QMutexLocker lock(&m_mutex); // marked receiving before it exists, so no clean-up ever sees it unmarked
    m_receiving.insert(name, id);
    lock.unlock();
    QDir().mkpath(m_root); // the user may have removed it meanwhile
    QString path = QDir(m_root).filePath(name);
    if (::mkdir(QFile::encodeName(path).constData(), 0755) == 0) // mkdir(2), for errno: QDir says only false
        return path;
    *error = qt_error_string(errno);
    lock.relock();
    m_receiving.remove(name);
    return {};
}

void CaptureStore::reserveCaptureJsonSpace(const QString& folder)
{
    QFile reserve(QDir(folder).filePath(kReserveName));
    if (reserve.open(QIODevice::WriteOnly)) // posix_fallocate, unlike resize(), takes the blocks for real
        ::posix_fallocate(reserve.handle(), 0, kReserveBytes);
}

bool CaptureStore::writeWhole(QFile& file, const char* data, qint64 size)
{
    while (size > 0) {
        const qint64 written = file.write(data, size);
        if (written <= 0)
            return false;
        data += written;
        size -= written;
    }
    return true;
}

bool CaptureStore::writeCaptureJson(const QString& folder, const std::function<void(JsonWriter&)>& writeJson,
                                    QString* error)
{
    // Written over the folder's space reserve (its blocks set aside when the capture began, so that a full disk still
    // takes a small capture.json), cut to length and renamed: a reader never sees a half file, a failed write leaves
    // none, and until the rename the reserve still marks the folder as receiving. Not synced: the part files and
    // body.raw beside it are not either, and syncing a 10,000-field form's 5 MB capture.json cost 3 of its 26 ms.
    const QDir dir(folder);
    QFile file(dir.filePath(kReserveName));
    auto fail = [&](const QString& why) {
        *error = why;
        file.remove();
        return false;
    };
    // ReadWrite: the reserved blocks are written over, not given back first by a truncation. Unbuffered: every
    // write reaches the kernel, so a full disk fails the write checked here.
    if (!file.open(QIODevice::ReadWrite | QIODevice::Unbuffered))
        return fail(file.errorString());
    JsonWriter json(JsonWriter::Style::Indented,
                    [&file](const char* data, size_t size) { return writeWhole(file, data, qint64(size)); });
    writeJson(json);
    if (!json.finish() || file.write("\n", 1) != 1 || !file.resize(file.pos()))
        return fail(file.errorString());
    file.close();
    if (::rename(QFile::encodeName(file.fileName()).constData(),
                 QFile::encodeName(dir.filePath(QStringLiteral("capture.json"))).constData()) != 0)
        return fail(qt_error_string(errno));
    return true;
}

void CaptureStore::endCapture(const CaptureSummary& capture)
{
    const QString name = capture.folder.isEmpty() ? QString() : QDir(capture.folder).dirName();
    {
        QMutexLocker lock(&m_mutex);
        m_receiving.remove(name);
        m_recent.append(capture);
        while (m_recent.size() > std::min(m_retention.keepCaptures, kMaxRecent))
            m_recent.removeFirst();
    }
    // Only a new folder can push an old one out. One clean-up waiting is enough: it sees this folder too.
    if (!name.isEmpty() && !m_cleanupQueued.exchange(true))
        m_cleaner.start([this] { deleteOldFolders(); });
}

bool CaptureStore::stillReceiving(const QString& name) const
{
    QMutexLocker lock(&m_mutex);
    // Receiving here, or in another process sharing the folder (its space reserve is still there).
    return m_receiving.contains(name) || QFile::exists(QDir(m_root).filePath(name + QLatin1Char('/') + kReserveName));
}

void CaptureStore::deleteOldFolders()
{
    m_cleanupQueued = false; // a capture that ends from here on queues another pass
    QDir dir(m_root);
    // Newest first by when they finished: capture.json's time (written last), not the folder's, which changes
    // when files inside it are deleted, and not the name's, which says when the upload started.
    struct Folder {
        QString name;
        QDateTime finished;
    };
    std::vector<Folder> folders;
    for (const auto& name :
         dir.entryList({kFolderPrefix + QLatin1Char('*')}, QDir::Dirs | QDir::NoDotAndDotDot, QDir::Unsorted)) {
        folders.push_back({name, finishTime(dir.filePath(name))});
    }
    std::sort(folders.begin(), folders.end(), [](const Folder& a, const Folder& b) { return a.finished > b.finished; });
    int kept = 0;
    quint64 keptBytes = 0;
    bool full = false;
    QHash<QString, MeasuredFolder> measured;
    for (const auto& folder : folders) {
        if (stillReceiving(folder.name))
            continue;
        const QString path = dir.filePath(folder.name);
        const auto known = m_measured.constFind(folder.name);
        const quint64 ownBytes =
            known != m_measured.cend() && known->finished == folder.finished && folder.finished.isValid()
                ? known->bytes
                : filesBytes(path, false);
        const quint64 bytes = ownBytes + subfoldersBytes(path);
        // The newest finished capture stays even when it alone is over the size limit.
        full = full || kept >= m_retention.keepCaptures ||
               (kept > 0 && m_retention.keepBytes > 0 && keptBytes + bytes > m_retention.keepBytes);
        if (!full) { // once one does not fit, every older one goes too
            ++kept;
            keptBytes += bytes;
            measured.insert(folder.name, {folder.finished, ownBytes});
            continue;
        }
        // Checked again right before deleting: if it finished (here or elsewhere) since the listing, its time
        // changed and it is the newest, not the oldest.
        if (stillReceiving(folder.name) || finishTime(path) != folder.finished)
            continue;
        // Another process may be deleting it too: a second pass removes what the first found gone mid-way.
        if (!QDir(path).removeRecursively())
            QDir(path).removeRecursively();
    }
    m_keptBytes = qint64(keptBytes);
    m_measured = std::move(measured); // the folders still there
}

QString CaptureStore::refusedLog() const
{
    return QDir(m_root).filePath(QStringLiteral("refused.jsonl"));
}

void CaptureStore::recordRefused(RefusedRequest& refused)
{
    refused.id = nextId();
    const QJsonObject json = refused.toJson();
    {
        // A quota of their own in the recent list: a flood of refusals does not push captures out of it.
        QMutexLocker lock(&m_mutex);
        m_recentRefused.append(refused);
        while (m_recentRefused.size() > std::min(m_retention.keepCaptures, kMaxRecent))
            m_recentRefused.removeFirst();
    }
    {
        // Appended on the store's own low-priority thread, in batches: a flood of refusals puts no file work on
        // the thread that serves uploads. What waits is bounded too: past a log's size, newer lines are dropped.
        QMutexLocker lock(&m_refusedMutex);
        if (m_refusedPending.size() > kRefusedLogBytes)
            return;
        m_refusedPending += QJsonDocument(json).toJson(QJsonDocument::Compact) + '\n';
    }
    if (!m_refusedFlushQueued.exchange(true))
        m_cleaner.start([this] { flushRefused(); });
}

void CaptureStore::flushRefused()
{
    m_refusedFlushQueued = false;
    QByteArray lines;
    {
        QMutexLocker lock(&m_refusedMutex);
        lines.swap(m_refusedPending);
    }
    if (lines.isEmpty())
        return;
    const QString path = refusedLog();
    const qint64 size = QFileInfo(path).size();
    if (size > 0 && size + lines.size() > kRefusedLogBytes) { // each file stays within the bound
        QFile::remove(path + QStringLiteral(".1"));
        QFile::rename(path, path + QStringLiteral(".1"));
    }
    QDir().mkpath(m_root);
    QFile file(path);
    if (file.open(QIODevice::Append))
        file.write(lines);
}

std::optional<RefusedRequest> CaptureStore::recentRefused(quint64 id) const
{
    QMutexLocker lock(&m_mutex);
    for (const RefusedRequest& refused : m_recentRefused)
        if (refused.id == id)
            return refused;
    return std::nullopt;
}

QJsonArray CaptureStore::recent() const
{
    QMutexLocker lock(&m_mutex);
    // Oldest first, as the ids were given (captures are listed as they finish).
    std::vector<std::pair<quint64, QJsonObject>> all;
    for (const CaptureSummary& capture : m_recent)
        all.emplace_back(capture.id, summaryToJson(capture));
    for (const RefusedRequest& refused : m_recentRefused)
        all.emplace_back(refused.id, refused.toJson());
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    QJsonArray out;
    for (const auto& [id, json] : all)
        out.append(json);
    return out;
}

std::optional<QByteArray> CaptureStore::report(const QString& id) const
{
    bool numeric = false;
    id.toULongLong(&numeric);
    if (!numeric)
        return std::nullopt;
    QMutexLocker lock(&m_mutex);
    for (auto it = m_receiving.cbegin(); it != m_receiving.cend(); ++it)
        if (QString::number(it.value()) == id)
            return compactLine(QJsonObject{{"capture_id", id},
                                           {"state", QStringLiteral("receiving")},
                                           {"folder", QDir(m_root).filePath(it.key())}});
    // Captures that stored no folder (/part-event, /discard, or one whose folder could not be created): the
    // summary in the recent list is all there is.
    for (const CaptureSummary& capture : m_recent)
        if (QString::number(capture.id) == id && capture.folder.isEmpty())
            return compactLine(summaryToJson(capture));
    for (const RefusedRequest& refused : m_recentRefused)
        if (QString::number(refused.id) == id)
            return compactLine(refused.toJson());
    lock.unlock();
    // Folder names carry the id: "capture-<time>-<id>-<endpoint>", also for captures of earlier sessions.
    QStringList matches = QDir(m_root).entryList({kFolderPrefix + QStringLiteral("*-%1-*").arg(id)}, QDir::Dirs);
    // The glob also matches digits of the time fields: only the id field itself counts.
    matches.removeIf([&id](const QString& name) { return name.section(QLatin1Char('-'), 4, 4) != id; });
    if (matches.isEmpty())
        return std::nullopt;
    const QDir folder(QDir(m_root).filePath(matches.constFirst()));
    QFile file(folder.filePath(QStringLiteral("capture.json")));
    if (!file.open(QIODevice::ReadOnly)) {
        if (folder.exists(kReserveName)) // another listener sharing the folder is receiving it (or was, and died)
            return compactLine(
                QJsonObject{{"capture_id", id},
                            {"state", QStringLiteral("receiving")},
                            {"folder", folder.path()},
                            {"note", QStringLiteral("received by another listener that shares this folder")}});
        return compactLine(
            QJsonObject{{"capture_id", id},
                        {"state", QStringLiteral("failed")},
                        {"error", QStringLiteral("capture.json is missing: the capture could not be written")}});
    }
    return file.readAll(); // written whole and renamed into place: complete JSON, ending in a newline
}

QString CaptureStore::safePartFileName(uint32_t index, const std::optional<std::string>& filename,
                                       const std::optional<std::string>& fieldName)
{
    // An empty filename (a browser's file input left empty sends filename="") is named by its field.
    QString source = QString::fromUtf8(filename && !filename->empty() ? *filename : fieldName.value_or("part"));
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

QString CaptureStore::suggestedFileName(const std::optional<std::string>& filename,
                                        const std::optional<std::string>& fieldName)
{
    QString source = QString::fromUtf8(filename && !filename->empty() ? *filename : fieldName.value_or("part"));
    source = source.mid(std::max(source.lastIndexOf(QLatin1Char('/')), source.lastIndexOf(QLatin1Char('\\'))) + 1);
    QString name;
    for (QChar c : source)
        if (c.unicode() >= 0x20 && !(c.unicode() >= 0x7f && c.unicode() <= 0x9f) && !reordersText(c.unicode()))
            name += c;
    while (name.startsWith(QLatin1Char('.')))
        name.remove(0, 1);
    name = name.trimmed();
    constexpr qsizetype kMost = 200; // a file system takes 255 bytes: room for UTF-8's longer letters
    if (name.size() > kMost) {
        const qsizetype dot = name.lastIndexOf(QLatin1Char('.'));
        const QString extension = dot > 0 && name.size() - dot <= 16 ? name.mid(dot) : QString();
        name = name.left(kMost - extension.size()) + extension;
    }
    return name.isEmpty() ? QStringLiteral("part") : name;
}

} // namespace upin::app
