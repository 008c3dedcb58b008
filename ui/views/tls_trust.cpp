#include "views/tls_trust.h"
#include "common/option_rules.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QMessageBox>
#include <QSettings>

namespace upin::ui {

QString offeredCaFile(const QString& path)
{
    return QFileInfo(path).isReadable() ? path : QString();
}

QString rememberedCaFile(const QString& key)
{
    return offeredCaFile(QSettings().value(key).toString());
}

TlsTrust::TlsTrust(const QString& whose, const QString& objectPrefix, QWidget* parent)
    : QWidget(parent), m_ca(new QPushButton(tr("CA file…"))), m_clear(new QPushButton(tr("Clear"))),
      m_insecure(new QCheckBox(tr("Don't check https certificates")))
{
    m_ca->setObjectName(objectPrefix + QStringLiteral("Ca"));
    m_ca->setToolTip(tr("%1: also trust the certificates in a PEM file (e.g. mkcert's root)").arg(whose));
    connect(m_ca, &QPushButton::clicked, this, [this] {
        if (const QString path = QFileDialog::getOpenFileName(this, tr("Certificates to trust (PEM)"), {},
                                                              tr("PEM certificates (*.pem *.crt);;All files (*)"));
            !path.isEmpty())
            if (const QString wrong = offer(path); !wrong.isEmpty())
                QMessageBox::warning(this, tr("Certificates to trust"), wrong);
    });
    m_clear->setToolTip(tr("Trust the system's CAs only"));
    m_clear->hide();
    connect(m_clear, &QPushButton::clicked, this, [this] { setCaFile({}); });
    m_insecure->setObjectName(objectPrefix + QStringLiteral("Insecure"));
    m_insecure->setToolTip(
        tr("%1: go on even when its certificate cannot be checked, as curl --insecure does").arg(whose));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_ca);
    row->addWidget(m_clear);
    row->addWidget(m_insecure);
}

QString TlsTrust::offer(const QString& path)
{
    // The command line's rule: a file that holds no certificate is refused when it is picked, not when an https
    // server's certificate later fails for want of it.
    if (const QString wrong = app::checkCaFile(path); !wrong.isEmpty())
        return tr("%1: %2; still trusted: %3").arg(path, wrong, m_caFile.isEmpty() ? tr("the system's CAs") : m_caFile);
    setCaFile(path);
    return {};
}

void TlsTrust::setCaFile(const QString& path)
{
    m_caFile = path;
    m_ca->setText(path.isEmpty() ? tr("CA file…") : QFileInfo(path).fileName());
    m_clear->setVisible(!path.isEmpty());
}

} // namespace upin::ui
