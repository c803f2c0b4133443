#include "main_window.h"

#include "app_context.h"
#include "catalog_service.h"
#include "pages/catalog_page.h"
#include "pages/plan_page.h"
#include "pages/probes_page.h"
#include "pages/report_page.h"
#include "pages/scaling_page.h"
#include "pages/serve_page.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>

namespace cp::gui {

MainWindow::MainWindow(AppContext& context, QWidget* parent, bool restore_state)
    : QMainWindow(parent), context_(context) {
    setWindowIcon(QIcon(QStringLiteral(":/clusterplan/icons/clusterplan.svg")));
    auto* central = new QWidget;
    auto* layout = new QHBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    nav_ = new QListWidget;
    nav_->setObjectName(QStringLiteral("pageList"));
    nav_->setIconSize(QSize(22, 22));
    nav_->setFixedWidth(132);
    nav_->setFrameShape(QFrame::NoFrame);
    nav_->setSpacing(2);
    stack_ = new QStackedWidget;
    layout->addWidget(nav_);
    layout->addWidget(stack_, 1);
    setCentralWidget(central);

    catalog_ = new CatalogPage(context_);
    plan_ = new PlanPage(context_);
    scaling_ = new ScalingPage(context_);
    serve_ = new ServePage(context_);
    probes_ = new ProbesPage(context_);
    report_ = new ReportPage(context_);
    pages_ = {catalog_, plan_, scaling_, serve_, probes_, report_};
    const QStringList labels = {tr("Catalog"), tr("Plan"),   tr("Scaling"),
                                tr("Serve"),   tr("Probes"), tr("Report")};
    const QStringList tips = {
        tr("Instance types, accelerators and prices (Ctrl+1)"),
        tr("Edit a scenario and see its step time, memory, cost and verdict (Ctrl+2)"),
        tr("Data-, tensor-, pipeline-parallel and 3D scaling; time vs cost (Ctrl+3)"),
        tr("Inference serving: latency, throughput and cost per million tokens (Ctrl+4)"),
        tr("Measure hosts and build calibration profiles (Ctrl+5)"),
        tr("Preview of the recommendation report (Ctrl+6)")};
    for (int i = 0; i < int(pages_.size()); ++i) {
        auto* item = new QListWidgetItem(
            QIcon(QStringLiteral(":/clusterplan/icons/%1.svg").arg(pageNames()[i])), labels[i],
            nav_);
        item->setToolTip(tips[i]);
        item->setSizeHint(QSize(120, 40));
        stack_->addWidget(pages_[std::size_t(i)]);
        connect(pages_[std::size_t(i)], &Page::statusMessage, this,
                [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    }
    connect(nav_, &QListWidget::currentRowChanged, stack_, &QStackedWidget::setCurrentIndex);
    connect(&context_, &AppContext::openPlanRequested, this, [this](const sim::Scenario& sc) {
        context_.setScenario(sc);
        showPage(QStringLiteral("plan"));
    });
    connect(&context_, &AppContext::scenarioChanged, this, [this] { updateTitle(); });

    buildMenus();
    statusBar()->showMessage(context_.catalog().summary());

    QSettings settings;
    if (!restore_state ||
        !restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) {
        resize(1360, 860);
    }
    if (restore_state) {
        restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
        for (const auto& [key, splitter] : splitters()) {
            splitter->restoreState(settings.value(key).toByteArray());
        }
    }
    nav_->setCurrentRow(restore_state
                            ? std::clamp(settings.value(QStringLiteral("window/page"), 1).toInt(),
                                         0, int(pages_.size()) - 1)
                            : 1);
    updateTitle();
}

std::vector<std::pair<QString, QSplitter*>> MainWindow::splitters() const {
    // Keyed by page and creation order, which the page constructors fix.
    std::vector<std::pair<QString, QSplitter*>> out;
    for (std::size_t p = 0; p < pages_.size(); ++p) {
        const QList<QSplitter*> found = pages_[p]->findChildren<QSplitter*>();
        for (int i = 0; i < found.size(); ++i) {
            out.emplace_back(
                QStringLiteral("window/splitters/%1/%2").arg(pageNames()[int(p)]).arg(i), found[i]);
        }
    }
    return out;
}

QStringList MainWindow::pageNames() {
    return {QStringLiteral("catalog"), QStringLiteral("plan"),   QStringLiteral("scaling"),
            QStringLiteral("serve"),   QStringLiteral("probes"), QStringLiteral("report")};
}

bool MainWindow::showPage(const QString& name) {
    const int i = int(pageNames().indexOf(name));
    if (i < 0) return false;
    nav_->setCurrentRow(i);
    return true;
}

bool MainWindow::busy() const {
    for (const Page* page : pages_) {
        if (page->busy()) return true;
    }
    return false;
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open scenario…"), this, &MainWindow::openScenario);
    open->setShortcut(QKeySequence::Open);
    recent_menu_ = file->addMenu(tr("Open &recent"));
    rebuildRecentMenu();
    connect(&context_, &AppContext::recentFilesChanged, this, &MainWindow::rebuildRecentMenu);
    QAction* save = file->addAction(tr("&Save scenario"), this, [this] { saveScenario(false); });
    save->setShortcut(QKeySequence::Save);
    QAction* save_as =
        file->addAction(tr("Save scenario &as…"), this, [this] { saveScenario(true); });
    save_as->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+S")));
    file->addSeparator();
    QAction* reset = file->addAction(tr("&New default scenario"), this, [this] {
        context_.setScenario(AppContext::defaultScenario());
        showPage(QStringLiteral("plan"));
    });
    reset->setShortcut(QKeySequence::New);
    QAction* import = file->addAction(tr("&Import catalog data…"), this, [this] {
        showPage(QStringLiteral("catalog"));
        catalog_->importInteractive();
    });
    import->setShortcut(QKeySequence(QStringLiteral("Ctrl+I")));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QStringList labels = {tr("&Catalog"), tr("&Plan"),   tr("&Scaling"),
                                tr("S&erve"),   tr("P&robes"), tr("Re&port")};
    for (int i = 0; i < labels.size(); ++i) {
        QAction* a = view->addAction(labels[i], this, [this, i] { nav_->setCurrentRow(i); });
        a->setShortcut(QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)));
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About ClusterPlan"), this, [this] {
        QMessageBox::about(
            this, tr("About ClusterPlan"),
            tr("<b>ClusterPlan %1</b><p>Plans deep-learning training clusters and inference "
               "serving: which instances, how many, on-demand or spot, and which parallel "
               "layout.</p>"
               "<p>Catalog: %2</p>")
                .arg(QApplication::applicationVersion(), context_.catalog().summary()));
    });
}

void MainWindow::rebuildRecentMenu() {
    recent_menu_->clear();
    const QStringList files = context_.recentFiles();
    for (const QString& path : files) {
        recent_menu_
            ->addAction(QFileInfo(path).fileName(), this, [this, path] { openScenarioFile(path); })
            ->setToolTip(path);
    }
    recent_menu_->setEnabled(!files.isEmpty());
}

void MainWindow::openScenario() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), QString(),
                                                      tr("Scenario files (*.json);;All files (*)"));
    if (!path.isEmpty()) openScenarioFile(path);
}

void MainWindow::openScenarioFile(const QString& path) {
    const QString error = context_.openScenario(path);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Open scenario"), error);
        return;
    }
    showPage(context_.scenario().serving ? QStringLiteral("serve") : QStringLiteral("plan"));
    statusBar()->showMessage(tr("Opened %1").arg(path), 5000);
}

void MainWindow::saveScenario(bool ask_for_name) {
    QString path = context_.scenarioPath();
    if (ask_for_name || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(this, tr("Save scenario"),
                                            path.isEmpty() ? "scenario.json" : path,
                                            tr("Scenario files (*.json)"));
        if (path.isEmpty()) return;
    }
    const QString error = context_.saveScenario(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Save scenario"), error);
    else
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    updateTitle();
}

void MainWindow::updateTitle() {
    const QString name = QString::fromStdString(context_.scenario().name);
    const QString file = context_.scenarioPath().isEmpty()
                             ? QString()
                             : QFileInfo(context_.scenarioPath()).fileName();
    QString title = QStringLiteral("ClusterPlan");
    if (!name.isEmpty()) title = name + QStringLiteral(" — ") + title;
    if (!file.isEmpty()) title = file + QStringLiteral(" · ") + title;
    setWindowTitle(title);
}

void MainWindow::checkCatalogHealth() {
    CatalogService& catalog = context_.catalog();
    if (catalog.openError().isEmpty()) return;
    const auto answer = QMessageBox::warning(
        this, tr("Catalog database"),
        tr("%1\n\nRebuild it from the bundled snapshot? The damaged file is kept as a backup; "
           "prices you imported since will have to be imported again.")
            .arg(catalog.openError()),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
    if (answer != QMessageBox::Yes) return;
    const QString error = catalog.rebuildFromSnapshot();
    if (!error.isEmpty()) {
        QMessageBox::critical(this, tr("Catalog database"), error);
        return;
    }
    QMessageBox::information(this, tr("Catalog database"),
                             tr("The catalog was rebuilt. The damaged file was kept as %1.")
                                 .arg(catalog.lastBackupPath()));
    context_.notifyCatalogChanged();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/page"), nav_->currentRow());
    // Pane sizes the user dragged (editor width, chart/table split) come back next time too.
    for (const auto& [key, splitter] : splitters())
        settings.setValue(key, splitter->saveState());
    QMainWindow::closeEvent(event);
}

} // namespace cp::gui
