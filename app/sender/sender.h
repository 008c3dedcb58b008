#pragma once
// Runs an UploadPlan through QNetworkAccessManager or the raw HTTP/1.1 client (UploadPlan::Engine says which):
// every run of every target, interleaved (A B A B ...), one request at a time, timing each and checking part hashes against the listener's answer. Create it, move it to a
// worker thread, then call start() through a queued connection: the body is generated, read from disk and
// hashed in that thread, never on the GUI thread.

#include "sender/upload_plan.h"
#include "listener/listener_types.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>

class QNetworkAccessManager;
class QNetworkReply;

namespace upin::app {

class MultipartBody;
class RawUpload;

struct PartCheck {
    enum class State : uint8_t { Match, Mismatch, NotChecked };
    QString name;
    quint64 size = 0;
    QString sentSha256;
    QString receivedSha256;
    State state = State::NotChecked;
};

struct RunResult {
    QUrl target;
    int targetIndex = 0;
    int run = 0;
    qint64 startedAtMs = 0;       // wall clock, ms since the epoch
    quint64 bodyBytes = 0;
    QList<ThroughputSample> upload; // bytes handed to the network over time
    double lastByteSeconds = -1;   // when the last body byte was handed over
    double responseHeadSeconds = -1;
    double totalSeconds = -1;
    int httpStatus = 0;
    QString error;                 // transport error or cancellation; empty when the exchange completed
    QByteArray response;           // first 1 MiB of the answer
    QList<PartCheck> parts;
    bool cancelled = false;
    double mbPerSecond() const { return totalSeconds > 0 && httpStatus > 0 ? double(bodyBytes) / 1e6 / totalSeconds : 0; }
    bool integrityOk() const;      // every part matched (false when nothing could be checked)
};

class Sender final : public QObject {
    Q_OBJECT
public:
    explicit Sender(QObject* parent = nullptr);
    ~Sender() override;

    void start(const upin::app::UploadPlan& plan); // call in the sender's thread
    void cancel();

signals:
    void progress(int targetIndex, int run, quint64 sent, quint64 total);
    void runFinished(const upin::app::RunResult& result);
    void finished(const QList<upin::app::RunResult>& results);

private:
    void startNext();
    void onUploadProgress(qint64 sent, qint64 total);
    void onResponseHead();
    void appendResponse(const QByteArray& chunk);
    void completeRun(int status, const QByteArray& response, const QString& error, const MultipartBody& body);

    UploadPlan m_plan;
    QNetworkAccessManager* m_nam = nullptr;
    QPointer<QNetworkReply> m_reply;        // the upload under way through QNAM, or
    QPointer<RawUpload> m_raw;              // the one under way through the raw client
    QByteArray m_response;
    QElapsedTimer m_clock;
    RunResult m_current;
    QList<RunResult> m_results;
    int m_next = 0;
    bool m_cancelled = false;
};

QString randomBoundary();

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::RunResult)
Q_DECLARE_METATYPE(upin::app::UploadPlan)
