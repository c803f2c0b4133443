#include "pages/serve_page.h"

#include "app_context.h"
#include "catalog_service.h"
#include "chart_view.h"
#include "clusterplan/sim/plan_interval.h"
#include "clusterplan/sim/serving_wording.h"
#include "figure_card.h"
#include "format.h"
#include "models/serving_result_model.h"
#include "pages/result_table.h"
#include "pages/serving_form.h"
#include "qchart_render.h"
#include "serving_specs.h"

#include <QComboBox>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <filesystem>
#include <variant>

namespace cp::gui {

namespace {

// Charts compare the leading choices; the table lists them all.
// The curves skip larger sizes of a family already drawn, so they look further down the ranking.
constexpr std::size_t kCurvePlans = 40;
constexpr std::size_t kCostBars = 8;
constexpr std::size_t kMemoryBars = 5;

std::vector<sim::ServingPlan> leading(const std::vector<sim::ServingPlan>& ranked,
                                      std::size_t count) {
    std::vector<sim::ServingPlan> out;
    for (const sim::ServingPlan& p : ranked)
        if (p.valid && out.size() < count) out.push_back(p);
    return out;
}

using Outcome = std::variant<service::ServingStudy, QString>;

} // namespace

ServePage::ServePage(AppContext& context, QWidget* parent) : Page(parent), context_(context) {
    form_ = new ServingForm;
    run_ = new QPushButton(tr("Plan serving"));
    run_->setShortcut(QKeySequence(Qt::Key_F5));
    run_->setToolTip(tr("Rank every chosen instance for this question (F5)."));
    status_ = new QLabel;
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* left = new QWidget;
    auto* left_layout = new QVBoxLayout(left);
    left_layout->setContentsMargins(0, 0, 0, 0);
    left_layout->addWidget(form_);
    left_layout->addWidget(run_);
    left_layout->addWidget(status_);
    left_layout->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(left);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // As wide as the form asks: a clipped field hides the engine or SLO it plans for. The open
    // shape rows ask for more.
    const auto fit_form = [scroll, left] {
        scroll->setMinimumWidth(left->sizeHint().width() + 24);
        scroll->setMaximumWidth(left->sizeHint().width() + 80);
    };
    fit_form();
    // Queued: the form's layout takes the shown or hidden rows when its events are processed.
    connect(form_, &ServingForm::widthChanged, this, fit_form, Qt::QueuedConnection);

    latency_ = new QComboBox;
    latency_->addItems({tr("Time to first token"), tr("Time per output token")});
    latency_->setToolTip(tr("Latency drawn against throughput"));
    curve_ = new ChartView;
    cost_ = new ChartView;
    memory_ = new ChartView;
    auto* curve_box = new QWidget;
    auto* curve_layout = new QVBoxLayout(curve_box);
    curve_layout->setContentsMargins(0, 0, 0, 0);
    curve_layout->addWidget(latency_, 0, Qt::AlignRight);
    curve_layout->addWidget(curve_, 1);
    // Cost and memory share a place: each gets the width to name its instances in full.
    auto* tabs = new QTabWidget;
    tabs->addTab(cost_, tr("Cost per 1M tokens"));
    tabs->addTab(memory_, tr("Memory per device"));
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(curve_box);
    charts->addWidget(tabs);

    model_ = new ServingResultModel(this);
    table_ = make_result_table(model_);
    refused_ = new QLabel;
    refused_->setWordWrap(true);
    auto* table_box = new QWidget;
    auto* table_layout = new QVBoxLayout(table_box);
    table_layout->setContentsMargins(0, 0, 0, 0);
    table_layout->addWidget(table_, 1);
    table_layout->addWidget(refused_);
    // The selected deployment's headline figures, each with the range of its own residuals.
    auto* cards = new QWidget;
    auto* grid = new QGridLayout(cards);
    grid->setContentsMargins(0, 0, 0, 0);
    cards_ = FigureCards(grid,
                         {
                             {"throughput", tr("Throughput per replica"),
                              tr("Output tokens/s (samples/s for encoders and CNNs) one "
                                 "replica serves at capacity.")},
                             {"ttft", tr("Time to first token"),
                              tr("Prefill plus the wait for a batch slot at the planned rate, "
                                 "at the SLO quantile.")},
                             {"step", tr("Time per output token"),
                              tr("One decode step at the running batch (for encoders and "
                                 "CNNs: latency per batch).")},
                             {"cost", tr("Cost per 1M tokens"),
                              tr("On-demand cost per hour over the tokens served (per million "
                                 "samples for encoders and CNNs), USD.")},
                         },
                         4);
    auto* top = new QWidget;
    auto* top_layout = new QVBoxLayout(top);
    top_layout->setContentsMargins(0, 0, 0, 0);
    top_layout->addWidget(cards);
    top_layout->addWidget(charts, 1);
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(top);
    right->addWidget(table_box);
    // The charts name one instance per bar: at 800 px of height they need the larger share.
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(scroll);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(6, 6, 6, 6);
    root->addWidget(split);

    curve_->setEmptyText(tr("Plan serving to see latency against throughput."));
    connect(run_, &QPushButton::clicked, this, &ServePage::runStudy);
    connect(form_, &ServingForm::changed, this, [this] { stale_ = true; });
    connect(latency_, &QComboBox::currentIndexChanged, this, &ServePage::showCurve);
    connect(&context_, &AppContext::scenarioChanged, this, [this] {
        // A scenario with a serving section fills the form; a training one leaves it alone.
        if (!context_.scenario().serving) return;
        form_->setQuestion(service::serving_question(context_.scenario()));
        stale_ = true;
        if (isVisible()) runStudy();
    });
    connect(&context_, &AppContext::catalogChanged, this, [this] { stale_ = true; });
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showFigures(model_->planAt(current.row())); });
    if (context_.scenario().serving)
        form_->setQuestion(service::serving_question(context_.scenario()));
}

void ServePage::showEvent(QShowEvent* event) {
    Page::showEvent(event);
    if (stale_ && !running_) runStudy();
}

void ServePage::runStudy() {
    if (running_) {
        stale_ = true; // run again with the newest question when this one ends
        return;
    }
    stale_ = false;
    running_ = true;
    run_->setEnabled(false);
    status_->setText(tr("Planning…"));
    const service::ServingQuestion question = form_->question();
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher] {
        Outcome outcome = watcher->result();
        watcher->deleteLater();
        running_ = false;
        run_->setEnabled(true);
        if (auto* error = std::get_if<QString>(&outcome)) {
            error_ = *error;
            status_->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>")
                                 .arg(error->toHtmlEscaped()));
        } else {
            error_.clear();
            study_ = std::make_shared<const service::ServingStudy>(
                std::move(std::get<service::ServingStudy>(outcome)));
            showStudy();
        }
        emit studyFinished();
        if (stale_ && isVisible()) runStudy();
    });
    // The worker opens its own connection: the window's may be reopened by an import meanwhile.
    const std::string db_path = context_.catalog().databasePath().toStdString();
    watcher->setFuture(QtConcurrent::run([question, db_path]() -> Outcome {
        try {
            catalog::Catalog db{std::filesystem::path(db_path)};
            return service::study_serving(service::serving_scenario(question, db), db);
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
    }));
}

void ServePage::showStudy() {
    const service::ServingStudy& s = *study_;
    const bool spot = s.scenario.pricing == sim::Pricing::spot;
    model_->setPlans(s.ranked, spot);
    table_->resizeColumnsToContents();
    if (model_->rowCount() > 0) table_->selectRow(0);
    showFigures(model_->planAt(0));
    showCurve();
    cost_->replaceChart(
        ::cp::charts::make_chart(::cp::charts::serving_cost_spec(leading(s.ranked, kCostBars)),
                                 ::cp::charts::screen_look()));
    memory_->replaceChart(
        ::cp::charts::make_chart(::cp::charts::serving_memory_spec(leading(s.ranked, kMemoryBars)),
                                 ::cp::charts::screen_look()));
    QStringList refused;
    for (const sim::ServingPlan& p : s.ranked)
        if (!p.valid)
            refused << QStringLiteral("<b>%1</b>: %2")
                           .arg(QString::fromStdString(p.instance).toHtmlEscaped(),
                                QString::fromStdString(p.limits.reason).toHtmlEscaped());
    refused_->setText(refused.isEmpty() ? QString()
                                        : tr("%n instance type(s) cannot serve this model.", "",
                                             int(refused.size())));
    refused_->setToolTip(refused.join(QStringLiteral("<br>")));
    const sim::ServingPlan* best = model_->planAt(0);
    if (best == nullptr) {
        status_->setText(tr("No instance can serve this model."));
    } else {
        status_->setText(
            tr("%1 of %2 instance types meet the limits. Best: %3 × %4 at %5 per million %6.")
                .arg(s.meeting_slo())
                .arg(s.ranked.size())
                .arg(best->nodes)
                .arg(QString::fromStdString(best->instance),
                     fmt_usd(spot ? best->spot.usd_per_million_output_tokens
                                  : best->usd_per_million_output_tokens),
                     best->generation ? tr("output tokens") : tr("samples")) +
            QStringLiteral(" ") + QString::fromStdString(sim::serving_quantization_note(*best)));
    }
    emit statusMessage(status_->text());
}

void ServePage::showFigures(const sim::ServingPlan* p) {
    const bool valid = p != nullptr && p->valid;
    if (!valid) {
        cards_.clear();
        return;
    }
    const sim::ServingIntervals& iv = p->intervals;
    const QString rate_unit = p->generation ? tr("tokens/s") : tr("samples/s");
    const auto rate = [rate_unit](double v) { return fmt_count(v) + QLatin1Char(' ') + rate_unit; };
    const auto ms = [](double v) { return fmt_num(v, v < 10 ? 2 : 1) + QStringLiteral(" ms"); };
    const double rate_value = p->generation ? p->output_tokens_per_s : p->samples_per_s;
    const sim::FigureRange r = sim::rate_range(rate_value, iv.throughput);
    FigureCard* card = cards_[QStringLiteral("throughput")];
    card->setValue(rate(rate_value), QString::fromStdString(iv.throughput.bucket));
    card->showInterval(iv.throughput, r.low, r.high, rate);

    card = cards_[QStringLiteral("ttft")];
    const sim::FigureRange t = sim::time_range(p->generation ? p->ttft_ms : sim::kUnknown, iv.ttft);
    card->setValue(p->generation ? ms(p->ttft_ms) : kDash);
    card->showInterval(iv.ttft, t.low, t.high, ms, p->generation);

    card = cards_[QStringLiteral("step")];
    const double step_ms = p->generation ? p->tpot_ms : p->latency_ms;
    const sim::FigureRange s = sim::time_range(step_ms, iv.step);
    card->setValue(ms(step_ms), p->generation ? tr("per output token") : tr("per batch"));
    card->showInterval(iv.step, s.low, s.high, ms);

    card = cards_[QStringLiteral("cost")];
    const sim::FigureRange c = sim::time_range(p->usd_per_million_output_tokens, iv.throughput);
    card->setValue(fmt_usd(p->usd_per_million_output_tokens),
                   p->generation ? tr("per 1M output tokens, on demand")
                                 : tr("per 1M samples, on demand"));
    card->showInterval(iv.throughput, c.low, c.high, fmt_usd);
}

void ServePage::showCurve() {
    if (!study_) return;
    latency_->setEnabled(model_->generation());
    const auto metric = latency_->currentIndex() == 1 ? ::cp::charts::ServingLatency::tpot
                                                      : ::cp::charts::ServingLatency::ttft;
    curve_->replaceChart(::cp::charts::make_chart(
        ::cp::charts::serving_curve_spec(leading(study_->ranked, kCurvePlans), metric),
        ::cp::charts::screen_look()));
    curve_->setEmptyText(
        curve_->chart()->series().isEmpty() ? tr("No instance can serve this model.") : QString());
}

} // namespace cp::gui
