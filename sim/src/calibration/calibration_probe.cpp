#include "clusterplan/sim/calibration_probe.h"

#include "calibration_json.h"
#include "clusterplan/probe/report.h"
#include "clusterplan/sim/calibration_lookup.h"
#include "measurement_fields.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

namespace cp::sim {
namespace {

using nlohmann::json;

using detail::MeasurementFields;
using detail::Need;

// A section's "results" list (the section itself may be absent: that probe did not run).
const json* results(const MeasurementFields& r, const json& doc, const std::string& section) {
    if (!MeasurementFields::given(doc, section)) return nullptr;
    return r.list(r.object(doc, section, ""), "results", section);
}

std::vector<ProbeBandwidth> read_bandwidths(const MeasurementFields& r, const json& doc,
                                            const std::string& section, const char* what_key) {
    std::vector<ProbeBandwidth> out;
    const json* list = results(r, doc, section);
    if (!list) return out;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const std::string path = section + ".results[" + std::to_string(i) + "]";
        const json& e = (*list)[i];
        if (!e.is_object()) r.fail(path, "is not an object");
        ProbeBandwidth b;
        b.what = r.string(e, what_key, path, Need::required);
        b.bytes = r.non_negative(e, "bytes", path);
        b.time_s = r.rate(e, "time_s", path);
        b.gbytes_per_s = r.rate(e, "gbytes_per_s", path);
        out.push_back(b);
    }
    return out;
}

} // namespace

std::string_view probe_document_text(std::string_view text) {
    // A copy of the probe's stdout keeps the marker lines (and whatever a login or NCCL printed
    // around them): the document is what lies between them.
    if (text.find(probe::kDocumentBegin) == std::string_view::npos) return text;
    const std::size_t begin = text.find(probe::kDocumentBegin);
    const std::size_t body = text.find('\n', begin);
    const std::size_t end =
        body == std::string_view::npos ? body : text.find(probe::kDocumentEnd, body);
    if (end == std::string_view::npos) return text.substr(begin); // cut short: fails to parse
    return text.substr(body + 1, end - body - 1);
}

ProbeDocument parse_probe_json(std::string_view framed, const std::string& source) {
    const std::string_view text = probe_document_text(framed);
    const json doc = detail::parse_measurement_json(text, source, "a usable probe document");
    const MeasurementFields r{source};
    if (!doc.is_object()) r.fail("(document)", "is not a JSON object");
    const std::string schema = r.string(doc, "schema", "", Need::required);
    if (schema != kProbeSchema)
        r.fail("schema", "is '" + schema + "', expected '" + kProbeSchema + "'");
    ProbeDocument out;
    out.started_at = r.string(doc, "started_at", "");
    const json& host = r.object(doc, "host", "");
    out.hostname = r.string(host, "hostname", "host", Need::required);
    out.instance_type = r.string(host, "instance_type", "host");
    out.product_name = r.string(host, "product_name", "host");
    out.status = r.string(doc, "status", "");
    if (doc.contains("versions")) {
        const json& v = r.object(doc, "versions", "");
        for (auto it = v.begin(); it != v.end(); ++it) {
            if (it.value().is_string())
                out.versions.emplace_back(it.key(), it.value().get<std::string>());
            else if (it.value().is_number())
                out.versions.emplace_back(it.key(), it.value().dump());
        }
    }
    if (doc.contains("launch")) {
        const json& l = r.object(doc, "launch", "");
        out.rank = r.count(l, "rank", "launch", Need::optional, 0);
        out.world_size = r.count(l, "world_size", "launch", Need::optional, 1);
    }
    if (doc.contains("gpus")) {
        if (!doc["gpus"].is_array()) r.fail("gpus", "is not a list");
        for (std::size_t i = 0; i < doc["gpus"].size(); ++i) {
            const std::string path = "gpus[" + std::to_string(i) + "]";
            const json& g = doc["gpus"][i];
            if (!g.is_object()) r.fail(path, "is not an object");
            ProbeGpu gpu;
            gpu.index = r.count(g, "index", path, Need::required, 0);
            gpu.name = r.string(g, "name", path, Need::required);
            gpu.compute_capability = r.string(g, "compute_capability", path);
            gpu.memory_bytes = r.non_negative(g, "memory_bytes", path, Need::optional);
            gpu.pci_bus_id = r.string(g, "pci_bus_id", path);
            out.gpus.push_back(gpu);
        }
    }
    if (const json* list = results(r, doc, "gemm")) {
        for (std::size_t i = 0; i < list->size(); ++i) {
            const std::string path = "gemm.results[" + std::to_string(i) + "]";
            const json& e = (*list)[i];
            if (!e.is_object()) r.fail(path, "is not an object");
            ProbeGemmResult g;
            g.precision = r.string(e, "precision", path, Need::required);
            g.m = r.count(e, "m", path, Need::required, 0);
            g.n = r.count(e, "n", path, Need::required, 0);
            g.k = r.count(e, "k", path, Need::required, 0);
            g.flops = r.non_negative(e, "flops", path);
            g.time_s = r.rate(e, "time_s", path);
            g.tflops = r.rate(e, "tflops", path);
            if (!(g.time_s > 0) || !(g.flops > 0)) r.fail(path, "needs positive flops and time_s");
            out.gemm.push_back(g);
        }
    }
    out.membw = read_bandwidths(r, doc, "membw", "kernel");
    out.pcie = read_bandwidths(r, doc, "pcie", "direction");
    out.p2p = read_bandwidths(r, doc, "p2p", "mode");
    if (const json* list = results(r, doc, "nccl")) {
        const json& sec = doc["nccl"];
        const int ranks = r.count(sec, "ranks", "nccl", Need::required, 0);
        const int nodes = r.count(sec, "nodes", "nccl", Need::optional, 1);
        std::vector<std::string> hosts;
        if (sec.contains("hosts") && sec["hosts"].is_array()) {
            for (const auto& h : sec["hosts"])
                if (h.is_string()) hosts.push_back(h.get<std::string>());
        }
        std::map<std::string, CollectiveTable> by_collective;
        for (std::size_t i = 0; i < list->size(); ++i) {
            const std::string path = "nccl.results[" + std::to_string(i) + "]";
            const json& e = (*list)[i];
            if (!e.is_object()) r.fail(path, "is not an object");
            const std::string name =
                canonical_collective(r.string(e, "collective", path, Need::required));
            if (name.empty()) r.fail(path + ".collective", "is not a known collective");
            if (e.contains("correct") && e["correct"].is_boolean() && !e["correct"].get<bool>())
                r.fail(path + ".correct",
                       "is false: the probe's correctness check failed, results cannot calibrate");
            CollectiveSample s;
            s.bytes = r.non_negative(e, "bytes", path);
            s.count = r.non_negative(e, "count", path, Need::optional);
            s.type = r.string(e, "type", path);
            s.time_us = r.rate(e, "time_us", path);
            if (!(s.time_us > 0)) r.fail(path + ".time_us", "must be positive");
            s.algbw_gbytes_per_s = r.non_negative(e, "algbw_gbytes_per_s", path);
            s.busbw_gbytes_per_s = r.non_negative(e, "busbw_gbytes_per_s", path);
            s.in_place_time_us = s.in_place_algbw_gbytes_per_s = s.in_place_busbw_gbytes_per_s =
                std::nan("");
            s.wrong = 0;
            CollectiveTable& t = by_collective[name];
            t.collective = name;
            t.ranks = ranks;
            t.nodes = nodes;
            t.hosts = hosts;
            t.source_format = "probe";
            t.samples.push_back(s);
        }
        for (auto& [name, t] : by_collective) {
            std::sort(t.samples.begin(), t.samples.end(),
                      [](const CollectiveSample& a, const CollectiveSample& b) {
                          return a.bytes < b.bytes;
                      });
            if (!out.gpus.empty()) t.device = out.gpus.front().name;
            out.collectives.push_back(std::move(t));
        }
    }
    if (doc.contains("nccl") && doc["nccl"].is_object()) {
        const json& sec = doc["nccl"];
        if (sec.contains("transport") && sec["transport"].is_object())
            out.nccl_transport = r.string(sec["transport"], "kind", "nccl.transport");
        out.nodes = r.count(sec, "nodes", "nccl", Need::optional, out.nodes);
    }
    if (doc.contains("errors")) {
        if (!doc["errors"].is_array()) r.fail("errors", "is not a list");
        for (const auto& e : doc["errors"])
            if (e.is_string()) out.errors.push_back(e.get<std::string>());
    }
    if (doc.contains("sections")) {
        if (!doc["sections"].is_array()) r.fail("sections", "is not a list");
        for (std::size_t i = 0; i < doc["sections"].size(); ++i) {
            const json& sec = doc["sections"][i];
            const std::string path = "sections[" + std::to_string(i) + "]";
            if (!sec.is_object()) r.fail(path, "is not an object");
            if (r.string(sec, "status", path) == "failed")
                out.failed_sections.push_back(r.string(sec, "name", path, Need::required));
        }
    }
    // A failure the probe reported must never read as a clean run, whichever field said it.
    if (out.status.empty()) out.status = out.errors.empty() ? "ok" : "partial";
    if (out.status != "ok" && out.errors.empty())
        r.fail("status", "is '" + out.status + "' but the document lists no errors");
    return out;
}

CalibrationProfile profile_from_tables(const std::vector<CollectiveTable>& tables,
                                       const ProfileMeta& meta, const FitOptions& options) {
    CalibrationProfile p;
    p.name = meta.name;
    p.source = meta.source.empty() ? "nccl-tests" : meta.source;
    p.host = meta.host;
    p.instance_type = meta.instance_type;
    p.accelerator = meta.accelerator;
    p.measured_at = meta.measured_at;
    for (const auto& t : tables) {
        if (p.host.empty() && !t.hosts.empty()) p.host = t.hosts.front();
        if (p.accelerator.empty()) p.accelerator = t.device;
        if (!t.nccl_version.empty()) {
            bool have = false;
            for (const auto& [k, v] : p.tool_versions)
                have = have || k == "nccl";
            if (!have) p.tool_versions.emplace_back("nccl", t.nccl_version);
        }
        CollectiveFit fit = fit_collective(t, options);
        (t.nodes > 1 ? p.inter_node : p.intra_node).push_back(std::move(fit));
    }
    return p;
}

CalibrationProfile profile_from_probe(const ProbeDocument& doc, ProfileMeta meta,
                                      const FitOptions& options) {
    if (meta.host.empty()) meta.host = doc.hostname;
    if (meta.accelerator.empty() && !doc.gpus.empty()) meta.accelerator = doc.gpus.front().name;
    if (meta.measured_at.empty()) meta.measured_at = doc.started_at;
    // The host's own DMI identity names the instance type when --instance did not.
    if (meta.instance_type.empty()) meta.instance_type = doc.instance_type;
    meta.source = "probe";
    CalibrationProfile p = profile_from_tables(doc.collectives, meta, options);
    p.tool_versions = doc.versions;
    p.errors = doc.errors;
    if (doc.nodes > 1) p.inter_node_transport = doc.nccl_transport;
    p.gpus_per_node = static_cast<int>(doc.gpus.size());
    // GEMM: the best time per shape and precision, as an efficiency curve ordered by size.
    std::map<std::string, std::map<double, double>> best; // precision -> flops -> tflops
    for (const auto& g : doc.gemm) {
        double& v = best[g.precision][g.flops];
        v = std::max(v, g.tflops);
    }
    for (const auto& [precision, curve] : best) {
        std::vector<GemmPoint> pts;
        for (const auto& [flops, tflops] : curve)
            pts.push_back({flops, tflops});
        p.gemm.emplace_back(precision, std::move(pts));
    }
    for (const auto& b : doc.membw)
        p.hbm_gbytes_per_s = std::max(p.hbm_gbytes_per_s, b.gbytes_per_s);
    for (const auto& b : doc.pcie) {
        double& slot = b.what == "h2d" ? p.pcie_h2d_gbytes_per_s : p.pcie_d2h_gbytes_per_s;
        slot = std::max(slot, b.gbytes_per_s);
    }
    for (const auto& b : doc.p2p)
        if (b.what == "unidirectional")
            p.p2p_gbytes_per_s = std::max(p.p2p_gbytes_per_s, b.gbytes_per_s);
    return p;
}

bool probe_describes(const ProbeDocument& doc, const NodeSpec& node) {
    if (doc.gpus.empty()) return false;
    CalibrationProfile measured;
    measured.accelerator = doc.gpus.front().name;
    measured.instance_type = doc.instance_type;
    measured.gpus_per_node = static_cast<int>(doc.gpus.size());
    return calibration_matches(measured, node);
}

} // namespace cp::sim
