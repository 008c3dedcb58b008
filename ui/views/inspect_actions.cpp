// InspectView's actions on what is open: Save part / Save all parts (written by the inspect worker, decoded when
// the Decode box is ticked), Copy as curl, Copy digest, the parts' context menu, asking for a boundary.

#include "views/inspect_view.h"

#include "capture/capture_store.h"
#include "common/qt_text.h"
#include "inspect/part_bytes.h"
#include "inspect/resend.h"
#include "sender/upload_plan.h"
#include "views/elided_label.h"
#include "views/status_line.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QTabWidget>
#include <QTreeView>

namespace upin::ui {

void InspectView::rememberSentHashes(quint64 captureId, const QStringList& hashes)
{
    m_sentHashes.insert(captureId, hashes);
    if (m_result.capture && m_result.capture->id == captureId)
        showSentHashes(hashes);
}

void InspectView::showSentHashes(const QStringList& hashes)
{
    m_model->setSentHashes(hashes);
    // Empty for any other capture or file: its room goes to the names.
    m_tree->setColumnHidden(PartTreeModel::Sent, hashes.isEmpty());
}

QString InspectView::curlBlocker() const
{
    // Checked from the record or the report, reading nothing; the command is made when asked, off this thread
    // (another source's parts are written out for it, and they may be large).
    return m_result.capture ? app::whyCaptureCannotBeResent(m_result)
                            : app::whyPartsCannotBeResent(m_result, selectedHarEntry());
}

int InspectView::selectedHarEntry() const
{
    if (m_result.harEntries.isEmpty())
        return -1;
    QModelIndex at = m_tree->currentIndex();
    while (at.parent().isValid())
        at = at.parent();
    const core::PartSummary* top = m_model->part(at);
    const auto& requests = m_model->report().parts;
    for (size_t i = 0; i < requests.size(); ++i)
        if (&requests[i] == top)
            return int(i);
    return -1; // none selected: the first upload
}

void InspectView::copyAsCurl()
{
    if (!m_result.capture)
        showStatus(this, tr("Writing the parts a curl command sends…"));
    emit copyCurlRequested(m_result, selectedHarEntry());
}

void InspectView::askForBoundary()
{
    bool ok = false;
    QString value = QInputDialog::getText(
        this, tr("Boundary needed"),
        tr("No delimiter line was found at the start of %1.\nEnter its Content-Type header value or just "
           "the boundary:")
            .arg(m_result.title),
        QLineEdit::Normal, QStringLiteral("multipart/form-data; boundary="), &ok);
    if (!ok || value.trimmed().isEmpty())
        return;
    if (!value.contains(QLatin1Char('/')))
        value = QStringLiteral("multipart/form-data; boundary=") + value.trimmed();
    emit openRequested(m_result.path, value);
}

void InspectView::copyDigest()
{
    const core::PartSummary* part = m_model->part(m_tree->currentIndex());
    if (!part || part->digest.empty())
        return;
    QApplication::clipboard()->setText(QString::fromStdString(part->digest));
    showStatus(this, tr("Copied part %1's %2")
                         .arg(part->index)
                         .arg(m_model->headerData(PartTreeModel::Digest, Qt::Horizontal, Qt::DisplayRole).toString()));
}

void InspectView::showPartMenu(const QPoint& at)
{
    const QModelIndex index = m_tree->indexAt(at);
    if (!index.isValid())
        return;
    m_tree->setCurrentIndex(index); // the menu acts on the row under the mouse
    const core::PartSummary* part = m_model->part(index);
    QMenu menu(this);
    QAction* save = menu.addAction(m_model->isRequest(index) ? tr("Save the request…") : tr("Save part…"), this,
                                   &InspectView::savePart);
    save->setEnabled(m_savePart->isEnabled());
    QAction* digest = menu.addAction(tr("Copy digest"), this, &InspectView::copyDigest);
    digest->setEnabled(part && !part->digest.empty());
    QAction* curl = menu.addAction(tr("Copy as curl"), this, &InspectView::copyAsCurl);
    curl->setEnabled(m_copyCurl->isEnabled());
    menu.addAction(tr("Show in hex"), this, [this, part] {
        if (part)
            showHexAt(part->bodyOffset);
        m_tabs->setCurrentWidget(m_hexPane);
    });
    menu.exec(m_tree->viewport()->mapToGlobal(at));
}

void InspectView::saveParts(const QList<QPair<const core::PartSummary*, QString>>& targets)
{
    QList<app::PartCopy> copies;
    QStringList partial;
    for (const auto& [part, target] : targets) {
        const auto encoding =
            m_decode->isChecked()
                ? core::partEncodingFromName(part->transferEncoding.value_or("")).value_or(core::PartEncoding::Identity)
                : core::PartEncoding::Identity;
        copies.append({app::locatePart(m_result, m_model->report(), *part), target, encoding});
        if (!part->complete || copies.last().source.available < part->size)
            partial << QFileInfo(target).fileName();
    }
    startSaving(copies, partial);
}

void InspectView::startSaving(const QList<app::PartCopy>& copies, const QStringList& partial)
{
    m_partialSaves = partial;
    // What the status bar names when it is done: the file, or how many went into which folder.
    m_saving = copies.size() == 1 ? QDir::toNativeSeparators(copies.first().target)
                                  : tr("%1 parts into %2")
                                        .arg(copies.size())
                                        .arg(QDir::toNativeSeparators(QFileInfo(copies.first().target).path()));
    m_savePart->setEnabled(false);
    m_saveAll->setEnabled(false);
    m_titleBeforeSave = m_title->fullText();
    m_title->setFullText(tr("Saving %1…").arg(m_saving));
    emit savePartsRequested(copies);
}

void InspectView::onPartsSaved(int count, const QStringList& failures)
{
    m_savePart->setEnabled(m_partBytes.missing.isEmpty() && m_tree->currentIndex().isValid());
    m_saveAll->setEnabled(true);
    if (m_title->fullText().startsWith(tr("Saving"))) // not when another file was opened meanwhile
        m_title->setFullText(m_titleBeforeSave);
    if (failures.isEmpty())
        showStatus(this, tr("Saved %1").arg(m_saving.isEmpty() ? countOf(count, tr("part"), tr("parts")) : m_saving));
    if (failures.isEmpty() && !m_partialSaves.isEmpty()) // written, but the user should know they are not whole
        QMessageBox::information(this, tr("Save parts"),
                                 tr("Saved. These parts did not arrive whole, so their files hold only the bytes "
                                    "that were kept:\n%1")
                                     .arg(m_partialSaves.join(QLatin1Char('\n'))));
    if (!failures.isEmpty())
        QMessageBox::warning(this, tr("Save parts"),
                             tr("%1 of %2 parts could not be written:\n%3")
                                 .arg(failures.size())
                                 .arg(count)
                                 .arg(failures.join(QLatin1Char('\n'))));
}

void InspectView::savePart()
{
    if (m_model->isRequest(m_tree->currentIndex())) {
        const bool bodyOnly = m_result.capture && m_partBytes.before.isEmpty(); // no head.raw kept
        const QString target =
            QFileDialog::getSaveFileName(this, bodyOnly ? tr("Save the body") : tr("Save the request"),
                                         bodyOnly ? QStringLiteral("body.bin") : QStringLiteral("request.http"));
        if (target.isEmpty())
            return;
        startSaving({{m_partBytes, target}}, {});
        return;
    }
    const core::PartSummary* part = m_model->part(m_tree->currentIndex());
    if (!part)
        return;
    // Not the client's name as it came: tabs, a right-to-left mark or 3,000 bytes of it were suggested.
    const QString suggested = app::CaptureStore::suggestedFileName(part->filename, part->name);
    QString target = QFileDialog::getSaveFileName(this, tr("Save part"), suggested);
    if (!target.isEmpty())
        saveParts({{part, target}});
}

void InspectView::saveAllParts()
{
    if (const QString dir = QFileDialog::getExistingDirectory(this, tr("Save all parts into")); !dir.isEmpty())
        saveAllPartsInto(dir);
}

void InspectView::saveAllPartsInto(const QString& dir)
{
    // Top-level parts; of a HAR file, every request's parts, each file named by its request too.
    QList<QPair<const core::PartSummary*, QString>> targets;
    auto add = [&](const std::vector<core::PartSummary>& parts, const QString& prefix) {
        for (const auto& part : parts) {
            if (!app::locatePart(m_result, m_model->report(), part).missing.isEmpty())
                continue; // not kept: nothing to save
            // The names the capture folder's parts/ has: a client's name with tabs, bidi marks, no letters or 3,000
            // bytes of them was written as it came, or failed.
            targets.append({&part, QDir(dir).filePath(prefix + app::CaptureStore::safePartFileName(
                                                                   part.index, part.filename, part.name))});
        }
    };
    if (m_result.harEntries.isEmpty())
        add(m_model->report().parts, {});
    else
        for (size_t i = 0; i < m_model->report().parts.size(); ++i)
            add(m_model->report().parts[i].children, QStringLiteral("request%1-").arg(i));
    saveParts(targets);
}

} // namespace upin::ui
