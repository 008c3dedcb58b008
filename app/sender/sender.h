#pragma once
// Runs an UploadPlan through QNetworkAccessManager or the raw HTTP/1.1 client (UploadPlan::Engine says which):
// every run of every target, interleaved (A B A B ...), one request at a time, timing each and checking part hashes
// against the listener's answer. Create it, move it to a worker thread, then call start() through a queued connection: the body is generated, read from disk and
// hashed in that thread, never on the GUI thread.

#include "sender/run_types.h"
#include "sender/upload_plan.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSslConfiguration>
#include <QTimer>

#include <memory>

class QNetworkAccessManager;
class QNetworkReply;

namespace upin::app {

class MultipartBody;
class SameCore;
class Http2Upload;
class RawUpload;

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
    void startRaw(MultipartBody* body, const QString& boundary, const QString& contentType);
    void startHttp2(MultipartBody* body, const QString& contentType);
    QList<QPair<QByteArray, QByteArray>> requestHeaders(const QString& contentType) const; // the plan's, and ours
    void startQnam(MultipartBody* body, const QString& contentType);
    void finishQnamRun(const MultipartBody& body);
    // Bytes of the body sent so far: handed to the kernel (raw client), or taken by Qt's HTTP thread (QNAM).
    void onUploadProgress(qint64 sent);
    void reportProgress(); // emits progress() with what has been sent
    void onResponseHead();
    void appendResponse(const QByteArray& chunk);
    void completeRun(int status, const QByteArray& response, const QString& error, const MultipartBody& body);

    UploadPlan m_plan;
    QSslConfiguration m_tls;                // the plan's trust, for https targets
    QString m_tlsError;                     // its --cacert could not be read: every https run fails with this
    QNetworkAccessManager* m_nam = nullptr; // the QNAM run's own
    std::unique_ptr<SameCore> m_sameCore;   // while a QNAM run is under way
    QPointer<QNetworkReply> m_reply;        // the upload under way through QNAM, or
    QPointer<RawUpload> m_raw;              // the one under way through the raw client
    QPointer<Http2Upload> m_http2;          // or through its HTTP/2 engine
    QByteArray m_response;
    QElapsedTimer m_clock;
    uint64_t m_runCpuStartNs = 0;         // this thread's CPU time when the run began
    uint64_t m_processCpuStartNs = 0;     // and the process's
    qint64 m_lastProgressMs = -1'000'000; // of m_clock: progress is reported every kProgressIntervalMs
    static constexpr qint64 kProgressIntervalMs = 50;
    QTimer m_heldProgress;           // a report held back by the interval, sent when it is up
    ThroughputSample m_latestSample; // the last progress, which may fall between two samples of m_current.upload
    RunResult m_current;
    QList<RunResult> m_results;
    int m_next = 0;
    bool m_cancelled = false;
};

QString randomBoundary();

} // namespace upin::app
