#include "clusterplan/sim/calibration_profile_json.h"

#include "clusterplan/sim/calibration_samples.h"
#include "measurement_fields.h"

#include <cmath>
#include <limits>

namespace cp::sim {
namespace {

using nlohmann::json;

json bound(double v) {
    return std::isinf(v) ? json(nullptr) : json(v);
}

json fits_to_json(const std::vector<CollectiveFit>& fits) {
    json out = json::array();
    for (const auto& f : fits) {
        json segs = json::array();
        for (const auto& s : f.segments) {
            segs.push_back({{"min_bytes", bound(s.min_bytes)},
                            {"max_bytes", bound(s.max_bytes)},
                            {"alpha_us", s.alpha_s * 1e6},
                            {"beta_gbytes_per_s", s.beta_bytes_per_s / 1e9}});
        }
        json raw = json::array();
        for (const auto& r : f.raw)
            raw.push_back({r.bytes, r.time_s * 1e6, r.busbw_gbytes_per_s});
        out.push_back({{"collective", f.collective},
                       {"ranks", f.ranks},
                       {"nodes", f.nodes},
                       {"segments", segs},
                       {"raw_columns", {"bytes", "time_us", "busbw_gbytes_per_s"}},
                       {"raw", raw}});
    }
    return out;
}

using detail::MeasurementFields;
using detail::Need;

std::vector<CollectiveFit> fits_from_json(const MeasurementFields& r, const json& doc,
                                          const char* key) {
    std::vector<CollectiveFit> out;
    const json* list = r.list(doc, key, "");
    if (!list) return out;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const json& f = (*list)[i];
        const std::string path = MeasurementFields::at(key, i);
        if (!f.is_object()) r.fail(path, "is not an object");
        CollectiveFit fit;
        fit.collective = r.string(f, "collective", path);
        fit.ranks = r.count(f, "ranks", path, Need::optional, 0);
        fit.nodes = r.count(f, "nodes", path, Need::optional, 1);
        const json& segments = *r.list(f, "segments", path, Need::required);
        for (std::size_t j = 0; j < segments.size(); ++j) {
            const json& s = segments[j];
            const std::string sp = MeasurementFields::at(path + ".segments", j);
            if (!s.is_object()) r.fail(sp, "is not an object");
            // A null bound is an open end of the segment's byte range.
            const double min_bytes = r.non_negative(s, "min_bytes", sp, Need::optional);
            const double max_bytes = r.non_negative(s, "max_bytes", sp, Need::optional);
            AlphaBetaSegment seg;
            seg.min_bytes = std::isnan(min_bytes) ? 0 : min_bytes;
            seg.max_bytes =
                std::isnan(max_bytes) ? std::numeric_limits<double>::infinity() : max_bytes;
            seg.alpha_s = r.non_negative(s, "alpha_us", sp) * 1e-6;
            seg.beta_bytes_per_s = r.non_negative(s, "beta_gbytes_per_s", sp) * 1e9;
            fit.segments.push_back(seg);
        }
        if (const json* raw = r.list(f, "raw", path)) {
            for (std::size_t j = 0; j < raw->size(); ++j) {
                const json& row = (*raw)[j];
                if (!row.is_array() || row.size() != 3 || !row[0].is_number() ||
                    !row[1].is_number() || !row[2].is_number())
                    r.fail(MeasurementFields::at(path + ".raw", j),
                           "is not [bytes, time_us, busbw_gbytes_per_s]");
                fit.raw.push_back(
                    {row[0].get<double>(), row[1].get<double>() * 1e-6, row[2].get<double>()});
            }
        }
        out.push_back(std::move(fit));
    }
    return out;
}

} // namespace

json profile_to_json(const CalibrationProfile& p) {
    json gemm = json::object();
    for (const auto& [precision, pts] : p.gemm) {
        json curve = json::array();
        for (const auto& g : pts)
            curve.push_back({{"flops", g.flops}, {"tflops", g.tflops}});
        gemm[precision] = curve;
    }
    json versions = json::object();
    for (const auto& [k, v] : p.tool_versions)
        versions[k] = v;
    json out = {{"name", p.name},
                {"source", p.source},
                {"host", p.host},
                {"instance_type", p.instance_type},
                {"accelerator", p.accelerator},
                {"measured_at", p.measured_at},
                {"tool_versions", versions},
                {"gemm", gemm},
                {"hbm_gbytes_per_s", p.hbm_gbytes_per_s},
                {"pcie_h2d_gbytes_per_s", p.pcie_h2d_gbytes_per_s},
                {"pcie_d2h_gbytes_per_s", p.pcie_d2h_gbytes_per_s},
                {"p2p_gbytes_per_s", p.p2p_gbytes_per_s},
                {"intra_node", fits_to_json(p.intra_node)},
                {"inter_node", fits_to_json(p.inter_node)},
                {"errors", p.errors},
                {"inter_node_transport", p.inter_node_transport},
                {"gpus_per_node", p.gpus_per_node}};
    if (!p.job.empty()) out["job"] = job_calibration_to_json(p.job);
    return out;
}

CalibrationProfile profile_from_json(const json& doc, const std::string& source) {
    const MeasurementFields r{source};
    if (!doc.is_object()) r.fail("(document)", "is not a JSON object");
    CalibrationProfile p;
    p.name = r.string(doc, "name", "");
    p.source = r.string(doc, "source", "");
    p.host = r.string(doc, "host", "");
    p.instance_type = r.string(doc, "instance_type", "");
    p.accelerator = r.string(doc, "accelerator", "");
    p.measured_at = r.string(doc, "measured_at", "");
    if (doc.contains("tool_versions") && doc["tool_versions"].is_object()) {
        for (auto it = doc["tool_versions"].begin(); it != doc["tool_versions"].end(); ++it)
            if (it.value().is_string())
                p.tool_versions.emplace_back(it.key(), it.value().get<std::string>());
    }
    if (MeasurementFields::given(doc, "gemm")) {
        const json& gemm = r.object(doc, "gemm", "");
        for (auto it = gemm.begin(); it != gemm.end(); ++it) {
            const std::string path = "gemm." + it.key();
            if (!it.value().is_array()) r.fail(path, "is not a list");
            std::vector<GemmPoint> pts;
            for (std::size_t i = 0; i < it.value().size(); ++i) {
                const json& g = it.value()[i];
                if (!g.is_object()) r.fail(MeasurementFields::at(path, i), "is not an object");
                pts.push_back({r.non_negative(g, "flops", MeasurementFields::at(path, i)),
                               r.non_negative(g, "tflops", MeasurementFields::at(path, i))});
            }
            p.gemm.emplace_back(it.key(), std::move(pts));
        }
    }
    // An absent bandwidth is an unmeasured one (0).
    auto measured = [&](const char* key) {
        const double v = r.non_negative(doc, key, "", Need::optional);
        return std::isnan(v) ? 0.0 : v;
    };
    p.hbm_gbytes_per_s = measured("hbm_gbytes_per_s");
    p.pcie_h2d_gbytes_per_s = measured("pcie_h2d_gbytes_per_s");
    p.pcie_d2h_gbytes_per_s = measured("pcie_d2h_gbytes_per_s");
    p.p2p_gbytes_per_s = measured("p2p_gbytes_per_s");
    p.intra_node = fits_from_json(r, doc, "intra_node");
    p.inter_node = fits_from_json(r, doc, "inter_node");
    if (doc.contains("errors") && doc["errors"].is_array())
        for (const json& e : doc["errors"])
            if (e.is_string()) p.errors.push_back(e.get<std::string>());
    p.inter_node_transport = r.string(doc, "inter_node_transport", "");
    // No host holds 4,096 GPUs.
    p.gpus_per_node = r.count(doc, "gpus_per_node", "", Need::optional, 0, 4096);
    if (doc.contains("job")) p.job = job_calibration_from_json(doc["job"], source);
    return p;
}

} // namespace cp::sim
