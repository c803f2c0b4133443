// `clusterplan serve SCENARIO.json [--json] [--top N]` (DESIGN.md "Inference serving"): one
// deployment on the scenario's instance, or the cheapest deployment meeting the SLO over every
// candidate instance, ranked, with the latency-throughput curve of the choice.
#include "args.h"
#include "cli.h"
#include "clusterplan/service/scenario_input.h"
#include "clusterplan/service/serving_study.h"
#include "clusterplan/sim/serving_json.h"
#include "serving_text.h"

#include <ostream>

namespace cp::cli {

int cmd_serve(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, ArgSpec{{"--json"}, {"--top"}});
    if (args.positional().size() != 1)
        throw UsageError("serve needs exactly one SCENARIO.json argument");
    const int top = args.int_value("--top", 10, 1, 1000);
    const sim::Scenario sc = service::load_scenario_file(args.positional()[0]);
    if (!sc.serving)
        throw InputError(
            sc.origin +
            ": serving: required by serve (this scenario plans training; use simulate)");
    catalog::Catalog cat = catalog::Catalog::open_default();
    const service::ServingStudy study = service::study_serving(sc, cat);
    const bool spot_prices = sc.pricing == sim::Pricing::spot;
    const bool json = args.flag("--json");
    if (study.ranked.size() == 1) {
        if (json)
            io.out << sim::serving_plan_json(study.ranked.front()).dump(2) << "\n";
        else
            print_serving_plan(io.out, study.ranked.front());
    } else if (json) {
        io.out << serving_ranking_json(study.ranked, top, spot_prices).dump(2) << "\n";
    } else {
        print_serving_ranking(io.out, study.ranked, top, spot_prices);
    }
    // Nothing can serve: the plan (or each type's reason) is printed, and the exit code says so.
    if (study.servable() == 0)
        return no_feasible_plan(io, "serve",
                                study.ranked.size() == 1
                                    ? study.ranked.front().limits.reason
                                    : "no candidate instance type can serve this model");
    return kOk;
}

} // namespace cp::cli
