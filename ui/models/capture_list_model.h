#pragma once
// The listener's captures as a table: time, client, method, endpoint, the status the client got, size, parts,
// duration, MB/s, the upstream's answer (forward mode), state. Fed with batches of CaptureEvent values on the GUI
// thread; a receiving capture updates in place.

#include "capture/capture_event.h"
#include "capture/stored_captures.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>

namespace upin::ui {

class CaptureListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Client, Method, Endpoint, Status, Size, Parts, Duration, Rate, Upstream, State, ColumnCount };
    // A capture as the list shows it: the capture (its endpoint and error text made safe to show: they may quote a
    // client's path, Host or Origin), what arrived over time, and its record when it kept no folder.
    struct Row : app::CaptureSummary {
        QList<app::ThroughputSample> samples;
        struct PartSpan {
            QString label; // "0 file (photo.jpg)"
            qint64 startMs = 0;
            qint64 endMs = -1; // -1 while the part is still arriving
            // A part, or (forward mode) a leg of the exchange: the request's bytes on their way, the server's time.
            enum class Kind : uint8_t { Part, Transfer, Server } kind = Kind::Part;
        };
        QList<PartSpan> partSpans; // when each part started and ended, then forward mode's legs, for the timeline
        // A finished capture that kept no folder (/part-event): its record, which Inspect opens.
        std::shared_ptr<const app::CaptureRecord> record;
        QDateTime receivedHere() const { return received.toLocalTime(); } // as the Time column shows it
    };

    using QAbstractTableModel::QAbstractTableModel;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    void apply(const QList<app::CaptureEvent>& batch);
    // Captures stored before this session (oldest first), listed above this session's; ids already listed are
    // left alone.
    void addStored(const QList<app::CaptureSummary>& stored);
    const Row& row(int index) const { return m_rows[index]; }
    const Row* find(quint64 id) const; // nullptr: not listed (0 never is)
    // Takes rows off the list (their folders stay); a receiving capture stays listed.
    void removeFinished(int index);
    void clearFinished();

private:
    int indexOf(quint64 id) const;
    // An upload forwarded to this window's own listener is one exchange listed twice: the listener's row (the far
    // side, by its id) and the forwarder's (whose answer named it). Noted as each finishes; both rows say so.
    void pair(const Row& forwarded);
    QString relayName(quint64 relayedId) const; // "the proxy" or "the forwarder": which relayed that row
    QVariant displayText(const Row& r, int column) const;
    QString upstreamText(const Row& r) const;
    QString stateText(const Row& r) const;
    static QVariant colour(const Row& r, int column);
    QString toolTip(const Row& r, int column) const;
    static QString outcomeInFull(const Row& r); // its state in words, asides and all (the list shows it without)
    QHash<quint64, quint64> m_forwardedAs;      // the listener's capture id -> the forwarder's row's id
    static Row rowOf(const app::CaptureSummary& capture); // the capture made safe to show
    static void addLegs(Row& row);                        // forward mode's legs after the parts, from row.forward
    // A receiving capture's progress and parts.
    static void update(Row& row, const app::CaptureEvent& e);
    QList<Row> m_rows;
};

} // namespace upin::ui
