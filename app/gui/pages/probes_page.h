// Probes page: hosts to measure, probe runs (progress, cancel, log), imported nccl-tests logs
// and probe JSON, results table and charts, calibration profiles built from them.
#pragma once

#include "clusterplan/sim/calibration_probe.h"
#include "pages/page.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace cp::remote {
class ProbeRunner;
}

namespace cp::gui {

class AppContext;
class ChartView;
class JobLogPanel;
class ProbeResultModel;

class ProbesPage : public Page {
    Q_OBJECT
public:
    explicit ProbesPage(AppContext& context, QWidget* parent = nullptr);
    bool busy() const override { return busy_; }

    // Parses nccl-tests output (text or -J JSON), a validation CSV or a clusterplan.probe/1
    // document on a worker thread and adds its tables. Errors appear in the log and status line.
    void importFile(const QString& path);
    // Fits and stores a calibration profile from everything shown; returns an error or "".
    QString createProfile(const QString& name, const QString& instance_type);
    ProbeResultModel* results() const { return results_; }
    QString statusText() const;
    QStringList profileNames() const;
    ChartView* gemmView() const { return gemm_; }
    QComboBox* profileInstance() const { return profile_instance_; }
    ChartView* busbwView() const { return busbw_; }
    JobLogPanel* jobLogPanel() const { return job_log_; }
    // Measured against predicted step time of the last imported job log.
    ChartView* jobStepsView() const { return job_steps_; }

signals:
    void importFinished(bool ok);

private:
    void importInteractive();
    void runProbes();
    void cancelRun();
    void reloadProfiles();
    void showResults();
    // Instance `type`'s node when the last probe document's GPUs are its GPUs, else nullopt.
    std::optional<sim::NodeSpec> measuredNode(const QString& type) const;
    void selectMeasuredInstance();
    void log(const QString& line);

    AppContext& context_;
    QListWidget* hosts_ = nullptr;
    QLineEdit* host_entry_ = nullptr;
    QComboBox* launcher_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QComboBox* profiles_ = nullptr;
    QLineEdit* profile_name_ = nullptr;
    QComboBox* profile_instance_ = nullptr;
    QLabel* status_ = nullptr;
    JobLogPanel* job_log_ = nullptr;
    QTableView* table_ = nullptr;
    ProbeResultModel* results_ = nullptr;
    ChartView* busbw_ = nullptr;
    ChartView* gemm_ = nullptr;
    ChartView* job_steps_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
    std::vector<sim::ProbeGemmResult> gemm_results_;
    std::optional<sim::ProbeDocument> probe_doc_;
    QString gemm_source_; // where the GEMM figures come from, shown on their chart
    std::vector<std::pair<std::string, std::string>> raw_sources_; // (origin, text) as measured
    std::shared_ptr<remote::ProbeRunner> runner_;
    bool busy_ = false;
};

} // namespace cp::gui
