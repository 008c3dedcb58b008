#include "models/part_tree_model.h"
#include "common/byte_size.h"
#include "common/qt_text.h"
#include "status_colors.h"
#include "views/plain_tip.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace upin::ui {

namespace {
QString text(const std::optional<std::string>& value)
{
    return value ? QString::fromStdString(*value) : QString();
}

// Twelve hex digits tell a part from any other of a session (git's short commits are seven); xxh3's 16 stay whole.
constexpr int kShortDigest = 12;

QString shortDigest(const std::string& digest)
{
    return QString::fromStdString(digest.size() <= 16 ? digest : digest.substr(0, kShortDigest));
}
} // namespace

void PartTreeModel::setReport(core::ParseReport report, app::RequestRecord request, bool requestsOnTop)
{
    beginResetModel();
    m_report = std::move(report);
    m_request = std::move(request);
    m_requestsOnTop = requestsOnTop;
    m_parent.clear();
    indexParents(nullptr, m_report.parts);
    endResetModel();
}

void PartTreeModel::setSentHashes(const QStringList& hashes)
{
    m_sent = hashes;
    if (rowCount() > firstPartRow())
        emit dataChanged(index(firstPartRow(), Sent), index(rowCount() - 1, Sent));
}

void PartTreeModel::indexParents(const core::PartSummary* parent, const std::vector<core::PartSummary>& parts)
{
    for (const auto& part : parts) {
        m_parent.insert(&part, parent);
        indexParents(&part, part.children);
    }
}

const std::vector<core::PartSummary>& PartTreeModel::childrenOf(const core::PartSummary* part) const
{
    return part ? part->children : m_report.parts;
}

bool PartTreeModel::isRequestOnTop(const QModelIndex& index) const
{
    return m_requestsOnTop && index.isValid() && !isRequest(index) && m_parent.value(part(index)) == nullptr;
}

bool PartTreeModel::isRequest(const QModelIndex& index) const
{
    return index.isValid() && index.internalPointer() == requestTag();
}

const core::PartSummary* PartTreeModel::part(const QModelIndex& index) const
{
    return index.isValid() && !isRequest(index) ? static_cast<const core::PartSummary*>(index.internalPointer())
                                                : nullptr;
}

QModelIndex PartTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (column < 0 || column >= ColumnCount || isRequest(parent))
        return {};
    const int first = parent.isValid() ? 0 : firstPartRow(); // top level: the Request row comes first
    if (row == 0 && first == 1)
        return createIndex(0, column, requestTag());
    const auto& siblings = childrenOf(part(parent));
    if (row < first || size_t(row - first) >= siblings.size())
        return {};
    return createIndex(row, column, const_cast<core::PartSummary*>(&siblings[size_t(row - first)]));
}

QModelIndex PartTreeModel::indexOf(const core::PartSummary* part) const
{
    if (!part || !m_parent.contains(part))
        return {};
    const core::PartSummary* up = m_parent.value(part);
    const auto& siblings = childrenOf(up);
    return createIndex((up ? 0 : firstPartRow()) + int(part - siblings.data()), 0,
                       const_cast<core::PartSummary*>(part));
}

QModelIndex PartTreeModel::parent(const QModelIndex& child) const
{
    const core::PartSummary* self = part(child);
    const core::PartSummary* up = self ? m_parent.value(self) : nullptr;
    if (!up)
        return {};
    const core::PartSummary* upsParent = m_parent.value(up);
    const auto& siblings = childrenOf(upsParent);
    const int first = upsParent ? 0 : firstPartRow();
    return createIndex(first + int(up - siblings.data()), 0, const_cast<core::PartSummary*>(up));
}

int PartTreeModel::rowCount(const QModelIndex& parent) const
{
    if ((parent.isValid() && parent.column() != 0) || isRequest(parent))
        return 0;
    return int(childrenOf(part(parent)).size()) + (parent.isValid() ? 0 : firstPartRow());
}

int PartTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant PartTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // "Offset", not "Body offset": the header sized the column, wider than its numbers, at the names' expense.
    // "Type", not "Content-Type": the header of a column that shares the tree's width is cut at 1280 px.
    static const char* names[] = {"#", "Name", "Filename", "Type", "Offset", "Size", nullptr, "Sent"};
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Digest)
        return tr("The digest's first %1 hex digits, as git shows a commit's: the whole one in each cell's tooltip "
                  "and in Copy digest")
            .arg(kShortDigest);
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == BodyOffset)
        return tr("Where the part's body starts, in bytes from the start of the multipart body");
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 && section < ColumnCount)
        return section != Digest ? tr(names[section]) // the report's hash; named SHA-256 when there is none
                                 : app::toQString(core::hashTitle(
                                       m_report.hash == core::HashKind::None ? core::HashKind::Sha256 : m_report.hash));
    return {};
}

QVariant PartTreeModel::requestData(int column, int role) const
{
    if (role == Qt::DisplayRole) {
        switch (column) {
        case Name: return tr("Request");
        case Filename: // the request line's method and target: its version is in Headers
            return QStringLiteral("%1 %2").arg(m_request.method, m_request.target).trimmed();
        case ContentType: // the media type: the boundary would widen the column (it is in the request's Headers)
            return m_request.contentType.section(QLatin1Char(';'), 0, 0).trimmed();
        case Size: return app::formatBytes(m_report.bytes);
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) { // the cell's whole text first: the columns elide
        const QString whole =
            column == ContentType ? m_request.contentType : requestData(column, Qt::DisplayRole).toString();
        return (whole.isEmpty() ? QString() : whole + QLatin1Char('\n')) +
               tr("The request: its line, header fields, framing, client and timings (Headers and Text), and its "
                  "stored bytes (Hex)");
    }
    if (role == Qt::FontRole && column == Name) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::TextAlignmentRole && column == Size)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant PartTreeModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (isRequest(index))
        return requestData(index.column(), role);
    const core::PartSummary& p = *part(index);
    if (isRequestOnTop(index) && index.column() == Index && (role == Qt::DisplayRole || role == Qt::ToolTipRole)) {
        const QString line =
            QStringLiteral("%1  %2 — %3, %4")
                .arg(p.index)
                .arg(app::printable(text(p.name)), data(index.siblingAtColumn(ContentType), Qt::DisplayRole).toString(),
                     app::formatBytes(p.size));
        return role == Qt::DisplayRole ? line : plainTip(line);
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Index: return int(p.index);
        case Name: return p.name ? app::printable(text(p.name)) : tr("(none)");
        case Filename: return app::printable(text(p.filename));
        case ContentType: // a HAR entry's multipart type without its boundary (the tooltip has it whole)
            return app::printable(text(p.contentType).startsWith(QLatin1String("multipart/"), Qt::CaseInsensitive)
                                      ? text(p.contentType).section(QLatin1Char(';'), 0, 0).trimmed()
                                      : text(p.contentType));
        case BodyOffset: return QString::number(p.bodyOffset);
        case Size: return app::formatBytes(p.size) + (p.complete ? QString() : QStringLiteral(" ✗"));
        case Digest: return shortDigest(p.digest);
        case Sent: {
            // Only top-level parts of a capture that came from our own sender have a sent hash.
            if (m_parent.value(&p) != nullptr || int(p.index) >= m_sent.size() || m_sent[int(p.index)].isEmpty())
                return QString();
            return m_sent[int(p.index)] == QString::fromStdString(p.digest) ? tr("✓ matches") : tr("✗ differs");
        }
        }
    }
    if (role == Qt::ToolTipRole && index.column() == Size)
        return p.complete
                   ? tr("%1 bytes").arg(p.size)
                   : tr("%1 bytes, incomplete: the part did not arrive whole (or was not all stored)").arg(p.size);
    if (role == Qt::ToolTipRole && index.column() == Digest)
        return QString::fromStdString(p.digest);
    if (role == Qt::ToolTipRole && index.column() == ContentType)
        return plainTip(app::printable(text(p.contentType))); // with its parameters
    if (role == Qt::ToolTipRole && (index.column() == Name || index.column() == Filename))
        return plainTip(data(index, Qt::DisplayRole).toString()); // a long value elides: whole on hover
    if (role == Qt::ToolTipRole && index.column() == Index && p.transferEncoding)
        return tr("Content-Transfer-Encoding: %1").arg(text(p.transferEncoding));
    if (role == Qt::ForegroundRole && index.column() == Size && !p.complete)
        return QBrush(status::failure()); // a narrow column: the mark and colour say it, the tooltip why
    if (role == Qt::TextAlignmentRole && (index.column() == BodyOffset || index.column() == Size))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

} // namespace upin::ui
