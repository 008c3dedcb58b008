#pragma once
// Every request leaves a record, refused ones included: one function for every mode, so that a request the
// listener or the forwarder turns away is stored (CaptureStore::recordRefused) and published as a finished
// capture in state Refused, listed by GET /captures, the CLI's line log and the Listen tab alike.

#include "capture/capture_store.h"
#include "capture/upload_session.h"

namespace upin::app {

void recordRefusal(CaptureStore& store, const UploadSession::Publish& publish, RefusedRequest refused);

// The reason a refusal's plain-text answer gives, as one line ("not found", "use POST").
QString refusalReason(const QByteArray& text);

// A request turned away, as every transport answers it: reason in words, error its code and offset, or detail in
// words. json: the forwarder's way ({"error", "detail"}, told apart from its upstream's answers); else JSON only
// for an error with an offset, plain text for the rest.
struct RefusalAnswer {
    QByteArray contentType;
    QByteArray body;
    QString recorded; // the refusal record's reason: reason and why together
};
RefusalAnswer refusalAnswer(const QString& reason, std::optional<core::Error> error, const QString& detail, bool json);

} // namespace upin::app
