#include "models/capture_list_model.h"
#include "common/byte_size.h"
#include "common/qt_text.h"
#include "status_colors.h"
#include "views/plain_tip.h"

#include "capture/outcome.h"
#include "upin/core/delimiter_matcher.h"

#include <QBrush>
#include <QColor>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace upin::ui {

int CaptureListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}
int CaptureListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CaptureListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static const char* names[] = {"Time",  "Client",   "Method", "Endpoint", "Status", "Size",
                                  "Parts", "Duration", "MB/s",   "Upstream", "State"};
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 && section < ColumnCount)
        return tr(names[section]);
    return {};
}

namespace {
// "this listener is not x" of "this listener is not x: call it by its address or localhost, or start it with …".
QString firstClause(const QString& detail)
{
    qsizetype end = detail.size();
    for (const QLatin1String separator : {QLatin1String(": "), QLatin1String("; ")})
        if (const qsizetype at = detail.indexOf(separator); at > 0)
            end = std::min(end, at);
    return detail.left(end).trimmed();
}

// A state without its asides, "(a part without a filename)", "(raise “Max field size” in Listen › Settings)", for
// the list's column, whose tooltip has them: at 1280 px they cut the state mid-word. "(byte N)" and "(of 2.00 GiB)" stay.
QString withoutAsides(const QString& state)
{
    static const QRegularExpression aside(QStringLiteral(" \\((?!byte |of )[^()]*\\)"));
    return QString(state).remove(aside);
}

bool isDefaultMatcher(const QString& name)
{
    static const QString defaultName = app::toQString(core::matcherName(core::kDefaultMatcher)); // asked per paint
    return name == defaultName;
}
} // namespace

// The list's data, one function per role: what each column says, its colour, its tooltip.
QVariant CaptureListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row& r = m_rows[index.row()];
    const int column = index.column();
    const bool figure = column == Size || column == Parts || column == Duration || column == Rate;
    switch (role) {
    case Qt::DisplayRole: return displayText(r, column);
    case Qt::TextAlignmentRole: return figure ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case Qt::ForegroundRole: return colour(r, column);
    case Qt::ToolTipRole: return toolTip(r, column);
    default: return {};
    }
}

// A table of columns: one case each.
QVariant CaptureListModel::displayText(const Row& r, int column) const
{
    const bool refused = r.state == app::CaptureState::Refused;
    // A refused request took no body: its size, parts, time and rate are not zeros but absent.
    if (refused && (column == Size || column == Parts || column == Duration || column == Rate))
        return QString();
    switch (column) {
    case Time: // a capture from another day says which
        return r.receivedHere().toString(r.receivedHere().date() == QDate::currentDate()
                                             ? QStringLiteral("HH:mm:ss")
                                             : QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    case Client: {
        return r.tls.isEmpty() ? r.client : QStringLiteral("%1 (%2)").arg(r.client, r.tls);
    }
    case Method: return r.method;
    case Status: return r.status() > 0 ? QString::number(r.status()) : QString();
    case Endpoint:
        // A refusal's label is its request line's method and target: the method has a column of its own.
        if (refused && !r.method.isEmpty() && r.endpoint.startsWith(r.method + QLatin1Char(' ')))
            return r.endpoint.mid(r.method.size() + 1);
        // The matcher only where the client chose another than the default: "(simd)" on every row cut the
        // URLs of forwarded ones at 1280 px. The tooltip names it on every row.
        return r.endpoint + (r.matcher == QLatin1String("none") || isDefaultMatcher(r.matcher)
                                 ? QString()
                                 : QStringLiteral(" (%1)").arg(r.matcher));
    case Size: return app::formatBytes(r.bytes);
    case Parts: return r.parts;
    case Duration: return app::formatSeconds(double(r.elapsedMs) / 1000.0);
    case Rate: {
        // Two significant digits below 1 MB/s: a 24-byte body read "0.0".
        const double rate = r.elapsedMs > 0 ? double(r.bytes) / 1000.0 / double(r.elapsedMs) : -1;
        return rate < 0 ? QStringLiteral("-") : QString::number(rate, rate < 1 ? 'g' : 'f', rate < 1 ? 2 : 1);
    }
    case Upstream: return upstreamText(r); // forward mode: "200, server 612 ms"
    case State: return stateText(r);
    }
    return {};
}

QString CaptureListModel::upstreamText(const Row& r) const
{
    // The far side of an exchange a relay of this window passed to its listener: said in this column, empty
    // for the listener's rows, not beside the client, which it widened past the list's width.
    if (!r.forward)
        return m_forwardedAs.contains(r.id) ? tr("via %1").arg(relayName(m_forwardedAs.value(r.id))) : QString();
    const auto& f = *r.forward;
    if (f.status == 0)
        return app::noAnswerInWords(f.faultStatus, f.faultError);
    // Its status is the Status column's.
    if (f.earlyAtByte >= 0)
        return tr("early, at byte %1").arg(f.earlyAtByte);
    const QString answered =
        f.serverMs >= 0 ? tr("server %1").arg(app::formatSeconds(f.serverMs / 1000.0)) : tr("answered");
    // Its far side listed here too: an upload forwarded to this window's own listener.
    return f.upstreamCaptureId != 0 && indexOf(f.upstreamCaptureId) >= 0 ? tr("%1, received here as well").arg(answered)
                                                                         : answered;
}

QString CaptureListModel::stateText(const Row& r) const
{
    const bool refused = r.state == app::CaptureState::Refused;
    // "refused 405: use POST", "refused 400: ... (byte 18)" where a byte is the cause; the answer's first
    // clause, the whole of it in the tooltip and the refused request's view.
    if (refused)
        return tr("refused %1: %2").arg(r.answerStatus).arg(firstClause(r.errorDetail)) +
               (r.error && r.error->offset > 0 ? tr(" (byte %1)").arg(r.error->offset) : QString());
    // An upload the server refused or never answered says so, not "complete".
    if (QString failed =
            r.forward ? app::serverFailedInWords(r.forward->status, r.forward->faultStatus, r.state) : QString();
        !failed.isEmpty())
        return failed;
    // The cause first, in words, with the byte offset: "incomplete: the client closed the connection
    // after 1.3 GiB of the body (byte …)", "rejected: the body has no delimiter line … (byte 3)".
    const QString outcome = withoutAsides(outcomeInFull(r));
    return r.state == app::CaptureState::Complete && r.diagnostics > 0
               ? (r.diagnostics == 1 ? tr("%1, 1 diagnostic (Inspect shows it)").arg(outcome)
                                     : tr("%1, %2 diagnostics (Inspect shows them)").arg(outcome).arg(r.diagnostics))
               : outcome;
}

QVariant CaptureListModel::colour(const Row& r, int column)
{
    // An upstream that refused the upload failed it, whatever the relay's own state (a 404 answered early left
    // the body incomplete: red, not amber), and its answer says so too; so did one never reached or that never
    // answered (we answered 502 or 504 for it), which is no fault of the client's.
    const bool upstreamRefused =
        r.forward && (r.forward->status >= 400 || (r.forward->status == 0 && r.forward->faultStatus >= 500));
    if (column == Status && r.status() > 0)
        return QBrush(status::forHttpStatus(r.status()));
    if (column == Method)
        return QBrush(status::forMethod(r.method));
    if (column == Upstream && upstreamRefused)
        return QBrush(status::failure());
    if (column == State) {
        if (upstreamRefused)
            return QBrush(status::failure());
        switch (r.state) {
        case app::CaptureState::Receiving: return QBrush(status::active());
        case app::CaptureState::Complete: // amber with remarks: whole, but not as the RFC has it
            return QBrush(r.diagnostics > 0 ? status::warning() : status::success());
        case app::CaptureState::Incomplete: return QBrush(status::warning());
        case app::CaptureState::Rejected:
        case app::CaptureState::Refused:
        case app::CaptureState::Failed: return QBrush(status::failure());
        }
    }
    return {};
}

QString CaptureListModel::toolTip(const Row& r, int column) const
{
    QString tip = r.state == app::CaptureState::Refused ? tr("refused before its body: no parts, nothing stored")
                  : r.folder.isEmpty()                  ? QStringLiteral("not stored (this endpoint keeps no files)")
                                                        : r.folder;
    if (r.error)
        tip +=
            QStringLiteral("\n%1 at byte %2").arg(app::toQString(core::codeName(r.error->code))).arg(r.error->offset);
    if (!r.errorDetail.isEmpty())
        tip += QStringLiteral("\n%1").arg(r.errorDetail);
    if (r.forward && r.forward->upstreamCaptureId != 0 && indexOf(r.forward->upstreamCaptureId) >= 0)
        tip += tr("\nOne exchange, listed twice: this row is what %1 passed on, and this window's listener "
                  "listed what it received as capture %2")
                   .arg(relayName(r.id))
                   .arg(r.forward->upstreamCaptureId);
    else if (m_forwardedAs.contains(r.id))
        tip += tr("\nOne exchange, listed twice: this row is what this window's listener received from %1, "
                  "whose row is capture %2")
                   .arg(relayName(m_forwardedAs.value(r.id)))
                   .arg(m_forwardedAs.value(r.id));
    if (column == Endpoint && !r.matcher.isEmpty() && r.matcher != QLatin1String("none"))
        tip = tr("parsed with the %1 matcher%2\n")
                  .arg(r.matcher, isDefaultMatcher(r.matcher) ? tr(" (the default; ?matcher=kmp or chunked "
                                                                   "picks another)")
                                                              : QString()) +
              tip;
    // The columns that may be cut to their width say their whole text first; State with its asides.
    const QString shown = displayText(r, column).toString();
    if (column == State && withoutAsides(outcomeInFull(r)) == shown)
        tip = outcomeInFull(r) + QLatin1Char('\n') + tip;
    else if (column == Endpoint || column == Upstream || column == State)
        tip = shown + QLatin1Char('\n') + tip;
    return plainTip(tip); // a client's Host, Origin, path or reason, shown as the text it is
}

QString CaptureListModel::outcomeInFull(const Row& r)
{
    return app::outcomeInWords(r.state, r.error, r.errorDetail, app::LimitHint::ListenSettings);
}

const CaptureListModel::Row* CaptureListModel::find(quint64 id) const
{
    const int i = id == 0 ? -1 : indexOf(id);
    return i >= 0 ? &m_rows[i] : nullptr;
}

int CaptureListModel::indexOf(quint64 id) const
{
    for (int i = int(m_rows.size()) - 1; i >= 0; --i)
        if (m_rows[i].id == id)
            return i;
    return -1;
}

void CaptureListModel::removeFinished(int index)
{
    if (index < 0 || index >= m_rows.size() || m_rows[index].state == app::CaptureState::Receiving)
        return;
    beginRemoveRows({}, index, index);
    m_rows.removeAt(index);
    endRemoveRows();
}

void CaptureListModel::clearFinished()
{
    for (int i = int(m_rows.size()) - 1; i >= 0; --i)
        removeFinished(i);
}

CaptureListModel::Row CaptureListModel::rowOf(const app::CaptureSummary& capture)
{
    Row row;
    static_cast<app::CaptureSummary&>(row) = capture;
    row.endpoint = app::printable(capture.endpoint);       // a client's path: no mark reorders it
    row.errorDetail = app::printable(capture.errorDetail); // may quote a Host or an Origin
    return row;
}

void CaptureListModel::addStored(const QList<app::CaptureSummary>& stored)
{
    QList<Row> rows;
    for (const auto& c : stored) {
        if (indexOf(c.id) >= 0)
            continue;
        Row row = rowOf(c);
        addLegs(row);
        rows.append(row);
    }
    for (const Row& row : rows)
        pair(row);
    if (rows.isEmpty())
        return;
    beginInsertRows({}, 0, int(rows.size()) - 1);
    m_rows = rows + m_rows;
    endInsertRows();
}

void CaptureListModel::apply(const QList<app::CaptureEvent>& batch)
{
    for (const auto& e : batch) {
        if (e.kind == app::CaptureEvent::Kind::TlsHandshakeFailed)
            continue; // not a capture: the Listen tab's status counts them
        int i = indexOf(e.capture.id);
        if (i < 0) {
            beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
            m_rows.append(rowOf(e.capture));
            endInsertRows();
            i = int(m_rows.size()) - 1;
        }
        Row& row = m_rows[i];
        row.samples += e.samples;
        if (e.kind == app::CaptureEvent::Kind::CaptureFinished) {
            const Row finished = rowOf(e.capture);
            static_cast<app::CaptureSummary&>(row) = finished;
            row.record = e.record;
            addLegs(row);
            pair(row);
        } else {
            update(row, e);
        }
        emit dataChanged(index(i, 0), index(i, ColumnCount - 1));
    }
}

void CaptureListModel::update(Row& row, const app::CaptureEvent& e)
{
    const app::CaptureSummary& c = e.capture;
    row.bytes = c.bytes;
    // Events of one capture come from two threads (progress from the reading one, parts from the hashing one):
    // the time shown only moves on, until the capture's own final figure.
    row.elapsedMs = std::max(row.elapsedMs, c.elapsedMs);
    row.folder = c.folder;
    row.parts = std::max(row.parts, c.parts); // Progress: parts begun, shown or not
    if (e.kind == app::CaptureEvent::Kind::PartStarted) {
        row.parts = std::max(row.parts, int(e.part.index) + 1);
        QString label = QStringLiteral("%1 %2").arg(e.part.index).arg(QString::fromStdString(e.part.name.value_or("")));
        if (e.part.filename)
            label += QStringLiteral(" (%1)").arg(QString::fromStdString(*e.part.filename));
        row.partSpans.append({app::printable(label), e.partBeganMs >= 0 ? e.partBeganMs : c.elapsedMs, -1});
    }
    if (e.kind == app::CaptureEvent::Kind::PartFinished && !row.partSpans.isEmpty())
        row.partSpans.last().endMs = c.elapsedMs;
}

QString CaptureListModel::relayName(quint64 relayedId) const
{
    const int relayed = indexOf(relayedId);
    return relayed >= 0 && m_rows[relayed].endpoint.startsWith(QStringLiteral("proxy →")) ? tr("the proxy")
                                                                                          : tr("the forwarder");
}

void CaptureListModel::pair(const Row& forwarded)
{
    if (!forwarded.forward || forwarded.forward->upstreamCaptureId == 0)
        return;
    m_forwardedAs.insert(forwarded.forward->upstreamCaptureId, forwarded.id);
    if (const int far = indexOf(forwarded.forward->upstreamCaptureId); far >= 0)
        emit dataChanged(index(far, 0), index(far, ColumnCount - 1));
}

void CaptureListModel::addLegs(Row& row)
{
    if (!row.forward)
        return;
    const auto& f = *row.forward;
    using Kind = Row::PartSpan::Kind;
    auto ms = [](double at) { return qint64(std::llround(at)); };
    if (f.clientLastByte >= 0)
        row.partSpans.append({tr("client → here"), 0, ms(f.clientLastByte), Kind::Transfer});
    if (f.upstreamTookLastByte >= 0)
        row.partSpans.append({tr("here → upstream"), 0, ms(f.upstreamTookLastByte), Kind::Transfer});
    if (f.serverMs >= 0)
        row.partSpans.append({tr("server %1").arg(app::formatSeconds(f.serverMs / 1000.0)), ms(f.upstreamTookLastByte),
                              ms(f.firstAnswerByte), Kind::Server});
    else if (f.firstAnswerByte >= 0) // an early answer: when it came
        row.partSpans.append({tr("answer (early)"), ms(f.firstAnswerByte), ms(f.firstAnswerByte), Kind::Server});
}

} // namespace upin::ui
