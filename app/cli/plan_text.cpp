#include "plan_text.h"

#include "clusterplan/sim/format.h"
#include "clusterplan/sim/plan_interval.h"
#include "clusterplan/sim/wording.h"
#include "range_text.h"
#include "text_columns.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>

namespace cp::cli {
namespace {

using sim::is_known;
using sim::fmt::grouped;

using sim::fmt::number;
using sim::fmt::percent;

std::string duration(double hours) {
    return is_known(hours) ? sim::format_duration_s(hours * 3600.0) : "—";
}

std::string layout_text(const sim::Layout& l) {
    std::string s = "tp=" + std::to_string(l.tp) + " pp=" + std::to_string(l.pp) +
                    " dp=" + std::to_string(l.dp);
    // Context-parallel ranks multiply the device count: without them tp·pp·dp falls short.
    if (l.cp > 1) s += " cp=" + std::to_string(l.cp);
    s += " mb=" + std::to_string(l.micro_batch);
    if (l.virtual_stages > 1) s += " v=" + std::to_string(l.virtual_stages);
    s += " zero=" + std::to_string(l.zero) + " rc=" + sim::enum_name(l.recompute);
    return s;
}

void option_row(std::ostream& out, const sim::SweepResult& sw, const sim::PlanOption& o, int rank) {
    const sim::ConfigBest& c = sw.configs[o.config];
    const sim::NodeSpec& node = sw.candidates[c.candidate];
    out << right(std::to_string(rank), 4) << "  " << right(std::to_string(c.nodes), 4) << " × "
        << left(node.instance_type, 18) << ' ' << left(o.spot ? "spot" : "on-demand", 9) << ' '
        << left(layout_text(c.layout), 44) << ' ' << right(number(c.step_time_s, 3), 9) << ' '
        << right(percent(c.mfu, 0), 6) << ' ' << right(duration(o.wall_time_h), 12) << ' '
        << right(sim::fmt::usd(o.cost_usd, 0), 12) << "\n";
}

std::string seconds(double s) {
    return sim::fmt::figures(s) + " s";
}

void option_header(std::ostream& out) {
    out << right("#", 4) << "  " << left("cluster", 25) << ' ' << left("purchase", 9) << ' '
        << left("layout", 44) << ' ' << right("step s", 9) << ' ' << right("MFU", 6) << ' '
        << right("time", 12) << ' ' << right("cost", 12) << "\n";
}

} // namespace

void print_plan(std::ostream& out, const sim::PlanReport& r) {
    const sim::PlanResult& p = r.result;
    out << (r.scenario_name.empty() ? std::string("Plan") : r.scenario_name) << "\n";
    out << "  cluster      " << r.nodes << " × " << r.instance << " (" << r.devices << " × "
        << r.accelerator << "), " << sim::enum_name(r.precision) << "\n";
    const sim::Layout& l = r.layout;
    out << "  layout       tp=" << l.tp << " pp=" << l.pp << " dp=" << l.dp;
    if (l.cp > 1) out << " cp=" << l.cp;
    out << ", micro-batch " << l.micro_batch << " of global " << l.global_batch;
    const int micro_batches = l.micro_batch * l.dp > 0 ? l.micro_batches() : 0;
    out << " (" << micro_batches << (micro_batches == 1 ? " micro-batch), " : " micro-batches), ")
        << sim::enum_name(l.schedule);
    if (l.virtual_stages > 1) out << " v=" << l.virtual_stages;
    out << ", ZeRO-" << l.zero << ", recompute " << sim::enum_name(l.recompute);
    if (l.distribute_saved_activations && l.tp > 1) out << " (checkpoints split over tp)";
    out << ", dp " << sim::enum_name(l.dp_comm);
    if (l.ep > 1 || l.etp > 1) out << ", ep=" << l.ep << " etp=" << l.etp;
    if (l.optimizer != sim::Optimizer::adamw) out << ", " << sim::enum_name(l.optimizer);
    if (l.offload.any())
        out << ", offload optimizer " << sim::enum_name(l.offload.optimizer) << " params "
            << sim::enum_name(l.offload.params);
    out << "\n";
    if (!r.note.empty()) out << "  note         " << r.note << "\n";
    if (!p.valid()) {
        out << "  NOT VALID    " << r.limit_reason << "\n";
        if (p.limit != sim::Limit::out_of_memory) return;
    }
    const sim::PredictionInterval& iv = r.interval;
    out << "  step time    " << number(p.step_time_s, 4) + " s"
        << (p.valid() ? range_note(iv, sim::time_range(p.step_time_s, iv), seconds) : "") << "\n";
    const sim::StepBreakdown& b = p.breakdown_s;
    const std::pair<const char*, double> parts[] = {
        {"compute", b.compute_s},     {"recompute", b.recompute_s},
        {"tp_comm", b.tp_comm_s},     {"pp_bubble", b.pp_bubble_s},
        {"pp_comm", b.pp_comm_s},     {"dp_comm_exposed", b.dp_comm_exposed_s},
        {"optimizer", b.optimizer_s}, {"host_overhead", b.host_overhead_s},
        {"cp_comm", b.cp_comm_s},
    };
    // MoE all-to-all and offload are listed only for the plans that have them.
    const std::pair<const char*, double> extra[] = {{"ep_comm", b.ep_comm_s},
                                                    {"offload", b.offload_s}};
    auto line = [&](const char* name, double value) {
        out << "    " << left(name, 16) << ' ' << right(number(value, 4), 10) << " s  "
            << right(percent(p.step_time_s > 0 ? value / p.step_time_s : 0.0), 6) << "\n";
    };
    for (const auto& [name, value] : parts)
        line(name, value);
    for (const auto& [name, value] : extra)
        if (value > 0) line(name, value);
    if (r.workload_kind == sim::WorkloadKind::generic) // no tokens: a sample is an image for CNNs
        out << "  throughput   " << number(p.samples_per_s, 1)
            << " samples/s (images/s for an image model)\n";
    else
        out << "  throughput   " << grouped(p.tokens_per_s) << " tokens/s, "
            << number(p.samples_per_s, 1) << " samples/s\n";
    out << "  per device   " << number(p.model_tflops_per_device, 1) << " model TFLOP/s, "
        << number(p.hardware_tflops_per_device, 1) << " hardware TFLOP/s, MFU " << percent(p.mfu, 1)
        << "\n";
    const sim::MemoryGib& m = p.memory_gib;
    out << "  memory       weights " << number(m.weights, 1) << " + gradients "
        << number(m.gradients, 1) << " + optimizer " << number(m.optimizer, 1) << " + activations "
        << number(m.activations, 1) << " = " << number(m.total, 1) << " of "
        << number(m.capacity, 1) << " GiB per device"
        << (p.fits_in_memory ? " (fits)"
            : p.valid()      ? " (may not fit)"
                             : " (does not fit)")
        << "\n";
    if (m.weights_frozen > 0 || m.offloaded_host > 0) {
        out << "               ";
        if (m.weights_frozen > 0)
            out << "frozen base " << number(m.weights_frozen, 1) << " GiB, trainable "
                << grouped(p.trainable_params) << " parameters";
        if (m.offloaded_host > 0)
            out << (m.weights_frozen > 0 ? "; " : "") << "offloaded to host "
                << number(m.offloaded_host, 1) << " GiB per device";
        out << "\n";
    }
    if (!p.valid()) return;
    out << "  scaling      " << percent(r.scaling_efficiency, 1) << " efficiency vs "
        << (r.scaling_reference_devices == 1
                ? std::string("1 device")
                : std::to_string(r.scaling_reference_devices) + " devices")
        << "\n";
    out << "  train time   " << duration(r.job.time_to_train_h) << " (" << grouped(r.job.steps)
        << " steps)" << range_note(iv, sim::time_range(r.job.time_to_train_h, iv), duration)
        << "\n";
    out << "  on demand    " << sim::fmt::usd(r.job.cost_usd, 0)
        << range_note(iv, sim::time_range(r.job.cost_usd, iv), sim::fmt::usd_short) << " at "
        << sim::fmt::usd(r.usd_per_node_hour, 2) << "/node-hour"
        << (r.price_as_of.empty() ? "" : " (price as of " + r.price_as_of + ")") << "\n";
    const sim::SpotEstimate& s = r.job.spot;
    if (!s.priced) {
        out << "  spot         no spot price known for " << r.instance << "\n";
    } else if (s.feasible) {
        out << "  spot         " << sim::fmt::usd(s.cost_usd, 0) << " expected at "
            << sim::fmt::usd(r.usd_per_node_hour_spot, 2) << "/node-hour, "
            << duration(s.wall_time_h) << ", "
            << sim::format_expected_interruptions(s.expected_interruptions) << " (Spot Advisor "
            << sim::spot_bucket_label(r.node.spot_interruption_bucket) << "), checkpoint every "
            << (s.checkpoint_interval_s > 0 ? duration(s.checkpoint_interval_s / 3600) : "notice")
            << "\n";
    } else {
        out << "  spot         not feasible: interruptions (cluster MTBF " << duration(s.mtbf_h)
            << ") come faster than the job can make progress\n";
    }
    if (r.hpo.trials > 1) {
        out << "  tuning job   " << r.hpo.trials << " trials, " << r.hpo.max_parallel_trials
            << " at a time: " << duration(r.hpo.wall_time_h) << ", "
            << sim::fmt::usd(r.hpo.cost_usd, 0) << " on demand, "
            << sim::fmt::usd(r.hpo.spot_cost_usd, 0) << " on spot\n";
    }
    out << "  validation   "
        << (iv.validated ? iv.bucket + ": " + std::to_string(iv.runs) + " measured run" +
                               (iv.runs == 1 ? "" : "s") + " from " + std::to_string(iv.sources) +
                               " source" + (iv.sources == 1 ? "" : "s")
                         : iv.bucket + ": " + std::string(sim::kUnvalidatedLine))
        << "\n";
    out << "  calibration  " << r.calibration_source
        << (r.calibration_date.empty() ? "" : " (" + r.calibration_date + ")") << "\n";
    out << "  assumptions\n";
    for (const auto& a : r.assumptions)
        out << "    - " << a << "\n";
}

void print_sweep(std::ostream& out, const sim::Scenario& scenario, const sim::SweepResult& sw,
                 const sim::Ranking& rk, int top_n) {
    out << "Evaluated " << grouped(static_cast<double>(sw.evaluated)) << " plans in "
        << number(sw.elapsed_s, 3) << " s ("
        << grouped(sw.elapsed_s > 0 ? sw.evaluated / sw.elapsed_s : 0.0) << " plans/s, "
        << sw.threads << (sw.threads == 1 ? " thread" : " threads") << "); "
        << grouped(static_cast<double>(sw.valid)) << " fit in memory\n";
    for (std::size_t i = 0; i < sw.summaries.size(); ++i) {
        const sim::CandidateSummary& s = sw.summaries[i];
        if (!s.skipped.empty())
            out << "  skipped " << s.skipped << "\n";
        else if (s.configs_fitting == 0)
            out << "  " << s.instance << ": "
                << sim::why_nothing_fits(s, sw.candidates[i], scenario) << "\n";
    }
    if (sw.node_counts_pruned > 0)
        out << "  " << grouped(static_cast<double>(sw.node_counts_pruned))
            << " (instance, node count) pairs not evaluated: their total memory is below 12 bytes "
               "per parameter\n";
    if (rk.excluded_deadline > 0)
        out << "  " << rk.excluded_deadline << " options miss the deadline\n";
    if (rk.excluded_budget > 0) out << "  " << rk.excluded_budget << " options exceed the budget\n";
    if (rk.excluded_no_price > 0)
        out << "  " << sim::no_price_sentence(scenario, rk.excluded_no_price) << "\n";
    out << "\nBest " << std::min<std::size_t>(rk.sorted.size(), static_cast<std::size_t>(top_n))
        << " of " << rk.sorted.size() << " plans by " << rk.objective_text << ":\n";
    option_header(out);
    for (std::size_t i = 0; i < rk.sorted.size() && static_cast<int>(i) < top_n; ++i)
        option_row(out, sw, rk.sorted[i], static_cast<int>(i) + 1);
    out << "\nPareto front (time vs cost), fastest first:\n";
    option_header(out);
    for (std::size_t i = 0; i < rk.pareto.size(); ++i)
        option_row(out, sw, rk.pareto[i], static_cast<int>(i) + 1);
}

void print_recommendation(std::ostream& out, const sim::Scenario& sc,
                          const sim::RecommendResult& res) {
    const sim::SweepResult& sw = res.sweep;
    out << "Recommendations for " << (sc.name.empty() ? std::string("the scenario") : sc.name)
        << " by " << res.ranking.objective_text << " ("
        << grouped(static_cast<double>(sw.evaluated)) << (sw.evaluated == 1 ? " plan" : " plans")
        << " evaluated in " << number(sw.elapsed_s, 2) << " s)\n";
    for (const auto& rec : res.recommendations) {
        const sim::PlanReport& r = rec.report;
        out << "\n#" << rec.rank << "  " << r.nodes << " × " << r.instance << " (" << r.devices
            << " × " << r.accelerator << "), " << (r.spot ? "spot" : "on demand") << ": "
            << duration(r.wall_time_h()) << ", " << sim::fmt::usd(r.effective_cost_usd(), 0);
        if (r.hpo.trials > 1) out << " per trial";
        out << "\n";
        const sim::FigureRange time = sim::time_range(r.wall_time_h(), r.interval);
        const sim::FigureRange cost = sim::time_range(r.effective_cost_usd(), r.interval);
        if (is_known(time.low))
            out << "    range: "
                << sim::range_phrase(r.interval, duration(time.low), duration(time.high))
                << (is_known(cost.low) ? "; cost " + sim::fmt::usd_short(cost.low) + "–" +
                                             sim::fmt::usd_short(cost.high)
                                       : "")
                << "\n";
        for (const auto& why : rec.reasons)
            out << "    why:   " << why << "\n";
        for (const auto& lim : rec.limits)
            out << "    limit: " << lim << "\n";
    }
    if (!res.pareto.empty()) {
        out << "\nPareto front (time vs cost), fastest first:\n";
        for (const auto& r : res.pareto) {
            out << "  " << r.nodes << " × " << r.instance << " " << (r.spot ? "spot" : "on demand")
                << ": " << duration(r.wall_time_h()) << ", "
                << sim::fmt::usd(r.effective_cost_usd(), 0) << "\n";
        }
    }
    // Which instances hold the job at all, with the fewest nodes each needs.
    std::string fits;
    for (const sim::CandidateSummary& s : res.sweep.summaries) {
        if (s.configs_fitting <= 0) continue;
        const std::string item = std::to_string(s.min_nodes_fitting) + " × " + s.instance;
        const std::size_t line = fits.size() - std::min(fits.size(), fits.rfind('\n') + 1);
        fits += fits.empty() ? item : (line + item.size() > 88 ? ",\n  " : ", ") + item;
    }
    if (!fits.empty()) out << "\nFits on (fewest nodes per instance):\n  " << fits << "\n";
    if (!res.summary.empty()) {
        out << "\nNotes:\n";
        for (const auto& s : res.summary)
            out << "  - " << s << "\n";
    }
}

} // namespace cp::cli
