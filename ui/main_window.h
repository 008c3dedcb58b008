#pragma once
// The main window: Send, Listen, Inspect, Compare, Probe and Matcher bench tabs, a status bar with the listener's
// state, settings that persist. It only shows values and emits intents; ServiceWiring connects it to the services.

#include <QMainWindow>
#include <QTimer>

class QLabel;
class QTabWidget;

namespace upin::ui {

class CompareView;
class InspectView;
class ListenView;
class ProbeView;
class SendView;
class BenchView;

class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    SendView* sendView() const { return m_send; }
    ListenView* listenView() const { return m_listen; }
    InspectView* inspectView() const { return m_inspect; }
    CompareView* compareView() const { return m_compare; }
    BenchView* benchView() const { return m_bench; }
    ProbeView* probeView() const { return m_probe; }
    QTabWidget* tabs() const { return m_tabs; }
    void setListenerStatus(const QString& text);
    QString listenerStatus() const;                                      // what the status bar says of the listener
    void setCapturesRoot(const QString& root) { m_capturesRoot = root; } // where Open capture folder… starts
    void setListenerBase(const QString& base) { m_listenerBase = base; } // for Getting started's curl line
    void restoreSettings();
    void saveSettings() const;

signals:
    // File > Save plan… / Open plan…: the Send tab's plan as the JSON `send --plan` reads (ServiceWiring writes
    // and reads the file, off the GUI thread).
    void planSaveRequested(const QString& path);
    void planOpenRequested(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void saveSettingsOnChange();
    void makeMenus();
    void showHelpPage(const QString& title, const QString& html);
    QTabWidget* m_tabs;
    SendView* m_send;
    ListenView* m_listen;
    InspectView* m_inspect;
    CompareView* m_compare;
    BenchView* m_bench;
    ProbeView* m_probe;
    QString m_listenerBase = QStringLiteral("http://127.0.0.1:8080");
    QLabel* m_listenerStatus;
    QString m_capturesRoot;
    QTimer m_saveSoon; // settings written once changes settle
};

} // namespace upin::ui
