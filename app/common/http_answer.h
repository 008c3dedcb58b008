#pragma once
// An HTTP/1.1 answer as its bytes arrive, read by core's response parser: interim answers (100 Continue, 103),
// then the final head, then the body in the framing that head declares, until it is whole. One reader for every
// client side of ours: the forwarder reading its upstream, the raw sender reading the server it uploads to.
//
// Relayed bytes: a head goes to `relay` only once it is known to be valid, so a relay can still answer 502 for an
// upstream that sends garbage, too long a head, invalid framing or a head that never ends; body bytes go as they
// arrive, up to the first byte that is wrong (a bad chunk size, a close mid-body), which can then only end the
// connection. The decoded body's first keepBytes are kept for the record.
//
// Qt-socket-free: bytes in, what to relay out through a callback, in order and without copies of the body.

#include "upin/core/http.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

#include <functional>
#include <optional>

namespace upin::app {

class HttpAnswer {
public:
    using Relay = std::function<void(const char* data, qint64 size)>; // may be empty: nothing relayed
    using Fields = QList<QPair<QByteArray, QByteArray>>;
    static constexpr int kMaxInterim = 16; // interim answers before the final one; more is not an answer

    struct Options {
        bool answersHead = false; // the request was HEAD: no body, whatever the head says
        bool strict = true;       // a relay's reading (core::HttpLimits::strictLineEnds); a client may be lenient
        qsizetype keepBytes = qsizetype{64} * 1024; // of the decoded body
        // Lines ("Name: value\r\n") added at the end of the final head as relayed, asked for when it goes: what
        // the relay knows by then (the forwarder's capture, for a probe that asks). fields() stays as received.
        std::function<QByteArray()> addedFields;
    };
    explicit HttpAnswer(Options options);
    HttpAnswer() : HttpAnswer(Options{}) {}

    struct Progress {
        bool continued = false;       // a 100 Continue came in this call
        bool finalHead = false;       // the final head arrived (and was relayed) in this call
        bool complete = false;        // the answer is whole
        std::optional<QString> error; // what is wrong with it; nothing more is taken
    };
    // Takes the next bytes of the answer. Relays, in order, what may go on.
    Progress take(const char* data, qint64 size, const Relay& relay = {});
    // The connection closed: a close-delimited body is whole, anything else cut off (error).
    Progress closed();

    bool started() const { return m_firstByte; } // any byte came
    bool headRelayed() const { return m_status != 0; }
    bool interimOnly() const { return m_interim > 0 && m_status == 0 && m_head.headBytes() == 0; }
    int status() const { return m_status; } // the final answer's, 0 until its head came
    bool keepAlive() const { return m_keepAlive; }
    bool complete() const { return m_complete; }
    bool untilClose() const { return m_framing.kind == core::BodyFraming::Kind::UntilClose; }
    quint64 bytes() const { return m_decoder.wireBytes(); }       // of the body as framed, taken
    const QByteArray& statusLine() const { return m_statusLine; } // "HTTP/1.1 404 Not Found"
    const Fields& fields() const { return m_fields; }             // the final head's, as sent
    const QByteArray& body() const { return m_body; }             // decoded, its first keepBytes

private:
    Progress takeHead(const char*& data, qint64& size, const Relay& relay);
    void relayFinalHead(const Relay& relay) const;
    Progress fail(QString why);

    Options m_options;
    core::HeadReader m_head;
    core::BodyFraming m_framing;
    core::BodyDecoder m_decoder;
    int m_interim = 0;
    int m_status = 0;
    bool m_firstByte = false;
    bool m_keepAlive = false;
    bool m_complete = false;
    bool m_failed = false;
    QByteArray m_statusLine;
    Fields m_fields;
    QByteArray m_body;
};

// RFC 9110 reason phrases for the statuses we answer with, and "Status" for others.
QByteArray reasonPhrase(int status);

} // namespace upin::app
