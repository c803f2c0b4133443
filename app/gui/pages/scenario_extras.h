// The scenario editor's less common fields: hyper-parameter tuning trials, spot checkpointing,
// whether spot may be bought, the region, the instance types a search considers, and custom
// hardware (an on-prem pod, or overrides of the chosen instance). Part of ScenarioEditor.
#pragma once

#include "clusterplan/sim/scenario.h"

#include <QStringList>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QMenu;
class QSpinBox;
class QToolButton;

namespace cp::gui {

class ScenarioExtras : public QWidget {
    Q_OBJECT
public:
    explicit ScenarioExtras(QWidget* parent = nullptr);

    // Instance types a search may be limited to.
    void setInstanceTypes(const QStringList& types);
    // Regions with prices, and accelerator ids custom hardware may name.
    void setCatalogChoices(const QStringList& regions, const QStringList& accelerators);

    void setScenario(const sim::Scenario& scenario);
    // Writes these fields into `scenario`, leaving every other field as it is.
    void apply(sim::Scenario& scenario) const;

    // Field access for tests.
    QSpinBox* trialsField() const { return trials_; }
    QSpinBox* parallelTrialsField() const { return parallel_trials_; }
    QCheckBox* allowSpotField() const { return allow_spot_; }
    QDoubleSpinBox* checkpointWriteField() const { return checkpoint_write_s_; }
    QDoubleSpinBox* restartField() const { return restart_s_; }
    QCheckBox* checkpointOnNoticeField() const { return checkpoint_on_notice_; }
    QComboBox* regionField() const { return region_; }
    QMenu* instancesMenu() const { return instances_menu_; }
    QGroupBox* customField() const { return custom_; }
    QComboBox* customAcceleratorField() const { return accelerator_; }
    QSpinBox* customPerNodeField() const { return per_node_; }
    QDoubleSpinBox* customIntraNodeField() const { return intra_gbytes_per_s_; }
    QDoubleSpinBox* customInterNodeField() const { return inter_gbps_; }
    QDoubleSpinBox* customLatencyField() const { return latency_us_; }
    QDoubleSpinBox* customPriceField() const { return usd_per_node_hour_; }

signals:
    void edited();

private:
    void showInstances(const std::vector<std::string>& chosen);
    std::vector<std::string> chosenInstances() const;
    void updateInstancesText();
    void updateEnabledState();
    void emitEdited();

    bool loading_ = false;
    QSpinBox* trials_ = nullptr;
    QSpinBox* parallel_trials_ = nullptr;
    QCheckBox* allow_spot_ = nullptr;
    QDoubleSpinBox* checkpoint_write_s_ = nullptr;
    QDoubleSpinBox* restart_s_ = nullptr;
    QCheckBox* checkpoint_on_notice_ = nullptr;
    QComboBox* region_ = nullptr;
    QToolButton* instances_button_ = nullptr;
    QMenu* instances_menu_ = nullptr;
    QGroupBox* custom_ = nullptr;
    QComboBox* accelerator_ = nullptr;
    QSpinBox* per_node_ = nullptr;
    QDoubleSpinBox* intra_gbytes_per_s_ = nullptr;
    QDoubleSpinBox* inter_gbps_ = nullptr;
    QDoubleSpinBox* latency_us_ = nullptr;
    QDoubleSpinBox* usd_per_node_hour_ = nullptr;
};

} // namespace cp::gui
