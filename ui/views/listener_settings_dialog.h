#pragma once
// The listener's settings a user may change: how many captures are kept (count and total size) and the parser
// limits for uploads (the same limits the CLI's listen command takes as --max-field-size and so on).

#include "listener/listener_types.h"

#include <QDialog>

#include <vector>

class QLineEdit;
class QSpinBox;

namespace upin::ui {

struct ListenerSettings {
    app::RetentionPolicy retention;
    core::Options limits = app::listenerLimits();
    quint64 minBodyBytesPerSecond = app::ListenerConfig{}.minBodyBytesPerSecond; // 0: off
};

class ListenerSettingsDialog final : public QDialog {
    Q_OBJECT
public:
    explicit ListenerSettingsDialog(const ListenerSettings& current, QWidget* parent = nullptr);
    ListenerSettings settings() const { return m_settings; }
    void accept() override; // validates every field; stays open, naming the bad one, when one is not a size

private:
    ListenerSettings m_settings;
    QSpinBox* m_keep;
    QLineEdit* m_keepBytes;
    QLineEdit* m_minBodyRate;
    std::vector<QLineEdit*> m_limits; // one per app::kUserLimits entry
};

} // namespace upin::ui
