#include "pages/plan_page.h"

#include "app_context.h"
#include "catalog_service.h"
#include "chart_view.h"
#include "charts/plan_charts.h"
#include "clusterplan/sim/plan_interval.h"
#include "figure_card.h"
#include "format.h"
#include "pages/scenario_editor.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace cp::gui {

PlanPage::PlanPage(AppContext& context, QWidget* parent) : Page(parent), context_(context) {
    auto* splitter = new QSplitter(Qt::Horizontal);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    editor_ = new ScenarioEditor;
    scroll->setWidget(editor_);
    scroll->setMinimumWidth(editor_->sizeHint().width() + 24);
    splitter->addWidget(scroll);

    auto* results = new QWidget;
    auto* rlayout = new QVBoxLayout(results);
    rlayout->setContentsMargins(6, 0, 0, 0);
    auto* grid = new QGridLayout;
    grid->setSpacing(6);
    cards_ = FigureCards(
        grid,
        {
            {"step_time", tr("Step time"),
             tr("Wall time of one optimizer step (global batch), seconds.")},
            {"throughput", tr("Throughput"),
             tr("Training throughput of the whole cluster: tokens/s for transformers, samples/s "
                "for generic models.")},
            {"mfu", tr("MFU"),
             tr("Model FLOPs utilisation: useful model FLOP/s (6·P-style, no recompute) "
                "over the devices' dense peak.")},
            {"memory", tr("Memory per device"),
             tr("Peak memory per accelerator against its capacity, GiB.")},
            {"time_to_train", tr("Time to train"),
             tr("Wall time for the whole dataset on on-demand instances.")},
            {"cost_on_demand", tr("Cost, on-demand"),
             tr("Nodes × on-demand price × time to train, USD. Framed when the scenario's pricing "
                "is on-demand.")},
            {"cost_spot", tr("Cost, spot (expected)"),
             tr("Spot price × expected time including interruptions, restarts and lost work, USD. "
                "Framed when the scenario's pricing is spot.")},
            {"layout", tr("Layout (TP×PP×DP)"),
             tr("Tensor × pipeline × data parallel degrees, micro-batch size (samples), ZeRO stage "
                "and activation recomputation.")},
        },
        4);
    rlayout->addLayout(grid);
    verdict_ = new QLabel;
    verdict_->setObjectName(QStringLiteral("verdict"));
    verdict_->setWordWrap(true);
    verdict_->setTextFormat(Qt::RichText);
    verdict_->setFrameShape(QFrame::StyledPanel);
    verdict_->setMargin(8);
    verdict_->setToolTip(tr("A plain-language reading of the results above."));
    rlayout->addWidget(verdict_);
    auto* charts = new QHBoxLayout;
    breakdown_view_ = new ChartView;
    memory_view_ = new ChartView;
    charts->addWidget(breakdown_view_, 1);
    charts->addWidget(memory_view_, 1);
    rlayout->addLayout(charts, 1);
    assumptions_ = new QTextBrowser;
    assumptions_->setMaximumHeight(assumptions_->fontMetrics().height() * 5 + 12);
    assumptions_->setToolTip(tr("How these figures were obtained and what they assume."));
    rlayout->addWidget(assumptions_);
    splitter->addWidget(results);
    splitter->setStretchFactor(1, 1);
    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(6, 6, 6, 6);
    root->addWidget(splitter);

    debounce_ = new QTimer(this);
    debounce_->setSingleShot(true);
    debounce_->setInterval(0); // coalesce the burst of signals one edit produces
    connect(debounce_, &QTimer::timeout, this, &PlanPage::recompute);
    connect(editor_, &ScenarioEditor::edited, this, &PlanPage::onEdited);
    connect(&context_, &AppContext::scenarioChanged, this, [this](QObject* origin) {
        if (origin == this) return;
        applying_ = true;
        editor_->setScenario(context_.scenario());
        applying_ = false;
        debounce_->start();
    });
    connect(&context_, &AppContext::catalogChanged, this, [this] {
        reloadChoices();
        debounce_->start();
    });
    reloadChoices();
    editor_->setScenario(context_.scenario());
    recompute();
}

void PlanPage::reloadChoices() {
    editor_->setInstances(context_.catalog().instanceChoices());
    editor_->setCatalogChoices(context_.catalog().regionChoices(),
                               context_.catalog().acceleratorChoices());
    editor_->setPresets(context_.catalog().presetChoices());
    editor_->setScenario(context_.scenario());
}

void PlanPage::onEdited() {
    if (applying_) return;
    context_.setScenario(editor_->scenario(), this);
    debounce_->start();
}

void PlanPage::flushPendingUpdate() {
    if (debounce_->isActive()) {
        debounce_->stop();
        recompute();
    }
}

void PlanPage::simulateEdit(int step) {
    QSpinBox* nodes = editor_->nodesField();
    nodes->setValue(nodes->value() + (step % 2 == 0 ? 1 : -1));
}

void PlanPage::recompute() {
    outcome_ = evaluate_plan(context_.scenario(), context_.catalog());
    showOutcome();
    ++update_count_;
}

// The range under each figure that scales with the step time, with the full sentence as its
// tooltip; the badge where no measured run supports the plan.
void PlanPage::showRanges() {
    const PlanOutcome& o = outcome_;
    const sim::PredictionInterval& iv = o.interval;
    const bool valid = o.result.valid();
    const auto show = [&](const char* key, sim::FigureRange r,
                          const std::function<QString(double)>& unit) {
        cards_[QString::fromLatin1(key)]->showInterval(iv, r.low, r.high, unit, valid);
    };
    const sim::PlanResult& r = o.result;
    show("step_time", sim::time_range(r.step_time_s, iv), fmt_duration_s);
    const bool generic = o.workload_kind == sim::WorkloadKind::generic;
    show("throughput", sim::rate_range(generic ? r.samples_per_s : r.tokens_per_s, iv),
         [&](double v) {
             return fmt_count(v) + QLatin1Char(' ') + throughput_unit(o.workload_kind);
         });
    show("time_to_train", sim::time_range(o.time_to_train_h, iv), fmt_hours);
    show("cost_on_demand", sim::time_range(o.cost_on_demand_usd, iv), fmt_usd);
    show("cost_spot", sim::time_range(o.cost_spot_usd, iv), fmt_usd);
}

QString PlanPage::verdictText() const {
    return verdict_->text();
}

void PlanPage::showOutcome() {
    const PlanOutcome& o = outcome_;
    if (!o.error.isEmpty()) {
        cards_.clear();
        verdict_->setText(
            QStringLiteral("<b>%1</b> %2").arg(tr("Cannot evaluate:"), o.error.toHtmlEscaped()));
        verdict_->setStyleSheet(QStringLiteral("QLabel#verdict { border: 2px solid #c0392b; }"));
        breakdown_view_->replaceChart(charts::step_breakdown_chart({}));
        memory_view_->replaceChart(charts::memory_chart({}));
        assumptions_->clear();
        return;
    }
    const sim::PlanResult& r = o.result;
    cards_["step_time"]->setValue(fmt_duration_s(r.step_time_s),
                                  tr("%1 micro-batches").arg(o.layout.micro_batches()));
    // A transformer counts tokens (samples alongside); a generic model (ResNet-50) only samples.
    const bool generic = o.workload_kind == sim::WorkloadKind::generic;
    cards_["throughput"]->setValue(
        fmt_throughput(r.tokens_per_s, r.samples_per_s, o.workload_kind),
        generic ? tr("%1 samples/s per device")
                      .arg(fmt_num(r.samples_per_s / std::max(1, o.devices), 1))
                : tr("%1 samples/s").arg(fmt_num(r.samples_per_s, 1)));
    cards_["throughput"]->setToolTip(
        generic ? tr("Training samples (images) processed per second by the whole cluster.")
                : tr("Training tokens processed per second by the whole cluster."));
    cards_["mfu"]->setValue(fmt_percent(r.mfu),
                            tr("%1 TFLOP/s per device").arg(fmt_num(r.model_tflops_per_device, 0)));
    cards_["memory"]->setValue(
        fmt_gib(r.memory_gib.total),
        tr("of %1%2").arg(fmt_gib(r.memory_gib.capacity), r.fits_in_memory ? QString()
                                                          : r.valid()      ? tr(" — may not fit")
                                                                      : tr(" — does not fit")));
    cards_["time_to_train"]->setValue(fmt_hours(o.time_to_train_h),
                                      tr("%1 × %2").arg(o.devices).arg(o.accelerator));
    cards_["cost_on_demand"]->setValue(fmt_usd(o.cost_on_demand_usd), o.instance);
    cards_["cost_spot"]->setValue(
        fmt_usd(o.cost_spot_usd),
        tr("%1, %2").arg(fmt_hours(o.spot_time_to_train_h),
                         fmt_interruptions(o.spot_expected_interruptions)));
    // ZeRO and recompute are part of the layout the search picks: a plan is not reproducible
    // without them.
    static const char* const kRecompute[] = {QT_TR_NOOP("no recompute"),
                                             QT_TR_NOOP("selective recompute"),
                                             QT_TR_NOOP("full recompute")};
    cards_["layout"]->setValue(
        QStringLiteral("%1×%2×%3").arg(o.layout.tp).arg(o.layout.pp).arg(o.layout.dp),
        tr("%1mb %2 · ZeRO-%3 · %4%5")
            // Context parallelism splits each sequence: without it the card's product would not
            // account for every device.
            .arg(o.layout.cp > 1 ? tr("CP %1 · ").arg(o.layout.cp) : QString())
            .arg(o.layout.micro_batch)
            .arg(o.layout.zero)
            .arg(tr(kRecompute[std::clamp(int(o.layout.recompute), 0, 2)]))
            .arg(o.layout_searched ? tr(" · searched") : QString()));
    if (o.layout_searched) editor_->showSearchedLayout(o.layout);
    showRanges();
    cards_["cost_on_demand"]->setHighlighted(!o.spot_headline);
    cards_["cost_spot"]->setHighlighted(o.spot_headline);
    verdict_->setText(o.verdict.toHtmlEscaped());
    verdict_->setStyleSheet(o.verdict_ok
                                ? QStringLiteral("QLabel#verdict { border: 2px solid #59a14f; }")
                                : QStringLiteral("QLabel#verdict { border: 2px solid #e15759; }"));
    const std::vector<charts::LabelledPlan> plans = {{tr("This plan"), &outcome_.result}};
    breakdown_view_->replaceChart(charts::step_breakdown_chart(plans));
    memory_view_->replaceChart(charts::memory_chart(plans));
    QStringList items;
    for (const QString& a : o.assumptions)
        items << a.toHtmlEscaped();
    assumptions_->setHtml(items.isEmpty()
                              ? QString()
                              : tr("<b>Assumptions:</b> ") + items.join(QStringLiteral(" · ")));
}

} // namespace cp::gui
