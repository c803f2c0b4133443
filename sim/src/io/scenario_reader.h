// Private to sim/src/io: the JSON object reader every scenario section parser shares, and the
// enum name tables (one list per enum, also used by enum_name()).
#pragma once

#include "clusterplan/sim/result.h"
#include "clusterplan/sim/scenario.h"

#include <array>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>

namespace cp::sim::scenario_io {

using nlohmann::json;

template <class E, std::size_t N> using Names = std::array<std::pair<E, const char*>, N>;

inline constexpr Names<Precision, 5> kPrecisions{{{Precision::fp32, "fp32"},
                                                  {Precision::tf32, "tf32"},
                                                  {Precision::fp16, "fp16"},
                                                  {Precision::bf16, "bf16"},
                                                  {Precision::fp8, "fp8"}}};
inline constexpr Names<Recompute, 3> kRecomputes{
    {{Recompute::none, "none"}, {Recompute::selective, "selective"}, {Recompute::full, "full"}}};
inline constexpr Names<Schedule, 3> kSchedules{{{Schedule::gpipe, "gpipe"},
                                                {Schedule::one_f_one_b, "1f1b"},
                                                {Schedule::interleaved, "interleaved"}}};
inline constexpr Names<DpComm, 4> kDpComms{{{DpComm::ring, "ring"},
                                            {DpComm::tree, "tree"},
                                            {DpComm::hierarchical, "hierarchical"},
                                            {DpComm::parameter_server, "parameter_server"}}};
inline constexpr Names<PsSync, 2> kPsSyncs{{{PsSync::sync, "sync"}, {PsSync::async, "async"}}};
inline constexpr Names<Pricing, 6> kPricings{{{Pricing::on_demand, "on_demand"},
                                              {Pricing::spot, "spot"},
                                              {Pricing::any, "any"},
                                              {Pricing::capacity_block, "capacity_block"},
                                              {Pricing::reserved_1y, "reserved_1y"},
                                              {Pricing::reserved_3y, "reserved_3y"}}};
inline constexpr Names<StorageService, 3> kStorageServices{
    {{StorageService::none, "none"},
     {StorageService::s3, "s3"},
     {StorageService::fsx_lustre, "fsx_lustre"}}};
inline constexpr Names<Objective, 4> kObjectives{
    {{Objective::cost, "cost"},
     {Objective::time, "time"},
     {Objective::cost_under_deadline, "cost_under_deadline"},
     {Objective::time_under_budget, "time_under_budget"}}};

// Why a plan is not valid (plan JSON "limit").
inline constexpr Names<Limit, 5> kLimits{{{Limit::none, "none"},
                                          {Limit::invalid_layout, "invalid_layout"},
                                          {Limit::out_of_memory, "out_of_memory"},
                                          {Limit::cannot_train, "cannot_train"},
                                          {Limit::unknown_hardware, "unknown_hardware"}}};

template <class E, std::size_t N> inline const char* name_of(const Names<E, N>& names, E value) {
    for (const auto& [e, n] : names)
        if (e == value) return n;
    return "?";
}

// While set, every field path a Reader looks up is added to it (scenario_field_paths()).
inline thread_local std::set<std::string>* g_field_paths = nullptr;

// One JSON object being read: remembers which keys were consumed so the rest can be reported as
// unknown fields, and turns every type or range problem into a ScenarioError naming the field.
class Reader {
public:
    Reader(const json& obj, std::string path, const std::string& origin)
        : obj_(obj), path_(std::move(path)), origin_(origin) {}

    [[noreturn]] void fail(const std::string& key, const std::string& reason) const {
        throw ScenarioError(origin_, field(key), reason);
    }
    std::string field(const std::string& key) const {
        return path_.empty() ? key : path_ + "." + key;
    }

    // The value at `key`, or nullptr when absent or JSON null (both mean "default").
    const json* get(const std::string& key) {
        seen_.insert(key);
        if (g_field_paths != nullptr) g_field_paths->insert(field(key));
        auto it = obj_.find(key);
        if (it == obj_.end() || it->is_null()) return nullptr;
        return &*it;
    }
    bool present(const std::string& key) const {
        auto it = obj_.find(key);
        return it != obj_.end() && !it->is_null();
    }

    // `max`: the physical upper bound (scenario_limits.h); beyond it results overflow.
    std::optional<double> number(const std::string& key, double min, bool min_inclusive,
                                 double max = std::numeric_limits<double>::max()) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_number()) fail(key, "must be a number, got " + type_of(*v));
        const double x = v->get<double>();
        if (!std::isfinite(x)) fail(key, "must be a finite number");
        if (x < min || (!min_inclusive && x == min)) {
            std::ostringstream s;
            s << "must be " << (min_inclusive ? "at least " : "greater than ") << min << ", got "
              << v->dump();
            fail(key, s.str());
        }
        if (x > max) {
            std::ostringstream s;
            s << "must be at most " << max << ", got " << v->dump()
              << " (beyond any published run)";
            fail(key, s.str());
        }
        return x;
    }
    std::optional<int> integer(const std::string& key, int min, int max = 1 << 30) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_number()) fail(key, "must be an integer, got " + type_of(*v));
        const double x = v->get<double>();
        if (!std::isfinite(x) || std::floor(x) != x)
            fail(key, "must be an integer, got " + v->dump());
        if (x < min || x > max)
            fail(key, "must be an integer from " + std::to_string(min) + " to " +
                          std::to_string(max) + ", got " + v->dump());
        return static_cast<int>(x);
    }
    std::optional<bool> boolean(const std::string& key) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_boolean()) fail(key, "must be true or false, got " + type_of(*v));
        return v->get<bool>();
    }
    std::optional<std::string> string(const std::string& key) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_string()) fail(key, "must be a string, got " + type_of(*v));
        // Names and ids are short; a longer one would be echoed into every message and report.
        constexpr std::size_t kMaxStringBytes = 1024;
        if (v->get_ref<const std::string&>().size() > kMaxStringBytes)
            fail(key, "is " + std::to_string(v->get_ref<const std::string&>().size()) +
                          " bytes long; at most " + std::to_string(kMaxStringBytes));
        return v->get<std::string>();
    }
    template <class E, std::size_t N>
    std::optional<E> enumeration(const std::string& key, const Names<E, N>& names) {
        auto s = string(key);
        if (!s) return std::nullopt;
        std::string allowed;
        for (const auto& [e, n] : names) {
            if (*s == n) return e;
            allowed += (allowed.empty() ? "" : ", ") + std::string(n);
        }
        fail(key, "unknown value '" + *s + "' (expected one of " + allowed + ")");
    }
    // A nested object, or nullopt when absent/null.
    std::optional<Reader> object(const std::string& key) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_object()) fail(key, "must be an object, got " + type_of(*v));
        return Reader(*v, field(key), origin_);
    }
    // Call after reading every known key.
    void reject_unknown() const {
        for (const auto& [key, value] : obj_.items())
            if (!seen_.count(key)) fail(key, "unknown field");
    }

    static std::string type_of(const json& v) {
        if (v.is_string()) return "the string " + v.dump();
        if (v.is_boolean()) return v.dump();
        if (v.is_array()) return "a list";
        if (v.is_object()) return "an object";
        return v.dump();
    }

private:
    const json& obj_;
    std::string path_;
    const std::string& origin_;
    std::set<std::string> seen_;
};

// Section parsers (scenario_sections.cpp); each reads one object of the scenario into `sc`.
void parse_model(Reader& r, Scenario& sc);
void parse_cluster(Reader& r, Scenario& sc);
void parse_parallel(Reader& r, Scenario& sc);
void parse_training(Reader& r, Scenario& sc);
// training.seq_phases (scenario_seq_phases.cpp), called by parse_training.
void parse_seq_phases(Reader& r, Scenario& sc);
// The assumption every plan of a phased workload states.
std::string seq_phases_note(const Workload& workload);
void parse_spot(Reader& r, Scenario& sc);
void parse_constraints(Reader& r, Scenario& sc);
// Checks needing the whole scenario (layout vs model shape; training amount defaults).
void validate_layout_against_model(const Scenario& sc, const std::string& origin);
void default_training(Scenario& sc, const std::string& origin);

} // namespace cp::sim::scenario_io
