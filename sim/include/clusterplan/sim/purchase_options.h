// Ways to buy a cluster besides on demand and spot: EC2 Capacity Blocks for ML (a fixed window
// paid up front) and 1-/3-year reservations. Pure arithmetic over prices the catalog supplies.
#pragma once

#include <cmath>
#include <limits>
#include <string>

namespace cp::sim {

enum class PurchaseKind { on_demand, spot, capacity_block, reserved_1y, reserved_3y };
inline constexpr int kPurchaseKindCount = 5;
const char* enum_name(PurchaseKind kind);
// "on demand", "spot", "Capacity Block", "1-year reserved", "3-year reserved"
const char* purchase_label(PurchaseKind kind);

// Hourly prices per node of the committed options (NaN: the catalog has none).
struct CommittedPrices {
    double capacity_block_usd_per_hour = std::numeric_limits<double>::quiet_NaN();
    std::string capacity_block_as_of;
    double reserved_1y_usd_per_hour = std::numeric_limits<double>::quiet_NaN();
    double reserved_3y_usd_per_hour = std::numeric_limits<double>::quiet_NaN();
    std::string reserved_as_of;
};

// What a Capacity Block for the job costs: the smallest block AWS sells that holds the job.
struct CapacityBlockCost {
    bool available = false; // priced and within the block limits
    int reserved_nodes = 0; // instance count of the block (>= nodes)
    double block_hours = 0; // reserved duration
    double cost_usd = std::numeric_limits<double>::quiet_NaN();
    std::string why_not; // when not available
};

// AWS EC2 User Guide, "Capacity Blocks for ML": durations in 1-day steps up to 14 days, then
// 7-day steps up to 182 days; instance counts 1, 2, 4, 8, 16, 32 or 64; the whole block is paid
// up front whether or not the job uses all of it.
inline constexpr int kCapacityBlockMaxDays = 182;
inline constexpr int kCapacityBlockMaxInstances = 64;
CapacityBlockCost capacity_block_cost(double usd_per_node_hour, int nodes, double job_wall_time_h);

// A reservation bills every hour of its term: the job's share (rate x job hours) is what the
// ranking uses, with the full commitment stated next to it.
inline constexpr double kHoursPerYear = 8760.0;
struct ReservedCost {
    double job_cost_usd = std::numeric_limits<double>::quiet_NaN();
    double commitment_usd = std::numeric_limits<double>::quiet_NaN();
};
ReservedCost reserved_cost(double usd_per_node_hour, int nodes, double job_wall_time_h, int years);

// Every committed option for one job (one trial) of `nodes` nodes lasting `job_wall_time_h`.
struct CommittedCosts {
    CapacityBlockCost capacity_block;
    ReservedCost reserved_1y;
    ReservedCost reserved_3y;
};
CommittedCosts committed_costs(const CommittedPrices& prices, int nodes, double job_wall_time_h);

// Optional checkpoint storage line: checkpoint size x copies kept x price x months held.
struct StorageCost {
    bool priced = false;
    double checkpoint_gb = std::numeric_limits<double>::quiet_NaN();
    double usd_per_gb_month = std::numeric_limits<double>::quiet_NaN();
    double cost_usd = std::numeric_limits<double>::quiet_NaN();
    std::string text; // one sentence for the report
};

} // namespace cp::sim
