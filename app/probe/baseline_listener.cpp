#include "probe/baseline_listener.h"

namespace upin::app {

QUrl BaselineListener::start(QString* error)
{
    if (!m_listener.isListening()) {
        ServerConfig config;
        config.port = 0;
        config.hash = core::HashKind::None;
        config.captureDir = m_scratch.filePath(QStringLiteral("captures"));
        if (!m_scratch.isValid() || !m_listener.start(config)) {
            *error = QStringLiteral("the baseline listener did not start: %1")
                         .arg(m_scratch.isValid() ? m_listener.errorString() : m_scratch.errorString());
            return {};
        }
    }
    return QUrl(QStringLiteral("http://127.0.0.1:%1/discard").arg(m_listener.port()));
}

} // namespace upin::app
