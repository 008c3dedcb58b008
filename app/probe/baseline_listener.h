#pragma once
// The probe's baseline when the user gives none: our own listener on a free loopback port, its /discard reading
// and dropping each body unhashed, so the baseline measures what the wire and our client allow on this machine.
// The CLI's probe and the Probe tab start it alike. Its captures (refusals only: /discard keeps none) go to a
// scratch folder removed with it.

#include "modes/server.h"

#include <QTemporaryDir>
#include <QUrl>

namespace upin::app {

class BaselineListener {
public:
    // Starts it if it is not running; its /discard URL, or an empty URL with *error set.
    QUrl start(QString* error);

private:
    QTemporaryDir m_scratch;
    Server m_listener;
};

} // namespace upin::app
