// Parsing and validation of `clusterplan.scenario/1` (DESIGN.md "Scenario file"). Every error is
// a ScenarioError naming the origin, the field and the reason; unknown fields are errors.
#include "clusterplan/sim/scenario.h"

#include "clusterplan/sim/io/json_depth.h"
#include "clusterplan/sim/presets.h"
#include "io/scenario_layout_fields.h"
#include "io/scenario_pricing.h"
#include "io/scenario_reader.h"
#include "io/scenario_serving.h"
#include "io/scenario_training_options.h"

#include <algorithm>

namespace cp::sim {

using namespace scenario_io;

const char* enum_name(Precision p) {
    return name_of(kPrecisions, p);
}
const char* enum_name(Recompute r) {
    return name_of(kRecomputes, r);
}
const char* enum_name(Schedule s) {
    return name_of(kSchedules, s);
}
const char* enum_name(DpComm d) {
    return name_of(kDpComms, d);
}
const char* enum_name(PsSync s) {
    return name_of(kPsSyncs, s);
}
const char* enum_name(Pricing p) {
    return name_of(kPricings, p);
}
const char* enum_name(Objective o) {
    return name_of(kObjectives, o);
}
const char* enum_name(StorageService s) {
    return name_of(kStorageServices, s);
}

std::vector<std::string> scenario_field_paths(const std::string& json_text) {
    std::set<std::string> paths;
    struct Sink {
        explicit Sink(std::set<std::string>* s) { g_field_paths = s; }
        ~Sink() { g_field_paths = nullptr; }
        Sink(const Sink&) = delete;
        Sink& operator=(const Sink&) = delete;
    } sink(&paths);
    try {
        parse_scenario(json_text, "field list");
    } catch (const ScenarioError&) {
        // The fields looked up before the error are the answer.
    }
    return {paths.begin(), paths.end()};
}

Scenario parse_scenario(const std::string& json_text, const std::string& origin) {
    // Bounded before parsing: messages and copies of a deeper document recurse once per level.
    if (const auto problem = io::json_input_problem(json_text))
        throw ScenarioError(origin, "(file)", "not a usable scenario: it " + *problem);
    json doc;
    try {
        doc = json::parse(json_text);
    } catch (const json::parse_error& e) {
        // nlohmann's message carries the byte position; keep it, drop the exception prefix.
        std::string what = e.what();
        if (auto pos = what.find("parse error"); pos != std::string::npos) what = what.substr(pos);
        throw ScenarioError(origin, "(file)", "not valid JSON: " + what);
    } catch (const json::exception& e) {
        // e.g. out_of_range 406 for a number beyond double range ("1e309"); found by fuzzing.
        throw ScenarioError(origin, "(file)", "not valid JSON: " + std::string(e.what()));
    }
    if (!doc.is_object()) throw ScenarioError(origin, "(file)", "must hold a JSON object");

    Scenario sc;
    sc.origin = origin;
    Reader top(doc, "", origin);
    if (auto v = top.string("schema"); v && *v != "clusterplan.scenario/1")
        top.fail("schema", "unsupported schema '" + *v + "' (expected clusterplan.scenario/1)");
    if (auto v = top.string("name")) sc.name = *v;

    auto model = top.object("model");
    if (!model) top.fail("model", "required (a preset or a shape)");
    // A named fused kernel implies fused attention (checked against flash_attention later).
    const bool flash_attention_given =
        model->present("flash_attention") || model->present("attention_kernel");
    parse_model(*model, sc);
    auto cluster = top.object("cluster");
    if (!cluster) top.fail("cluster", "required (an instance type, or custom hardware)");
    parse_cluster(*cluster, sc);
    if (auto p = top.object("parallel")) parse_parallel(*p, sc);
    parse_precision(top, sc);
    if (auto t = top.object("training")) parse_training(*t, sc);
    if (auto s = top.object("serving")) {
        if (top.present("training"))
            top.fail("serving", "give training or serving, not both (one scenario plans one job)");
        parse_serving(*s, sc);
    }
    if (auto s = top.object("spot")) parse_spot(*s, sc);
    if (auto c = top.object("constraints")) parse_constraints(*c, sc);
    if (auto s = top.object("storage")) parse_storage(*s, sc);
    top.reject_unknown();
    check_purchase_consistency(sc, origin);

    if (sc.parallel.global_batch == 0) {
        const ModelPreset* preset = find_model_preset(sc.preset);
        if (preset && preset->global_batch > 0) {
            sc.parallel.global_batch = preset->global_batch;
        } else {
            sc.parallel.global_batch = sc.workload.kind == WorkloadKind::transformer ? 512 : 256;
            sc.notes.push_back("parallel.global_batch not given: " +
                               std::to_string(sc.parallel.global_batch) + " samples assumed");
        }
    }
    validate_layout_against_model(sc, origin);
    resolve_layout_fields(sc, flash_attention_given, origin);
    validate_training_options(sc);
    const auto& allowed = sc.constraints.instances;
    if (!sc.instance.empty() && !allowed.empty() &&
        std::find(allowed.begin(), allowed.end(), sc.instance) == allowed.end()) {
        std::string list;
        for (const auto& type : allowed)
            list += (list.empty() ? "" : ", ") + type;
        throw ScenarioError(
            origin, "cluster.instance",
            "'" + sc.instance + "' is not in constraints.instances (" + list +
                "): the two contradict; add it to the list or leave one of them out");
    }
    if (sc.serving)
        check_serving_against_model(sc, origin);
    else
        default_training(sc, origin);
    // The default node limit bounds searches; it never refuses a cluster the scenario names.
    if (sc.nodes && !sc.constraints.max_nodes_given)
        sc.constraints.max_nodes = std::max(sc.constraints.max_nodes, *sc.nodes);
    if (sc.workload.seq_phase_count > 0) sc.notes.push_back(seq_phases_note(sc.workload));
    if (sc.nodes && *sc.nodes > sc.constraints.max_nodes)
        throw ScenarioError(origin, "cluster.nodes",
                            "exceeds constraints.max_nodes (" +
                                std::to_string(sc.constraints.max_nodes) + ")");
    return sc;
}

} // namespace cp::sim
