// `clusterplan serve SCENARIO.json [--json] [--top N]` (DESIGN.md "Inference serving"): one
// deployment on the scenario's instance, or the cheapest deployment meeting the SLO over every
// candidate instance, ranked, with the latency-throughput curve of the choice.
#include "args.h"
#include "cli.h"
#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/serving_json.h"
#include "scenario_input.h"
#include "serving_input.h"
#include "serving_text.h"

#include <ostream>

namespace cp::cli {

int cmd_serve(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, ArgSpec{{"--json"}, {"--top"}});
    if (args.positional().size() != 1)
        throw UsageError("serve needs exactly one SCENARIO.json argument");
    const int top = args.int_value("--top", 10, 1, 1000);
    const sim::Scenario sc = load_scenario_file(args.positional()[0]);
    if (!sc.serving)
        throw InputError(
            sc.origin +
            ": serving: required by serve (this scenario plans training; use simulate)");
    catalog::Catalog cat = catalog::Catalog::open_default();
    const auto candidates = serving_candidates(sc, cat);
    const auto calibration = resolve_calibration(sc, cat);
    const sim::ServingFactors& factors = fitted_serving_factors(cat);
    const sim::ServingRequest request = serving_request(sc);
    if (candidates.size() == 1) {
        const sim::ServingPlan plan = sim::plan_serving(request, candidates.front(), factors,
                                                        calibration ? &*calibration : nullptr);
        if (args.flag("--json"))
            io.out << sim::serving_plan_json(plan).dump(2) << "\n";
        else
            print_serving_plan(io.out, plan);
        return kOk;
    }
    std::vector<sim::ServingPlan> ranked = sim::rank_serving(request, candidates, factors);
    if (args.flag("--json"))
        io.out << serving_ranking_json(ranked, top).dump(2) << "\n";
    else
        print_serving_ranking(io.out, ranked, top);
    return kOk;
}

} // namespace cp::cli
