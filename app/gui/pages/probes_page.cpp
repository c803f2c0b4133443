#include "pages/probes_page.h"

#include "app_context.h"
#include "catalog_service.h"
#include "chart_view.h"
#include "charts/probe_charts.h"
#include "clusterplan/catalog/calibration_store.h"
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/remote/probe_locate.h"
#include "clusterplan/remote/probe_runner.h"
#include "clusterplan/sim/calibration_import.h"
#include "clusterplan/sim/calibration_probe.h"
#include "clusterplan/sim/format.h"
#include "clusterplan/sim/probe_acceptance.h"
#include "format.h"
#include "models/probe_result_model.h"
#include "pages/job_log_panel.h"
#include "pages/probe_import.h"
#include "pages/result_table.h"
#include "qchart_render.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <cmath>
#include <exception>
#include <map>
#include <nlohmann/json.hpp>

namespace cp::gui {

ProbesPage::ProbesPage(AppContext& context, QWidget* parent) : Page(parent), context_(context) {
    // Left column: hosts and run controls, calibration profiles.
    auto* hosts_box = new QGroupBox(tr("Hosts"));
    auto* hosts_layout = new QVBoxLayout(hosts_box);
    hosts_ = new QListWidget;
    hosts_->setToolTip(tr("GPU hosts to measure; one probe process runs per host."));
    hosts_->setMaximumHeight(110);
    host_entry_ = new QLineEdit;
    host_entry_->setPlaceholderText(tr("user@host"));
    host_entry_->setToolTip(
        tr("Host name or IP address, optionally user@host, reachable with the launcher "
           "below; press Enter to add."));
    auto* add = new QPushButton(tr("Add"));
    auto* remove = new QPushButton(tr("Remove"));
    auto* host_row = new QHBoxLayout;
    host_row->addWidget(host_entry_, 1);
    host_row->addWidget(add);
    host_row->addWidget(remove);
    launcher_ = new QComboBox;
    launcher_->addItems({QStringLiteral("ssh"), QStringLiteral("mpirun"), QStringLiteral("srun")});
    launcher_->setToolTip(tr("How the probe is started on the hosts: one ssh session per host, or "
                             "mpirun / srun which set the ranks for NCCL."));
    run_ = new QPushButton(tr("Run probes"));
    run_->setToolTip(tr("Run clusterplan-probe on every host (GEMM, memory, PCIe, P2P and NCCL)."));
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setEnabled(false);
    progress_ = new QProgressBar;
    progress_->setRange(0, 1);
    progress_->setValue(0);
    auto* run_row = new QHBoxLayout;
    run_row->addWidget(new QLabel(tr("Launcher:")));
    run_row->addWidget(launcher_, 1);
    auto* run_row2 = new QHBoxLayout;
    run_row2->addWidget(run_, 1);
    run_row2->addWidget(cancel_);
    hosts_layout->addWidget(hosts_);
    hosts_layout->addLayout(host_row);
    hosts_layout->addLayout(run_row);
    hosts_layout->addLayout(run_row2);
    hosts_layout->addWidget(progress_);
    auto* import = new QPushButton(tr("Import nccl-tests log or probe JSON…"));
    import->setToolTip(
        tr("For hosts you cannot probe (P3) or clusters already measured: nccl-tests "
           "text or -J JSON output, or a clusterplan-probe document."));
    hosts_layout->addWidget(import);

    auto* cal_box = new QGroupBox(tr("Calibration profiles"));
    auto* cal = new QFormLayout(cal_box);
    profiles_ = new QComboBox;
    profiles_->setToolTip(tr("Profile the Plan page uses instead of datasheet figures."));
    profile_name_ = new QLineEdit;
    profile_name_->setPlaceholderText(tr("e.g. p4d-us-east-1a"));
    profile_name_->setToolTip(tr("Name of the new profile (unique)."));
    profile_instance_ = new QComboBox;
    profile_instance_->setToolTip(tr("Instance type the measurements describe."));
    auto* create = new QPushButton(tr("Create from results"));
    create->setToolTip(
        tr("Fit α–β collective costs (and GEMM rates) from the results shown and store them."));
    cal->addRow(tr("Use:"), profiles_);
    cal->addRow(tr("New name:"), profile_name_);
    cal->addRow(tr("Instance:"), profile_instance_);
    cal->addRow(QString(), create);
    status_ = new QLabel;
    status_->setWordWrap(true);

    auto* left = new QWidget;
    auto* left_layout = new QVBoxLayout(left);
    left_layout->setContentsMargins(0, 0, 0, 0);
    left_layout->addWidget(hosts_box);
    left_layout->addWidget(cal_box);
    job_log_ = new JobLogPanel(context_);
    left_layout->addWidget(job_log_);
    left_layout->addWidget(status_);
    left_layout->addStretch(1);
    left->setMaximumWidth(360);

    // Right: results, charts, log.
    results_ = new ProbeResultModel(this);
    table_ = make_result_table(results_);
    table_->horizontalHeader()->setStretchLastSection(true);
    busbw_ = new ChartView;
    gemm_ = new ChartView;
    log_ = new QPlainTextEdit;
    log_->setReadOnly(true);
    log_->setPlaceholderText(tr("Probe progress and messages appear here."));
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(busbw_);
    charts->addWidget(gemm_);
    job_steps_ = new ChartView;
    job_steps_->setEmptyText(tr("Import a training log to see its steps against the prediction."));
    auto* tabs = new QTabWidget;
    tabs->addTab(table_, tr("Results"));
    tabs->addTab(job_steps_, tr("Job log: measured vs predicted"));
    tabs->addTab(log_, tr("Log"));
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(charts);
    right->addWidget(tabs);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    auto* root = new QHBoxLayout(this);
    root->setContentsMargins(6, 6, 6, 6);
    root->addWidget(left);
    root->addWidget(right, 1);

    auto add_host = [this] {
        const QString h = host_entry_->text().trimmed();
        if (h.isEmpty()) return;
        hosts_->addItem(h);
        host_entry_->clear();
        run_->setEnabled(true);
    };
    connect(add, &QPushButton::clicked, this, add_host);
    connect(host_entry_, &QLineEdit::returnPressed, this, add_host);
    connect(remove, &QPushButton::clicked, this, [this] { qDeleteAll(hosts_->selectedItems()); });
    connect(import, &QPushButton::clicked, this, &ProbesPage::importInteractive);
    connect(job_log_, &JobLogPanel::compared, this, [this, tabs] {
        job_steps_->replaceChart(::cp::charts::make_chart(
            ::cp::charts::job_steps_spec(job_log_->steps()), ::cp::charts::screen_look()));
        job_steps_->setEmptyText(QString());
        tabs->setCurrentWidget(job_steps_);
    });
    connect(job_log_, &JobLogPanel::stored, this, [this](const QString& name) {
        log(tr("Stored job calibration profile %1.").arg(name));
    });
    connect(run_, &QPushButton::clicked, this, &ProbesPage::runProbes);
    connect(cancel_, &QPushButton::clicked, this, &ProbesPage::cancelRun);
    connect(create, &QPushButton::clicked, this, [this] {
        const QString error =
            createProfile(profile_name_->text().trimmed(), profile_instance_->currentText());
        status_->setText(error.isEmpty() ? tr("Profile stored.") : error);
    });
    connect(profiles_, &QComboBox::activated, this, [this] {
        sim::Scenario sc = context_.scenario();
        const QString name = profiles_->currentData().toString();
        sc.calibration = name.isEmpty() ? "datasheet" : name.toStdString();
        context_.setScenario(sc, this);
        emit statusMessage(tr("Plans now use calibration: %1").arg(profiles_->currentText()));
    });
    connect(&context_, &AppContext::catalogChanged, this, &ProbesPage::reloadProfiles);
    reloadProfiles();
    showResults();
}

void ProbesPage::reloadProfiles() {
    const QSignalBlocker block(profiles_);
    profiles_->clear();
    profiles_->addItem(tr("Datasheet values"), QString());
    profile_instance_->clear();
    for (const InstanceChoice& c : context_.catalog().instanceChoices())
        profile_instance_->addItem(c.type);
    const int current =
        profile_instance_->findText(QString::fromStdString(context_.scenario().instance));
    if (current >= 0) profile_instance_->setCurrentIndex(current);
    catalog::Catalog* db = context_.catalog().db();
    if (!db) return;
    try {
        for (const catalog::CalibrationRow& row : catalog::CalibrationStore(*db).list()) {
            profiles_->addItem(QStringLiteral("%1 (%2, %3)")
                                   .arg(QString::fromStdString(row.name),
                                        QString::fromStdString(row.instance_type),
                                        QString::fromStdString(row.measured_at)),
                               QString::fromStdString(row.name));
        }
    } catch (const std::exception& e) {
        log(QString::fromStdString(e.what()));
    }
    const int i = profiles_->findData(QString::fromStdString(context_.scenario().calibration));
    profiles_->setCurrentIndex(i >= 0 ? i : 0);
}

QStringList ProbesPage::profileNames() const {
    QStringList out;
    for (int i = 1; i < profiles_->count(); ++i)
        out << profiles_->itemData(i).toString();
    return out;
}

QString ProbesPage::statusText() const {
    return status_->text();
}

void ProbesPage::log(const QString& line) {
    log_->appendPlainText(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss  ")) +
                          line);
}

void ProbesPage::importInteractive() {
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Import measurements"), QString(),
        tr("nccl-tests output, CSV or probe JSON (*.txt *.log *.out *.json *.csv);;All files (*)"));
    for (const QString& f : files)
        importFile(f);
}

void ProbesPage::importFile(const QString& path) {
    busy_ = true;
    status_->setText(tr("Reading %1…").arg(path));
    auto* watcher = new QFutureWatcher<Imported>(this);
    connect(watcher, &QFutureWatcher<Imported>::finished, this, [this, watcher, path] {
        Imported imported = watcher->result();
        watcher->deleteLater();
        busy_ = false;
        if (!imported.error.isEmpty()) {
            status_->setText(imported.error);
            log(imported.error);
            emit importFinished(false);
            return;
        }
        raw_sources_.push_back({path.toStdString(), imported.raw});
        std::vector<sim::CollectiveTable> tables = results_->tables();
        for (sim::CollectiveTable& t : imported.tables) {
            log(tr("%1: %2 over %3 ranks, %4 sizes")
                    .arg(QFileInfo(path).fileName(), QString::fromStdString(t.collective))
                    .arg(t.ranks)
                    .arg(t.samples.size()));
            tables.push_back(std::move(t));
        }
        if (imported.probe) {
            gemm_results_.insert(gemm_results_.end(), imported.probe->gemm.begin(),
                                 imported.probe->gemm.end());
            if (!imported.probe->gemm.empty()) {
                const QString source =
                    tr("%1 (host %2, %3)")
                        .arg(QFileInfo(path).fileName(),
                             QString::fromStdString(imported.probe->hostname),
                             QString::fromStdString(imported.probe->started_at).left(10));
                // Several imports all feed the bars, so all of them are named.
                gemm_source_ = gemm_source_.isEmpty()
                                   ? tr("from %1").arg(source)
                                   : gemm_source_ + QStringLiteral("; ") + source;
            }
            probe_doc_ = std::move(imported.probe);
            selectMeasuredInstance();
        }
        results_->setTables(std::move(tables));
        status_->setText(tr("Imported %1.").arg(QFileInfo(path).fileName()));
        showResults();
        emit importFinished(true);
    });
    watcher->setFuture(QtConcurrent::run([path] { return parse_file(path); }));
}

std::optional<sim::NodeSpec> ProbesPage::measuredNode(const QString& type) const {
    catalog::Catalog* db = context_.catalog().db();
    auto node = db ? db->node_spec(type.toStdString()) : std::nullopt;
    if (!probe_doc_ || !node || !sim::probe_describes(*probe_doc_, *node)) return std::nullopt;
    return node;
}

// The instance a profile made from these results describes: kept when it fits the measured
// GPUs, else the first catalog type that does (the document's own type when DMI named one).
void ProbesPage::selectMeasuredInstance() {
    if (measuredNode(profile_instance_->currentText())) return;
    for (int i = 0; i < profile_instance_->count(); ++i)
        if (measuredNode(profile_instance_->itemText(i))) {
            profile_instance_->setCurrentIndex(i);
            return;
        }
}

void ProbesPage::showResults() {
    std::vector<charts::BandwidthSeries> series;
    for (const sim::CollectiveTable& t : results_->tables())
        series.push_back(bandwidth_series(t));
    busbw_->replaceChart(charts::busbw_chart(series));
    busbw_->setEmptyText(
        !series.empty() ? QString()
        : probe_doc_    ? probe_without_collectives_text(*probe_doc_)
                        : tr("No collective measurements yet.\nRun probes on a host, or import "
                                "nccl-tests output (text or -J JSON)."));
    // Best measured rate per precision against the datasheet peak of the profile's accelerator.
    std::map<std::string, double> best;
    for (const sim::ProbeGemmResult& g : gemm_results_)
        best[g.precision] = std::max(best[g.precision], g.tflops);
    // Peaks of another accelerator than the one measured would be a false comparison.
    std::optional<sim::AcceleratorSpec> accel;
    if (const auto node = measuredNode(profile_instance_->currentText())) accel = node->accelerator;
    std::vector<charts::GemmBar> bars;
    for (const sim::Precision precision : sim::kAllPrecisions) {
        const char* name = sim::enum_name(precision);
        auto it = best.find(name);
        if (it == best.end()) continue;
        bars.push_back({QString::fromLatin1(name), it->second,
                        accel ? accel->peak(precision) : sim::kUnknown});
    }
    gemm_->replaceChart(charts::gemm_chart(bars, gemm_source_));
    gemm_->setEmptyText(bars.empty()
                            ? tr("No GEMM measurements yet.\nThey come from clusterplan-probe runs "
                                 "(or its JSON output).")
                            : QString());
    table_->resizeColumnsToContents();
}

QString ProbesPage::createProfile(const QString& name, const QString& instance_type) {
    if (name.isEmpty()) return tr("Profile name: give the new profile a name.");
    if (results_->tables().empty() && !probe_doc_)
        return tr("There are no measurements to fit yet: run probes or import a log.");
    catalog::Catalog* db = context_.catalog().db();
    if (!db) return context_.catalog().openError();
    try {
        sim::ProfileMeta meta;
        meta.name = name.toStdString();
        meta.instance_type = instance_type.toStdString();
        meta.measured_at = QDate::currentDate().toString(Qt::ISODate).toStdString();
        if (auto node = db->node_spec(meta.instance_type)) meta.accelerator = node->accelerator.id;
        sim::CalibrationProfile profile;
        if (probe_doc_) {
            meta.source = "probe";
            meta.host = probe_doc_->hostname;
            // Failed sections are stored with their errors (shown in the run status); another
            // instance type than the host's own DMI identity is refused.
            sim::check_probe_acceptable(*probe_doc_, "probe run", {true, meta.instance_type});
            profile = sim::profile_from_probe(*probe_doc_, meta);
        } else {
            meta.source = "nccl-tests";
            profile = sim::profile_from_tables(results_->tables(), meta);
        }
        nlohmann::json raw = nlohmann::json::array();
        for (const auto& [origin, text] : raw_sources_)
            raw.push_back({{"source", origin}, {"text", text}});
        catalog::CalibrationStore(*db).store(
            profile, nlohmann::json{{"format", "gui"}, {"inputs", raw}}.dump());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    reloadProfiles();
    const int i = profiles_->findData(name);
    if (i >= 0) profiles_->setCurrentIndex(i);
    log(tr("Stored calibration profile %1 for %2.").arg(name, instance_type));
    return {};
}

namespace {
// --probe equivalent (remote::find_probe_binary); empty when none is found.
QString find_probe_binary() {
    const std::string found =
        remote::find_probe_binary(QCoreApplication::applicationFilePath().toStdString());
    return found.empty() ? QString() : QFileInfo(QString::fromStdString(found)).canonicalFilePath();
}

struct RunOutcome {
    QString error;
    Imported imported;
};
} // namespace

void ProbesPage::runProbes() {
    if (busy_) return;
    remote::RunOptions options;
    for (int i = 0; i < hosts_->count(); ++i) {
        const std::string host = hosts_->item(i)->text().toStdString();
        if (!remote::is_valid_host(host)) {
            status_->setText(tr("Host '%1' is not a valid host name (letters, digits, '.', '-', "
                                "'_', an optional user@ prefix).")
                                 .arg(hosts_->item(i)->text()));
            return;
        }
        options.hosts.push_back(host);
    }
    if (options.hosts.empty()) {
        status_->setText(tr("Add at least one host to probe."));
        return;
    }
    options.probe_path = find_probe_binary().toStdString();
    if (options.probe_path.empty()) {
        status_->setText(
            tr("No clusterplan-probe binary was found (it is built only where CUDA is available); "
               "set CLUSTERPLAN_PROBE to its path."));
        return;
    }
    options.launcher = static_cast<remote::Launcher>(launcher_->currentIndex());
    busy_ = true;
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    progress_->setRange(0, 0);
    status_->setText(tr("Probing %n host(s)…", nullptr, int(options.hosts.size())));
    auto runner = std::make_shared<remote::ProbeRunner>(options);
    runner_ = runner;
    QPointer<ProbesPage> self = this;
    auto* watcher = new QFutureWatcher<RunOutcome>(this);
    connect(watcher, &QFutureWatcher<RunOutcome>::finished, this, [this, watcher] {
        RunOutcome outcome = watcher->result();
        watcher->deleteLater();
        busy_ = false;
        runner_.reset();
        run_->setEnabled(true);
        cancel_->setEnabled(false);
        progress_->setRange(0, 1);
        progress_->setValue(outcome.error.isEmpty() ? 1 : 0);
        if (!outcome.error.isEmpty()) {
            status_->setText(outcome.error);
            log(outcome.error);
            return;
        }
        raw_sources_.push_back({"probe run", outcome.imported.raw});
        std::vector<sim::CollectiveTable> tables = results_->tables();
        for (sim::CollectiveTable& t : outcome.imported.tables)
            tables.push_back(std::move(t));
        if (outcome.imported.probe) {
            gemm_results_ = outcome.imported.probe->gemm;
            gemm_source_ =
                tr("probe run on %1, %2")
                    .arg(QString::fromStdString(outcome.imported.probe->hostname),
                         QString::fromStdString(outcome.imported.probe->started_at).left(10));
            probe_doc_ = std::move(outcome.imported.probe);
        }
        results_->setTables(std::move(tables));
        if (probe_doc_ && !probe_doc_->errors.empty()) {
            QStringList errors;
            for (const auto& e : probe_doc_->errors)
                errors << QString::fromStdString(e);
            status_->setText(tr("Probe run finished with errors (a profile keeps them): %1")
                                 .arg(errors.join(QStringLiteral("; "))));
        } else {
            status_->setText(
                tr("Probe run finished; create a calibration profile from the results."));
        }
        showResults();
    });
    watcher->setFuture(QtConcurrent::run([runner, self]() {
        RunOutcome out;
        try {
            const remote::RunResult result = runner->run([self](const remote::ProgressEvent& e) {
                const QString line =
                    QStringLiteral("[%1] %2: %3")
                        .arg(QString::fromStdString(e.host.empty() ? "run" : e.host),
                             QString::fromStdString(e.stage), QString::fromStdString(e.message));
                QMetaObject::invokeMethod(
                    self,
                    [self, line] {
                        if (self) self->log(line);
                    },
                    Qt::QueuedConnection);
            });
            out.imported.raw = result.rank0_json;
            out.imported.probe = sim::parse_probe_json(result.rank0_json, "probe output");
            out.imported.tables = out.imported.probe->collectives;
        } catch (const std::exception& e) {
            out.error = runner->cancelled() ? QObject::tr("Probe run cancelled.")
                                            : QString::fromStdString(e.what());
        }
        return out;
    }));
}

void ProbesPage::cancelRun() {
    if (runner_) runner_->cancel();
}

} // namespace cp::gui
