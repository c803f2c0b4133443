#include "pages/job_log_panel.h"

#include "app_context.h"
#include "catalog_service.h"
#include "clusterplan/service/job_import.h"
#include "clusterplan/sim/job_calibration.h"
#include "clusterplan/sim/plan_interval.h"
#include "format.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <exception>

namespace cp::gui {
namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// "6.63 s (−10.2 %)": a predicted step and how far it is from the measured one.
QString against(double predicted_s, double measured_s) {
    return QStringLiteral("%1 (%2)").arg(
        fmt_duration_s(predicted_s),
        QString::fromStdString(sim::fmt::percent(predicted_s / measured_s - 1.0, 1)));
}

QString comparison_html(const service::JobImport& in) {
    const sim::JobRun& run = in.profile.job.runs.front();
    QString html = QStringLiteral("<table cellspacing=\"4\">");
    const auto row = [&html](const QString& what, const QString& value) {
        html += QStringLiteral("<tr><td>%1</td><td align=\"right\"><b>%2</b></td></tr>")
                    .arg(what.toHtmlEscaped(), value.toHtmlEscaped());
    };
    row(QObject::tr("Measured (median of %1 steps)").arg(run.steps_used),
        fmt_duration_s(run.measured_step_s));
    row(QObject::tr("Measured p10 – p90"),
        QStringLiteral("%1 – %2").arg(fmt_duration_s(run.measured_p10_step_s),
                                      fmt_duration_s(run.measured_p90_step_s)));
    row(QObject::tr("Predicted before"),
        against(in.before.result.step_time_s, run.measured_step_s));
    row(QObject::tr("Predicted calibrated"),
        against(in.after.result.step_time_s, run.measured_step_s));
    html += QStringLiteral("</table>");
    for (const std::string& line : sim::describe_job_calibration(in.profile.job))
        html += QStringLiteral("<br>• ") + q(line).toHtmlEscaped();
    return html;
}

// Every step in seconds: a time is scaled by the run's median step over the log's median, a rate
// by its inverse (the fit converted the median with the scenario's batch and devices).
::cp::charts::JobStepsData steps_data(const service::JobImport& in, const QString& source) {
    const sim::JobRun& run = in.profile.job.runs.front();
    ::cp::charts::JobStepsData d;
    d.source = source;
    const bool rate = in.log.measure != sim::JobLogMeasure::step_time_s;
    for (const sim::JobLogSample& s : in.log.samples) {
        if (!(s.value > 0) || !(in.summary.median > 0)) continue;
        d.steps.push_back(static_cast<double>(s.step));
        d.measured_s.push_back(rate ? run.measured_step_s * in.summary.median / s.value
                                    : run.measured_step_s * s.value / in.summary.median);
    }
    d.warmup_steps = in.summary.steps_skipped;
    d.predicted_before_s = in.before.result.step_time_s;
    d.predicted_after_s = in.after.result.step_time_s;
    const sim::FigureRange r = sim::time_range(in.after.result.step_time_s, in.after.interval);
    d.range_low_s = r.low;
    d.range_high_s = r.high;
    return d;
}

} // namespace

JobLogPanel::JobLogPanel(AppContext& context, QWidget* parent)
    : QGroupBox(tr("Job log (your own training run)"), parent), context_(context) {
    auto* layout = new QVBoxLayout(this);
    auto* import = new QPushButton(tr("Import training log…"));
    import->setToolTip(tr("A log of the job the current scenario describes: Megatron-LM / NeMo, "
                          "DeepSpeed, torchtitan, Hugging Face Trainer, or a step,step_time_s "
                          "CSV. Fits the compute and communication factors and stores them."));
    name_ = new QLineEdit;
    name_->setPlaceholderText(tr("profile name (default: job-<log name>)"));
    comparison_ = new QLabel(tr("Measured against predicted step time appears here."));
    comparison_->setObjectName(QStringLiteral("jobComparison"));
    comparison_->setWordWrap(true);
    comparison_->setTextFormat(Qt::RichText);
    layout->addWidget(name_);
    layout->addWidget(import);
    layout->addWidget(comparison_);
    connect(import, &QPushButton::clicked, this, &JobLogPanel::importInteractive);
}

void JobLogPanel::importInteractive() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import training log"), QString(), tr("Logs (*.log *.txt *.csv);;All files (*)"));
    if (path.isEmpty()) return;
    const QString error = importLog(path);
    if (!error.isEmpty()) comparison_->setText(error.toHtmlEscaped());
}

QString JobLogPanel::importLog(const QString& path) {
    catalog::Catalog* db = context_.catalog().db();
    if (!db) return tr("The catalog is unavailable: %1").arg(context_.catalog().openError());
    service::JobImport in;
    try {
        in = service::fit_job_log(path.toStdString(), context_.scenario(), *db,
                                  name_->text().trimmed().toStdString(), false);
        service::store_job_calibration(in, *db, false);
    } catch (const std::exception& e) {
        return q(e.what());
    }
    comparison_->setText(comparison_html(in));
    steps_ = steps_data(in, QFileInfo(path).fileName());
    emit compared();
    const QString name = q(in.profile.name);
    sim::Scenario sc = context_.scenario();
    sc.calibration = in.profile.name; // the Plan page now shows the calibrated plan
    context_.setScenario(sc, this);
    context_.notifyCatalogChanged();
    emit stored(name);
    return {};
}

QString JobLogPanel::comparisonText() const {
    return comparison_->text();
}

} // namespace cp::gui
