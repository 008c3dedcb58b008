#include "views/listen_view.h"
#include "status_colors.h"

#include "capture/capture_record.h"
#include "common/byte_size.h"
#include "common/option_rules.h"
#include "models/capture_filter.h"
#include "tls/tls_advice.h"
#include "views/elided_label.h"
#include "views/filter_completion.h"
#include "views/fitted_columns.h"
#include "views/proxy_panel.h"
#include "views/status_line.h"
#include "views/tls_trust.h"

#include "charts/part_timeline_chart.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTextDocument>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

namespace upin::ui {

ListenView::ListenView(QWidget* parent)
    : QWidget(parent), m_model(new CaptureListModel(this)), m_filtered(new CaptureFilter(m_model, this)),
      m_filter(new QLineEdit), m_filterNote(new ElidedLabel), m_table(new QTableView), m_port(new QSpinBox),
      m_toggle(new QPushButton), m_status(new ElidedLabel), m_tlsTrouble(new QLabel), m_examples(new QPlainTextEdit),
      m_timeline(new PartTimelineChart), m_upstream(new QLineEdit), m_forwardPort(new QSpinBox),
      m_forwardTrust(new TlsTrust(tr("https upstream"), QStringLiteral("forward"))),
      m_forwardKeep(new QCheckBox(tr("Keep parts"))), m_forwardKeepRequests(new QCheckBox(tr("Keep whole requests"))),
      m_forwardToggle(new QPushButton), m_forwardStatus(new ElidedLabel), m_forwardError(new QLabel),
      m_proxy(new ProxyPanel)
{
    QHBoxLayout* top = makeTopRow();
    setUpExamples();
    setUpFilter();
    setUpTable();
    m_tlsTrouble->setObjectName(QStringLiteral("tlsTrouble"));
    m_tlsTrouble->setWordWrap(true);
    m_tlsTrouble->setTextInteractionFlags(Qt::TextSelectableByMouse); // the path in the advice is to be copied
    m_tlsTrouble->setStyleSheet(status::textStyle(status::warning()));
    m_tlsTrouble->hide();
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_tlsTrouble);
    layout->addLayout(makeForwardPanel());
    layout->addWidget(m_forwardError);
    layout->addWidget(m_proxy);
    connect(m_proxy, &ProxyPanel::exampleChanged, this, &ListenView::showForwardExample);
    layout->addWidget(makePanes(), 1);
    setListening(false, {}, 0, {});
    setForwarding(false, {}, {});
}

// Forward mode: a second server on its own port that passes every request on to the user's server (http or
// https), listing each exchange here with the upstream's answer and the server time.
QLayout* ListenView::makeForwardPanel()
{
    m_upstream->setObjectName(QStringLiteral("forwardUpstream"));
    m_upstream->setPlaceholderText(tr("http://your-server:9000")); // short: the field is narrow at 1280 px
    m_upstream->setToolTip(tr("Your server's URL (http or https); a path, if any, goes before each request's"));
    m_upstream->setToolTip(tr("Every request sent to the forward port goes on to this server (its path, if any,\n"
                              "comes before each request's), as it arrives; its answer comes back unchanged."));
    m_forwardPort->setObjectName(QStringLiteral("forwardPort"));
    m_forwardPort->setRange(0, 65535);
    m_forwardPort->setValue(8081);
    m_forwardPort->setToolTip(tr("TCP port on 127.0.0.1 that clients send to (0 picks a free one)"));
    m_forwardKeep->setObjectName(QStringLiteral("forwardKeep"));
    m_forwardKeep->setChecked(true);
    m_forwardKeep->setToolTip(tr("Store each part's bytes in the capture folder, as /file-part does, so that Inspect\n"
                                 "shows images, text and hex and can save them; off: parsed and hashed only"));
    m_forwardKeepRequests->setObjectName(QStringLiteral("forwardKeepRequests"));
    m_forwardKeepRequests->setToolTip(tr("Also store each request as it came, head and body (forward --keep-raw), so\n"
                                         "that Inspect's Request row shows its bytes and Save part saves it"));
    m_forwardToggle->setObjectName(QStringLiteral("forwardToggle"));
    m_forwardStatus->setObjectName(QStringLiteral("forwardStatus"));
    // Why the forwarder did not start, whole on a line of its own (beside the row's buttons it was cut to "The
    // bound address is al…"), as the proxy's status has one.
    m_forwardError->setObjectName(QStringLiteral("forwardError"));
    m_forwardError->setWordWrap(true);
    m_forwardError->setTextFormat(Qt::PlainText);
    m_forwardError->setStyleSheet(status::textStyle(status::failure()));
    m_forwardError->hide();
    connect(m_forwardToggle, &QPushButton::clicked, this, [this] {
        if (m_forwarding) {
            emit forwardStopRequested();
            return;
        }
        QUrl upstream;
        if (const QString wrong = app::checkHttpUrl(m_upstream->text(), &upstream); !wrong.isEmpty()) {
            setForwarding(false, {}, {}, tr("%1 of your server in Forward to").arg(wrong));
            return;
        }
        app::ForwardSettings settings;
        settings.upstream = upstream;
        settings.caCertificates = m_forwardTrust->caFile();
        settings.insecure = m_forwardTrust->insecure();
        settings.saveParts = m_forwardKeep->isChecked();
        emit forwardRequested(settings, quint16(m_forwardPort->value()), m_forwardKeepRequests->isChecked());
    });
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Forward to")));
    row->addWidget(m_upstream, 2);
    row->addWidget(new QLabel(tr("on port")));
    row->addWidget(m_forwardPort);
    row->addWidget(m_forwardTrust);
    row->addWidget(m_forwardKeep);
    row->addWidget(m_forwardKeepRequests);
    row->addWidget(m_forwardToggle);
    row->addWidget(m_forwardStatus, 3);
    return row;
}

void ListenView::setForwardDefaults(const QString& upstream, quint16 port, const QString& caFile)
{
    m_upstream->setText(upstream);
    m_forwardPort->setValue(port);
    m_forwardTrust->setCaFile(caFile);
}

void ListenView::setForwarding(bool forwarding, const QString& base, const QString& upstream, const QString& error)
{
    m_forwarding = forwarding;
    m_forwardToggle->setText(forwarding ? tr("Stop forwarding") : tr("Forward"));
    for (QWidget* w : std::initializer_list<QWidget*>{m_upstream, m_forwardPort, m_forwardTrust, m_forwardKeep,
                                                      m_forwardKeepRequests})
        w->setEnabled(!forwarding);
    if (forwarding)
        // The upstream is in the field beside it: the label says where clients send, whole at 1280 px.
        m_forwardStatus->setFullText(tr("Forwarding from %1").arg(base), tr("to %1").arg(upstream));
    else
        m_forwardStatus->setFullText(tr("Not forwarding"));
    m_forwardError->setText(forwarding || error.isEmpty() ? QString() : tr("Not forwarding: %1").arg(error));
    m_forwardError->setVisible(!m_forwardError->text().isEmpty());
    m_forwardExample = forwarding ? QStringLiteral("curl -F file=@/etc/os-release -F note=hello '%1/file-part'  # "
                                                   "through the forwarder to %2")
                                        .arg(base, upstream)
                                  : QString();
    showForwardExample();
}

// Where a user looks for what to type: among the examples, second, seen without scrolling.
void ListenView::showForwardExample()
{
    QStringList lines = m_examples->toPlainText().split(QLatin1Char('\n'));
    lines.removeIf([](const QString& line) {
        return line.contains(QLatin1String("# through the forwarder")) ||
               line.contains(QLatin1String("# through the proxy"));
    });
    for (const QString& example : {m_proxy->example(), m_forwardExample})
        if (!example.isEmpty())
            lines.insert(std::min<qsizetype>(1, lines.size()), example);
    m_examples->setPlainText(lines.join(QLatin1Char('\n')));
}

int ListenView::sourceRow(const QModelIndex& tableIndex) const
{
    return m_filtered->mapToSource(tableIndex).row();
}

void ListenView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_followNewest) // rows listed from disk while the tab was hidden: the newest in sight when it shows
        QTimer::singleShot(0, m_table, &QTableView::scrollToBottom);
    // Whole lines of examples, three at least, whatever the splitter was scaled or dragged to (a line cut in half
    // read as a cut command), unless the user dragged them shut.
    auto* panes = findChild<QSplitter*>(QStringLiteral("listenPanes"));
    QList<int> sizes = panes->sizes();
    const int line = m_examples->fontMetrics().lineSpacing();
    // The margin above the first line; below the last, the next would show a sliver.
    const int chrome = int(m_examples->document()->documentMargin()) + 2 * m_examples->frameWidth();
    const int lines = std::max(3, (sizes.value(0) - chrome + line / 2) / line);
    const int whole = lines * line + chrome;
    if (sizes.size() == 3 && sizes[0] > 0 && sizes[0] != whole && sizes[1] > whole - sizes[0]) {
        sizes[1] -= whole - sizes[0];
        sizes[0] = whole;
        panes->setSizes(sizes);
    }
}

void ListenView::openRow(int index)
{
    {
        const CaptureListModel::Row& row = m_model->row(index);
        if (row.state == app::CaptureState::Refused)
            emit refusedActivated(
                row.id, row.endpoint + QLatin1Char('\n') +
                            m_model->data(m_model->index(index, CaptureListModel::State), Qt::DisplayRole).toString());
        else if (row.folder.isEmpty() && row.record)
            emit unstoredCaptureActivated(*row.record); // names, sizes, digests, headers: bytes not kept
        else if (row.folder.isEmpty())
            QMessageBox::information(
                this, tr("Not stored"),
                // The capture's outcome in words first (a rejected one is why the user double-clicked it).
                tr("%1\n\n%2 keeps no files, only each part's size and hash: there is nothing to open. /file-part "
                   "keeps files and field values; /capture keeps the raw body too.")
                    .arg(m_model->data(m_model->index(index, CaptureListModel::State), Qt::DisplayRole).toString(),
                         row.endpoint));
        else // a folder deleted since is said by the inspect worker: no stat here, on the GUI thread
            emit captureActivated(row.folder);
    }
}

void ListenView::setListening(bool listening, const QString& address, quint16 port, const QString& captureRoot)
{
    m_listening = listening;
    m_toggle->setText(listening ? tr("S&top") : tr("S&tart"));
    m_port->setEnabled(!listening);
    if (!listening) {
        m_status->setFullText(tr("Not listening"));
        m_tlsTrouble->hide(); // the handshakes of a listener that is gone; a new start counts afresh
        m_examples->setPlainText(tr("Start the listener to receive uploads."));
        showForwardExample();
        return;
    }
    m_port->setValue(port);
    m_failedHandshakes = 0;
    m_tlsDetail.clear();
    const QString base = QStringLiteral("http://%1:%2").arg(address).arg(port);
    m_base = base;
    m_captureRoot = captureRoot;
    m_statusText = tr("Listening on %1").arg(base);
    m_lastHandshakeFailure = {};
    m_folderUsage.clear(); // perhaps another folder: measured again
    showListeningStatus();
    // Ready to paste: a file every Linux has (the comment says to use any), URLs quoted (zsh would read the ? of
    // a query as a pattern).
    m_examples->setPlainText(
        QStringLiteral("# any file of yours works in place of /etc/os-release\n"
                       "curl -F file=@/etc/os-release -F note=hello '%1/file-part'\n"
                       "curl -F file=@/etc/os-release '%1/part-event?matcher=kmp'\n"
                       "curl -F file=@/etc/os-release '%1/file-part?hash=xxh3'\n"
                       "curl -H 'Transfer-Encoding: chunked' -F file=@/etc/os-release '%1/capture'\n"
                       "curl -F file=@/etc/os-release '%1/discard'\n")
            .arg(base));
    showForwardExample();
}

void ListenView::setTls(const QString& base, const QString& certificatePath, const QString& fingerprint)
{
    m_statusText = tr("Listening on %1 and %2").arg(m_base, base);
    m_certificatePath = certificatePath;
    m_tlsDetail = tr("HTTPS certificate (self-signed for localhost, 127.0.0.1 and ::1, made on first use): %1\n"
                     "SHA-256 fingerprint: %2")
                      .arg(certificatePath, fingerprint);
    showListeningStatus();
    QStringList lines = m_examples->toPlainText().split(QLatin1Char('\n'));
    lines.insert(
        1, QStringLiteral("curl --cacert '%1' -F file=@/etc/os-release '%2/file-part'").arg(certificatePath, base));
    m_examples->setPlainText(lines.join(QLatin1Char('\n'))); // second, after the comment: seen without scrolling
}

// Where we listen, then the captures' folder (a long path is elided, so it comes last); the certificate in the
// tooltip. Failed TLS handshakes get a line of their own that wraps: the advice holds a path to copy, which an
// elided status would cut at 1200 px.
void ListenView::showListeningStatus()
{
    QString detail = m_tlsDetail;
    m_tlsTrouble->setVisible(m_failedHandshakes > 0);
    if (m_failedHandshakes > 0) {
        const QString advice = app::tlsFailureAdvice(m_lastHandshakeFailure.errorDetail, m_certificatePath);
        m_tlsTrouble->setText(
            tr("%n TLS handshake(s) failed, the last from %1: %2", nullptr, m_failedHandshakes)
                .arg(m_lastHandshakeFailure.client, advice.isEmpty() ? m_lastHandshakeFailure.errorDetail : advice));
        m_tlsTrouble->setToolTip(tr("OpenSSL said: %1").arg(m_lastHandshakeFailure.errorDetail));
        detail += tr("\nLast failed handshake: %1").arg(m_lastHandshakeFailure.errorDetail);
    }
    // The size before the path: a long path is what the label cuts when the window is narrow.
    // "Listening on URL — 5.73 MiB of 5.00 GiB in ~/.local/share/UploadInspector/captures": the folder's own name
    // says captures ("— captures (…) in …" was cut at its last word at 1280 px).
    // The home folder as ~, as a shell says it: the path then fits at 1280 px (the tooltip has it whole).
    QString root = m_captureRoot;
    const QString home = QDir::homePath();
    if (root.startsWith(home + QLatin1Char('/')))
        root = QLatin1Char('~') + root.mid(home.size());
    m_status->setFullText(
        m_statusText + (m_folderUsage.isEmpty() ? tr(" — %1").arg(root) : tr(" — %1 in %2").arg(m_folderUsage, root)),
        detail.isEmpty() ? m_captureRoot : m_captureRoot + QLatin1Char('\n') + detail);
}

void ListenView::setFolderUsage(quint64 bytes, quint64 limit)
{
    const QString usage = limit > 0 ? tr("%1 of %2").arg(app::formatBytes(bytes), app::formatBytes(limit))
                                    : tr("%1, no size limit").arg(app::formatBytes(bytes));
    if (usage == m_folderUsage)
        return;
    m_folderUsage = usage;
    if (m_listening)
        showListeningStatus();
}

} // namespace upin::ui
