#pragma once
// The Probe tab's service side: a ProbeRunner on a thread of its own, the baseline listener it measures the wire
// with, and the list of listening processes read off the GUI thread. Part of ServiceWiring (the one place where
// services meet views); a class of its own so that each stays a page long.

#include "probe/baseline_listener.h"

#include <QObject>
#include <QThread>

namespace upin::app {
class ProbeRunner;
}

namespace upin::ui {

class ProbeView;

class ProbeWiring final : public QObject {
    Q_OBJECT
public:
    explicit ProbeWiring(ProbeView& view, QObject* parent = nullptr);
    ~ProbeWiring() override; // cancels a probe under way and waits for its thread

private:
    void listProcesses();

    ProbeView& m_view;
    app::BaselineListener m_baseline;
    QThread m_thread;
    app::ProbeRunner* m_runner;
};

} // namespace upin::ui
