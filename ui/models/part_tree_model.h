#pragma once
// The parts of a parsed body as a tree (nested multipart parts are children of their part), below a Request row
// when the source was a whole request or a capture.

#include "capture/request_record.h"

#include "upin/core/event_recorder.h"

#include <QAbstractItemModel>
#include <QHash>

namespace upin::ui {

class PartTreeModel final : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Index, Name, Filename, ContentType, BodyOffset, Size, Digest, Sent, ColumnCount };
    using QAbstractItemModel::QAbstractItemModel;

    // request: InspectResult::request; when not empty, a Request row comes first. requestsOnTop: the top-level
    // parts are a HAR file's requests, each with its parts under it.
    void setReport(core::ParseReport report, app::RequestRecord request = {}, bool requestsOnTop = false);
    // A HAR request's row: one line across the tree (the view spans it), in column 0. Its URL was cut to
    // "POST http://…" in Name's share of the width.
    bool isRequestOnTop(const QModelIndex& index) const;
    // SHA-256 of each top-level part as our sender sent it (empty: unknown); the Sent column compares.
    void setSentHashes(const QStringList& hashes);
    const core::ParseReport& report() const { return m_report; }
    const core::PartSummary* part(const QModelIndex& index) const; // nullptr for the Request row
    bool isRequest(const QModelIndex& index) const;
    QModelIndex indexOf(const core::PartSummary* part) const; // part points into report(); invalid for nullptr
    int firstPartRow() const { return m_request.isEmpty() ? 0 : 1; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    const std::vector<core::PartSummary>& childrenOf(const core::PartSummary* part) const;
    void indexParents(const core::PartSummary* parent, const std::vector<core::PartSummary>& parts);

    void* requestTag() const
    {
        return const_cast<app::RequestRecord*>(&m_request);
    } // the Request row's internal pointer
    QVariant requestData(int column, int role) const;

    core::ParseReport m_report;
    app::RequestRecord m_request;
    QStringList m_sent;
    bool m_requestsOnTop = false;
    QHash<const core::PartSummary*, const core::PartSummary*> m_parent; // nullptr for top-level parts
};

} // namespace upin::ui
