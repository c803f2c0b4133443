// State shared by the pages: the user's catalog database, the current scenario and the
// recent-files list. Pages talk to each other only through this object's signals.
#pragma once

#include "clusterplan/sim/scenario.h"

#include <QObject>
#include <QStringList>
#include <memory>

namespace cp::gui {

class CatalogService;

class AppContext : public QObject {
    Q_OBJECT
public:
    explicit AppContext(QObject* parent = nullptr);
    ~AppContext() override;

    CatalogService& catalog() { return *catalog_; }

    const sim::Scenario& scenario() const { return scenario_; }
    // Replaces the current scenario; `origin` is the page that made the change (may be null).
    void setScenario(const sim::Scenario& scenario, QObject* origin = nullptr);
    static sim::Scenario defaultScenario();

    QString scenarioPath() const { return scenario_path_; }
    // Reads a scenario file; returns an empty string or one sentence naming file, field, reason.
    QString openScenario(const QString& path);
    QString saveScenario(const QString& path);
    QStringList recentFiles() const;

signals:
    void scenarioChanged(QObject* origin);
    void catalogChanged();
    void recentFilesChanged();
    // Scaling page → Plan page: show this plan.
    void openPlanRequested(const cp::sim::Scenario& scenario);

public:
    void notifyCatalogChanged() { emit catalogChanged(); }

private:
    void addRecent(const QString& path);

    std::unique_ptr<CatalogService> catalog_;
    sim::Scenario scenario_;
    QString scenario_path_;
};

} // namespace cp::gui
