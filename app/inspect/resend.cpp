#include "inspect/resend.h"

#include "capture/capture_store.h"
#include "capture/kept_part.h"
#include "common/qt_text.h"
#include "common/upin_headers.h"
#include "inspect/har.h"
#include "inspect/part_bytes.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace upin::app {

namespace {
constexpr quint64 kInlineCurlValue = quint64{64} * 1024;
} // namespace

namespace {
// A base (http://host:port) or a whole URL, as resendPlanFor reads `to`.
QString baseFor(const InspectResult& source, const QString& to, const QString& fallback)
{
    const QString capturedHost = source.request.host;
    return !to.isEmpty() ? to : capturedHost.isEmpty() ? fallback : QStringLiteral("http://") + capturedHost;
}

// Why a captured part's headers cannot go into a command that sends it again (a client chose them): its
// Content-Transfer-Encoding (sent with it, its bytes still encoded) must be a token, its Content-Type free of what
// curl's -F reads as its own options. Empty when they can.
QString whyHeadersCannotBeSent(const core::PartSummary& part, const QString& label)
{
    const QString encoding = part.transferEncoding ? QString::fromStdString(*part.transferEncoding) : QString();
    if (!encoding.isEmpty() && !isHttpToken(encoding))
        return QObject::tr("%1's Content-Transfer-Encoding '%2' is not a token a command can carry")
            .arg(label, encoding);
    const QString problem = contentTypeProblem(QString::fromStdString(part.contentType.value_or("")));
    return problem.isEmpty() ? QString() : QObject::tr("%1: %2").arg(label, problem);
}
} // namespace

std::optional<UploadPlan> resendPlan(const InspectResult& source, const QString& base, QString* why)
{
    if (!source.capture || source.capture->report.parts.empty()) {
        *why =
            !source.capture ? QObject::tr("only captures can be sent again") : QObject::tr("this capture has no parts");
        return std::nullopt;
    }
    const CaptureRecord& capture = *source.capture;
    UploadPlan plan;
    plan.targets = {QUrl(base + capture.request.target)};
    for (const core::PartSummary& part : capture.report.parts) {
        const QString name = part.name ? QString::fromStdString(*part.name) : QString();
        const QString label = QObject::tr("part %1 ('%2')").arg(part.index).arg(name);
        const KeptPart kept = part.index < uint32_t(capture.kept.size()) ? capture.kept[part.index] : KeptPart{};
        PlanPart p;
        p.name = name;
        p.contentType = part.contentType ? QString::fromStdString(*part.contentType) : QString();
        p.filename = part.filename ? QString::fromStdString(*part.filename) : QString();
        if (const QString problem = whyHeadersCannotBeSent(part, label); !problem.isEmpty()) {
            *why = problem;
            return std::nullopt;
        }
        p.transferEncoding = QString::fromStdString(part.transferEncoding.value_or(""));
        const QString saved = QDir(source.partsFolder).filePath(kept.savedAs);
        const auto fieldValue = kept.valueBytes(part.contentType);
        if (!part.complete) {
            *why = QObject::tr("%1 did not arrive whole").arg(label);
            return std::nullopt;
        }
        if (!kept.savedAs.isEmpty() && quint64(QFileInfo(saved).size()) == part.size) {
            p.kind = part.filename ? PlanPart::Kind::File : PlanPart::Kind::FieldFile;
            p.path = saved;
        } else if (fieldValue && !kept.valueTruncated && !kept.valueBase64 && !fieldValue->contains('\0') &&
                   kept.value->toUtf8() == *fieldValue) {
            p.kind = PlanPart::Kind::Field; // a command line carries its bytes exactly: UTF-8 text without NUL
            p.value = *kept.value;
        } else {
            *why = fieldValue ? QObject::tr("%1 holds bytes that are not UTF-8 text, which a command line cannot "
                                            "carry exactly (Save part writes them)")
                                    .arg(label)
                              : QObject::tr("%1 was not kept (%2 stores no part bytes)").arg(label, capture.endpoint);
            return std::nullopt;
        }
        plan.parts.append(p);
    }
    return plan;
}

bool partsOnlyInBody(const InspectResult& source)
{
    if (!source.capture || source.bodyFile.isEmpty() || source.bodyFileOffset < 0)
        return false;
    return std::any_of(source.capture->kept.cbegin(), source.capture->kept.cend(), [](const KeptPart& kept) {
        return kept.savedAs.isEmpty() && (!kept.value || kept.valueTruncated);
    });
}

QString defaultPartsDir(const InspectResult& source, int harEntry)
{
    // Inside a capture folder, where retention deletes them with it; beside it they would look like a capture.
    if (source.capture)
        return QDir(source.path).filePath(QStringLiteral("parts"));
    // A HAR file's requests each get a folder: their parts are numbered alike, and one must not replace another's.
    if (!source.harEntries.isEmpty())
        return QStringLiteral("%1.parts/request%2")
            .arg(source.path)
            .arg(harEntry >= 0 ? harEntry : firstUpload(source.harEntries));
    return source.path + QStringLiteral(".parts");
}

std::optional<UploadPlan> resendPlanFor(const InspectResult& source, const QString& to, const QString& partsDir,
                                        QString* why, const QString& fallback, int harEntry)
{
    const QString base = baseFor(source, to, fallback);
    const QUrl url(base);
    const bool wholeUrl = url.path().length() > 1;
    if (source.capture && !partsOnlyInBody(source)) {
        auto plan = resendPlan(source, wholeUrl ? QString() : base.chopped(base.endsWith('/') ? 1 : 0), why);
        if (plan && wholeUrl)
            plan->targets = {url};
        return plan;
    }
    // A whole request goes to its own path (not its Host: that may be a real server); a body to /file-part.
    const int entry = harEntry >= 0 ? harEntry : firstUpload(source.harEntries);
    const QUrl entryUrl = entry >= 0 && entry < source.harEntries.size() ? QUrl(source.harEntries[entry].url) : QUrl();
    const QString ownPath =
        entryUrl.isEmpty()
            ? source.request.target
            : entryUrl.path(QUrl::FullyEncoded) +
                  (entryUrl.hasQuery() ? QLatin1Char('?') + entryUrl.query(QUrl::FullyEncoded) : QString());
    const QString path = ownPath.startsWith(QLatin1Char('/')) ? ownPath : QStringLiteral("/file-part");
    return resendPlanFromParts(source, wholeUrl ? url : QUrl(base.chopped(base.endsWith('/') ? 1 : 0) + path),
                               partsDir.isEmpty() ? defaultPartsDir(source, harEntry) : partsDir, why, harEntry);
}

std::optional<UploadPlan> resendAsCaptured(const InspectResult& source, const QString& to, QString* why,
                                           const QString& fallback, int harEntry)
{
    std::optional<UploadPlan> plan = resendPlanFor(source, to, {}, why, fallback, harEntry);
    if (!plan)
        return plan;
    const int entry = harEntry >= 0 ? harEntry : firstUpload(source.harEntries);
    const HarEntry* har = entry >= 0 && entry < source.harEntries.size() ? &source.harEntries[entry] : nullptr;
    const QString method = har ? har->method : source.request.method;
    if (isUploadMethod(method.toUpper()))
        plan->method = method.toUpper();
    const HeaderList headers = har ? har->requestHeaders : source.request.headers.value_or(HeaderList{});
    // Not the probe's marker either: a resent probe upload is the user's, and the list would hide it.
    for (const auto& [name, value] : headers)
        if (headerProblem(name, value).isEmpty() && name.compare(QLatin1String(kProbeHeader), Qt::CaseInsensitive) != 0)
            plan->headers.append(PlanHeader{name, value});
    return plan;
}

const std::vector<core::PartSummary>& numberedParts(const InspectResult& source, int harEntry)
{
    static const std::vector<core::PartSummary> none;
    if (source.harEntries.isEmpty())
        return source.report.parts;
    const int upload = harEntry >= 0 ? harEntry : firstUpload(source.harEntries);
    return upload >= 0 && size_t(upload) < source.report.parts.size() ? source.report.parts[size_t(upload)].children
                                                                      : none;
}

QString whyPartsCannotBeResent(const InspectResult& source, int harEntry)
{
    const auto& parts = numberedParts(source, harEntry);
    if (parts.empty())
        return source.report.error ? QObject::tr("the source has no parts: %1 (byte %2)")
                                         .arg(toQString(core::describe(source.report.error->code)))
                                         .arg(source.report.error->offset)
                                   : QObject::tr("the source has no parts");
    for (const auto& part : parts) {
        const PartBytes where = locatePart(source, part);
        const QString label = QObject::tr("part %1 ('%2')").arg(part.index).arg(toQString(part.name.value_or("")));
        if (!where.missing.isEmpty())
            return QObject::tr("%1: %2").arg(label, where.missing);
        if (!part.complete || where.available < part.size)
            return QObject::tr("%1 did not arrive whole").arg(label);
    }
    return {};
}

std::optional<UploadPlan> resendPlanFromParts(const InspectResult& source, const QUrl& target, const QString& partsDir,
                                              QString* why, int harEntry)
{
    // Every part is checked before any is written: a part that cannot be sent leaves no files behind.
    *why = whyPartsCannotBeResent(source, harEntry);
    if (!why->isEmpty())
        return std::nullopt;
    const auto& parts = numberedParts(source, harEntry);
    if (!QDir().mkpath(partsDir)) {
        *why = QObject::tr("cannot create %1").arg(partsDir);
        return std::nullopt;
    }
    UploadPlan plan;
    plan.targets = {target};
    for (const auto& part : parts) {
        const QString label = QObject::tr("part %1 ('%2')").arg(part.index).arg(toQString(part.name.value_or("")));
        const PartBytes where = locatePart(source, part);
        PlanPart p;
        p.name = toQString(part.name.value_or(""));
        p.contentType = toQString(part.contentType.value_or(""));
        if (const QString problem = whyHeadersCannotBeSent(part, label); !problem.isEmpty()) {
            *why = problem;
            return std::nullopt;
        }
        p.transferEncoding = QString::fromStdString(part.transferEncoding.value_or(""));
        if (!part.filename && part.size <= kInlineCurlValue) {
            const QByteArray bytes = readPartBytes(where, 0, qint64(part.size));
            const QString text = QString::fromUtf8(bytes);
            if (!bytes.contains('\0') && text.toUtf8() == bytes) { // a command line carries it exactly
                p.kind = PlanPart::Kind::Field;
                p.value = text;
                plan.parts.append(p);
                continue;
            }
        }
        p.kind = part.filename ? PlanPart::Kind::File : PlanPart::Kind::FieldFile;
        p.filename = toQString(part.filename.value_or(""));
        p.path = QDir(partsDir).absoluteFilePath(CaptureStore::safePartFileName(part.index, part.filename, part.name));
        QString error;
        if (!copyPartBytes(where, p.path, &error)) {
            *why = QObject::tr("%1: %2").arg(label, error);
            return std::nullopt;
        }
        plan.parts.append(p);
    }
    return plan;
}

std::optional<QString> resendCommandFor(const InspectResult& source, const QString& to, const QString& partsDir,
                                        QString* why, const QString& fallback, int harEntry)
{
    if (!partsOnlyInBody(source)) {
        const auto plan = resendPlanFor(source, to, partsDir, why, fallback, harEntry);
        return plan ? std::optional<QString>(plan->toCurl()) : std::nullopt;
    }
    const CaptureRecord& capture = *source.capture;
    const QString base = baseFor(source, to, fallback);
    const QUrl url(base);
    const QString target =
        url.path().length() > 1 ? base : base.chopped(base.endsWith(QLatin1Char('/')) ? 1 : 0) + capture.request.target;
    const QString method = capture.request.method.isEmpty() ? QStringLiteral("POST") : capture.request.method;
    return QStringLiteral("curl -X %1 --data-binary @%2 -H %3 -H 'Expect:' %4")
        .arg(method, shellQuote(source.bodyFile),
             shellQuote(QStringLiteral("Content-Type: ") + capture.request.contentType), shellQuote(target));
}

QString whyCaptureCannotBeResent(const InspectResult& source)
{
    if (!source.capture || source.capture->report.parts.empty())
        return source.capture ? QObject::tr("this capture has no parts") : QObject::tr("only captures are asked");
    const CaptureRecord& capture = *source.capture;
    for (const core::PartSummary& part : capture.report.parts) {
        const QString label = QObject::tr("part %1 ('%2')").arg(part.index).arg(toQString(part.name.value_or("")));
        if (!part.complete)
            return QObject::tr("%1 did not arrive whole").arg(label);
        const KeptPart kept = part.index < uint32_t(capture.kept.size()) ? capture.kept[part.index] : KeptPart{};
        if (kept.savedAs.isEmpty() && !kept.value && !partsOnlyInBody(source))
            return QObject::tr("%1 was not kept (%2 stores no part bytes)").arg(label, capture.endpoint);
    }
    return {};
}

} // namespace upin::app
