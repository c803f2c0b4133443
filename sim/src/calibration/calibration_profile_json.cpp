#include "clusterplan/sim/calibration_profile_json.h"

#include "clusterplan/sim/calibration_samples.h"

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

struct Reader {
    std::string source;
    [[noreturn]] void fail(const std::string& field, const std::string& why) const {
        throw CalibrationInputError(source + ": field '" + field + "' " + why);
    }
    double num(const json& o, const char* key, const std::string& path, double null_value) const {
        if (!o.contains(key)) fail(path + "." + key, "is missing");
        if (o[key].is_null()) return null_value;
        if (!o[key].is_number()) fail(path + "." + key, "is not a number");
        return o[key].get<double>();
    }
    std::string str(const json& o, const char* key) const {
        return o.contains(key) && o[key].is_string() ? o[key].get<std::string>() : std::string();
    }
};

std::vector<CollectiveFit> fits_from_json(const Reader& r, const json& doc, const char* key) {
    std::vector<CollectiveFit> out;
    if (!doc.contains(key)) return out;
    if (!doc[key].is_array()) r.fail(key, "is not a list");
    for (std::size_t i = 0; i < doc[key].size(); ++i) {
        const json& f = doc[key][i];
        const std::string path = std::string(key) + "[" + std::to_string(i) + "]";
        if (!f.is_object()) r.fail(path, "is not an object");
        CollectiveFit fit;
        fit.collective = r.str(f, "collective");
        fit.ranks = static_cast<int>(r.num(f, "ranks", path, 0));
        fit.nodes = f.contains("nodes") ? static_cast<int>(r.num(f, "nodes", path, 1)) : 1;
        if (!f.contains("segments") || !f["segments"].is_array())
            r.fail(path + ".segments", "is missing or not a list");
        for (std::size_t j = 0; j < f["segments"].size(); ++j) {
            const json& s = f["segments"][j];
            const std::string sp = path + ".segments[" + std::to_string(j) + "]";
            if (!s.is_object()) r.fail(sp, "is not an object");
            AlphaBetaSegment seg;
            seg.min_bytes = r.num(s, "min_bytes", sp, 0);
            seg.max_bytes = r.num(s, "max_bytes", sp, std::numeric_limits<double>::infinity());
            seg.alpha_s = r.num(s, "alpha_us", sp, 0) * 1e-6;
            seg.beta_bytes_per_s = r.num(s, "beta_gbytes_per_s", sp, 0) * 1e9;
            fit.segments.push_back(seg);
        }
        if (f.contains("raw")) {
            if (!f["raw"].is_array()) r.fail(path + ".raw", "is not a list");
            for (std::size_t j = 0; j < f["raw"].size(); ++j) {
                const json& row = f["raw"][j];
                if (!row.is_array() || row.size() != 3 || !row[0].is_number() ||
                    !row[1].is_number() || !row[2].is_number())
                    r.fail(path + ".raw[" + std::to_string(j) + "]",
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
    const Reader r{source};
    if (!doc.is_object()) r.fail("(document)", "is not a JSON object");
    CalibrationProfile p;
    p.name = r.str(doc, "name");
    p.source = r.str(doc, "source");
    p.host = r.str(doc, "host");
    p.instance_type = r.str(doc, "instance_type");
    p.accelerator = r.str(doc, "accelerator");
    p.measured_at = r.str(doc, "measured_at");
    if (doc.contains("tool_versions") && doc["tool_versions"].is_object()) {
        for (auto it = doc["tool_versions"].begin(); it != doc["tool_versions"].end(); ++it)
            if (it.value().is_string())
                p.tool_versions.emplace_back(it.key(), it.value().get<std::string>());
    }
    if (doc.contains("gemm")) {
        if (!doc["gemm"].is_object()) r.fail("gemm", "is not an object");
        for (auto it = doc["gemm"].begin(); it != doc["gemm"].end(); ++it) {
            if (!it.value().is_array()) r.fail("gemm." + it.key(), "is not a list");
            std::vector<GemmPoint> pts;
            for (const json& g : it.value()) {
                if (!g.is_object()) r.fail("gemm." + it.key(), "has a non-object entry");
                pts.push_back({r.num(g, "flops", "gemm." + it.key(), 0),
                               r.num(g, "tflops", "gemm." + it.key(), 0)});
            }
            p.gemm.emplace_back(it.key(), std::move(pts));
        }
    }
    auto opt = [&](const char* key) { return doc.contains(key) ? r.num(doc, key, "", 0) : 0.0; };
    p.hbm_gbytes_per_s = opt("hbm_gbytes_per_s");
    p.pcie_h2d_gbytes_per_s = opt("pcie_h2d_gbytes_per_s");
    p.pcie_d2h_gbytes_per_s = opt("pcie_d2h_gbytes_per_s");
    p.p2p_gbytes_per_s = opt("p2p_gbytes_per_s");
    p.intra_node = fits_from_json(r, doc, "intra_node");
    p.inter_node = fits_from_json(r, doc, "inter_node");
    if (doc.contains("errors") && doc["errors"].is_array())
        for (const json& e : doc["errors"])
            if (e.is_string()) p.errors.push_back(e.get<std::string>());
    p.inter_node_transport = r.str(doc, "inter_node_transport");
    const double gpus = opt("gpus_per_node");
    // Bounded before the cast (a stored document is input too): no host holds 4,096 GPUs.
    if (gpus < 0 || gpus > 4096) r.fail("gpus_per_node", "must be between 0 and 4096");
    p.gpus_per_node = static_cast<int>(gpus);
    if (doc.contains("job")) p.job = job_calibration_from_json(doc["job"], source);
    return p;
}

} // namespace cp::sim
