// The Listen list's row menu: what a row can be opened, sent again, copied, revealed or deleted as.

#include "views/listen_view.h"

#include "models/capture_filter.h"
#include "models/capture_list_model.h"

#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTableView>
#include <QUrl>

namespace upin::ui {

void ListenView::showRowMenu(const QPoint& at)
{
    const QModelIndex index = m_table->indexAt(at);
    if (!index.isValid())
        return;
    const int source = sourceRow(index);
    const CaptureListModel::Row row = m_model->row(source);
    QMenu menu(this);
    QAction* inspect = menu.addAction(tr("Inspect"));
    inspect->setEnabled(!row.folder.isEmpty() || row.record || row.state == app::CaptureState::Refused);
    const bool stored = !row.folder.isEmpty() && row.state != app::CaptureState::Receiving;
    QAction* resend = menu.addAction(tr("Resend…"));
    resend->setEnabled(stored);
    resend->setToolTip(tr("Put this request in the Send tab as it came (parts, method, header fields) to edit and "
                          "send again"));
    QAction* curl = menu.addAction(tr("Copy as curl"));
    curl->setEnabled(stored);
    QAction* har = menu.addAction(tr("Export HAR…"));
    har->setEnabled(stored);
    const QStringList listed = listedFolders();
    QAction* harAll =
        menu.addAction(listed.size() == 1 ? tr("Export the 1 stored capture listed as HAR…")
                                          : tr("Export the %1 stored captures listed as HAR…").arg(listed.size()));
    harAll->setEnabled(!listed.isEmpty());
    harAll->setToolTip(tr("Every stored capture the list shows (its filter applied), oldest first; refused "
                          "requests, which stored no request, are left out"));
    QAction* reveal = menu.addAction(tr("Reveal folder"));
    reveal->setEnabled(!row.folder.isEmpty());
    QAction* remove = menu.addAction(tr("Remove from list"));
    QAction* del = menu.addAction(tr("Delete capture…"));
    del->setEnabled(!row.folder.isEmpty() && row.state != app::CaptureState::Receiving);
    QAction* chosen = menu.exec(m_table->viewport()->mapToGlobal(at));
    if (chosen == inspect)
        openRow(source);
    else if (chosen == resend)
        emit resendRequested(row.folder);
    else if (chosen == curl)
        emit curlRequested(row.folder);
    else if (chosen == har || chosen == harAll)
        askHarFile(chosen == har ? QStringList{row.folder} : listed);
    else if (chosen == reveal && !QDesktopServices::openUrl(QUrl::fromLocalFile(row.folder))) // deleted since?
        QMessageBox::information(this, tr("Reveal folder"), tr("%1 could not be opened.").arg(row.folder));
    else if (chosen == remove)
        m_model->removeFinished(source);
    else if (chosen == del &&
             QMessageBox::question(this, tr("Delete capture?"),
                                   tr("Delete %1 and everything in it?").arg(row.folder)) == QMessageBox::Yes) {
        m_model->removeFinished(source);
        emit deleteRequested(row.folder);
    }
}

QStringList ListenView::listedFolders() const
{
    QStringList folders;
    for (int i = 0; i < m_filtered->rowCount(); ++i) {
        const CaptureListModel::Row& row = m_model->row(sourceRow(m_filtered->index(i, 0)));
        if (!row.folder.isEmpty() && row.state != app::CaptureState::Receiving)
            folders.append(row.folder);
    }
    return folders;
}

void ListenView::askHarFile(const QStringList& folders)
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export HAR"),
        QDir(QStandardPaths::writableLocation(QStandardPaths::DownloadLocation))
            .filePath(folders.size() == 1 ? QStringLiteral("capture.har") : QStringLiteral("captures.har")),
        tr("HAR files (*.har)"));
    if (!path.isEmpty())
        emit harExportRequested(folders, path);
}

} // namespace upin::ui
