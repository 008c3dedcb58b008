#include "views/file_dialog_fit.h"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QListView>
#include <QLocale>
#include <QScreen>
#include <QSplitter>
#include <QTreeView>

#include <algorithm>
#include <utility>

namespace upin::ui {

namespace {

class FileDialogFitter final : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Show)
            if (auto* dialog = qobject_cast<QFileDialog*>(watched)) {
                startInLastFolder(dialog);
                fit(dialog);
            }
        return QObject::eventFilter(watched, event);
    }

private:
    static QString& lastFolder()
    {
        static QString folder; // the folder of the last dialog the user accepted; the home folder before one
        return folder;
    }

    // A dialog given no folder opened in the program's working folder (the source tree, from scripts/run): a
    // HAR exported with its default name went in there. It opens where the user last was, or at home.
    static void startInLastFolder(QFileDialog* dialog)
    {
        if (dialog->property("upinFolderSet").toBool())
            return; // once: the dialog is shown again after a change of mode
        dialog->setProperty("upinFolderSet", true);
        QObject::connect(dialog, &QDialog::accepted, dialog,
                         [dialog] { lastFolder() = dialog->directory().absolutePath(); });
        if (dialog->directory().absolutePath() != QDir::currentPath())
            return;                                         // a folder the view chose (the captures folder)
        const QStringList chosen = dialog->selectedFiles(); // a save dialog's default name, "runs.csv"
        dialog->setDirectory(lastFolder().isEmpty() ? QDir::homePath() : lastFolder());
        if (dialog->acceptMode() == QFileDialog::AcceptSave && !chosen.isEmpty())
            dialog->selectFile(QFileInfo(chosen.first()).fileName());
    }

    static void fit(QFileDialog* dialog)
    {
        const QFontMetrics metrics = dialog->fontMetrics();
        const QRect screen = dialog->screen() ? dialog->screen()->availableGeometry() : QRect(0, 0, 1280, 800);
        const QSize wanted(std::min(metrics.averageCharWidth() * 130, screen.width() * 9 / 10),
                           std::min(metrics.height() * 32, screen.height() * 8 / 10));
        if (dialog->width() < wanted.width() || dialog->height() < wanted.height())
            dialog->resize(dialog->size().expandedTo(wanted));
        // The details view: the name takes what the sizes, types and dates leave, each of which reads whole.
        if (auto* tree = dialog->findChild<QTreeView*>(QStringLiteral("treeView"))) {
            QHeaderView* header = tree->header();
            const int margin = 2 * metrics.averageCharWidth() + header->style()->pixelMetric(QStyle::PM_HeaderMargin);
            const QString date =
                QLocale().toString(QDateTime(QDate(2026, 12, 30), QTime(23, 59, 59)), QLocale::ShortFormat);
            const int widths[] = {0, metrics.horizontalAdvance(QStringLiteral("1023.9 KiB")) + margin,
                                  metrics.horizontalAdvance(QStringLiteral("Markdown document")) + margin,
                                  metrics.horizontalAdvance(date) + margin};
            header->setStretchLastSection(false);
            header->setSectionResizeMode(0, QHeaderView::Stretch);
            for (int column = 1; column < 4 && column < header->count(); ++column)
                header->resizeSection(column, widths[column]);
        }
        // The side bar as wide as its longest place's name (the home folder's, a mounted drive's).
        auto* sidebar = dialog->findChild<QListView*>(QStringLiteral("sidebar"));
        auto* splitter = dialog->findChild<QSplitter*>(QStringLiteral("splitter"));
        if (sidebar && splitter && splitter->count() == 2) {
            const int side =
                std::clamp(sidebar->sizeHintForColumn(0) + 2 * sidebar->frameWidth() + 24, 120, splitter->width() / 3);
            splitter->setSizes({side, splitter->width() - side});
        }
    }
};

} // namespace

void fitFileDialogs()
{
    static bool installed = false;
    if (std::exchange(installed, true) || !qApp)
        return;
    qApp->installEventFilter(new FileDialogFitter(qApp));
}

} // namespace upin::ui
