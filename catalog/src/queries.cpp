// Read-only catalog queries. Unknown values come back as nullopt / "" (never as 0).
#include "clusterplan/catalog/catalog.h"
#include "dates.h"
#include "sqlite_util.h"

#include <algorithm>

namespace cp::catalog {

using detail::Stmt;

std::string interruption_label(int bucket) {
    static const char* const labels[] = {"<5%", "5-10%", "10-15%", "15-20%", ">20%"};
    return bucket >= 0 && bucket <= 4 ? labels[bucket] : "\u2014";
}

namespace {

constexpr const char* kAcceleratorColumns =
    "id, name, vendor, is_gpu, inference_only, form_factor, memory_gib, memory_type, "
    "hbm_gbytes_per_s, fp32_tflops, tf32_tflops, fp16_tflops, bf16_tflops, fp8_tflops, "
    "int8_tops, sparse_note, intra_node_link, link_gbytes_per_s, host_link, tdp_w, "
    "software_stack, notes, source, estimated_fields, estimate_source";

AcceleratorInfo read_accelerator(const Stmt& s) {
    AcceleratorInfo a;
    a.id = s.get_text(0);
    a.name = s.get_text(1);
    a.vendor = s.get_text(2);
    a.is_gpu = s.get_int(3) != 0;
    a.inference_only = s.get_int(4) != 0;
    a.form_factor = s.get_text(5);
    a.memory_gib = s.get_opt_double(6);
    a.memory_type = s.get_text(7);
    a.hbm_gbytes_per_s = s.get_opt_double(8);
    a.fp32_tflops = s.get_opt_double(9);
    a.tf32_tflops = s.get_opt_double(10);
    a.fp16_tflops = s.get_opt_double(11);
    a.bf16_tflops = s.get_opt_double(12);
    a.fp8_tflops = s.get_opt_double(13);
    a.int8_tops = s.get_opt_double(14);
    a.sparse_note = s.get_text(15);
    a.intra_node_link = s.get_text(16);
    a.link_gbytes_per_s = s.get_opt_double(17);
    a.host_link = s.get_text(18);
    a.tdp_w = s.get_opt_double(19);
    a.software_stack = s.get_text(20);
    a.notes = s.get_text(21);
    a.source = s.get_text(22);
    // Stored as "tf32_tflops;fp16_tflops;..." (the seed's format).
    const std::string marks = s.get_text(23);
    for (std::size_t start = 0; start < marks.size();) {
        const std::size_t end = std::min(marks.find(';', start), marks.size());
        if (end > start) a.estimated_fields.push_back(marks.substr(start, end - start));
        start = end + 1;
    }
    a.estimate_source = s.get_text(24);
    return a;
}

// One statement for list and show: specs plus the region's current prices and advisor data.
constexpr const char* kInstanceSelect = R"sql(
SELECT i.instance_type, i.family, i.vcpus, i.memory_gib, i.accelerator_id, i.accelerator_count,
       i.accelerator_memory_gib_each, i.network_gbps, i.network_is_up_to,
       i.network_baseline_gbps, i.efa, i.intra_node_interconnect,
       i.interconnect_gbytes_per_s_per_accel, i.notes, i.source,
       od.usd_per_hour, od.as_of,
       (SELECT min(c.usd_per_hour) FROM current_prices c WHERE c.instance_type = i.instance_type
          AND c.region = ?1 AND c.kind = 'spot'),
       (SELECT max(c.usd_per_hour) FROM current_prices c WHERE c.instance_type = i.instance_type
          AND c.region = ?1 AND c.kind = 'spot'),
       (SELECT max(c.as_of) FROM current_prices c WHERE c.instance_type = i.instance_type
          AND c.region = ?1 AND c.kind = 'spot'),
       sa.interruption_bucket, sa.savings_pct
FROM instance_types i
LEFT JOIN (SELECT c.instance_type, c.usd_per_hour, c.as_of,
                  row_number() OVER (PARTITION BY c.instance_type
                                     ORDER BY c.as_of DESC, c.id DESC) AS rn
           FROM current_prices c WHERE c.region = ?1 AND c.kind = 'on_demand') od
       ON od.instance_type = i.instance_type AND od.rn = 1
LEFT JOIN spot_advisor sa
       ON sa.instance_type = i.instance_type AND sa.region = ?1 AND sa.os = 'Linux'
WHERE (?2 = '' OR lower(i.family) = lower(?2)) AND (?3 = '' OR i.instance_type = ?3)
  AND (?4 = 0 OR EXISTS (SELECT 1 FROM prices p WHERE p.instance_type = i.instance_type
                         AND p.region = ?1))
ORDER BY i.family, i.accelerator_count, i.vcpus, i.instance_type
)sql";

InstanceInfo read_instance(const Stmt& s, std::string_view region) {
    InstanceInfo r;
    r.instance_type = s.get_text(0);
    r.family = s.get_text(1);
    r.vcpus = s.get_opt_int(2);
    r.memory_gib = s.get_opt_double(3);
    r.accelerator = s.get_text(4);
    r.accelerator_count = static_cast<int>(s.get_int(5));
    r.accelerator_memory_gib_each = s.get_opt_double(6);
    r.network_gbps = s.get_opt_double(7);
    r.network_is_up_to = s.get_int(8) != 0;
    r.network_baseline_gbps = s.get_opt_double(9);
    if (!s.is_null(10)) r.efa = s.get_int(10) != 0;
    r.intra_node_interconnect = s.get_text(11);
    r.interconnect_gbytes_per_s_per_accel = s.get_opt_double(12);
    r.notes = s.get_text(13);
    r.source = s.get_text(14);
    r.region = std::string(region);
    r.on_demand_usd_per_hour = s.get_opt_double(15);
    r.on_demand_as_of = s.get_text(16);
    r.spot_usd_per_hour_min = s.get_opt_double(17);
    r.spot_usd_per_hour_max = s.get_opt_double(18);
    r.spot_as_of = s.get_text(19);
    r.interruption_bucket = s.get_opt_int(20);
    r.spot_savings_pct = s.get_opt_double(21);
    r.price_as_of = !r.on_demand_as_of.empty() ? r.on_demand_as_of : r.spot_as_of;
    if (!r.price_as_of.empty()) r.price_age_days = detail::age_days(r.price_as_of);
    return r;
}

} // namespace

std::vector<AcceleratorInfo> Catalog::accelerators() const {
    std::vector<AcceleratorInfo> out;
    Stmt s(db_, std::string("SELECT ") + kAcceleratorColumns + " FROM accelerators ORDER BY id");
    while (s.step())
        out.push_back(read_accelerator(s));
    return out;
}

std::optional<AcceleratorInfo> Catalog::accelerator(std::string_view id) const {
    Stmt s(db_, std::string("SELECT ") + kAcceleratorColumns + " FROM accelerators WHERE id = ?1");
    s.bind(1, id);
    if (!s.step()) return std::nullopt;
    return read_accelerator(s);
}

std::vector<InstanceInfo> Catalog::instances(const InstanceFilter& filter) const {
    std::vector<InstanceInfo> out;
    Stmt s(db_, kInstanceSelect);
    s.bind(1, filter.region)
        .bind(2, filter.family)
        .bind(3, "")
        .bind(4, filter.require_price_in_region ? 1 : 0);
    while (s.step())
        out.push_back(read_instance(s, filter.region));
    return out;
}

std::optional<InstanceInfo> Catalog::instance(std::string_view type,
                                              std::string_view region) const {
    if (type.empty()) return std::nullopt;
    Stmt s(db_, kInstanceSelect);
    s.bind(1, region).bind(2, "").bind(3, type).bind(4, 0);
    if (!s.step()) return std::nullopt;
    return read_instance(s, region);
}

bool Catalog::has_instance_type(std::string_view type) const {
    Stmt s(db_, "SELECT 1 FROM instance_types WHERE instance_type = ?1");
    s.bind(1, type);
    return s.step();
}

std::vector<PriceRow> Catalog::prices(std::string_view type, bool current_only) const {
    std::vector<PriceRow> out;
    Stmt s(db_, R"sql(
SELECT p.instance_type, p.region, p.zone, p.kind, p.usd_per_hour, p.as_of, p.source, p.note,
       EXISTS (SELECT 1 FROM current_prices c WHERE c.id = p.id) AS is_current
FROM prices p WHERE p.instance_type = ?1 AND (?2 = 0 OR is_current)
ORDER BY p.region, p.kind, p.zone, p.as_of DESC, p.note
)sql");
    s.bind(1, type).bind(2, current_only ? 1 : 0);
    while (s.step()) {
        PriceRow r;
        r.instance_type = s.get_text(0);
        r.region = s.get_text(1);
        r.zone = s.get_text(2);
        r.kind = s.get_text(3);
        r.usd_per_hour = s.get_double(4);
        r.as_of = s.get_text(5);
        r.source = s.get_text(6);
        r.note = s.get_text(7);
        r.current = s.get_int(8) != 0;
        r.age_days = detail::age_days(r.as_of);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<SpotAdvisorRow> Catalog::spot_advisor(std::string_view type) const {
    std::vector<SpotAdvisorRow> out;
    Stmt s(db_, "SELECT instance_type, region, os, interruption_bucket, savings_pct, as_of, "
                "source FROM spot_advisor WHERE (?1 = '' OR instance_type = ?1) "
                "ORDER BY instance_type, region, os");
    s.bind(1, type);
    while (s.step()) {
        SpotAdvisorRow r;
        r.instance_type = s.get_text(0);
        r.region = s.get_text(1);
        r.os = s.get_text(2);
        r.interruption_bucket = static_cast<int>(s.get_int(3));
        r.interruption_label = interruption_label(r.interruption_bucket);
        r.savings_pct = s.get_opt_double(4);
        r.as_of = s.get_text(5);
        r.source = s.get_text(6);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<std::string> Catalog::regions() const {
    std::vector<std::string> out;
    Stmt s(db_, "SELECT region FROM prices UNION SELECT region FROM spot_advisor ORDER BY 1");
    while (s.step())
        out.push_back(s.get_text(0));
    return out;
}

std::vector<std::string> Catalog::price_regions() const {
    std::vector<std::string> out;
    Stmt s(db_, "SELECT DISTINCT region FROM prices ORDER BY 1");
    while (s.step())
        out.push_back(s.get_text(0));
    return out;
}

std::vector<std::string> Catalog::families() const {
    std::vector<std::string> out;
    Stmt s(db_, "SELECT DISTINCT family FROM instance_types ORDER BY 1");
    while (s.step())
        out.push_back(s.get_text(0));
    return out;
}

} // namespace cp::catalog
