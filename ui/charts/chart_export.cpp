#include "charts/chart_export.h"
#include "views/status_line.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QImageWriter>
#include <QMessageBox>
#include <QSaveFile>

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
            writePng(view, view, path);
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

bool writeExport(QWidget* parent, const QString& path, const QByteArray& data)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        warn(parent, path, file.errorString());
        return false;
    }
    showStatus(parent, QObject::tr("Saved %1").arg(path));
    return true;
}

bool writePng(QWidget* parent, QWidget* source, const QString& path)
{
    QImageWriter writer(path, "png");
    if (!writer.write(source->grab().toImage())) {
        warn(parent, path, writer.errorString());
        return false;
    }
    showStatus(parent, QObject::tr("Saved %1").arg(path));
    return true;
}

} // namespace upin::ui
