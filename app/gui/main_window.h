// The one main window: a page list on the left, the pages on the right, menus with shortcuts.
#pragma once

#include <QMainWindow>
#include <utility>
#include <vector>

class QListWidget;
class QMenu;
class QSplitter;
class QStackedWidget;

namespace cp::gui {

class AppContext;
class Page;
class CatalogPage;
class PlanPage;
class ScalingPage;
class ServePage;
class ProbesPage;
class ReportPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // `restore_state` false: ignore the saved window state (screenshots must not depend on how
    // the user left the window).
    explicit MainWindow(AppContext& context, QWidget* parent = nullptr, bool restore_state = true);

    static QStringList pageNames(); // "catalog", "plan", "scaling", "serve", "probes", "report"
    bool showPage(const QString& name);
    bool busy() const;

    CatalogPage* catalogPage() const { return catalog_; }
    PlanPage* planPage() const { return plan_; }
    ScalingPage* scalingPage() const { return scaling_; }
    ServePage* servePage() const { return serve_; }
    ProbesPage* probesPage() const { return probes_; }
    ReportPage* reportPage() const { return report_; }

    // Offers to rebuild a damaged user database (asks first; keeps a backup).
    void checkCatalogHealth();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void rebuildRecentMenu();
    void openScenario();
    void openScenarioFile(const QString& path);
    void saveScenario(bool ask_for_name);
    void updateTitle();
    // Every splitter of every page with its QSettings key.
    std::vector<std::pair<QString, QSplitter*>> splitters() const;

    AppContext& context_;
    QListWidget* nav_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    QMenu* recent_menu_ = nullptr;
    std::vector<Page*> pages_;
    CatalogPage* catalog_ = nullptr;
    PlanPage* plan_ = nullptr;
    ScalingPage* scaling_ = nullptr;
    ServePage* serve_ = nullptr;
    ProbesPage* probes_ = nullptr;
    ReportPage* report_ = nullptr;
};

} // namespace cp::gui
