// ServiceWiring's Proxy row (views/proxy_panel.h): a forward proxy started with the listener's settings, its
// exchanges listed with the captures, its port, filters, Keep parts and the CA file it trusts remembered; the
// certificate authority is the user's one (the data folder's, the CLI's too), so that a client told to trust it
// once trusts both.

#include "main_window.h"
#include "modes/server.h"
#include "proxy/ca_advice.h"
#include "proxy/local_ca.h"
#include "service_wiring.h"
#include "views/listen_view.h"
#include "views/proxy_panel.h"
#include "views/tls_trust.h"

#include <QSettings>

namespace upin::ui {

void ServiceWiring::connectProxy()
{
    ProxyPanel* panel = m_window.listenView()->proxyPanel();
    // A client that does not trust the proxy's authority fails its tunnel's handshake: said in the Proxy row, not in
    // the listener's status, whose advice is about the listener's own certificate.
    connect(m_proxy, &app::Server::events, this, [this, panel](QList<app::CaptureEvent> batch) {
        for (const app::CaptureEvent& e : batch)
            if (e.kind == app::CaptureEvent::Kind::TlsHandshakeFailed)
                panel->setTrouble(e.noTlsBegun
                                      ? tr("a client opened a tunnel and sent nothing (%1)").arg(e.capture.errorDetail)
                                      : tr("a client's TLS handshake failed (%1): does it trust the authority?")
                                            .arg(e.capture.errorDetail));
        batch.removeIf(
            [](const app::CaptureEvent& e) { return e.kind == app::CaptureEvent::Kind::TlsHandshakeFailed; });
        m_window.listenView()->applyEvents(batch);
    });
    const QSettings settings;
    panel->setPort(quint16(settings.value(QStringLiteral("proxy/port"), 8082).toUInt()));
    app::ForwardSettings chosen;
    chosen.saveParts = settings.value(QStringLiteral("proxy/keepParts"), true).toBool();
    chosen.onlyHosts = settings.value(QStringLiteral("proxy/onlyHosts")).toStringList();
    chosen.onlyUploads = settings.value(QStringLiteral("proxy/onlyUploads"), false).toBool();
    chosen.caCertificates = rememberedCaFile(QStringLiteral("proxy/caFile"));
    panel->setChosen(chosen, settings.value(QStringLiteral("proxy/keepWholeRequests"), false).toBool());
    connect(panel, &ProxyPanel::startRequested, this,
            [this, panel](const app::ForwardSettings& proxy, quint16 port, bool keepWholeRequests) {
                QSettings remembered;
                remembered.setValue(QStringLiteral("proxy/keepWholeRequests"), keepWholeRequests);
                remembered.setValue(QStringLiteral("proxy/port"), port);
                remembered.setValue(QStringLiteral("proxy/keepParts"), proxy.saveParts);
                remembered.setValue(QStringLiteral("proxy/onlyHosts"), proxy.onlyHosts);
                remembered.setValue(QStringLiteral("proxy/onlyUploads"), proxy.onlyUploads);
                remembered.setValue(QStringLiteral("proxy/caFile"), proxy.caCertificates);
                app::ServerConfig config = relayConfig(port);
                config.forward = proxy;
                config.keepRaw = keepWholeRequests;
                if (!m_proxy->start(config)) { // a port taken, an authority that cannot be used: said in the row
                    panel->setRunning(false, {}, {}, {}, m_proxy->errorString());
                    return;
                }
                const QString url = QStringLiteral("http://127.0.0.1:%1").arg(m_proxy->port());
                const auto ca = m_proxy->proxyCa();
                panel->setRunning(true, url, ca->certificatePath(),
                                  app::caTrustAdvice(ca->certificatePath(), ca->fingerprint(), url));
            });
    connect(panel, &ProxyPanel::stopRequested, this, [this, panel] {
        m_proxy->stop();
        panel->setRunning(false, {}, {}, {});
    });
}

} // namespace upin::ui
