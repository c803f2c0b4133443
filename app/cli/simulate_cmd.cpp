// `clusterplan simulate | sweep | recommend SCENARIO.json` (DESIGN.md "Command line").
#include "args.h"
#include "cli.h"
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/service/planning.h"
#include "clusterplan/service/scenario_input.h"
#include "clusterplan/service/serving_input.h"
#include "clusterplan/sim/plan_json.h"
#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/recommend.h"
#include "clusterplan/sim/search.h"
#include "plan_text.h"
#include "serving_text.h"

#include <algorithm>
#include <ostream>
#include <thread>

namespace cp::cli {
namespace {

std::string scenario_path(const Args& args, const char* command) {
    if (args.positional().size() != 1)
        throw UsageError(std::string(command) + " needs exactly one SCENARIO.json argument");
    return args.positional()[0];
}

// simulate and sweep plan training; a serving scenario goes to `serve` (or recommend).
void require_training(const sim::Scenario& sc, const char* command) {
    if (sc.serving)
        throw InputError(
            sc.origin + ": serving: " + command +
            " plans training; use `clusterplan serve` (or recommend) for a serving scenario");
}

int default_threads() {
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

} // namespace

int cmd_simulate(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, ArgSpec{{"--json"}, {}});
    const std::string path = scenario_path(args, "simulate");
    const sim::Scenario sc = service::load_scenario_file(path);
    require_training(sc, "simulate");
    catalog::Catalog cat = catalog::Catalog::open_default();
    const sim::PlanReport report = service::simulate(sc, cat);
    if (args.flag("--json"))
        io.out << sim::plan_report_json(report).dump(2) << "\n";
    else
        print_plan(io.out, report);
    if (report.result.limit != sim::Limit::none)
        return no_feasible_plan(io, "simulate",
                                report.limit_reason.empty() ? sim::describe_limit(report.result)
                                                            : report.limit_reason);
    return kOk;
}

int cmd_sweep(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, ArgSpec{{"--json"}, {"--threads", "--top"}});
    const std::string path = scenario_path(args, "sweep");
    const int threads = args.int_value("--threads", default_threads(), 1, 256);
    const int top = args.int_value("--top", 20, 0, 100000);
    const sim::Scenario sc = service::load_scenario_file(path);
    require_training(sc, "sweep");
    catalog::Catalog cat = catalog::Catalog::open_default();
    sim::SweepOptions options;
    options.threads = threads;
    const sim::SweepResult result = service::sweep(sc, cat, options);
    const sim::Ranking ranking = sim::rank_options(sc, result, top);
    if (args.flag("--json"))
        io.out << sim::sweep_json(sc, result, ranking, top).dump(2) << "\n";
    else
        print_sweep(io.out, sc, result, ranking, top);
    // Valid plans whose only lack is a price are listed above with the reason, not infeasible.
    const bool only_unpriced = result.valid > 0 && ranking.excluded_no_price > 0 &&
                               ranking.excluded_deadline == 0 && ranking.excluded_budget == 0;
    if (ranking.sorted.empty() && !only_unpriced)
        return no_feasible_plan(io, "sweep", ranking.nearest_miss);
    return kOk;
}

int cmd_recommend(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, ArgSpec{{"--json"}, {"--top", "--threads"}});
    const std::string path = scenario_path(args, "recommend");
    const int top = args.int_value("--top", 5, 1, 1000);
    const int threads = args.int_value("--threads", default_threads(), 1, 256);
    const sim::Scenario sc = service::load_scenario_file(path);
    catalog::Catalog cat = catalog::Catalog::open_default();
    if (sc.serving) {
        // A serving scenario: the cheapest deployment meeting the SLO over its candidates.
        const auto ranked =
            sim::rank_serving(service::serving_request(sc), service::serving_candidates(sc, cat),
                              service::fitted_serving_factors(cat));
        const bool spot_prices = sc.pricing == sim::Pricing::spot;
        if (args.flag("--json"))
            io.out << serving_ranking_json(ranked, top, spot_prices).dump(2) << "\n";
        else
            print_serving_ranking(io.out, ranked, top, spot_prices);
        if (std::none_of(ranked.begin(), ranked.end(),
                         [](const sim::ServingPlan& p) { return p.valid; }))
            return no_feasible_plan(io, "recommend",
                                    "no candidate instance type can serve this model");
        return kOk;
    }
    sim::SweepOptions options;
    options.threads = threads;
    const sim::RecommendResult result = service::recommend(sc, cat, top, options);
    if (args.flag("--json"))
        io.out << sim::recommend_json(sc, result).dump(2) << "\n";
    else
        print_recommendation(io.out, sc, result);
    if (result.ranking.sorted.empty())
        return no_feasible_plan(io, "recommend", result.ranking.nearest_miss);
    return kOk;
}

} // namespace cp::cli
