#include "views/listener_settings_dialog.h"

#include "common/byte_size.h"
#include "common/limit_hint.h"
#include "common/qt_text.h"
#include "server/listener_guards.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSpinBox>

namespace upin::ui {

ListenerSettingsDialog::ListenerSettingsDialog(const ListenerSettings& current, QWidget* parent)
    : QDialog(parent), m_settings(current), m_hash(new QComboBox), m_tls(new QCheckBox(tr("Serve HTTPS too, on port"))),
      m_tlsPort(new QSpinBox), m_keep(new QSpinBox), m_keepBytes(new QLineEdit),
      m_bodyOnly(new QCheckBox(tr("/capture keeps the body once")))
{
    setWindowTitle(tr("Listener settings"));
    auto* form = new QFormLayout;
    for (core::HashKind kind : core::kHashNames.values())
        m_hash->addItem(app::toQString(core::hashTitle(kind)), int(kind));
    m_hash->setCurrentIndex(m_hash->findData(int(current.hash)));
    m_hash->setObjectName(QStringLiteral("listenHash"));
    m_hash->setToolTip(tr("The digest of each part, for uploads that do not ask with ?hash= (--hash). SHA-256 is "
                          "what sha256sum prints; XXH3-128 is an integrity check about ten times faster, which "
                          "xxh128sum prints. Our sender asks for the hash it uses itself."));
    form->addRow(tr("Hash parts"), m_hash);
    m_tls->setObjectName(QStringLiteral("listenTls"));
    m_tls->setChecked(current.tls);
    m_tls->setToolTip(tr("The same endpoints over TLS 1.2/1.3 (--tls), with a self-signed certificate for localhost, "
                         "127.0.0.1 and ::1 made on first use and kept in the app's data folder; the Listen tab "
                         "shows its path and fingerprint, and the Send tab trusts it"));
    m_tlsPort->setRange(1, 65535);
    m_tlsPort->setValue(current.tlsPort);
    m_tlsPort->setEnabled(current.tls);
    connect(m_tls, &QCheckBox::toggled, m_tlsPort, &QSpinBox::setEnabled);
    form->addRow(m_tls, m_tlsPort);
    m_keep->setRange(1, 1'000'000);
    m_keep->setValue(current.retention.keepCaptures);
    m_keep->setToolTip(tr("Finished captures kept in the captures folder; older ones are deleted (--keep)"));
    form->addRow(tr("Keep captures"), m_keep);
    m_keepBytes->setPlaceholderText(tr("no size limit"));
    if (current.retention.keepBytes > 0)
        m_keepBytes->setText(app::exactByteSize(current.retention.keepBytes));
    m_keepBytes->setToolTip(tr("Total size of kept captures, e.g. 10G; older ones are deleted (--keep-bytes). "
                               "A capture still receiving is never deleted."));
    form->addRow(tr("Keep at most"), m_keepBytes);
    m_bodyOnly->setObjectName(QStringLiteral("listenBodyOnly"));
    m_bodyOnly->setChecked(current.captureBodyOnly);
    m_bodyOnly->setToolTip(tr("/capture stores head.raw and body.raw only, not each file part in a file as well: "
                              "half the disk. Inspect, Save part and Copy as curl read the parts from body.raw "
                              "(--capture-body-only)."));
    form->addRow(QString(), m_bodyOnly);
    addLimitsAndGuards(form, current);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &ListenerSettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* note = new QLabel(tr("The listener restarts with these settings; uploads in progress are cut off."));
    note->setWordWrap(true);
    form->addRow(note);
    form->addRow(buttons);
    setLayout(form);
    setMinimumWidth(560); // room for an origin or two and the placeholders without cutting them
}

// The limits and the guards, one line each from the tables the CLI's options are made from (limits.h,
// listener_guards.h), under a caption each.
void ListenerSettingsDialog::addLimitsAndGuards(QFormLayout* form, const ListenerSettings& current)
{
    // Section captions on one line: a wrapped label spanning a form row was cut to its first line and a half.
    auto* limitsTitle = new QLabel(tr("<b>Limits for uploads</b> — past one, the body is refused, naming it"));
    limitsTitle->setToolTip(tr("What a client may send before the listener rejects the body with an error naming "
                               "the limit"));
    form->addRow(limitsTitle);
    for (const auto& limit : app::kUserLimits) {
        auto* edit = new QLineEdit(app::limitText(limit, limit.get(current.limits)));
        edit->setToolTip(
            tr("%1 (--%2)").arg(QString::fromLatin1(limit.description), QString::fromLatin1(limit.option)));
        // "max-field-size" -> "Max field size" (the words a rejected upload names), the option in the tooltip
        form->addRow(app::limitLabel(limit), edit);
        m_limits.push_back(edit);
    }
    auto* guardsTitle = new QLabel(tr("<b>Slow and cross-site clients</b> — deadlines, allowed pages and hosts"));
    guardsTitle->setToolTip(tr("Deadlines that free connection slots, and the web pages and host names served"));
    form->addRow(guardsTitle);
    for (const auto& guard : app::kGuardSettings) {
        auto* edit = new QLineEdit(guard.get(current.guards));
        edit->setToolTip(tr("%1 (--%2)").arg(QString::fromLatin1(guard.help), QString::fromLatin1(guard.option)));
        if (guard.repeatable)
            edit->setPlaceholderText(tr("none (separate several with commas)"));
        form->addRow(tr(guard.label), edit);
        m_guards.push_back(edit);
    }
}

void ListenerSettingsDialog::accept()
{
    ListenerSettings chosen = m_settings;
    chosen.hash = core::HashKind(m_hash->currentData().toInt());
    chosen.tls = m_tls->isChecked();
    chosen.tlsPort = quint16(m_tlsPort->value());
    chosen.retention.keepCaptures = m_keep->value();
    chosen.captureBodyOnly = m_bodyOnly->isChecked();
    if (m_keepBytes->text().trimmed().isEmpty()) {
        chosen.retention.keepBytes = 0;
    } else if (auto bytes = app::parseByteSize(m_keepBytes->text().trimmed())) {
        chosen.retention.keepBytes = *bytes;
    } else {
        QMessageBox::warning(this, windowTitle(), tr("“Keep at most” is not a size such as 500M or 10G."));
        m_keepBytes->setFocus();
        return;
    }
    for (size_t i = 0; i < m_guards.size(); ++i) {
        const app::GuardSetting& guard = app::kGuardSettings[i];
        if (const QString wrong = guard.set(chosen.guards, m_guards[i]->text()); !wrong.isEmpty()) {
            QMessageBox::warning(this, windowTitle(),
                                 tr("“%1”: “%2”: %3").arg(tr(guard.label), m_guards[i]->text(), wrong));
            m_guards[i]->setFocus();
            return;
        }
    }
    for (size_t i = 0; i < m_limits.size(); ++i) {
        const app::UserLimit& limit = app::kUserLimits[i];
        const QString text = m_limits[i]->text().trimmed();
        if (!app::setLimit(limit, chosen.limits, text)) {
            QMessageBox::warning(this, windowTitle(),
                                 tr("“%1”: “%2” is not a %3.")
                                     .arg(app::limitLabel(limit), text,
                                          limit.isCount ? tr("positive number") : tr("size such as 512K, 4M or 2G")));
            m_limits[i]->setFocus();
            return;
        }
    }
    m_settings = chosen;
    QDialog::accept();
}

} // namespace upin::ui
