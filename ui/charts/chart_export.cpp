#include "charts/chart_export.h"

#include <QAction>
#include <QFileDialog>

namespace upin::ui {

void addPngExport(QChartView* view)
{
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* save = new QAction(QObject::tr("Save chart as PNG…"), view);
    QObject::connect(save, &QAction::triggered, view, [view] {
        QString path =
            QFileDialog::getSaveFileName(view, QObject::tr("Save chart as PNG"), QStringLiteral("chart.png"));
        if (!path.isEmpty())
            view->grab().save(path, "PNG");
    });
    view->addAction(save);
}

} // namespace upin::ui
