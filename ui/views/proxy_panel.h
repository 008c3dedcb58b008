#pragma once
// The Listen tab's Proxy row: a forward proxy (what `upload-inspector-cli proxy` runs) on a port of its own, for
// the uploads of programs that cannot be pointed at another URL (a browser, an SDK). It says where the proxy's
// certificate authority is, with a button that copies its path and the way to trust it in each kind of client in
// the tooltip; and it takes the filters. Its exchanges are listed with the captures. Emits intents; never touches a
// socket.

#include "server/server_config.h"

#include <QWidget>

class QCheckBox;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace upin::ui {

class ElidedLabel;
class TlsTrust;

class ProxyPanel final : public QWidget {
    Q_OBJECT
public:
    explicit ProxyPanel(QWidget* parent = nullptr);
    void setPort(quint16 port);
    // The filters, Keep parts and Keep whole requests as last chosen (ServiceWiring remembers them with the port).
    void setChosen(const app::ForwardSettings& settings, bool keepWholeRequests);
    // Whether a proxy runs (url: its address; caPath and trustAdvice: its authority's), or why it could not start.
    void setRunning(bool running, const QString& url, const QString& caPath, const QString& trustAdvice,
                    const QString& error = {});
    // What went wrong for its clients last (a TLS handshake they gave up), after its address.
    void setTrouble(const QString& trouble);
    // A curl line through the proxy, for the examples, while it runs; else empty.
    const QString& example() const { return m_example; }
    app::ForwardSettings chosenSettings() const;

signals:
    // keepWholeRequests: each request's head and body as it came (the CLI's --keep-raw), whatever its body.
    void startRequested(const upin::app::ForwardSettings& settings, quint16 port, bool keepWholeRequests);
    void stopRequested();
    void exampleChanged();

private:
    QSpinBox* m_port;
    TlsTrust* m_trust; // the servers' certificates: the system's authorities, a CA file, or none checked
    QCheckBox* m_keep; // store the parts' bytes, so that Inspect can show them
    QCheckBox* m_keepRequests;
    QLineEdit* m_onlyHosts;
    QCheckBox* m_onlyUploads;
    QPushButton* m_toggle;
    QPushButton* m_copyCa;
    ElidedLabel* m_status;
    QString m_caPath;
    QString m_runningText; // where it runs and the authority to trust
    QString m_trustAdvice;
    QString m_example;
    bool m_running = false;
};

} // namespace upin::ui
