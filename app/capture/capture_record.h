#pragma once
// A capture's record, capture.json, as one value: the parse report (parts, digests, diagnostics) with what was kept
// of each part, the outcome (state, error and where, why in words, the file that could not be written), the
// request, forward mode's exchange, and where the time went. UploadSession fills and writes it; the captures list,
// parse, Inspect and Send again read it back. toJson/fromJson (capture_record.cpp) are the only code that knows
// capture.json's keys (the report's parts are report_json's, the request's RequestRecord's, the exchange's
// ForwardRecord's, the HTTP/2 frames' Http2Record's).

#include "capture/capture_summary.h"
#include "capture/forward_record.h"
#include "capture/h2_record.h"
#include "capture/kept_part.h"
#include "capture/request_record.h"

#include "upin/core/event_recorder.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace upin::app {

struct CaptureRecord {
    struct CpuMs {
        double readParse = 0;        // the connection's thread, from the body's start
        std::optional<double> hash;  // the hashing pipeline's thread, when there was one
        std::optional<double> store; // the storing pipeline's
    };
    struct WriteFailure {
        QString file;          // inside the capture folder
        QString systemMessage; // the system's error text
    };

    quint64 id = 0;
    QString endpoint, matcher, hash;
    core::ParseReport report;
    QList<KeptPart> kept; // by top-level part index
    quint64 bytes = 0;    // body bytes, decoded
    QString framing;      // framingName(), as the request's
    CaptureState state = CaptureState::Incomplete;
    std::optional<core::Error> error; // the capture's (not only the parser's): code and body offset
    QString detail;                   // why, in words, when there is more to say than the code
    std::optional<WriteFailure> writeFailure;
    double elapsedMs = 0; // from the head's end to the answer
    CpuMs cpuMs;
    std::optional<ForwardRecord> forward;
    // Stored in capture.json only (not in the upload's answer):
    // The listener's own answer to its client: its status, and whether the parts were listed briefly (?answer=brief).
    // None in forward mode (the upstream answered: forward.status) or when nothing was answered (the client left,
    // the listener stopped). The answer's JSON is answerJson(detail) of this record.
    struct Answered {
        int status = 0;
        bool brief = false;
    };
    std::optional<Answered> answered;
    RequestRecord request;
    std::optional<Http2Record> http2; // a stream's frames, when the request came over HTTP/2
    QList<ThroughputSample> throughput;
    bool rawBodyKept = false;

    bool ok() const { return state == CaptureState::Complete; }
    // Why it is not complete, in words: the write that failed ("body.raw: No space left on device"), else detail.
    QString errorInWords() const;
    // The upload's answer to its client: everything but the request, the throughput and the files.
    // Compact, as sent; its summary members come before the parts, so that a reader sees the outcome first.
    // Brief: each part's index, name, filename, size, digest and where it was saved; for a form of 10,000 fields
    // the full answer is megabytes (every part's headers, offsets and value), most of the time a client waits.
    // Made in pieces of about JsonWriter::kSinkPieceBytes, written to the socket one by one once the capture is
    // stored (held, but never as one buffer): for 10,000 parts one buffer doubled its way to megabytes, each step a
    // copy into pages faulted in afresh (past glibc's mmap threshold, at every upload), and that was a third of the
    // time of /file-part's answer.
    enum class Detail : uint8_t { Full, Brief };
    QByteArrayList answerJson(Detail detail = Detail::Full) const;
    QByteArray toJson() const;           // capture.json, indented
    void writeJson(JsonWriter& w) const; // the same, into a writer (CaptureStore::writeCaptureJson's, in pieces)
    static CaptureRecord fromJson(const QJsonObject& json);
    // The capture's id in one of its answers (answerJson's capture_id); 0 when the JSON is not one.
    static quint64 idInAnswer(const QByteArray& answer);
    // The capture as the lists know it: folder is where it is stored (empty: nowhere).
    CaptureSummary summary(const QString& folder) const;
    // The folder's capture.json; why says what is wrong when there is none to read.
    static std::optional<CaptureRecord> read(const QString& folder, QString* why = nullptr);

private:
    void writeAnswer(JsonWriter& w, Detail detail) const;
    void writeOutcomeError(JsonWriter& w) const;
};

} // namespace upin::app
