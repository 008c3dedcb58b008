#pragma once
// What the probe's runner (probe_runner.cpp) and its plan of steps (probe_steps.cpp) both ask of an upload: how
// many bytes a plan sends (for the budget), and whether a run failed and why. Internal to the probe.

#include "sender/run_types.h"
#include "sender/upload_plan.h"

#include <QRegularExpression>

namespace upin::app::probe_uploads {

inline quint64 planBytes(const UploadPlan& plan)
{
    quint64 bytes = 0;
    for (const PlanPart& part : plan.parts)
        bytes += (part.kind == PlanPart::Kind::Synthetic ? part.size : quint64(part.value.size())) + 160;
    return bytes * quint64(plan.targets.size());
}

// A 301 or 302 after the whole body was read: how a form's POST is answered (Post/Redirect/Get, Flask's
// redirect(), Rails' redirect_to), an upload taken. The warm-up stops a probe whose redirect leads to a login page.
inline bool redirectedAfterUpload(const RunResult& r)
{
    return r.error.isEmpty() && !r.cancelled && (r.httpStatus == 301 || r.httpStatus == 302) && r.bodySent() &&
           !r.answeredEarly;
}

// Not taken: no 2xx, 303 or redirect after the body, or the body not all sent.
inline bool failed(const RunResult& r)
{
    return !(r.accepted() || redirectedAfterUpload(r)) || !r.bodySent();
}

// Where a redirect sends the client ("/done"); empty when the answer has no Location.
inline QString location(const RunResult& r)
{
    for (const auto& [name, value] : r.responseHeaders)
        if (name.compare("location", Qt::CaseInsensitive) == 0)
            return QString::fromLatin1(value);
    return {};
}

// Why a run failed: the transport's error, or the status line with the start of what the server said in its body
// (tags and runs of white space taken out: a framework's HTML error page reads as its words).
inline QString failure(const RunResult& r)
{
    if (!r.error.isEmpty())
        return r.error;
    if (r.statusLine.isEmpty())
        return QStringLiteral("no answer");
    // Whether the answer came before the body's end is a matter of timing (a 413 of a 1.8 MiB form may come after
    // it): said, and the server's words with it either way.
    QString status =
        r.answeredEarly || !r.bodySent()
            ? QStringLiteral("the server answered %1 before it had the whole body").arg(QString::fromUtf8(r.statusLine))
            : QString::fromUtf8(r.statusLine);
    if (r.httpStatus < 400) // a redirect, or a status no upload is taken with
        return status;
    static const QRegularExpression tags(QStringLiteral("<[^>]*>")), space(QStringLiteral("\\s+"));
    QString words = QString::fromUtf8(r.response.left(4096)).remove(tags).replace(space, QStringLiteral(" ")).trimmed();
    if (words.size() > 160)
        words = words.left(160) + QStringLiteral("…");
    return status + (words.isEmpty() ? QString() : QStringLiteral(": ") + words);
}

} // namespace upin::app::probe_uploads
