#include "catalog_format.h"

#include <cmath>
#include <cstdio>

namespace cp::cli {

using nlohmann::json;

std::string fmt_num(const std::optional<double>& v, int digits) {
    return v ? sim::fmt::number(*v, digits, sim::fmt::Digits::trimmed) : kDash;
}

std::string fmt_usd(const std::optional<double>& v) {
    return v ? sim::fmt::usd_price(*v) : kDash;
}

std::string fmt_age(const std::optional<double>& days) {
    if (!days) return kDash;
    if (*days < 1.0) return fmt_num(std::max(0.0, *days * 24.0), 0) + " h";
    return fmt_num(std::floor(*days), 0) + " d";
}

namespace {
json opt(const std::optional<double>& v) {
    return v ? json(*v) : json(nullptr);
}
json opt(const std::optional<int>& v) {
    return v ? json(*v) : json(nullptr);
}
json opt(const std::optional<bool>& v) {
    return v ? json(*v) : json(nullptr);
}
json opt(const std::string& v) {
    return v.empty() ? json(nullptr) : json(v);
}
} // namespace

json instance_json(const catalog::InstanceInfo& i) {
    return json{
        {"instance_type", i.instance_type},
        {"family", i.family},
        {"accelerator", opt(i.accelerator)},
        {"accelerator_count", i.accelerator_count},
        {"accelerator_memory_gib", opt(i.accelerator_memory_gib_each)},
        {"vcpus", opt(i.vcpus)},
        {"memory_gib", opt(i.memory_gib)},
        {"network_gbps", opt(i.network_gbps)},
        {"network_is_up_to", i.network_is_up_to},
        {"network_baseline_gbps", opt(i.network_baseline_gbps)},
        {"efa", opt(i.efa)},
        {"intra_node_interconnect", opt(i.intra_node_interconnect)},
        {"interconnect_gbytes_per_s_per_accel", opt(i.interconnect_gbytes_per_s_per_accel)},
        {"region", i.region},
        {"on_demand_usd_per_hour", opt(i.on_demand_usd_per_hour)},
        {"on_demand_as_of", opt(i.on_demand_as_of)},
        {"spot_usd_per_hour_min", opt(i.spot_usd_per_hour_min)},
        {"spot_usd_per_hour_max", opt(i.spot_usd_per_hour_max)},
        {"spot_as_of", opt(i.spot_as_of)},
        {"interruption_bucket", opt(i.interruption_bucket)},
        {"interruption", i.interruption_bucket
                             ? json(catalog::interruption_label(*i.interruption_bucket))
                             : json(nullptr)},
        {"spot_savings_pct", opt(i.spot_savings_pct)},
        {"price_as_of", opt(i.price_as_of)},
        {"price_age_days",
         i.price_age_days ? json(std::floor(*i.price_age_days * 10) / 10) : json(nullptr)},
    };
}

json accelerator_json(const catalog::AcceleratorInfo& a) {
    return json{
        {"id", a.id},
        {"name", a.name},
        {"vendor", opt(a.vendor)},
        {"is_gpu", a.is_gpu},
        {"inference_only", a.inference_only},
        {"memory_gib", opt(a.memory_gib)},
        {"memory_type", opt(a.memory_type)},
        {"hbm_gbytes_per_s", opt(a.hbm_gbytes_per_s)},
        {"dense_tflops",
         {{"fp32", opt(a.fp32_tflops)},
          {"tf32", opt(a.tf32_tflops)},
          {"fp16", opt(a.fp16_tflops)},
          {"bf16", opt(a.bf16_tflops)},
          {"fp8", opt(a.fp8_tflops)}}},
        {"int8_tops", opt(a.int8_tops)},
        {"intra_node_link", opt(a.intra_node_link)},
        {"link_gbytes_per_s", opt(a.link_gbytes_per_s)},
        {"host_link", opt(a.host_link)},
        {"tdp_w", opt(a.tdp_w)},
        {"software_stack", opt(a.software_stack)},
        {"notes", opt(a.notes)},
        {"source", opt(a.source)},
        {"estimated_fields", a.estimated_fields},
        {"estimate_source", opt(a.estimate_source)},
    };
}

json price_json(const catalog::PriceRow& p) {
    return json{
        {"region", p.region},
        {"zone", opt(p.zone)},
        {"kind", p.kind},
        {"usd_per_hour", p.usd_per_hour},
        {"as_of", p.as_of},
        {"age_days", p.age_days ? json(std::floor(*p.age_days * 10) / 10) : json(nullptr)},
        {"source", p.source},
        {"note", opt(p.note)},
        {"current", p.current},
    };
}

json advisor_json(const catalog::SpotAdvisorRow& r) {
    return json{
        {"region", r.region},
        {"os", r.os},
        {"interruption_bucket", r.interruption_bucket},
        {"interruption", r.interruption_label},
        {"savings_pct", opt(r.savings_pct)},
        {"as_of", r.as_of},
        {"source", r.source},
    };
}

namespace {
std::size_t display_width(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80) ++n; // count code points, not bytes
    return n;
}
} // namespace

std::string render_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> width(header.size(), 0);
    for (std::size_t c = 0; c < header.size(); ++c)
        width[c] = display_width(header[c]);
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size() && c < width.size(); ++c)
            width[c] = std::max(width[c], display_width(row[c]));
    std::string out;
    auto line = [&](const std::vector<std::string>& cells) {
        std::string l;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            l += cells[c];
            if (c + 1 < cells.size()) l += std::string(width[c] - display_width(cells[c]) + 2, ' ');
        }
        out += l + "\n";
    };
    line(header);
    for (const auto& row : rows)
        line(row);
    return out;
}

} // namespace cp::cli
