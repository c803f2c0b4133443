#include "clusterplan/sim/precision_choice.h"

#include "clusterplan/sim/format.h"

namespace cp::sim {
namespace {

std::string tflops_text(double v) {
    return fmt::number(v, 2, fmt::Digits::trimmed);
}

bool calibration_measured_gemm(const CalibrationProfile* cal, Precision p) {
    if (!cal) return false;
    for (const auto& [name, points] : cal->gemm)
        if (name == enum_name(p) && !points.empty()) return true;
    return false;
}

} // namespace

void apply_custom_figures(AcceleratorSpec& acc, const CustomHardware& custom) {
    for (int i = 0; i < kPrecisionCount; ++i) {
        if (!is_known(custom.peak_tflops[i])) continue;
        acc.peak_tflops[i] = custom.peak_tflops[i];
        acc.peak_estimated[i] = false;
        acc.precision_unsupported[i] = false;
    }
    if (is_known(custom.memory_gib)) {
        acc.memory_gib = custom.memory_gib;
        acc.memory_estimated = false;
    }
    if (is_known(custom.hbm_gbytes_per_s)) {
        acc.hbm_gbytes_per_s = custom.hbm_gbytes_per_s;
        acc.hbm_estimated = false;
    }
}

bool precision_usable(const AcceleratorSpec& acc, Precision p) {
    return is_known(acc.peak(p)) && !acc.precision_unsupported[static_cast<int>(p)];
}

Precision plan_precision(const Scenario& sc, const AcceleratorSpec& acc) {
    if (precision_usable(acc, sc.precision)) return sc.precision;
    for (Precision p : sc.precision_fallbacks)
        if (precision_usable(acc, p)) return p;
    return sc.precision;
}

std::string precision_fallback_note(const Scenario& sc, const AcceleratorSpec& acc) {
    const Precision used = plan_precision(sc, acc);
    if (used == sc.precision) return {};
    const bool unsupported = acc.precision_unsupported[static_cast<int>(sc.precision)];
    std::string out = acc.id + (unsupported ? " has no " : " has no published ") +
                      enum_name(sc.precision) + (unsupported ? " math" : " peak") +
                      ": planned at " + enum_name(used);
    if (used == Precision::fp16) out += " (mixed precision with loss scaling)";
    out += sc.precision_auto ? ", as precision \"auto\" allows"
                             : ", the next precision the scenario lists";
    return out;
}

std::vector<std::string> figure_provenance_notes(const Scenario& sc, const AcceleratorSpec& acc,
                                                 Precision p, const CalibrationProfile* cal) {
    std::vector<std::string> out;
    const int i = static_cast<int>(p);
    const CustomHardware* custom = sc.custom ? &*sc.custom : nullptr;
    const std::string source = acc.estimate_source.empty() ? "" : " (" + acc.estimate_source + ")";
    const bool peak_custom = custom && is_known(custom->peak_tflops[i]);
    if (calibration_measured_gemm(cal, p)) {
        if (acc.peak_estimated[i] && !peak_custom)
            out.push_back(acc.id + " " + enum_name(p) + " GEMM rates measured by calibration '" +
                          cal->name + "' replace the estimated peak of " +
                          tflops_text(acc.peak(p)) + " TFLOP/s");
    } else if (peak_custom) {
        out.push_back(acc.id + " " + enum_name(p) + " dense peak " + tflops_text(acc.peak(p)) +
                      " TFLOP/s from cluster.custom.peak_tflops");
    } else if (acc.peak_estimated[i]) {
        out.push_back(acc.id + " " + enum_name(p) + " dense peak " + tflops_text(acc.peak(p)) +
                      " TFLOP/s is an estimate, not a datasheet figure" + source +
                      "; set cluster.custom.peak_tflops or calibrate to replace it");
    }
    if (custom && is_known(custom->memory_gib))
        out.push_back(acc.id + " memory " + tflops_text(custom->memory_gib) +
                      " GiB per device from cluster.custom.memory_gib");
    else if (acc.memory_estimated)
        out.push_back(acc.id + " memory " + tflops_text(acc.memory_gib) +
                      " GiB per device is an estimate" + source +
                      "; set cluster.custom.memory_gib to replace it");
    const bool hbm_measured = cal && cal->hbm_gbytes_per_s > 0;
    if (custom && is_known(custom->hbm_gbytes_per_s))
        out.push_back(acc.id + " memory bandwidth " + tflops_text(custom->hbm_gbytes_per_s) +
                      " GB/s from cluster.custom.hbm_gbytes_per_s");
    else if (acc.hbm_estimated && !hbm_measured)
        out.push_back(acc.id + " memory bandwidth " + tflops_text(acc.hbm_gbytes_per_s) +
                      " GB/s is an estimate" + source +
                      "; set cluster.custom.hbm_gbytes_per_s or calibrate to replace it");
    return out;
}

} // namespace cp::sim
