#pragma once
// The listener's settings a user may change: the hash of each part, how many captures are kept (count and total
// size), the parser limits for uploads and the guards against slow and cross-site clients (the same as the CLI's
// listen options).

#include "server/server_config.h"

#include <QDialog>

#include <vector>

class QFormLayout;
class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace upin::ui {

struct ListenerSettings {
    core::HashKind hash = core::HashKind::Sha256; // for requests without ?hash= (--hash)
    bool tls = false;                             // HTTPS too, on tlsPort (--tls)
    quint16 tlsPort = 8443;
    app::RetentionPolicy retention;
    bool captureBodyOnly = false; // /capture keeps body.raw only (--capture-body-only)
    core::Options limits = app::listenerLimits();
    app::ListenerGuards guards; // deadlines, slowest body, allowed origins and host names
};

class ListenerSettingsDialog final : public QDialog {
    Q_OBJECT
public:
    explicit ListenerSettingsDialog(const ListenerSettings& current, QWidget* parent = nullptr);
    ListenerSettings settings() const { return m_settings; }
    void accept() override; // validates every field; stays open, naming the bad one, when one is not a size

private:
    void addLimitsAndGuards(QFormLayout* form, const ListenerSettings& current);
    ListenerSettings m_settings;
    QComboBox* m_hash;
    QCheckBox* m_tls;
    QSpinBox* m_tlsPort;
    QSpinBox* m_keep;
    QLineEdit* m_keepBytes;
    QCheckBox* m_bodyOnly;
    std::vector<QLineEdit*> m_guards; // one per app::kGuardSettings entry
    std::vector<QLineEdit*> m_limits; // one per app::kUserLimits entry
};

} // namespace upin::ui
