#include "clusterplan/sim/purchase_options.h"

#include <algorithm>

namespace cp::sim {

const char* enum_name(PurchaseKind kind) {
    switch (kind) {
    case PurchaseKind::on_demand:
        return "on_demand";
    case PurchaseKind::spot:
        return "spot";
    case PurchaseKind::capacity_block:
        return "capacity_block";
    case PurchaseKind::reserved_1y:
        return "reserved_1y";
    case PurchaseKind::reserved_3y:
        return "reserved_3y";
    }
    return "on_demand";
}

const char* purchase_label(PurchaseKind kind) {
    switch (kind) {
    case PurchaseKind::on_demand:
        return "on demand";
    case PurchaseKind::spot:
        return "spot";
    case PurchaseKind::capacity_block:
        return "Capacity Block";
    case PurchaseKind::reserved_1y:
        return "1-year reserved";
    case PurchaseKind::reserved_3y:
        return "3-year reserved";
    }
    return "on demand";
}

CapacityBlockCost capacity_block_cost(double usd_per_node_hour, int nodes, double job_h) {
    CapacityBlockCost c;
    if (std::isnan(usd_per_node_hour) || std::isnan(job_h) || job_h <= 0 || nodes <= 0) {
        c.why_not = "no Capacity Block price in the catalog";
        return c;
    }
    if (nodes > kCapacityBlockMaxInstances) {
        c.why_not =
            "more than " + std::to_string(kCapacityBlockMaxInstances) + " instances in one block";
        return c;
    }
    const double days = std::ceil(job_h / 24.0 - 1e-9);
    if (days > kCapacityBlockMaxDays) {
        c.why_not =
            "longer than the " + std::to_string(kCapacityBlockMaxDays) + "-day maximum block";
        return c;
    }
    const double block_days = days <= 14 ? std::max(days, 1.0) : 7.0 * std::ceil(days / 7.0);
    int count = 1;
    while (count < nodes)
        count *= 2;
    c.available = true;
    c.reserved_nodes = count;
    c.block_hours = block_days * 24.0;
    c.cost_usd = usd_per_node_hour * count * c.block_hours;
    return c;
}

ReservedCost reserved_cost(double usd_per_node_hour, int nodes, double job_h, int years) {
    ReservedCost r;
    if (std::isnan(usd_per_node_hour) || std::isnan(job_h)) return r;
    r.job_cost_usd = usd_per_node_hour * nodes * job_h;
    r.commitment_usd = usd_per_node_hour * nodes * kHoursPerYear * years;
    return r;
}

CommittedCosts committed_costs(const CommittedPrices& prices, int nodes, double job_h) {
    CommittedCosts c;
    c.capacity_block = capacity_block_cost(prices.capacity_block_usd_per_hour, nodes, job_h);
    c.reserved_1y = reserved_cost(prices.reserved_1y_usd_per_hour, nodes, job_h, 1);
    c.reserved_3y = reserved_cost(prices.reserved_3y_usd_per_hour, nodes, job_h, 3);
    return c;
}

} // namespace cp::sim
