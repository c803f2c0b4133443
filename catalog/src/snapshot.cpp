// Seeds a new catalog from the CSV snapshot embedded in the binary (catalog/data/, see its
// README for sources). Empty cells stay NULL: unknown is never turned into a number here.
#include "catalog_embedded.h"
#include "clusterplan/catalog/errors.h"
#include "csv.h"
#include "internal.h"
#include "seed_table.h"
#include "sqlite_util.h"
#include "text_util.h"

#include <map>
#include <string>
#include <vector>

namespace cp::catalog::detail {
namespace {

std::string software_stack(const std::string& vendor) {
    if (icontains(vendor, "NVIDIA")) return "CUDA";
    if (icontains(vendor, "Habana")) return "SynapseAI";
    if (vendor == "AWS") return "Neuron SDK";
    return {};
}

// The seed's price snapshots are SkyPilot catalog versions, not days. v7 covers about
// Dec 2024 - May 2025 and v8 Aug 2025 or later (catalog/data/README.md); we stamp the month
// the snapshot was last confirmed, so ages are lower bounds. "(=v8)" means v8 had the same price.
struct Snapshot {
    std::string as_of;
    std::string source;
};
std::optional<Snapshot> snapshot_of(const std::string& text) {
    if (text.find("v8") != std::string::npos)
        return Snapshot{"2025-08", "SkyPilot AWS catalog v8 vms.csv (Aug 2025 or later)"};
    if (text.find("v7") != std::string::npos)
        return Snapshot{"2025-05", "SkyPilot AWS catalog v7 vms.csv (about Dec 2024 - May 2025)"};
    return std::nullopt;
}

void load_accelerators(sqlite3* db) {
    const Table t("accelerators.csv", embedded::accelerators_csv);
    Stmt ins(db, "INSERT INTO accelerators(id, name, vendor, is_gpu, inference_only, "
                 "form_factor, memory_gib, memory_type, hbm_gbytes_per_s, fp32_tflops, "
                 "tf32_tflops, fp16_tflops, bf16_tflops, fp8_tflops, int8_tops, sparse_note, "
                 "intra_node_link, link_gbytes_per_s, host_link, tdp_w, software_stack, notes, "
                 "source) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
                 "?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)");
    for (std::size_t r = 0; r < t.size(); ++r) {
        const std::string& id = t.cell(r, "id");
        const std::string& vendor = t.cell(r, "vendor");
        const auto fp16 = t.number(r, "fp16_bf16_tflops_dense");
        ins.bind(1, id)
            .bind(2, t.cell(r, "accelerator").empty() ? id : t.cell(r, "accelerator"))
            .bind_text_or_null(3, vendor)
            .bind(4, icontains(vendor, "NVIDIA") ? 1 : 0) // Neuron and Gaudi are not GPUs
            .bind(5, id.rfind("Inferentia", 0) == 0 ? 1 : 0)
            .bind_text_or_null(6, t.cell(r, "form_factor"))
            .bind(7, t.number(r, "memory_gib"))
            .bind_text_or_null(8, t.cell(r, "memory_type"))
            .bind(9, t.number(r, "mem_bw_gb_s"))
            .bind(10, t.number(r, "fp32_tflops"))
            .bind(11, t.number(r, "tf32_tflops_dense"))
            .bind(12, lacks_fp16(id) ? std::nullopt : fp16)
            .bind(13, lacks_bf16(id) ? std::nullopt : fp16)
            .bind(14, t.number(r, "fp8_tflops_dense"))
            .bind(15, t.number(r, "int8_tops_dense"))
            .bind_text_or_null(16, t.cell(r, "sparse_note"))
            .bind_text_or_null(17, t.cell(r, "intra_node_link"))
            .bind(18, t.number(r, "link_gb_s_per_device"))
            .bind_text_or_null(19, t.cell(r, "host_link"))
            .bind(20, t.number(r, "tdp_w"))
            .bind_text_or_null(21, software_stack(vendor))
            .bind_text_or_null(22, t.cell(r, "notes"))
            .bind_text_or_null(23, t.cell(r, "source"))
            .run();
    }
}

std::optional<bool> yes_no(const std::string& text) {
    const std::string v = to_lower(trim(text));
    if (v == "yes" || v == "true" || v == "1") return true;
    if (v == "no" || v == "false" || v == "0") return false;
    return std::nullopt;
}

void load_instances(sqlite3* db) {
    const Table t("instances.csv", embedded::instances_csv);
    Stmt ins(db, "INSERT INTO instance_types(instance_type, family, vcpus, memory_gib, "
                 "accelerator_id, accelerator_count, accelerator_memory_gib_each, network_gbps, "
                 "network_is_up_to, network_baseline_gbps, efa, intra_node_interconnect, "
                 "interconnect_gbytes_per_s_per_accel, notes, source) VALUES (?1, ?2, ?3, ?4, "
                 "?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)");
    Stmt price(db, "INSERT INTO prices(instance_type, region, zone, kind, usd_per_hour, as_of, "
                   "source, note) VALUES (?1, 'us-east-1', '', ?2, ?3, ?4, ?5, ?6)");
    for (std::size_t r = 0; r < t.size(); ++r) {
        const std::string& type = t.cell(r, "instance_type");
        const auto vcpus = t.number(r, "vcpus");
        const auto count = t.number(r, "accelerator_count");
        ins.bind(1, type)
            .bind(2, t.cell(r, "family"))
            .bind(3, vcpus ? std::optional<int>(static_cast<int>(*vcpus)) : std::nullopt)
            .bind(4, t.number(r, "memory_gib"))
            .bind_text_or_null(5, t.cell(r, "accelerator"))
            .bind(6, count ? static_cast<int>(*count) : 0)
            .bind(7, t.number(r, "accelerator_mem_gib_each"))
            .bind(8, t.number(r, "network_gbps"))
            .bind(9, yes_no(t.cell(r, "network_is_up_to")).value_or(false) ? 1 : 0)
            .bind(10, t.number(r, "network_baseline_gbps"))
            .bind(11, yes_no(t.cell(r, "efa")))
            .bind_text_or_null(12, t.cell(r, "intra_node_interconnect"))
            .bind(13, t.number(r, "interconnect_gbytes_per_s_per_accel"))
            .bind_text_or_null(14, t.cell(r, "notes"))
            .bind_text_or_null(15, t.cell(r, "source"))
            .run();

        const auto od_snap = snapshot_of(t.cell(r, "od_snapshot"));
        if (const auto od = t.number(r, "od_usd_hr_us_east_1"); od && od_snap) {
            price.bind(1, type)
                .bind(2, "on_demand")
                .bind(3, *od)
                .bind(4, od_snap->as_of)
                .bind(5, od_snap->source)
                .bind(6, "")
                .run();
        }
        if (const auto before = t.number(r, "od_usd_hr_before_jun2025_cut")) {
            // Kept as history: AWS cut P4/P5 on-demand prices in June 2025.
            price.bind(1, type)
                .bind(2, "on_demand")
                .bind(3, *before)
                .bind(4, "2025-05")
                .bind(5, "SkyPilot AWS catalog v7 vms.csv (about Dec 2024 - May 2025)")
                .bind(6, "before the June 2025 P4/P5 price cut")
                .run();
        }
        const auto spot_snap = snapshot_of(t.cell(r, "spot_snapshot"));
        const auto lo = t.number(r, "spot_min_usd_hr_us_east_1");
        const auto hi = t.number(r, "spot_max_usd_hr_us_east_1");
        if (spot_snap && lo && hi && *lo == *hi) {
            price.bind(1, type)
                .bind(2, "spot")
                .bind(3, *lo)
                .bind(4, spot_snap->as_of)
                .bind(5, spot_snap->source)
                .bind(6, "over us-east-1 zones (zones not recorded)")
                .run();
        } else if (spot_snap) {
            if (lo)
                price.bind(1, type)
                    .bind(2, "spot")
                    .bind(3, *lo)
                    .bind(4, spot_snap->as_of)
                    .bind(5, spot_snap->source)
                    .bind(6, "min over us-east-1 zones (zones not recorded)")
                    .run();
            if (hi)
                price.bind(1, type)
                    .bind(2, "spot")
                    .bind(3, *hi)
                    .bind(4, spot_snap->as_of)
                    .bind(5, spot_snap->source)
                    .bind(6, "max over us-east-1 zones (zones not recorded)")
                    .run();
        }
    }
}

} // namespace

void load_snapshot(sqlite3* db) {
    load_accelerators(db);
    load_instances(db);
}

} // namespace cp::catalog::detail
