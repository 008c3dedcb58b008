#pragma once
// The parts of an upload plan as an editable table: name, kind, file or value, content type, filename
// override, size. Files dropped on it (URLs from a file manager) become file parts; rows can be moved.

#include "sender/upload_plan.h"

#include <QAbstractTableModel>
#include <QHash>

namespace upin::ui {

class PlanPartsModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Kind, Source, ContentType, Filename, Size, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    const QList<app::PlanPart>& parts() const { return m_parts; }
    void addPart(const app::PlanPart& part);
    void setParts(const QList<app::PlanPart>& parts); // all of them, as a plan has them
    // Regular files only; returns the paths that are not (missing, a folder), for the caller to name.
    QStringList addFiles(const QStringList& paths);
    void removePart(int row);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool moveRows(const QModelIndex& source, int row, int count, const QModelIndex& destination, int child) override;
    // Drag and drop: file URLs add file parts; row drags reorder.
    Qt::DropActions supportedDropActions() const override { return Qt::CopyAction | Qt::MoveAction; }
    QStringList mimeTypes() const override;
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                         const QModelIndex& parent) const override;
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                      const QModelIndex& parent) override;

private:
    quint64 fileSize(const QString& path) const;
    QList<app::PlanPart> m_parts;
    // A file's size, looked at once per path (data() runs on every repaint; a stat there, per part, each time, is
    // what a slow or network disk makes a stall of).
    mutable QHash<QString, quint64> m_fileSizes;
};

} // namespace upin::ui
