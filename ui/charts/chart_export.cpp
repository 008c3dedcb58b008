#include "charts/chart_export.h"
#include "views/status_line.h"

#include <QAction>
#include <QBuffer>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPointer>
#include <QSaveFile>
#include <QThreadPool>

namespace upin::ui {

namespace {
void warn(QWidget* parent, const QString& path, const QString& reason)
{
    QMessageBox::warning(parent, QObject::tr("Export failed"),
                         QObject::tr("Could not write %1:\n%2").arg(QDir::toNativeSeparators(path), reason));
}
} // namespace

void addPngExport(QChartView* view)
{
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* save = new QAction(QObject::tr("Save chart as PNG…"), view);
    QObject::connect(save, &QAction::triggered, view, [view] {
        QString path =
            QFileDialog::getSaveFileName(view, QObject::tr("Save chart as PNG"), QStringLiteral("chart.png"));
        if (!path.isEmpty())
            saveExports(view, {{path, pngBytes(view->grab().toImage())}});
    });
    view->addAction(save);
}

QString exportBase(const QString& chosen)
{
    const QString suffix = QFileInfo(chosen).suffix().toLower();
    if (suffix == QLatin1String("csv") || suffix == QLatin1String("json") || suffix == QLatin1String("png"))
        return chosen.chopped(suffix.size() + 1);
    return chosen;
}

QByteArray pngBytes(const QImage& image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

void saveExports(QWidget* parent, const QList<ExportFile>& files, const QString& saved)
{
    QPointer<QWidget> owner(parent);
    QThreadPool::globalInstance()->start([owner, files, saved] {
        QString failedPath, reason;
        for (const ExportFile& f : files) {
            QSaveFile file(f.path);
            if (!file.open(QIODevice::WriteOnly) || file.write(f.bytes) != f.bytes.size() || !file.commit()) {
                failedPath = f.path;
                reason = file.errorString();
                break;
            }
        }
        QMetaObject::invokeMethod(owner, [owner, files, saved, failedPath, reason] {
            if (!owner)
                return;
            if (!failedPath.isEmpty())
                warn(owner, failedPath, reason);
            else if (!saved.isEmpty())
                showStatus(owner, saved);
            else
                showStatus(owner,
                           QObject::tr("Saved %1")
                               .arg(files.size() == 1
                                        ? files.first().path
                                        : QObject::tr("%1 files: %2…").arg(files.size()).arg(files.first().path)));
        });
    });
}

} // namespace upin::ui
