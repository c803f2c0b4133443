// Text and JSON renderings of catalog records for `clusterplan catalog ...`. Unknown values
// print as "—" in text and null in JSON.
#pragma once

#include "clusterplan/catalog/records.h"
#include "clusterplan/sim/format.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cp::cli {

inline constexpr const char* kDash = sim::fmt::kUnknown;

// "%g"-style number with at most `digits` decimals, trailing zeros dropped; "—" if unknown.
std::string fmt_num(const std::optional<double>& v, int digits = 4);
// "$1.2345" style price, "—" if unknown.
std::string fmt_usd(const std::optional<double>& v);
// "412 d" / "3 h", "—" if unknown.
std::string fmt_age(const std::optional<double>& days);

nlohmann::json instance_json(const catalog::InstanceInfo& i);
nlohmann::json accelerator_json(const catalog::AcceleratorInfo& a);
nlohmann::json price_json(const catalog::PriceRow& p);
nlohmann::json advisor_json(const catalog::SpotAdvisorRow& r);

// Left-aligned columns sized to their widest cell (UTF-8 aware: "—" is one column).
std::string render_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows);

} // namespace cp::cli
