// Private to sim/src/io: the scenario fields about buying and pricing a cluster — precision
// fallback, accelerator figure overrides, the spot price statistic, checkpoint storage — and the
// rule that pricing and constraints.allow_spot never contradict.
#pragma once

#include "io/scenario_reader.h"

namespace cp::sim::scenario_io {

// Top-level "precision": a name, "auto" (bf16, else fp16, else fp32) or a list in preference order.
void parse_precision(Reader& top, Scenario& sc);
// cluster.custom.peak_tflops {precision: TFLOP/s}, memory_gib, hbm_gbytes_per_s.
void parse_custom_figures(Reader& r, CustomHardware& c);
// spot.price_statistic, spot.price_window_days, spot.zone.
void parse_spot_price_rule(Reader& r, SpotSpec& spot);
// Top-level "storage": service, checkpoints_kept, usd_per_gb_month, checkpoint_gb.
void parse_storage(Reader& r, Scenario& sc);
// pricing "spot" with allow_spot false is refused; any other pairing has one meaning (pricing
// wins).
void check_purchase_consistency(const Scenario& sc, const std::string& origin);

} // namespace cp::sim::scenario_io

namespace cp::sim::scenario_io {
// Writes the fields above into a scenario document being serialised (round-trips with parsing).
void write_pricing_fields(const Scenario& sc, nlohmann::ordered_json& doc);
} // namespace cp::sim::scenario_io
