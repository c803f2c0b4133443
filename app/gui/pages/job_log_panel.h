// The Probes page's job-log import: a training log of the job the current scenario describes,
// fitted into a job calibration profile (service/job_import.h) and shown as measured against
// predicted step time, before and after the fit.
#pragma once

#include "probe_specs.h"

#include <QGroupBox>

class QLabel;
class QLineEdit;

namespace cp::gui {

class AppContext;

class JobLogPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit JobLogPanel(AppContext& context, QWidget* parent = nullptr);

    // Fits `path` against the current scenario and stores the profile; returns an error
    // sentence or "" (then the comparison is shown and the scenario names the new profile).
    QString importLog(const QString& path);
    QString comparisonText() const;
    // The last import's steps against the predictions, for the measured-vs-predicted chart.
    const ::cp::charts::JobStepsData& steps() const { return steps_; }

signals:
    void stored(const QString& name);
    void compared(); // steps() holds a new import

private:
    void importInteractive();

    AppContext& context_;
    QLineEdit* name_ = nullptr;
    QLabel* comparison_ = nullptr;
    ::cp::charts::JobStepsData steps_;
};

} // namespace cp::gui
