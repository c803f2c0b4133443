// plan_report_from_json(): the typed reading of a `simulate --json` document, beside the writer
// (plan_json.cpp) so that a change of the document touches one pair of files. Lenient: a field
// that is missing or null keeps the PlanReport default (unknown figures are NaN), because the
// documents it reads (a report's ranked plans) were written by plan_report_json.
#include "clusterplan/sim/plan_json_read.h"

#include "clusterplan/sim/framework.h"
#include "clusterplan/sim/spot_cost.h"
#include "io/scenario_reader.h"
#include "io/scenario_training_options.h"

#include <cmath>
#include <string>

namespace cp::sim {
namespace {

using ojson = nlohmann::ordered_json;

// One JSON object read field by field; absent, null or mistyped fields leave the target alone.
class Fields {
public:
    explicit Fields(const ojson& obj) : obj_(obj) {}

    const ojson* get(const char* key) const {
        if (!obj_.is_object()) return nullptr;
        const auto it = obj_.find(key);
        return it == obj_.end() || it->is_null() ? nullptr : &*it;
    }
    Fields object(const char* key) const {
        const ojson* v = get(key);
        return Fields(v != nullptr && v->is_object() ? *v : empty());
    }
    void number(const char* key, double& out) const {
        if (const ojson* v = get(key); v != nullptr && v->is_number()) out = v->get<double>();
    }
    // null is the document's "unknown".
    void number_or_unknown(const char* key, double& out) const {
        const ojson* v = get(key);
        out = v != nullptr && v->is_number() ? v->get<double>() : kUnknown;
    }
    void integer(const char* key, int& out) const {
        if (const ojson* v = get(key); v != nullptr && v->is_number_integer()) out = v->get<int>();
    }
    void boolean(const char* key, bool& out) const {
        if (const ojson* v = get(key); v != nullptr && v->is_boolean()) out = v->get<bool>();
    }
    void text(const char* key, std::string& out) const {
        if (const ojson* v = get(key); v != nullptr && v->is_string()) out = v->get<std::string>();
    }
    void texts(const char* key, std::vector<std::string>& out) const {
        const ojson* v = get(key);
        if (v == nullptr || !v->is_array()) return;
        out.clear();
        for (const auto& item : *v)
            if (item.is_string()) out.push_back(item.get<std::string>());
    }
    template <class E, std::size_t N>
    void name(const char* key, const scenario_io::Names<E, N>& names, E& out) const {
        std::string s;
        text(key, s);
        for (const auto& [e, n] : names)
            if (s == n) out = e;
    }

private:
    static const ojson& empty() {
        static const ojson kEmpty = ojson::object();
        return kEmpty;
    }
    const ojson& obj_;
};

int spot_bucket_from(const std::string& label) {
    for (int bucket = 0; bucket <= 4; ++bucket)
        if (label == spot_bucket_label(bucket)) return bucket;
    return -1;
}

Layout read_layout(const Fields& f) {
    Layout l;
    f.integer("tp", l.tp);
    f.integer("pp", l.pp);
    f.integer("dp", l.dp);
    f.integer("micro_batch", l.micro_batch);
    f.integer("global_batch", l.global_batch);
    f.integer("virtual_stages", l.virtual_stages);
    f.name("schedule", scenario_io::kSchedules, l.schedule);
    f.boolean("sequence_parallel", l.sequence_parallel);
    f.integer("zero", l.zero);
    f.name("recompute", scenario_io::kRecomputes, l.recompute);
    f.name("dp_comm", scenario_io::kDpComms, l.dp_comm);
    f.integer("parameter_servers", l.parameter_servers);
    f.name("ps_sync", scenario_io::kPsSyncs, l.ps_sync);
    f.boolean("overlap_dp", l.overlap_dp);
    f.number("grad_compression", l.grad_compression);
    f.integer("ep", l.ep);
    f.integer("etp", l.etp);
    f.name("ep_dispatcher", scenario_io::kEpDispatchers, l.ep_dispatcher);
    f.boolean("moe_a2a_overlap", l.moe_a2a_overlap);
    f.boolean("distribute_saved_activations", l.distribute_saved_activations);
    f.boolean("fp8_weights", l.fp8_weights);
    bool fp32_grad_reduce = l.fp32_grad_reduce.value_or(false);
    f.boolean("fp32_grad_reduce", fp32_grad_reduce);
    l.fp32_grad_reduce = fp32_grad_reduce;
    f.name("optimizer", scenario_io::kOptimizers, l.optimizer);
    const Fields offload = f.object("offload");
    offload.name("optimizer", scenario_io::kOffloadTargets, l.offload.optimizer);
    offload.name("params", scenario_io::kOffloadTargets, l.offload.params);
    f.integer("cp", l.cp);
    std::string framework;
    f.text("framework", framework);
    if (const auto named = framework_from_name(framework)) l.framework = *named;
    return l;
}

void read_result(const Fields& f, PlanResult& p) {
    f.name("limit", scenario_io::kLimits, p.limit);
    f.number_or_unknown("step_time_s", p.step_time_s);
    const Fields b = f.object("breakdown_s");
    b.number_or_unknown("compute", p.breakdown_s.compute_s);
    b.number_or_unknown("recompute", p.breakdown_s.recompute_s);
    b.number_or_unknown("tp_comm", p.breakdown_s.tp_comm_s);
    b.number_or_unknown("pp_bubble", p.breakdown_s.pp_bubble_s);
    b.number_or_unknown("pp_comm", p.breakdown_s.pp_comm_s);
    b.number_or_unknown("dp_comm_exposed", p.breakdown_s.dp_comm_exposed_s);
    b.number_or_unknown("optimizer", p.breakdown_s.optimizer_s);
    b.number_or_unknown("host_overhead", p.breakdown_s.host_overhead_s);
    b.number("ep_comm", p.breakdown_s.ep_comm_s);
    b.number("offload", p.breakdown_s.offload_s);
    b.number_or_unknown("cp_comm", p.breakdown_s.cp_comm_s);
    f.number_or_unknown("dp_comm_total_s", p.dp_comm_total_s);
    f.number_or_unknown("dp_bytes_per_device", p.dp_bytes_per_device);
    f.number_or_unknown("tokens_per_s", p.tokens_per_s);
    f.number_or_unknown("samples_per_s", p.samples_per_s);
    f.number_or_unknown("model_tflops_per_device", p.model_tflops_per_device);
    f.number_or_unknown("hardware_tflops_per_device", p.hardware_tflops_per_device);
    f.number_or_unknown("mfu", p.mfu);
    const Fields m = f.object("memory_gib");
    m.number_or_unknown("weights", p.memory_gib.weights);
    m.number_or_unknown("gradients", p.memory_gib.gradients);
    m.number_or_unknown("optimizer", p.memory_gib.optimizer);
    m.number_or_unknown("activations", p.memory_gib.activations);
    m.number_or_unknown("total", p.memory_gib.total);
    m.number_or_unknown("capacity", p.memory_gib.capacity);
    m.number("weights_frozen", p.memory_gib.weights_frozen);
    m.number("offloaded_host", p.memory_gib.offloaded_host);
    m.number_or_unknown("host_capacity", p.memory_gib.host_capacity);
    f.number_or_unknown("trainable_params", p.trainable_params);
    f.boolean("fits_in_memory", p.fits_in_memory);
}

void read_economics(const Fields& f, PlanReport& r) {
    f.number_or_unknown("training_samples", r.job.samples_total);
    f.number_or_unknown("steps", r.job.steps);
    f.number_or_unknown("time_to_train_h", r.job.time_to_train_h);
    f.number_or_unknown("cost_usd", r.job.cost_usd);
    SpotEstimate& s = r.job.spot;
    f.number_or_unknown("cost_spot_usd", s.cost_usd);
    f.number_or_unknown("spot_expected_interruptions", s.expected_interruptions);
    const Fields spot = f.object("spot");
    spot.boolean("priced", s.priced);
    spot.boolean("feasible", s.feasible);
    std::string bucket;
    spot.text("interruption_bucket", bucket);
    r.node.spot_interruption_bucket = spot_bucket_from(bucket);
    spot.number_or_unknown("cluster_interruptions_per_hour", s.cluster_rate_per_hour);
    spot.number_or_unknown("mtbf_h", s.mtbf_h);
    spot.number_or_unknown("checkpoint_interval_s", s.checkpoint_interval_s);
    spot.number_or_unknown("overhead_h", s.overhead_h);
    spot.number_or_unknown("wall_time_h", s.wall_time_h);
    const Fields prices = f.object("prices");
    prices.number_or_unknown("usd_per_node_hour", r.usd_per_node_hour);
    prices.number_or_unknown("usd_per_node_hour_spot", r.usd_per_node_hour_spot);
    prices.text("as_of", r.price_as_of);
    HpoEstimate& h = r.hpo;
    if (f.get("tuning") == nullptr) { // one trial: the job's own figures
        h.wall_time_h = r.job.time_to_train_h;
        h.cost_usd = r.job.cost_usd;
        h.spot_wall_time_h = s.wall_time_h;
        h.spot_cost_usd = s.cost_usd;
        return;
    }
    const Fields t = f.object("tuning");
    t.integer("trials", h.trials);
    t.integer("max_parallel_trials", h.max_parallel_trials);
    t.integer("waves", h.waves);
    t.integer("peak_nodes", h.peak_nodes);
    t.number_or_unknown("wall_time_h", h.wall_time_h);
    t.number_or_unknown("cost_usd", h.cost_usd);
    t.number_or_unknown("spot_wall_time_h", h.spot_wall_time_h);
    t.number_or_unknown("spot_cost_usd", h.spot_cost_usd);
}

void read_interval(const Fields& f, PredictionInterval& iv) {
    f.number("confidence", iv.confidence);
    f.boolean("validated", iv.validated);
    const Fields v = f.object("validation");
    v.integer("runs", iv.runs);
    v.integer("sources", iv.sources);
    v.text("bucket", iv.bucket);
    v.number("low_factor", iv.low_factor);
    v.number("high_factor", iv.high_factor);
    std::string basis;
    v.text("basis", basis);
    iv.basis = basis == "published_runs" ? IntervalBasis::published_runs
               : basis == "job_log"      ? IntervalBasis::job_log
                                         : IntervalBasis::unvalidated;
}

// purchase_options (purchase_json.cpp): the spot price basis and the committed options, which
// the report shows side by side.
void read_purchase_options(const Fields& f, PlanReport& r) {
    const Fields on_demand = f.object("on_demand");
    on_demand.number_or_unknown("usd_per_node_hour", r.node.usd_per_node_hour_on_demand);
    on_demand.text("as_of", r.node.price_as_of);
    const Fields spot = f.object("spot");
    spot.number_or_unknown("usd_per_node_hour", r.node.usd_per_node_hour_spot);
    spot.number_or_unknown("usd_per_node_hour_min", r.node.usd_per_node_hour_spot_min);
    spot.number_or_unknown("usd_per_node_hour_max", r.node.usd_per_node_hour_spot_max);
    spot.text("basis", r.node.spot_price_basis);
    spot.text("as_of", r.node.spot_as_of);
    std::string interruption_data;
    spot.text("interruption_data", interruption_data);
    r.node.spot_advisor_known = interruption_data == "spot_advisor";
    CommittedPrices& prices = r.node.committed;
    CommittedCosts& costs = r.job.committed;
    const Fields cb = f.object("capacity_block");
    cb.number_or_unknown("usd_per_node_hour", prices.capacity_block_usd_per_hour);
    cb.text("as_of", prices.capacity_block_as_of);
    cb.boolean("available", costs.capacity_block.available);
    cb.integer("reserved_nodes", costs.capacity_block.reserved_nodes);
    cb.number("block_hours", costs.capacity_block.block_hours);
    cb.number_or_unknown("cost_usd", costs.capacity_block.cost_usd);
    cb.text("why_not", costs.capacity_block.why_not);
    const auto reserved = [&](const char* key, double& rate, ReservedCost& cost) {
        const Fields o = f.object(key);
        o.number_or_unknown("usd_per_node_hour", rate);
        o.text("as_of", prices.reserved_as_of);
        o.number_or_unknown("cost_usd", cost.job_cost_usd);
        o.number_or_unknown("commitment_usd", cost.commitment_usd);
    };
    reserved("reserved_1y", prices.reserved_1y_usd_per_hour, costs.reserved_1y);
    reserved("reserved_3y", prices.reserved_3y_usd_per_hour, costs.reserved_3y);
}

PurchaseKind purchase_kind_from(const std::string& name) {
    for (PurchaseKind k : {PurchaseKind::spot, PurchaseKind::capacity_block,
                           PurchaseKind::reserved_1y, PurchaseKind::reserved_3y})
        if (name == enum_name(k)) return k;
    return PurchaseKind::on_demand;
}

} // namespace

PlanReport plan_report_from_json(const nlohmann::ordered_json& doc) {
    const Fields f(doc);
    PlanReport r;
    f.text("scenario", r.scenario_name);
    f.text("instance", r.instance);
    f.text("accelerator", r.accelerator);
    r.node.instance_type = r.instance;
    r.node.accelerator.id = r.accelerator;
    f.integer("nodes", r.nodes);
    f.integer("devices", r.devices);
    f.name("precision", scenario_io::kPrecisions, r.precision);
    std::string purchase;
    f.text("purchase", purchase);
    r.spot = purchase == "spot";
    r.purchase = purchase_kind_from(purchase);
    f.text("limit_reason", r.limit_reason);
    read_result(f, r.result);
    // A generic model (ResNet-50 ...) has no tokens: the writer prints null for them.
    if (f.get("tokens_per_s") == nullptr && f.get("samples_per_s") != nullptr)
        r.workload_kind = WorkloadKind::generic;
    f.number_or_unknown("scaling_efficiency", r.scaling_efficiency);
    f.integer("scaling_reference_devices", r.scaling_reference_devices);
    read_economics(f, r);
    read_interval(f, r.interval);
    read_purchase_options(f.object("purchase_options"), r);
    r.layout = read_layout(f.object("layout"));
    f.texts("searched", r.searched);
    f.text("note", r.note);
    f.texts("assumptions", r.assumptions);
    const Fields c = f.object("calibration");
    c.text("source", r.calibration_source);
    c.text("date", r.calibration_date);
    return r;
}

} // namespace cp::sim
