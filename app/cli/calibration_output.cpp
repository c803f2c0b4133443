#include "calibration_output.h"

#include "clusterplan/sim/calibration_fit.h"
#include "clusterplan/sim/calibration_import.h"
#include "clusterplan/sim/calibration_profile_json.h"
#include "clusterplan/sim/format.h"
#include "clusterplan/sim/io/json_depth.h"

#include <cmath>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace cp::cli {
namespace {

using nlohmann::json;

std::string size_key(double bytes) {
    return std::to_string(static_cast<long long>(std::llround(bytes)));
}

json nan_to_null(double v) {
    return std::isnan(v) ? json(nullptr) : json(v);
}

json samples_json(const sim::CollectiveTable& t) {
    json out = json::array();
    for (const auto& s : t.samples) {
        json row = {{"bytes", s.bytes},
                    {"count", s.count},
                    {"type", s.type},
                    {"time_us", s.time_us},
                    {"algbw_gbytes_per_s", s.algbw_gbytes_per_s},
                    {"busbw_gbytes_per_s", s.busbw_gbytes_per_s}};
        if (!std::isnan(s.in_place_time_us)) {
            row["in_place_time_us"] = nan_to_null(s.in_place_time_us);
            row["in_place_algbw_gbytes_per_s"] = nan_to_null(s.in_place_algbw_gbytes_per_s);
            row["in_place_busbw_gbytes_per_s"] = nan_to_null(s.in_place_busbw_gbytes_per_s);
        }
        out.push_back(row);
    }
    return out;
}

json fit_json(const sim::CollectiveFit& fit) {
    json segs = json::array();
    for (const auto& s : fit.segments) {
        segs.push_back({{"min_bytes", std::isinf(s.min_bytes) ? json(nullptr) : json(s.min_bytes)},
                        {"max_bytes", std::isinf(s.max_bytes) ? json(nullptr) : json(s.max_bytes)},
                        {"alpha_us", s.alpha_s * 1e6},
                        {"beta_gbytes_per_s", s.beta_bytes_per_s / 1e9}});
    }
    const sim::FitErrorStats all = sim::fit_error(fit);
    return {{"model", "t = alpha + bytes / beta per regime"},
            {"regimes", segs},
            {"mean_rel_error", all.mean_rel_error},
            {"max_rel_error", all.max_rel_error}};
}

json predictions(const sim::CollectiveFit& fit) {
    json out = json::object();
    for (const auto& r : fit.raw)
        out[size_key(r.bytes)] = sim::segments_time_s(fit.segments, r.bytes) * 1e6;
    return out;
}

std::string human_bytes(double b) {
    std::ostringstream s;
    if (std::isinf(b)) return "∞";
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024 && u < 4) {
        b /= 1024;
        ++u;
    }
    s << std::setprecision(b < 10 ? 3 : 4) << b << " " << units[u];
    return s.str();
}

void write_fit_text(std::ostream& out, const sim::CollectiveFit& fit) {
    out << "  fit t = α + S/β (" << fit.segments.size()
        << (fit.segments.size() == 1 ? " regime" : " regimes") << "):\n";
    for (const auto& s : fit.segments) {
        out << "    [" << human_bytes(s.min_bytes) << ", " << human_bytes(s.max_bytes)
            << "): α = " << std::fixed << std::setprecision(2) << s.alpha_s * 1e6
            << " µs, β = " << s.beta_bytes_per_s / 1e9 << " GB/s\n"
            << std::defaultfloat;
    }
    const sim::FitErrorStats st = sim::fit_error(fit);
    out << "  fit error over " << st.count << " sizes: mean " << std::fixed << std::setprecision(2)
        << 100 * st.mean_rel_error << " %, max " << 100 * st.max_rel_error << " %\n"
        << std::defaultfloat;
}

} // namespace

ImportedCalibration import_calibration_text(const std::string& text, const std::string& source_file,
                                            const std::string& collective_hint,
                                            const sim::ProbeAcceptance& acceptance) {
    ImportedCalibration r;
    r.source_file = source_file;
    // JSON inputs are bounded in depth before any parser sees them (sim/io/json_depth.h).
    if (const auto start = text.find_first_not_of(" \t\r\n");
        start != std::string::npos && (text[start] == '{' || text[start] == '['))
        if (const auto problem = sim::io::json_input_problem(text))
            throw sim::CalibrationInputError(source_file + ": not usable JSON: it " + *problem);
    sim::ProfileMeta meta;
    switch (sim::detect_collective_format(text)) {
    case sim::CollectiveFormat::probe_json: {
        r.format = "probe";
        const sim::ProbeDocument doc = sim::parse_probe_json(text, source_file);
        sim::check_probe_acceptable(doc, source_file, acceptance);
        meta.instance_type = acceptance.instance_type;
        r.tables = doc.collectives;
        r.profile = sim::profile_from_probe(doc, meta);
        r.raw_json = json::parse(sim::probe_document_text(text));
        return r;
    }
    case sim::CollectiveFormat::nccl_tests_json:
        r.format = "nccl-tests-json";
        r.tables.push_back(sim::parse_nccl_tests_json(text, source_file, collective_hint));
        r.raw_json = {{"format", r.format}, {"file", source_file}, {"content", json::parse(text)}};
        if (r.raw_json["content"].contains("start_time") &&
            r.raw_json["content"]["start_time"].is_string())
            meta.measured_at = r.raw_json["content"]["start_time"].get<std::string>();
        break;
    case sim::CollectiveFormat::csv:
        r.format = "csv";
        r.tables.push_back(sim::parse_nccl_csv(
            text, source_file, collective_hint.empty() ? "all_reduce" : collective_hint));
        r.raw_json = {{"format", r.format}, {"file", source_file}, {"content", text}};
        break;
    case sim::CollectiveFormat::nccl_tests_text:
        r.format = "nccl-tests-text";
        r.tables = sim::parse_nccl_tests_text_runs(text, source_file, collective_hint);
        r.raw_json = {{"format", r.format}, {"file", source_file}, {"content", text}};
        break;
    case sim::CollectiveFormat::unknown:
        throw sim::CalibrationInputError(
            source_file + ": not a recognised calibration input (expected clusterplan-probe JSON, "
                          "nccl-tests text or -J JSON output, or a size(B),count,... CSV table)");
    }
    meta.source = "nccl-tests";
    r.profile = sim::profile_from_tables(r.tables, meta);
    return r;
}

std::string default_profile_name(const std::string& source_file,
                                 const ImportedCalibration& imported) {
    std::string name;
    if (!imported.profile.host.empty()) name = imported.profile.host;
    if (!imported.tables.empty()) {
        const auto& t = imported.tables.front();
        if (!name.empty()) name += '-';
        name += imported.format == "probe" ? std::string("probe") : t.collective;
        if (t.ranks > 0) name += "-" + std::to_string(t.ranks) + "r";
    }
    if (name.empty() || imported.profile.host.empty()) {
        std::string stem = std::filesystem::path(source_file).stem().string();
        if (!name.empty()) {
            stem += '-';
            stem += name;
        }
        name = stem;
    }
    return name;
}

json predicted_times_json(const sim::CalibrationProfile& profile) {
    std::vector<const sim::CollectiveFit*> fits;
    for (const auto& f : profile.intra_node)
        fits.push_back(&f);
    for (const auto& f : profile.inter_node)
        fits.push_back(&f);
    if (fits.size() == 1) return predictions(*fits.front());
    json out = json::object();
    for (const auto* f : fits)
        out[f->collective + (f->nodes > 1 ? "_inter_node" : "")] = predictions(*f);
    return out;
}

json import_report_json(const ImportedCalibration& imp) {
    json out = sim::profile_to_json(imp.profile);
    out["format"] = imp.format;
    out["file"] = imp.source_file;
    json collectives = json::array();
    std::vector<const sim::CollectiveFit*> fits;
    for (const auto& f : imp.profile.intra_node)
        fits.push_back(&f);
    for (const auto& f : imp.profile.inter_node)
        fits.push_back(&f);
    for (std::size_t i = 0; i < imp.tables.size() && i < fits.size(); ++i) {
        const auto& t = imp.tables[i];
        const sim::CollectiveFit* fit = nullptr;
        for (const auto* f : fits)
            if (f->collective == t.collective) fit = f;
        if (!fit) continue;
        collectives.push_back({{"collective", t.collective},
                               {"ranks", t.ranks},
                               {"nodes", t.nodes},
                               {"hosts", t.hosts},
                               {"device", t.device},
                               {"avg_busbw_gbytes_per_s", t.avg_busbw_gbytes_per_s},
                               {"samples", samples_json(t)},
                               {"fit", fit_json(*fit)},
                               {"predicted_time_us", predictions(*fit)}});
    }
    // The first collective also at top level: the common single-table import reads flat.
    if (!collectives.empty()) {
        out["collective"] = collectives[0]["collective"];
        out["ranks"] = collectives[0]["ranks"];
        out["samples"] = collectives[0]["samples"];
        out["fit"] = collectives[0]["fit"];
        out["predicted_time_us"] = collectives[0]["predicted_time_us"];
    }
    out["collectives"] = collectives;
    // The raw tables are already in "samples"; keep the document small.
    for (auto* key : {"intra_node", "inter_node"})
        for (auto& f : out[key])
            f.erase("raw");
    return out;
}

void write_import_report_text(std::ostream& out, const ImportedCalibration& imp) {
    out << "Imported " << imp.source_file << " (" << imp.format << ")\n";
    for (const auto& t : imp.tables) {
        const sim::CollectiveFit* fit = nullptr;
        for (const auto& f : imp.profile.intra_node)
            if (f.collective == t.collective) fit = &f;
        for (const auto& f : imp.profile.inter_node)
            if (f.collective == t.collective) fit = &f;
        out << t.collective << ": " << t.samples.size() << " sizes, "
            << (t.ranks > 0 ? std::to_string(t.ranks) : "?") << " ranks on " << t.nodes
            << (t.nodes == 1 ? " node" : " nodes");
        if (!t.device.empty()) out << ", " << t.device;
        out << "\n  " << std::setw(12) << "size (B)" << std::setw(12) << "time (µs)"
            << std::setw(14) << "busbw (GB/s)" << std::setw(12) << "fit (µs)" << std::setw(9)
            << "error"
            << "\n";
        for (const auto& s : t.samples) {
            const double pred =
                fit ? sim::segments_time_s(fit->segments, s.bytes) * 1e6 : std::nan("");
            out << "  " << std::setw(12) << size_key(s.bytes) << std::setw(12) << s.time_us
                << std::setw(14) << s.busbw_gbytes_per_s << std::fixed << std::setprecision(2)
                << std::setw(12) << pred << std::setw(7)
                << 100 * std::abs(pred - s.time_us) / s.time_us << " %" << std::defaultfloat
                << std::setprecision(6) << "\n";
        }
        if (fit) write_fit_text(out, *fit);
    }
    if (imp.format == "probe") write_profile_text(out, imp.profile);
}

void write_profile_text(std::ostream& out, const sim::CalibrationProfile& p) {
    auto dash = [](const std::string& s) { return s.empty() ? std::string("—") : s; };
    out << "Calibration " << dash(p.name) << " (" << dash(p.source) << ")\n"
        << "  host " << dash(p.host) << ", instance " << dash(p.instance_type) << ", accelerator "
        << dash(p.accelerator) << ", measured " << dash(p.measured_at) << "\n";
    // A profile stored from a partial run says what is missing before what is there.
    for (const auto& e : p.errors)
        out << "  probe error: " << e << "\n";
    if (!p.inter_node_transport.empty())
        out << "  inter-node transport: " << p.inter_node_transport
            << (p.inter_node_transport == "socket" ? " (TCP sockets: not applied to EFA instances)"
                                                   : "")
            << "\n";
    if (!p.tool_versions.empty()) {
        out << "  versions:";
        const char* sep = " ";
        for (const auto& [k, v] : p.tool_versions) {
            out << sep << k << " " << v;
            sep = "; ";
        }
        out << "\n";
    }
    for (const auto& [precision, curve] : p.gemm) {
        double best = 0;
        for (const auto& g : curve)
            best = std::max(best, g.tflops);
        out << "  GEMM " << precision << ": best " << sim::fmt::grouped(best, 1) << " TFLOP/s over "
            << curve.size() << " GEMM sizes\n";
    }
    auto figure = [&](const char* what, double v) {
        out << "  " << what << ": ";
        if (v > 0)
            out << sim::fmt::grouped(v, 1) << " GB/s\n";
        else
            out << "—\n";
    };
    figure("HBM bandwidth (read+write)", p.hbm_gbytes_per_s);
    figure("PCIe host-to-device", p.pcie_h2d_gbytes_per_s);
    figure("PCIe device-to-host", p.pcie_d2h_gbytes_per_s);
    figure("GPU-to-GPU (unidirectional)", p.p2p_gbytes_per_s);
    for (const auto* group : {&p.intra_node, &p.inter_node}) {
        for (const auto& f : *group) {
            out << "  " << f.collective << " over " << f.ranks << " ranks, " << f.nodes
                << (f.nodes == 1 ? " node" : " nodes") << ", " << f.raw.size()
                << " measured sizes\n";
            write_fit_text(out, f);
        }
    }
}

} // namespace cp::cli
