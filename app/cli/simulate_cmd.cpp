// `clusterplan simulate | sweep | recommend SCENARIO.json` (DESIGN.md "Command line").
#include "args.h"
#include "cli.h"
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/sim/plan_json.h"
#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/recommend.h"
#include "clusterplan/sim/search.h"
#include "plan_text.h"
#include "scenario_input.h"
#include "serving_input.h"
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
    const sim::Scenario sc = load_scenario_file(path);
    require_training(sc, "simulate");
    catalog::Catalog cat = catalog::Catalog::open_default();
    const sim::NodeSpec node = resolve_node(sc, cat);
    const auto calibration = resolve_calibration(sc, cat);
    const sim::PlanReport report =
        sim::simulate_plan(sc, node, calibration ? &*calibration : nullptr);
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
    const sim::Scenario sc = load_scenario_file(path);
    require_training(sc, "sweep");
    catalog::Catalog cat = catalog::Catalog::open_default();
    auto candidates = resolve_candidates(sc, cat);
    const auto calibration = resolve_calibration(sc, cat);
    check_calibration_applies(sc, candidates, calibration);
    sim::SweepOptions options;
    options.threads = threads;
    const sim::SweepResult result =
        sim::sweep(sc, std::move(candidates), calibration ? &*calibration : nullptr, options);
    const sim::Ranking ranking = sim::rank_options(sc, result, top);
    if (args.flag("--json"))
        io.out << sim::sweep_json(sc, result, ranking, top).dump(2) << "\n";
    else
        print_sweep(io.out, sc, result, ranking, top);
    if (ranking.sorted.empty()) return no_feasible_plan(io, "sweep", ranking.nearest_miss);
    return kOk;
}

int cmd_recommend(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, ArgSpec{{"--json"}, {"--top", "--threads"}});
    const std::string path = scenario_path(args, "recommend");
    const int top = args.int_value("--top", 5, 1, 1000);
    const int threads = args.int_value("--threads", default_threads(), 1, 256);
    const sim::Scenario sc = load_scenario_file(path);
    catalog::Catalog cat = catalog::Catalog::open_default();
    if (sc.serving) {
        // A serving scenario: the cheapest deployment meeting the SLO over its candidates.
        const auto ranked = sim::rank_serving(serving_request(sc), serving_candidates(sc, cat),
                                              fitted_serving_factors(cat));
        if (args.flag("--json"))
            io.out << serving_ranking_json(ranked, top).dump(2) << "\n";
        else
            print_serving_ranking(io.out, ranked, top);
        return kOk;
    }
    auto candidates = resolve_candidates(sc, cat);
    const auto calibration = resolve_calibration(sc, cat);
    check_calibration_applies(sc, candidates, calibration);
    sim::SweepOptions options;
    options.threads = threads;
    const sim::RecommendResult result = sim::recommend(
        sc, std::move(candidates), calibration ? &*calibration : nullptr, top, options);
    if (args.flag("--json"))
        io.out << sim::recommend_json(sc, result).dump(2) << "\n";
    else
        print_recommendation(io.out, sc, result);
    if (result.ranking.sorted.empty())
        return no_feasible_plan(io, "recommend", result.ranking.nearest_miss);
    return kOk;
}

} // namespace cp::cli
