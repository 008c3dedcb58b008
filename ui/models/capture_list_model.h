#pragma once
// The listener's captures as a table: time, client, method, endpoint, the status the client got, size, parts,
// duration, MB/s, the upstream's answer (forward mode), state. Fed with batches of ListenerEvent values on the GUI thread; a receiving capture updates in
// place.

#include "capture/stored_captures.h"
#include "server/listener_types.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>

namespace upin::ui {

class CaptureListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Client, Method, Endpoint, Status, Size, Parts, Duration, Rate, Upstream, State, ColumnCount };
    struct Row {
        quint64 id = 0;
        QDateTime started;
        QString client, method, endpoint, matcher, folder;
        bool fromProbe = false; // one of a probe's uploads: the list hides it unless the filter asks (is:probe)
        QString tls;            // "TLSv1.3", or empty over plain HTTP
        quint64 bytes = 0;
        int parts = 0;
        int diagnostics = 0; // the parser's remarks: a complete capture with some is not all green
        qint64 elapsedMs = 0;
        app::CaptureState state = app::CaptureState::Receiving;
        std::optional<core::Error> error;
        QString errorDetail;  // failed: the file that could not be written, and why; refused: the reason
        int answerStatus = 0; // what the listener answered (refused or not); 0: nothing, or forward mode
        QList<app::ThroughputSample> samples;
        struct PartSpan {
            QString label; // "0 file (photo.jpg)"
            qint64 startMs = 0;
            qint64 endMs = -1; // -1 while the part is still arriving
            // A part, or (forward mode) a leg of the exchange: the request's bytes on their way, the server's time.
            enum class Kind : uint8_t { Part, Transfer, Server } kind = Kind::Part;
        };
        QList<PartSpan> partSpans; // when each part started and ended, then forward mode's legs, for the timeline
        std::optional<app::ForwardTimings> forward; // forward mode: the upstream's answer and the moments
        // A finished capture that kept no folder (/part-event): its record, which Inspect opens.
        std::shared_ptr<const app::CaptureRecord> record;
        // The status the client got: the listener's own, or forward mode's upstream's (our 502/504 when it gave
        // none); 0 while receiving or when nothing was answered.
        int status() const;
    };

    using QAbstractTableModel::QAbstractTableModel;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    void apply(const QList<app::ListenerEvent>& batch);
    // Captures stored before this session (oldest first), listed above this session's; ids already listed are
    // left alone.
    void addStored(const QList<app::StoredCapture>& stored);
    const Row& row(int index) const { return m_rows[index]; }
    // Takes rows off the list (their folders stay); a receiving capture stays listed.
    void removeFinished(int index);
    void clearFinished();

private:
    int indexOf(quint64 id) const;
    // An upload forwarded to this window's own listener is one exchange listed twice: the listener's row (the far
    // side, by its id) and the forwarder's (whose answer named it). Noted as each finishes; both rows say so.
    void pair(const Row& forwarded);
    QString relayName(quint64 relayedId) const; // "the proxy" or "the forwarder": which relayed that row
    static QString outcomeInFull(const Row& r); // its state in words, asides and all (the list shows it without)
    QHash<quint64, quint64> m_forwardedAs;      // the listener's capture id -> the forwarder's row's id
    static void addLegs(Row& row);              // forward mode's legs after the parts, from row.forward
    QList<Row> m_rows;
};

} // namespace upin::ui
