// JSON of the purchase options of one plan (DESIGN.md "Purchase options"): the numbers the CLI,
// the GUI and the report show side by side.
#include "clusterplan/sim/plan_json.h"
#include "io/json_figures.h"

namespace cp::sim {
namespace {

using ojson = nlohmann::ordered_json;
using io::json_number;

ojson text_or_null(const std::string& s) {
    return s.empty() ? ojson(nullptr) : ojson(s);
}

} // namespace

const char* purchase_name(bool spot, PurchaseKind kind) {
    if (kind != PurchaseKind::on_demand) return enum_name(kind);
    return spot ? "spot" : "on_demand";
}

ojson purchase_options_json(const NodeSpec& node, const JobEconomics& job) {
    ojson j;
    j["on_demand"] = ojson{{"usd_per_node_hour", json_number(node.usd_per_node_hour_on_demand)},
                           {"as_of", text_or_null(node.price_as_of)},
                           {"wall_time_h", json_number(job.time_to_train_h)},
                           {"cost_usd", json_number(job.cost_usd)}};
    j["spot"] = ojson{
        {"usd_per_node_hour", json_number(node.usd_per_node_hour_spot)},
        {"usd_per_node_hour_min", json_number(node.usd_per_node_hour_spot_min)},
        {"usd_per_node_hour_max", json_number(node.usd_per_node_hour_spot_max)},
        {"basis", text_or_null(node.spot_price_basis)},
        {"as_of", text_or_null(node.spot_as_of)},
        {"interruption_data", node.spot_advisor_known ? "spot_advisor" : "assumed_worst_bucket"},
        {"wall_time_h", json_number(job.spot.wall_time_h)},
        {"cost_usd", json_number(job.spot.cost_usd)}};
    const CommittedPrices& p = node.committed;
    const CapacityBlockCost& cb = job.committed.capacity_block;
    j["capacity_block"] = ojson{{"usd_per_node_hour", json_number(p.capacity_block_usd_per_hour)},
                                {"as_of", text_or_null(p.capacity_block_as_of)},
                                {"available", cb.available},
                                {"reserved_nodes", cb.reserved_nodes},
                                {"block_hours", json_number(cb.block_hours)},
                                {"cost_usd", json_number(cb.cost_usd)},
                                {"why_not", text_or_null(cb.available ? "" : cb.why_not)}};
    j["reserved_1y"] =
        ojson{{"usd_per_node_hour", json_number(p.reserved_1y_usd_per_hour)},
              {"as_of", text_or_null(p.reserved_as_of)},
              {"cost_usd", json_number(job.committed.reserved_1y.job_cost_usd)},
              {"commitment_usd", json_number(job.committed.reserved_1y.commitment_usd)}};
    j["reserved_3y"] =
        ojson{{"usd_per_node_hour", json_number(p.reserved_3y_usd_per_hour)},
              {"as_of", text_or_null(p.reserved_as_of)},
              {"cost_usd", json_number(job.committed.reserved_3y.job_cost_usd)},
              {"commitment_usd", json_number(job.committed.reserved_3y.commitment_usd)}};
    if (job.storage.priced)
        j["storage"] = ojson{{"checkpoint_gb", json_number(job.storage.checkpoint_gb)},
                             {"usd_per_gb_month", json_number(job.storage.usd_per_gb_month)},
                             {"cost_usd", json_number(job.storage.cost_usd)},
                             {"text", job.storage.text}};
    return j;
}

ojson estimated_figures_json(const AcceleratorSpec& a) {
    ojson list = ojson::array();
    static const char* const peak_names[kPrecisionCount] = {
        "fp32_tflops", "tf32_tflops", "fp16_tflops", "bf16_tflops", "fp8_tflops"};
    for (int i = 0; i < kPrecisionCount; ++i)
        if (a.peak_estimated[i]) list.push_back(peak_names[i]);
    if (a.memory_estimated) list.push_back("memory_gib");
    if (a.hbm_estimated) list.push_back("hbm_gbytes_per_s");
    return list;
}

} // namespace cp::sim
