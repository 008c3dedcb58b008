#pragma once
// What a failed TLS handshake most likely means for the user, from OpenSSL's words, and what to do about it. Pure,
// for the window's status and the CLI's line log alike.

#include <QString>

namespace upin::app {

// certificatePath: the listener's certificate, which a client that does not trust it is to be given. Empty when the
// error says nothing we can act on (the error itself then stands alone).
QString tlsFailureAdvice(const QString& error, const QString& certificatePath);

} // namespace upin::app
