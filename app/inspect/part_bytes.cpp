#include "inspect/part_bytes.h"

#include "capture/capture_store.h"
#include "common/qt_text.h"

#include "capture/kept_part.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace upin::app {

namespace {
constexpr qint64 kCopyPiece = qint64{1} << 20;

// node is part (the same object), or holds it among its nested parts.
bool holds(const core::PartSummary& node, const core::PartSummary& part)
{
    if (&node == &part)
        return true;
    for (const auto& child : node.children)
        if (holds(child, part))
            return true;
    return false;
}

// The top-level part that holds this part: itself, or the ancestor of a nested one. part points into report.
const core::PartSummary* topLevelOf(const core::ParseReport& report, const core::PartSummary& part)
{
    const core::PartSummary* first = report.parts.data();
    if (!report.parts.empty() && &part >= first && &part < first + report.parts.size())
        return &part; // a top-level part: found without a search (Save all asks for every one)
    for (const auto& top : report.parts)
        if (holds(top, part))
            return &top;
    return nullptr;
}

PartBytes inMemory(const QByteArray& bytes, quint64 offset, quint64 size, bool partRelative)
{
    PartBytes where;
    where.inMemory = true;
    where.memory = bytes.mid(qsizetype(offset), qsizetype(size));
    where.available = quint64(where.memory.size());
    where.partRelative = partRelative;
    return where;
}

// A capture folder without body.raw: the part files and the inline values capture.json lists.
PartBytes fromCapture(const InspectResult& result, const core::ParseReport& report, const core::PartSummary& part)
{
    PartBytes where;
    where.partRelative = true;
    const core::PartSummary* top = topLevelOf(report, part);
    const QList<KeptPart>& keptParts = result.capture->kept;
    const KeptPart kept = top && top->index < uint32_t(keptParts.size()) ? keptParts[top->index] : KeptPart{};
    const quint64 within = top ? part.bodyOffset - top->bodyOffset : 0;
    if (!kept.savedAs.isEmpty()) {
        // As capture.json says: its sizes are what was stored. Not looked at here (a view asks): a file that is
        // gone or shorter is found when it is read.
        where.file = QDir(result.partsFolder).filePath(kept.savedAs);
        where.fileOffset = qint64(within);
        where.available = part.size;
        return where;
    }
    if (auto value = kept.valueBytes(top ? top->contentType : std::nullopt))
        return inMemory(*value, within, part.size, true);
    const QString endpoint = result.capture->endpoint;
    where.missing = endpoint == QLatin1String("/file-part") || endpoint == QLatin1String("/capture")
                        ? QObject::tr("this part's bytes were not stored (the capture failed before them)")
                        : QObject::tr("%1 keeps no part bytes, only their sizes and hashes").arg(endpoint);
    return where;
}
} // namespace

PartBytes locatePart(const InspectResult& result, const core::PartSummary& part)
{
    return locatePart(result, result.report, part);
}

PartBytes locatePart(const InspectResult& result, const core::ParseReport& report, const core::PartSummary& part)
{
    PartBytes where;
    if (!result.harEntries.isEmpty()) { // HAR: top-level nodes are requests, their children the parts
        for (qsizetype i = 0; i < result.harEntries.size() && size_t(i) < report.parts.size(); ++i) {
            const core::PartSummary& request = report.parts[size_t(i)];
            const QByteArray& body = result.harEntries[i].body;
            if (&request == &part) {
                if (body.isEmpty()) {
                    where.missing = QObject::tr("this request has no body");
                    return where;
                }
                return inMemory(body, 0, part.size, false);
            }
            if (holds(request, part)) // child offsets count from the start of their request's body
                return inMemory(body, part.bodyOffset, part.size, false);
        }
        where.missing = QObject::tr("this part is not in the HAR file's requests");
        return where;
    }
    if (!result.bodyFile.isEmpty() && result.bodyFileOffset >= 0) {
        where.file = result.bodyFile;
        where.owner = result.bodyFileOwner;
        where.fileOffset = result.bodyFileOffset + qint64(part.bodyOffset);
        where.available = part.size;
        return where;
    }
    if (!result.bodyFile.isEmpty()) {
        where.missing = result.unmappedReason.isEmpty()
                            ? QObject::tr("this body was sent chunked, so part offsets do not map to the file")
                            : result.unmappedReason;
        return where;
    }
    if (result.capture)
        return fromCapture(result, report, part);
    where.missing = QObject::tr("no bytes were kept for this part");
    return where;
}

PartBytes locateRequest(const InspectResult& result)
{
    PartBytes where;
    if (result.request.isEmpty()) {
        where.missing = QObject::tr("this source holds a body only, no request");
        return where;
    }
    if (!result.capture) { // a whole HTTP request in a file
        where.file = result.path;
        where.available = quint64(std::max<qint64>(0, result.sourceSize));
        return where;
    }
    const bool hasHead = result.headKept;
    if (!hasHead && result.storedBodySize < 0) {
        where.missing =
            result.capture->forward
                ? QObject::tr("a forwarded exchange keeps the request's fields (in Headers), not its bytes: tick "
                              "Keep whole requests in the Forward row (forward --keep-raw) to keep them")
                : QObject::tr("%1 keeps the request's fields (in Headers), not its bytes: /capture, or listen "
                              "--keep-raw, keeps the whole request")
                      .arg(result.capture->endpoint);
        return where;
    }
    // Without head.raw (a capture stored by an earlier version, which kept body.raw only) the body is all there is.
    where.before = result.storedHead;
    if (result.storedBodySize >= 0)
        where.file = QDir(result.partsFolder).filePath(QStringLiteral("body.raw"));
    const qint64 bodySize = std::max<qint64>(0, result.storedBodySize);
    // body.raw holds the body de-chunked; after a head that says chunked, it goes as one chunk, so that the
    // request saved from here is a valid request again (the original chunk sizes were not kept).
    if (hasHead && result.request.framing == QLatin1String("chunked")) {
        if (bodySize > 0)
            where.before += QByteArray::number(bodySize, 16) + "\r\n";
        where.after = bodySize > 0 ? QByteArray("\r\n0\r\n\r\n") : QByteArray("0\r\n\r\n");
    }
    where.available = quint64(where.before.size()) + quint64(bodySize) + quint64(where.after.size());
    return where;
}

QByteArray readPartBytes(const PartBytes& where, quint64 offset, qint64 length)
{
    if (!where.missing.isEmpty() || offset >= where.available)
        return {};
    const quint64 end = offset + std::min<quint64>(quint64(length), where.available - offset);
    if (where.inMemory)
        return where.memory.mid(qsizetype(offset), qsizetype(end - offset));
    // before, then the file's range, then after: each piece the window [offset, end) overlaps.
    const quint64 fileStart = quint64(where.before.size());
    const quint64 fileEnd = where.available - quint64(where.after.size());
    QByteArray out;
    if (offset < fileStart)
        out += where.before.mid(qsizetype(offset), qsizetype(std::min(end, fileStart) - offset));
    if (end > fileStart && offset < fileEnd) {
        const quint64 from = std::max(offset, fileStart) - fileStart;
        QFile file(where.file);
        if (!file.open(QIODevice::ReadOnly) || !file.seek(where.fileOffset + qint64(from)))
            return out;
        // Only what is shown: a multi-GB part is never read whole.
        out += file.read(qint64(std::min(end, fileEnd) - fileStart - from));
    }
    if (end > fileEnd)
        out +=
            where.after.mid(qsizetype(std::max(offset, fileEnd) - fileEnd), qsizetype(end - std::max(offset, fileEnd)));
    return out;
}

namespace {
// Hands the part's available bytes to sink in pieces of at most 1 MiB (before, the file's range, after); false
// with *error set when the file cannot be read or sink says stop (sink sets *error itself).
bool forEachPiece(const PartBytes& where, const std::function<bool(const char*, qint64)>& sink, QString* error)
{
    if (where.inMemory)
        return sink(where.memory.constData(), where.memory.size());
    if (!sink(where.before.constData(), where.before.size()))
        return false;
    const quint64 fileBytes = where.available - quint64(where.before.size() + where.after.size());
    if (fileBytes > 0) {
        QFile in(where.file);
        if (!in.open(QIODevice::ReadOnly) || !in.seek(where.fileOffset)) {
            *error = QObject::tr("cannot read %1: %2").arg(where.file, in.errorString());
            return false;
        }
        std::vector<char> buffer(static_cast<size_t>(kCopyPiece));
        for (quint64 done = 0; done < fileBytes;) {
            const qint64 got = in.read(buffer.data(), qint64(std::min<quint64>(quint64(kCopyPiece), fileBytes - done)));
            if (got <= 0) {
                *error = QObject::tr("%1 ended %2 bytes early").arg(where.file).arg(fileBytes - done);
                return false;
            }
            if (!sink(buffer.data(), got))
                return false;
            done += quint64(got);
        }
    }
    return sink(where.after.constData(), where.after.size());
}
} // namespace

QString decodingError(const core::Error& error, core::PartEncoding encoding)
{
    return QObject::tr("the part's %1 is invalid at byte %2 of its body: %3; the bytes decoded before it were kept")
        .arg(QString::fromLatin1(core::partEncodingName(encoding)))
        .arg(error.offset)
        .arg(toQString(core::describe(error.code)));
}

bool copyPartBytes(const PartBytes& where, const QString& target, QString* error, core::PartEncoding encoding)
{
    if (!where.missing.isEmpty()) {
        *error = where.missing;
        return false;
    }
    QFile out;
    const bool toStdout = target == QLatin1String("-");
    if (toStdout ? !out.open(stdout, QIODevice::WriteOnly)
                 : (out.setFileName(target), !out.open(QIODevice::WriteOnly))) {
        *error = QObject::tr("cannot write %1: %2").arg(target, out.errorString());
        return false;
    }
    auto write = [&](const char* data, qint64 size) {
        if (out.write(data, size) == size)
            return true;
        *error = QObject::tr("writing %1 failed: %2").arg(target, out.errorString());
        return false;
    };
    core::PartDecoder decoder(encoding);
    std::string decoded;
    auto decodeAndWrite = [&](const char* data, qint64 size) {
        decoded.clear();
        const auto ok = decoder.feed(core::ByteView(data, size_t(size)), decoded);
        if (!write(decoded.data(), qint64(decoded.size())))
            return false;
        if (!ok)
            *error = decodingError(ok.error(), encoding);
        return bool(ok);
    };
    if (!forEachPiece(where, decodeAndWrite, error))
        return out.flush(), false;
    decoded.clear();
    const auto finished = decoder.finish(decoded);
    if (!write(decoded.data(), qint64(decoded.size())))
        return false;
    if (!finished) {
        *error = decodingError(finished.error(), encoding);
        return out.flush(), false;
    }
    return out.flush();
}

const core::PartSummary* partHolding(const std::vector<core::PartSummary>& parts, quint64 offset, bool withHeaders)
{
    for (const auto& part : parts)
        if (offset >= (withHeaders ? part.offset : part.bodyOffset) && offset <= part.bodyOffset + part.size) {
            const core::PartSummary* inner = partHolding(part.children, offset, withHeaders);
            return inner ? inner : &part;
        }
    return nullptr;
}

} // namespace upin::app
