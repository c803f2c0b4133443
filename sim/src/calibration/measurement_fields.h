// Private to sim/src/calibration: the one reader of fields in measurement documents (probe
// output, stored calibration profiles and their job fit, nccl-tests JSON). A stored profile is
// input too: every problem is one CalibrationInputError "<source>: field '<path>' <reason>" with
// a dotted path ("intra_node[0].segments[1].alpha_us"), and every number is checked before a
// cast (a double beyond int range converts with undefined behaviour; found by fuzzing).
#pragma once

#include "clusterplan/sim/calibration_samples.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

namespace cp::sim::detail {

enum class Need { required, optional };

class MeasurementFields {
public:
    using json = nlohmann::json;

    explicit MeasurementFields(std::string source) : source_(std::move(source)) {}

    [[noreturn]] void fail(const std::string& path, const std::string& reason) const {
        throw CalibrationInputError(source_ + ": field '" + path + "' " + reason);
    }
    static std::string at(const std::string& path, const std::string& key) {
        return path.empty() ? key : path + "." + key;
    }
    static std::string at(const std::string& path, std::size_t index) {
        return path + "[" + std::to_string(index) + "]";
    }
    // Absent and JSON null both mean "not given".
    static bool given(const json& obj, const std::string& key) {
        return obj.is_object() && obj.contains(key) && !obj[key].is_null();
    }

    const json& object(const json& parent, const std::string& key, const std::string& path) const {
        const std::string field = at(path, key);
        if (!given(parent, key)) fail(field, "is missing");
        if (!parent[key].is_object()) fail(field, "is not an object");
        return parent[key];
    }
    // A list, or nullptr when an optional one is not given.
    const json* list(const json& parent, const std::string& key, const std::string& path,
                     Need need = Need::optional) const {
        const std::string field = at(path, key);
        if (!given(parent, key)) {
            if (need == Need::required) fail(field, "is missing");
            return nullptr;
        }
        if (!parent[key].is_array()) fail(field, "is not a list");
        return &parent[key];
    }
    // A finite number; NaN when an optional one is not given.
    double number(const json& obj, const std::string& key, const std::string& path,
                  Need need = Need::required) const {
        const std::string field = at(path, key);
        if (!given(obj, key)) {
            if (need == Need::required) fail(field, "is missing");
            return std::nan("");
        }
        if (!obj[key].is_number()) fail(field, "is not a number");
        const double v = obj[key].get<double>();
        if (!std::isfinite(v)) fail(field, "must be a finite number");
        return v;
    }
    // At least zero; NaN when an optional one is not given.
    double non_negative(const json& obj, const std::string& key, const std::string& path,
                        Need need = Need::required) const {
        const double v = number(obj, key, path, need);
        if (v < 0) fail(at(path, key), "must not be negative");
        return v;
    }
    double positive(const json& obj, const std::string& key, const std::string& path) const {
        const double v = number(obj, key, path);
        if (!(v > 0)) fail(at(path, key), "must be a positive number");
        return v;
    }
    // A measured rate or duration the simulator divides by: zero gave "compute inf s" and a NaN
    // pipeline bubble. Above 1e6 (TFLOP/s, GB/s or s) is no device: the fastest accelerator's
    // dense peak is ~4,500 TFLOP/s (B200 FP8) and its HBM ~8,000 GB/s (NVIDIA B200 datasheet).
    double rate(const json& obj, const std::string& key, const std::string& path) const {
        const double v = number(obj, key, path);
        if (!(v > 0) || v > 1e6) fail(at(path, key), "must be greater than 0 and at most 1e6");
        return v;
    }
    // A whole count from 0 to `max`; `fallback` when an optional one is not given.
    int count(const json& obj, const std::string& key, const std::string& path, Need need,
              int fallback, int max = 1 << 30) const {
        const double v = non_negative(obj, key, path, need);
        if (std::isnan(v)) return fallback;
        if (v > max || std::floor(v) != v)
            fail(at(path, key), "must be a whole number from 0 to " + std::to_string(max));
        return static_cast<int>(v);
    }
    // A string; "" when an optional one is not given.
    std::string string(const json& obj, const std::string& key, const std::string& path,
                       Need need = Need::optional) const {
        const std::string field = at(path, key);
        if (!given(obj, key)) {
            if (need == Need::required) fail(field, "is missing");
            return "";
        }
        if (!obj[key].is_string()) fail(field, "is not a string");
        return obj[key].get<std::string>();
    }

private:
    std::string source_;
};

} // namespace cp::sim::detail
