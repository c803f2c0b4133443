#include "pages/scaling_page.h"

#include "app_context.h"
#include "catalog_service.h"
#include "chart_view.h"
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/service/scenario_input.h"
#include "format.h"
#include "models/recommendation_model.h"
#include "pages/result_table.h"

#include <QChart>
#include <QCursor>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMetaObject>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace cp::gui {

ScalingPage::ScalingPage(AppContext& context, QWidget* parent) : Page(parent), context_(context) {
    instances_button_ = new QToolButton;
    instances_button_->setPopupMode(QToolButton::InstantPopup);
    instances_button_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    instances_button_->setToolTip(
        tr("Instance types to compare (one line per layout family and instance)."));
    instances_menu_ = new QMenu(instances_button_);
    instances_button_->setMenu(instances_menu_);
    max_nodes_ = new QSpinBox;
    max_nodes_->setRange(1, 4096);
    max_nodes_->setSuffix(tr(" nodes"));
    max_nodes_->setToolTip(
        tr("Largest cluster swept (the scenario's max-nodes constraint); node counts "
           "double from 1 up to this."));
    run_ = new QPushButton(tr("Run sweep"));
    run_->setShortcut(QKeySequence(Qt::Key_F5));
    run_->setToolTip(tr("Evaluate every layout at every node count (F5)."));
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
    cancel_->setEnabled(false);
    progress_ = new QProgressBar;
    progress_->setMaximumWidth(160);
    progress_->setTextVisible(true);
    status_ = new QLabel;
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Instances:")));
    bar->addWidget(instances_button_);
    bar->addWidget(new QLabel(tr("up to")));
    bar->addWidget(max_nodes_);
    bar->addWidget(run_);
    bar->addWidget(cancel_);
    bar->addWidget(progress_);
    bar->addWidget(status_, 1);

    throughput_ = new ChartView;
    efficiency_ = new ChartView;
    cost_ = new ChartView;
    legend_ = new QLabel;
    legend_->setTextFormat(Qt::RichText);
    legend_->setAlignment(Qt::AlignCenter);
    legend_->setToolTip(
        tr("Data parallel: TP = PP = 1. Tensor + data: TP > 1, PP = 1. Pipeline + data: "
           "PP > 1, TP = 1. 3D: TP and PP > 1. Each point is the fastest layout of its "
           "family at that size."));
    auto* top = new QSplitter(Qt::Horizontal);
    top->addWidget(throughput_);
    top->addWidget(efficiency_);
    top->addWidget(cost_);
    pareto_ = new ChartView;
    model_ = new RecommendationModel(this);
    table_ = make_result_table(model_);
    table_->setToolTip(tr("Double-click (or Enter) to open a plan in the Plan page."));
    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(pareto_);
    auto* table_box = new QWidget;
    auto* table_layout = new QVBoxLayout(table_box);
    table_layout->setContentsMargins(0, 0, 0, 0);
    ranked_title_ = new QLabel(tr("<b>Recommendations</b>"));
    ranked_title_->setWordWrap(true);
    table_layout->addWidget(ranked_title_);
    table_layout->addWidget(table_);
    bottom->addWidget(table_box);
    bottom->setStretchFactor(0, 2);
    bottom->setStretchFactor(1, 3);
    auto* top_box = new QWidget;
    auto* top_layout = new QVBoxLayout(top_box);
    top_layout->setContentsMargins(0, 0, 0, 0);
    top_layout->setSpacing(2);
    top_layout->addWidget(top, 1);
    top_layout->addWidget(legend_);
    auto* vertical = new QSplitter(Qt::Vertical);
    vertical->addWidget(top_box);
    vertical->addWidget(bottom);
    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(6, 6, 6, 6);
    root->addLayout(bar);
    root->addWidget(vertical, 1);

    connect(run_, &QPushButton::clicked, this, &ScalingPage::runSweep);
    connect(cancel_, &QPushButton::clicked, this, &ScalingPage::cancelSweep);
    connect(table_, &QTableView::activated, this, [this](const QModelIndex& index) {
        if (const SweepPlan* p = model_->planAt(index.row())) openPlan(*p);
    });
    connect(&context_, &AppContext::scenarioChanged, this, [this] {
        // Swept again when next shown; a plan opened from here must not restart the sweep.
        stale_ = true;
        max_nodes_->setValue(context_.scenario().constraints.max_nodes);
    });
    connect(&context_, &AppContext::catalogChanged, this, [this] {
        reloadInstances();
        stale_ = true;
    });
    max_nodes_->setValue(context_.scenario().constraints.max_nodes);
    // "up to" is the scenario's max-nodes constraint: written back, so a later edit on the Plan
    // page does not silently reset it and the Plan page's Max nodes agrees.
    connect(max_nodes_, &QSpinBox::valueChanged, this, [this](int value) {
        if (value == context_.scenario().constraints.max_nodes) return;
        sim::Scenario sc = context_.scenario();
        sc.constraints.max_nodes = value;
        context_.setScenario(sc, this);
    });
    reloadInstances();
}

void ScalingPage::reloadInstances() {
    const QStringList previous = selectedInstances();
    instances_menu_->clear();
    for (const InstanceChoice& c : context_.catalog().instanceChoices()) {
        QAction* a =
            instances_menu_->addAction(QStringLiteral("%1  (%2)").arg(c.type, c.description));
        a->setData(c.type);
        a->setCheckable(true);
        a->setChecked(previous.contains(c.type));
        connect(a, &QAction::toggled, this, [this] {
            updateInstanceButton();
            stale_ = true;
        });
    }
    if (selectedInstances().isEmpty()) {
        setSelectedInstances({QString::fromStdString(context_.scenario().instance)});
    }
    updateInstanceButton();
}

QStringList ScalingPage::selectedInstances() const {
    QStringList out;
    for (QAction* a : instances_menu_->actions()) {
        if (a->isChecked()) out << a->data().toString();
    }
    return out;
}

void ScalingPage::setSelectedInstances(const QStringList& types) {
    for (QAction* a : instances_menu_->actions()) {
        const QSignalBlocker block(a);
        a->setChecked(types.contains(a->data().toString()));
    }
    updateInstanceButton();
    stale_ = true;
}

void ScalingPage::updateInstanceButton() {
    const QStringList types = selectedInstances();
    instances_button_->setText(types.isEmpty() ? tr("none") : types.join(QStringLiteral(", ")));
}

void ScalingPage::showEvent(QShowEvent* event) {
    Page::showEvent(event);
    if (stale_ && !running_) runSweep();
}

void ScalingPage::runSweep() {
    if (running_) {
        // The newest request wins: stop the running sweep and start again when it ends.
        cancelSweep();
        stale_ = true;
        return;
    }
    ScalingRequest request;
    request.scenario = context_.scenario();
    request.max_nodes = max_nodes_->value();
    catalog::Catalog* db = context_.catalog().db();
    if (db == nullptr) {
        status_->setText(context_.catalog().openError());
        return;
    }
    // Each chosen instance through the same resolver as `clusterplan sweep`; one that cannot be
    // resolved is left out, and its reason shown when none is left.
    QString resolve_error;
    for (const QString& type : selectedInstances()) {
        sim::Scenario sc = request.scenario;
        sc.instance = type.toStdString();
        try {
            request.nodes.push_back(service::resolve_node(sc, *db));
        } catch (const std::exception& e) {
            if (resolve_error.isEmpty()) resolve_error = QString::fromStdString(e.what());
        }
    }
    try {
        request.calibration = service::resolve_calibration(request.scenario, *db);
    } catch (const std::exception& e) {
        status_->setText(QString::fromStdString(e.what()));
        return;
    }
    if (request.nodes.empty()) {
        status_->setText(resolve_error.isEmpty()
                             ? tr("Choose at least one instance type that can train.")
                             : resolve_error);
        return;
    }
    swept_scenario_ = request.scenario;
    stale_ = false;
    running_ = true;
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    status_->setText(tr("Sweeping…"));
    cancel_flag_ = std::make_shared<std::atomic<bool>>(false);
    const auto cancel = cancel_flag_;
    QPointer<QProgressBar> bar = progress_;
    auto* watcher = new QFutureWatcher<ScalingData>(this);
    connect(watcher, &QFutureWatcher<ScalingData>::finished, this, [this, watcher] {
        auto data = std::make_shared<const ScalingData>(watcher->result());
        watcher->deleteLater();
        running_ = false;
        run_->setEnabled(true);
        cancel_->setEnabled(false);
        if (!data->cancelled || !data_) {
            data_ = data;
            showData();
        }
        status_->setText(data->cancelled ? tr("Sweep cancelled.")
                                         : tr("%1 layouts evaluated in %2; %3 cluster sizes fit.")
                                               .arg(QLocale().toString(qulonglong(data->evaluated)))
                                               .arg(fmt_duration_s(data->seconds))
                                               .arg(data->plans.size()));
        emit sweepFinished();
        if (stale_ && isVisible()) runSweep();
    });
    watcher->setFuture(QtConcurrent::run([request, cancel, bar] {
        return compute_scaling(request, *cancel, [bar](int done, int total) {
            QMetaObject::invokeMethod(
                bar,
                [bar, done, total] {
                    if (!bar) return;
                    bar->setRange(0, total);
                    bar->setValue(done);
                },
                Qt::QueuedConnection);
        });
    }));
}

void ScalingPage::cancelSweep() {
    if (cancel_flag_) cancel_flag_->store(true);
}

void ScalingPage::showData() {
    const ScalingData& d = *data_;
    const QString unit = throughput_unit(swept_scenario_.workload.kind);
    throughput_->replaceChart(
        charts::scaling_chart(d.series, charts::ScalingMetric::throughput, unit, false));
    efficiency_->replaceChart(
        charts::scaling_chart(d.series, charts::ScalingMetric::efficiency, unit, false));
    cost_->replaceChart(charts::scaling_chart(d.series, charts::ScalingMetric::cost, unit, false));
    // One legend for the three charts: they share series and colours.
    QStringList entries;
    for (std::size_t i = 0; i < d.series.size(); ++i) {
        entries << QStringLiteral("<span style='color:%1; font-size:large'>&#9632;</span>&nbsp;%2")
                       .arg(charts::series_color(int(i)).name(), d.series[i].label.toHtmlEscaped());
    }
    legend_->setText(entries.isEmpty() ? tr("No layout fits this model on the chosen instances.")
                                       : entries.join(QStringLiteral("&nbsp;&nbsp;&nbsp;&nbsp;")));
    ranked_title_->setText(
        tr("<b>Recommendations</b> — %1%2")
            .arg(d.objective.isEmpty() ? tr("ranked")
                                       : tr("ranked by %1").arg(d.objective.toHtmlEscaped()),
                 d.excluded.isEmpty()
                     ? QString()
                     : tr("; excluded: %1")
                           .arg(d.excluded.join(QStringLiteral(", ")).toHtmlEscaped())));
    pareto_points_.clear();
    // `option`: a purchase option of the ranking (front or ranked), timed and costed as bought.
    auto add_point = [this](const SweepPlan& p, bool option, bool front, int index, int rank) {
        pareto_points_.push_back(
            {option ? p.wall_time_h : p.time_to_train_h, option ? p.option_cost_usd : p.cost_usd,
             front,
             (rank == 1  ? tr("#1, recommended: ")
              : rank > 1 ? tr("#%1: ").arg(rank)
                         : QString()) +
                 tr("%1 × %2 (%3), %4×%5×%6 TP×PP×DP, micro-batch %7\n%8 and %9 %10, MFU %11")
                     .arg(p.nodes)
                     .arg(p.instance)
                     .arg(option && p.spot ? tr("spot") : tr("on demand"))
                     .arg(p.layout.tp)
                     .arg(p.layout.pp)
                     .arg(p.layout.dp)
                     .arg(p.layout.micro_batch)
                     .arg(fmt_hours(option ? p.wall_time_h : p.time_to_train_h),
                          fmt_usd(option ? p.option_cost_usd : p.cost_usd),
                          option && p.spot ? tr("expected") : QString(), fmt_percent(p.mfu, 0)),
             index, rank,
             front ? tr("%1× %2%3").arg(p.nodes).arg(p.instance, p.spot ? tr(" spot") : QString())
                   : QString()});
    };
    // Indices >= plans.size() refer to front entries, then to the first ranked ones.
    for (std::size_t i = 0; i < d.plans.size(); ++i)
        add_point(d.plans[i], false, false, int(i), 0);
    for (std::size_t i = 0; i < d.front.size(); ++i)
        add_point(d.front[i], true, true, int(d.plans.size() + i), 0);
    // The recommendation and two runners-up, numbered as in the table beside the chart.
    for (std::size_t i = 0; i < std::min<std::size_t>(3, d.ranked.size()); ++i)
        add_point(d.ranked[i], true, false, int(d.plans.size() + d.front.size() + i), int(i) + 1);
    const sim::Constraints& limits = swept_scenario_.constraints;
    QChart* chart =
        charts::pareto_chart(pareto_points_, {limits.deadline_hours, limits.budget_usd});
    for (QAbstractSeries* s : chart->series()) {
        auto* scatter = qobject_cast<QScatterSeries*>(s);
        if (!scatter) continue;
        connect(scatter, &QScatterSeries::hovered, this,
                [this, scatter](const QPointF& point, bool state) {
                    if (!state) {
                        QToolTip::hideText();
                        return;
                    }
                    if (const charts::ParetoPoint* p =
                            charts::pareto_point_near(pareto_points_, scatter, point)) {
                        QToolTip::showText(QCursor::pos(), p->label + tr("\nClick to open in Plan"),
                                           pareto_);
                    }
                });
        connect(scatter, &QScatterSeries::clicked, this, [this, scatter](const QPointF& point) {
            const charts::ParetoPoint* p =
                charts::pareto_point_near(pareto_points_, scatter, point);
            if (!p || !data_) return;
            const std::size_t i = std::size_t(p->index);
            const std::size_t plans = data_->plans.size();
            const std::size_t front = data_->front.size();
            openPlan(i < plans           ? data_->plans[i]
                     : i < plans + front ? data_->front[i - plans]
                                         : data_->ranked[i - plans - front]);
        });
    }
    pareto_->replaceChart(chart);
    model_->setData(data_, swept_scenario_.workload.kind);
    table_->resizeColumnsToContents();
    if (model_->rowCount() > 0) table_->selectRow(0);
}

void ScalingPage::openPlan(const SweepPlan& plan) {
    emit context_.openPlanRequested(scenario_for(swept_scenario_, plan));
}

} // namespace cp::gui
