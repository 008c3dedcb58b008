#pragma once
// The upstream's answer to one forwarded request, as its bytes arrive: interim answers (100 Continue, 103), then
// the final head, read by core's response parser with a relay's strictness, then the body in the framing that
// head declares. Nothing reaches the client before it is known to be a valid head, so an upstream that answers
// garbage, too long a head, invalid framing or a head that never ends leaves the client with nothing yet, and the
// forwarder answers 502/504 itself. Body bytes are relayed as they arrive; a body error after the head went (a
// bad chunk size, a close mid-body) can then only end the connection, and the record says where.
//
// Pure and Qt-socket-free: bytes in, what to relay out through a callback, in order and without copies of the body.

#include "upin/core/http.h"

#include <QByteArray>
#include <QJsonArray>
#include <QString>

#include <functional>
#include <optional>

namespace upin::app {

class UpstreamAnswer {
public:
    using Relay = std::function<void(const char* data, qint64 size)>;
    static constexpr int kMaxInterim = 16; // interim answers before the final one; more is not an answer
    static constexpr qsizetype kPreviewBytes = qsizetype{64} * 1024;

    explicit UpstreamAnswer(bool answersHead = false);

    struct Progress {
        bool finalHead = false;       // the final head arrived (and was relayed) in this call
        bool complete = false;        // the answer is whole
        std::optional<QString> error; // what is wrong with it; nothing more is taken
    };
    // Takes the next bytes of the answer. Relays, in order, what may go to the client.
    Progress take(const char* data, qint64 size, const Relay& relay);
    // The upstream closed the connection: a close-delimited body is whole, anything else cut off (error).
    Progress closed();

    bool started() const { return m_firstByte; } // any byte came
    bool headRelayed() const { return m_status != 0; }
    bool interimOnly() const { return m_interim > 0 && m_status == 0 && m_head.headBytes() == 0; }
    int status() const { return m_status; } // the final answer's, 0 until its head came
    bool keepAlive() const { return m_keepAlive; }
    bool complete() const { return m_complete; }
    bool untilClose() const { return m_framing.kind == core::BodyFraming::Kind::UntilClose; }
    quint64 bytes() const { return m_bytes; } // of the body, relayed as framed
    const QJsonArray& headers() const { return m_headers; }
    const QByteArray& preview() const { return m_preview; } // the body's first bytes, as framed

private:
    Progress takeHead(const char*& data, qint64& size, const Relay& relay);

    bool m_answersHead;
    core::HeadReader m_head;
    core::BodyFraming m_framing;
    core::BodyDecoder m_decoder;
    int m_interim = 0;
    int m_status = 0;
    bool m_firstByte = false;
    bool m_keepAlive = false;
    bool m_complete = false;
    bool m_failed = false;
    quint64 m_bytes = 0;
    QJsonArray m_headers;
    QByteArray m_preview;
};

} // namespace upin::app
