#pragma once
// The record a request leaves when it is turned away before its body is taken (or instead of it): a wrong path
// or method, a body that is not multipart, a bad head, a guard (403, 421), a full house (503), a deadline (408).
// These are the commonest client bugs, so every one is listed beside the captures: in GET /captures, on the CLI's
// line log and in the Listen tab, with the answer's status and its reason in words.
//
// They are kept in one rolling file beside the capture folders (CaptureStore::recordRefused), not a folder each:
// a flood of refused requests then costs at most two small files, and never pushes a real capture out of
// retention or makes uploads wait for folder creation and deletion.

#include "capture/capture_summary.h"

#include "upin/core/errors.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace upin::core {
class HeadReader;
}

namespace upin::app {

struct RefusedRequest {
    static constexpr qsizetype kMaxHeadKept = 4096;   // of the head as received
    static constexpr qsizetype kMaxAnswerKept = 2048; // of the answer as sent, its head first

    quint64 id = 0;
    QDateTime receivedAt; // UTC
    QString client;       // "127.0.0.1:53312"
    QString tls;          // "TLSv1.3", or empty over plain HTTP
    QString method;       // empty when the request line itself did not arrive or parse
    QString target;
    QByteArray head;   // as received, its first kMaxHeadKept bytes
    int status = 0;    // what we answered
    QString reason;    // in words: "not found", "use POST"
    QByteArray answer; // as sent, its first kMaxAnswerKept bytes: the status line, fields, and the body's start
    std::optional<core::Error> error;

    // "PUT /file-part", or "(no request line)".
    QString label() const;
    CaptureSummary summary() const; // as the captures list shows it
    QJsonObject toJson() const;     // one line of the rolling file, and the summary GET /captures lists
    static std::optional<RefusedRequest> fromJson(const QJsonObject& json);
    // From what a HeadReader holds, complete or not (a head that failed to parse still shows its first line).
    static RefusedRequest fromHead(const core::HeadReader& head, int status, QString reason,
                                   std::optional<core::Error> error = std::nullopt);
};

} // namespace upin::app
