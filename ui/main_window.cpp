#include "main_window.h"
#include "help_pages.h"

#include "models/plan_parts_model.h"
#include "views/bench_view.h"
#include "views/compare_view.h"
#include "views/file_dialog_fit.h"
#include "views/fitted_columns.h"
#include "views/inspect_view.h"
#include "views/listen_view.h"
#include "views/probe_view.h"
#include "views/send_view.h"

#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>

namespace upin::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_tabs(new QTabWidget), m_send(new SendView), m_listen(new ListenView),
      m_inspect(new InspectView), m_compare(new CompareView), m_bench(new BenchView), m_probe(new ProbeView),
      m_listenerStatus(new QLabel)
{
    setWindowTitle(tr("Upload Inspector"));
    fitFileDialogs(); // every view's Open and Save dialogs
    setWindowIcon(QIcon(QStringLiteral(":/icons/upload-inspector.svg")));
    setAcceptDrops(true);
    saveSettingsOnChange();
    m_tabs->addTab(m_send, tr("&Send"));
    m_tabs->addTab(m_listen, tr("&Listen"));
    m_tabs->addTab(m_inspect, tr("&Inspect"));
    m_tabs->addTab(m_compare, tr("&Compare"));
    m_tabs->addTab(m_probe, tr("Pro&be")); // Alt+P is Save part and Export PNG
    m_tabs->addTab(m_bench, tr("&Matcher bench"));
    setCentralWidget(m_tabs);
    statusBar()->addPermanentWidget(m_listenerStatus);
    makeMenus();
}

// Settings are written soon after they change, not only on a clean quit: a crash keeps the plan and targets.
void MainWindow::saveSettingsOnChange()
{
    m_saveSoon.setSingleShot(true);
    m_saveSoon.setInterval(500);
    connect(&m_saveSoon, &QTimer::timeout, this, &MainWindow::saveSettings);
    const auto changed = [this] { m_saveSoon.start(); };
    PlanPartsModel* parts = m_send->partsModel();
    connect(parts, &QAbstractItemModel::rowsInserted, this, changed);
    connect(parts, &QAbstractItemModel::rowsRemoved, this, changed);
    connect(parts, &QAbstractItemModel::rowsMoved, this, changed);
    connect(parts, &QAbstractItemModel::dataChanged, this, changed);
    connect(parts, &QAbstractItemModel::modelReset, this, changed);
    connect(m_send, &SendView::sendRequested, this, changed);
    connect(m_send, &SendView::planEdited, this, changed);
    connect(m_probe, &ProbeView::startRequested, this, changed); // the Probe tab's form, as it was used
}

void MainWindow::makeMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open body or request…"), QKeySequence::Open, this, [this] {
        m_tabs->setCurrentWidget(m_inspect);
        m_inspect->openDialog();
    });
    file->addAction(tr("Open &capture folder…"), QKeySequence(QStringLiteral("Ctrl+Shift+O")), this, [this] {
        m_tabs->setCurrentWidget(m_inspect);
        m_inspect->openCaptureDialog(m_capturesRoot);
    });
    file->addSeparator();
    file->addAction(tr("Open &plan…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open an upload plan"), QString(),
                                                          tr("Upload plans (*.json);;All files (*)"));
        if (!path.isEmpty())
            emit planOpenRequested(path);
    });
    file->addAction(tr("Save p&lan…"), this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save the Send tab's plan"), QStringLiteral("upload-plan.json"),
                                         tr("Upload plans (*.json);;All files (*)"));
        if (!path.isEmpty())
            emit planSaveRequested(path);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Getting started"), QKeySequence::HelpContents, this,
                    [this] { showHelpPage(tr("Getting started"), gettingStartedPage(m_listenerBase)); });
    help->addAction(tr("&Keyboard shortcuts"), this,
                    [this] { showHelpPage(tr("Keyboard shortcuts"), keyboardShortcutsPage()); });
    help->addAction(tr("&About Upload Inspector"), this, [this] {
        QMessageBox::about(
            this, tr("About Upload Inspector"),
            tr("<h3>Upload Inspector %1</h3><p>Build and debug HTTP file uploads: send them, receive them, "
               "inspect every part and byte, and compare how fast the matchers go.</p>"
               "<p>Qt %2, OpenSSL for SHA-256.</p>")
                .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
    });
}

// A page of help beside the window, not in front of it: it stays open while the user tries what it says.
void MainWindow::showHelpPage(const QString& title, const QString& html)
{
    auto* box = new QMessageBox(QMessageBox::NoIcon, title, html, QMessageBox::Close, this);
    box->setObjectName(QStringLiteral("helpPage"));
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
    box->raise(); // and focused, so that Escape closes it rather than reaching the tab behind
    box->activateWindow();
}

void MainWindow::setListenerStatus(const QString& text)
{
    m_listenerStatus->setText(text);
}

QString MainWindow::listenerStatus() const
{
    return m_listenerStatus->text();
}

namespace {
// The column headers of the tables and trees that have a name: their widths (and order) are the user's, kept
// across sessions as splitters are.
QList<QHeaderView*> namedHeaders(const QWidget& window)
{
    QList<QHeaderView*> out;
    for (auto* view : window.findChildren<QAbstractItemView*>()) {
        if (view->objectName().isEmpty())
            continue;
        if (auto* table = qobject_cast<QTableView*>(view))
            out.append(table->horizontalHeader());
        else if (auto* tree = qobject_cast<QTreeView*>(view))
            out.append(tree->header());
    }
    return out;
}

// Under the column count too: a state saved for other columns (a version with one more) is not applied.
QString headerKey(const QHeaderView& header)
{
    return QStringLiteral("columns/%1/%2").arg(header.parentWidget()->objectName()).arg(header.count());
}
// The columns of a restored header that the user sized; all of them for a state saved before the window said which.
QList<int> userSizedColumns(const QSettings& settings, const QHeaderView& header)
{
    const QVariant saved = settings.value(QStringLiteral("sized_") + headerKey(header));
    QList<int> columns;
    if (!saved.isValid()) {
        for (int column = 0; column < header.count(); ++column)
            columns.append(column);
        return columns;
    }
    for (const QVariant& column : saved.toList())
        columns.append(column.toInt());
    return columns;
}
} // namespace

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    for (auto* splitter : findChildren<QSplitter*>())
        if (!splitter->objectName().isEmpty())
            splitter->restoreState(settings.value(QStringLiteral("splitters/") + splitter->objectName()).toByteArray());
    for (QHeaderView* header : namedHeaders(*this))
        if (header->restoreState(settings.value(headerKey(*header)).toByteArray()))
            FittedColumns::setUserSized(*header, userSizedColumns(settings, *header));
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 1).toInt());
    // The last session's parts and options, then its targets (the plan's first among them).
    const QJsonObject plan =
        QJsonDocument::fromJson(settings.value(QStringLiteral("send/plan")).toByteArray()).object();
    if (auto restored = plan.isEmpty() ? std::nullopt : app::UploadPlan::fromJson(plan))
        m_send->setPlan(*restored);
    m_send->setTargets(settings.value(QStringLiteral("send/targets")).toStringList());
    m_probe->setForm(QJsonDocument::fromJson(settings.value(QStringLiteral("probe/form")).toByteArray()).object());
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    for (auto* splitter : findChildren<QSplitter*>())
        if (!splitter->objectName().isEmpty())
            settings.setValue(QStringLiteral("splitters/") + splitter->objectName(), splitter->saveState());
    for (QHeaderView* header : namedHeaders(*this)) {
        // Fitted columns are kept only once the user sized one (fitted_columns.h): else they fit afresh.
        const QList<int> sized = FittedColumns::userSized(*header);
        if (header->property(FittedColumns::kFittedProperty).toBool() && sized.isEmpty()) {
            settings.remove(headerKey(*header));
            continue;
        }
        settings.setValue(headerKey(*header), header->saveState());
        QVariantList columns;
        for (int column : sized)
            columns.append(column);
        settings.setValue(QStringLiteral("sized_") + headerKey(*header), columns);
    }
    settings.setValue(QStringLiteral("window/tab"), m_tabs->currentIndex());
    settings.setValue(QStringLiteral("send/targets"), m_send->targets());
    QJsonObject plan = m_send->plan().toJson();
    plan.remove(QStringLiteral("insecure")); // never remembered (the Send tab's checkbox says so)
    settings.setValue(QStringLiteral("send/plan"), QJsonDocument(plan).toJson(QJsonDocument::Compact));
    settings.setValue(QStringLiteral("probe/form"), QJsonDocument(m_probe->form()).toJson(QJsonDocument::Compact));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveSettings();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    // Files dropped outside the Send tab are opened for inspection.
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile()) {
        m_tabs->setCurrentWidget(m_inspect);
        emit m_inspect->openRequested(urls.first().toLocalFile(), {});
    }
    event->acceptProposedAction();
}

} // namespace upin::ui
