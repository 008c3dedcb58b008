#include "views/proxy_panel.h"

#include "views/elided_label.h"
#include "views/tls_trust.h"

#include <QCheckBox>
#include <QClipboard>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

namespace upin::ui {

ProxyPanel::ProxyPanel(QWidget* parent)
    : QWidget(parent), m_port(new QSpinBox), m_trust(new TlsTrust(tr("https servers"), QStringLiteral("proxy"))),
      m_keep(new QCheckBox(tr("Keep parts"))), m_keepRequests(new QCheckBox(tr("Keep whole requests"))),
      m_onlyHosts(new QLineEdit), m_onlyUploads(new QCheckBox(tr("Only uploads"))), m_toggle(new QPushButton),
      m_copyCa(new QPushButton(tr("Copy CA path"))), m_status(new ElidedLabel)
{
    m_port->setObjectName(QStringLiteral("proxyPort"));
    m_port->setRange(0, 65535);
    m_port->setValue(8082);
    m_port->setToolTip(tr("TCP port on 127.0.0.1 that clients use as their proxy (0 picks a free one)"));
    m_keep->setObjectName(QStringLiteral("proxyKeep"));
    m_keep->setChecked(true);
    m_keep->setToolTip(tr("Store each part's bytes in the capture folder, so that Inspect shows images, text and hex\n"
                          "and can save them; off: parsed and hashed only"));
    m_keepRequests->setObjectName(QStringLiteral("proxyKeepRequests"));
    m_keepRequests->setToolTip(tr("Also store each request as it came, head and body (proxy --keep-raw): a JSON or\n"
                                  "other body that is not multipart is then kept too, not only counted and hashed"));
    m_onlyHosts->setObjectName(QStringLiteral("proxyOnlyHosts"));
    m_onlyHosts->setPlaceholderText(tr("all hosts, or e.g. *.example.com"));
    m_onlyHosts->setToolTip(tr("List only requests for these hosts (names or globs, separated by commas or spaces);\n"
                               "the rest are relayed and not kept"));
    m_onlyUploads->setObjectName(QStringLiteral("proxyOnlyUploads"));
    m_onlyUploads->setToolTip(tr("List only requests with a body: a browser's GETs are relayed and not kept"));
    m_toggle->setObjectName(QStringLiteral("proxyToggle"));
    m_copyCa->setObjectName(QStringLiteral("proxyCopyCa"));
    m_status->setObjectName(QStringLiteral("proxyStatus"));
    m_copyCa->setToolTip(tr("Copy the path of the proxy's certificate authority (PEM), which clients are to trust"));
    connect(m_copyCa, &QPushButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(m_caPath); });
    connect(m_toggle, &QPushButton::clicked, this, [this] {
        if (m_running)
            emit stopRequested();
        else
            emit startRequested(chosenSettings(), quint16(m_port->value()), m_keepRequests->isChecked());
    });
    // The status on a line of its own: the proxy's address and the authority's path are what a user copies, and
    // beside the filters they were cut to "Proxy on http://127…".
    auto* lines = new QVBoxLayout(this);
    lines->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    auto* statusRow = new QHBoxLayout;
    lines->addLayout(row);
    lines->addLayout(statusRow);
    row->addWidget(new QLabel(tr("Proxy on port")));
    row->addWidget(m_port);
    row->addWidget(m_trust);
    row->addWidget(m_keep);
    row->addWidget(m_keepRequests);
    row->addWidget(new QLabel(tr("only hosts")));
    row->addWidget(m_onlyHosts, 1);
    row->addWidget(m_onlyUploads);
    row->addWidget(m_toggle);
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_copyCa);
    setRunning(false, {}, {}, {});
}

void ProxyPanel::setTrouble(const QString& trouble)
{
    if (m_running)
        m_status->setFullText(m_runningText + QStringLiteral(" — ") + trouble, m_trustAdvice);
}

void ProxyPanel::setPort(quint16 port)
{
    m_port->setValue(port);
}

void ProxyPanel::setChosen(const app::ForwardSettings& settings, bool keepWholeRequests)
{
    m_keep->setChecked(settings.saveParts);
    m_keepRequests->setChecked(keepWholeRequests);
    m_onlyHosts->setText(settings.onlyHosts.join(QStringLiteral(", ")));
    m_onlyUploads->setChecked(settings.onlyUploads);
    m_trust->setCaFile(settings.caCertificates);
}

app::ForwardSettings ProxyPanel::chosenSettings() const
{
    app::ForwardSettings settings;
    settings.proxy = true;
    settings.caCertificates = m_trust->caFile();
    settings.insecure = m_trust->insecure();
    settings.saveParts = m_keep->isChecked();
    settings.onlyHosts = m_onlyHosts->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
    settings.onlyUploads = m_onlyUploads->isChecked();
    return settings;
}

void ProxyPanel::setRunning(bool running, const QString& url, const QString& caPath, const QString& trustAdvice,
                            const QString& error)
{
    m_running = running;
    m_caPath = caPath;
    m_toggle->setText(running ? tr("Stop proxy") : tr("Start proxy"));
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_port, m_trust, m_keep, m_keepRequests, m_onlyHosts, m_onlyUploads})
        w->setEnabled(!running);
    m_copyCa->setVisible(running);
    m_runningText = tr("Proxy on %1; clients must trust %2").arg(url, caPath);
    m_trustAdvice = trustAdvice;
    if (running)
        m_status->setFullText(m_runningText, trustAdvice);
    else
        m_status->setFullText(error.isEmpty() ? tr("No proxy") : tr("No proxy: %1").arg(error));
    m_example = running ? QStringLiteral("curl -x %1 --cacert '%2' -F file=@/etc/os-release "
                                         "https://your-server/upload  # through the proxy")
                              .arg(url, caPath)
                        : QString();
    emit exampleChanged();
}

} // namespace upin::ui
