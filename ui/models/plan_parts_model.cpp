#include "models/plan_parts_model.h"
#include "common/byte_size.h"
#include "common/qt_text.h"
#include "views/plain_tip.h"

#include <QFileInfo>
#include <QMimeData>
#include <QUrl>

namespace upin::ui {

namespace {
const QString kRowMime = QStringLiteral("application/x-upload-inspector-part-row");

QString uniqueName(const QList<app::PlanPart>& parts, const QString& wanted)
{
    QString name = wanted;
    for (int n = 2;; ++n) {
        bool taken = std::any_of(parts.begin(), parts.end(), [&](const app::PlanPart& p) { return p.name == name; });
        if (!taken)
            return name;
        name = QStringLiteral("%1%2").arg(wanted).arg(n);
    }
}
} // namespace

void PlanPartsModel::addPart(const app::PlanPart& part)
{
    beginInsertRows({}, int(m_parts.size()), int(m_parts.size()));
    m_parts.append(part);
    endInsertRows();
}

void PlanPartsModel::setParts(const QList<app::PlanPart>& parts)
{
    beginResetModel();
    m_parts = parts;
    endResetModel();
}

QStringList PlanPartsModel::addFiles(const QStringList& paths)
{
    QStringList skipped;
    for (const auto& path : paths) {
        QFileInfo info(path);
        if (!info.isFile()) {
            skipped << path;
            continue;
        }
        app::PlanPart part;
        part.kind = app::PlanPart::Kind::File;
        part.path = info.absoluteFilePath();
        part.contentType = app::guessContentType(info.fileName()); // shown, and editable, in the plan
        part.name = uniqueName(m_parts, QStringLiteral("file"));
        addPart(part);
    }
    return skipped;
}

void PlanPartsModel::removePart(int row)
{
    if (row < 0 || row >= m_parts.size())
        return;
    beginRemoveRows({}, row, row);
    m_parts.removeAt(row);
    endRemoveRows();
}

int PlanPartsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_parts.size());
}
int PlanPartsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanPartsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static const char* names[] = {"Name", "Kind", "File or value", "Content-Type", "Filename", "Size"};
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 && section < ColumnCount)
        return tr(names[section]);
    return {};
}

quint64 PlanPartsModel::fileSize(const QString& path) const
{
    auto known = m_fileSizes.constFind(path);
    if (known == m_fileSizes.constEnd())
        known = m_fileSizes.insert(path, quint64(std::max<qint64>(0, QFileInfo(path).size())));
    return *known;
}

QVariant PlanPartsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const app::PlanPart& p = m_parts[index.row()];
    if (role == Qt::ToolTipRole) // the whole of a cut path or filename, a resent client's among them: as text
        return plainTip(data(index, Qt::DisplayRole).toString());
    if (role == Qt::DisplayRole && index.column() != Size) // a resent client's tabs and bidi marks spelt; edited whole
        return app::printable(data(index, Qt::EditRole).toString());
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    switch (index.column()) {
    case Name: return p.name;
    case Kind:
        switch (p.kind) {
        case app::PlanPart::Kind::Field: return tr("field");
        case app::PlanPart::Kind::File: return tr("file");
        case app::PlanPart::Kind::Synthetic: return tr("synthetic");
        case app::PlanPart::Kind::FieldFile: return tr("field from file");
        }
        return {};
    case Source:
        return p.kind == app::PlanPart::Kind::Field       ? p.value
               : p.kind == app::PlanPart::Kind::Synthetic ? tr("generated")
                                                          : p.path;
    case ContentType: return p.contentType;
    case Filename: return p.filename;
    case Size: {
        quint64 size = p.kind == app::PlanPart::Kind::Field       ? quint64(p.value.toUtf8().size())
                       : p.kind == app::PlanPart::Kind::Synthetic ? p.size
                                                                  : fileSize(p.path);
        return role == Qt::EditRole ? QVariant(size) : QVariant(app::formatBytes(size));
    }
    }
    return {};
}

bool PlanPartsModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || role != Qt::EditRole)
        return false;
    app::PlanPart& p = m_parts[index.row()];
    switch (index.column()) {
    case Name: p.name = value.toString(); break;
    case Source:
        if (p.kind != app::PlanPart::Kind::Field)
            return false;
        p.value = value.toString();
        break;
    case ContentType: p.contentType = value.toString(); break;
    case Filename: p.filename = value.toString(); break;
    case Size:
        if (p.kind != app::PlanPart::Kind::Synthetic)
            return false;
        p.size = value.toULongLong();
        break;
    default: return false;
    }
    emit dataChanged(index.siblingAtColumn(0), index.siblingAtColumn(ColumnCount - 1));
    return true;
}

Qt::ItemFlags PlanPartsModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index) | Qt::ItemIsDropEnabled;
    if (!index.isValid())
        return f;
    f |= Qt::ItemIsDragEnabled;
    const app::PlanPart& p = m_parts[index.row()];
    bool editable = index.column() == Name || index.column() == ContentType || index.column() == Filename ||
                    (index.column() == Source && p.kind == app::PlanPart::Kind::Field) ||
                    (index.column() == Size && p.kind == app::PlanPart::Kind::Synthetic);
    return editable ? f | Qt::ItemIsEditable : f;
}

bool PlanPartsModel::moveRows(const QModelIndex& source, int row, int count, const QModelIndex& destination, int child)
{
    if (source.isValid() || destination.isValid() || count != 1 || row < 0 || row >= m_parts.size() || child < 0 ||
        child > m_parts.size() || child == row || child == row + 1)
        return false;
    beginMoveRows({}, row, row, {}, child);
    m_parts.move(row, child > row ? child - 1 : child);
    endMoveRows();
    return true;
}

QStringList PlanPartsModel::mimeTypes() const
{
    return {QStringLiteral("text/uri-list"), kRowMime};
}

QMimeData* PlanPartsModel::mimeData(const QModelIndexList& indexes) const
{
    if (indexes.isEmpty())
        return nullptr;
    auto* data = new QMimeData;
    data->setData(kRowMime, QByteArray::number(indexes.first().row()));
    return data;
}

bool PlanPartsModel::canDropMimeData(const QMimeData* data, Qt::DropAction, int, int, const QModelIndex&) const
{
    return data && (data->hasUrls() || data->hasFormat(kRowMime));
}

bool PlanPartsModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int, const QModelIndex& parent)
{
    if (!canDropMimeData(data, action, row, 0, parent))
        return false;
    if (data->hasFormat(kRowMime)) {
        int from = data->data(kRowMime).toInt();
        int to = row >= 0 ? row : parent.isValid() ? parent.row() : int(m_parts.size());
        moveRows({}, from, 1, {}, to);
        return false; // moved here; tell the view not to remove the source row
    }
    QStringList paths;
    for (const QUrl& url : data->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    addFiles(paths);
    return !paths.isEmpty();
}

} // namespace upin::ui
