#include "clusterplan/catalog/calibration_store.h"

#include "clusterplan/sim/calibration_profile_json.h"
#include "clusterplan/sim/calibration_samples.h"
#include "clusterplan/sim/io/json_depth.h"
#include "sqlite_util.h"

#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>

namespace cp::catalog {
namespace {

std::string now_utc_iso() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

constexpr const char* kColumns = "id, name, host, instance_type, accelerator, source, measured_at, "
                                 "tool_versions_json, raw_json, fit_json, created_at";

CalibrationRow read_row(detail::Stmt& s) {
    CalibrationRow r;
    r.id = s.get_int(0);
    r.name = s.get_text(1);
    r.host = s.get_text(2);
    r.instance_type = s.get_text(3);
    r.accelerator = s.get_text(4);
    r.source = s.get_text(5);
    r.measured_at = s.get_text(6);
    r.tool_versions_json = s.get_text(7);
    r.raw_json = s.get_text(8);
    r.fit_json = s.get_text(9);
    r.created_at = s.get_text(10);
    return r;
}

} // namespace

std::int64_t CalibrationStore::store(const sim::CalibrationProfile& profile,
                                     const std::string& raw_json, bool replace) {
    if (profile.name.empty())
        throw CatalogError("calibration profile has no name; give one with --name");
    nlohmann::json versions = nlohmann::json::object();
    for (const auto& [k, v] : profile.tool_versions)
        versions[k] = v;
    const std::string fit = sim::profile_to_json(profile).dump();
    std::int64_t id = 0;
    catalog_.transaction([&] {
        if (exists(profile.name)) {
            if (!replace)
                throw CatalogError("calibration profile '" + profile.name + "' already exists in " +
                                   catalog_.path().string() + "; choose another --name");
            detail::Stmt del(catalog_.handle(), "DELETE FROM calibrations WHERE name = ?");
            del.bind(1, profile.name).run();
        }
        detail::Stmt ins(
            catalog_.handle(),
            "INSERT INTO calibrations(name, host, instance_type, accelerator, source, measured_at, "
            "tool_versions_json, raw_json, fit_json, created_at) VALUES(?,?,?,?,?,?,?,?,?,?)");
        ins.bind(1, profile.name)
            .bind_text_or_null(2, profile.host)
            .bind_text_or_null(3, profile.instance_type)
            .bind_text_or_null(4, profile.accelerator)
            .bind(5, profile.source.empty() ? std::string("unknown") : profile.source)
            .bind_text_or_null(6, profile.measured_at)
            .bind(7, versions.dump())
            .bind(8, raw_json)
            .bind(9, fit)
            .bind(10, now_utc_iso());
        ins.run();
        id = sqlite3_last_insert_rowid(catalog_.handle());
    });
    return id;
}

bool CalibrationStore::exists(std::string_view name) const {
    detail::Stmt s(catalog_.handle(), "SELECT 1 FROM calibrations WHERE name = ?");
    s.bind(1, name);
    return s.step();
}

std::string CalibrationStore::unused_name(const std::string& base) const {
    if (!exists(base)) return base;
    for (int i = 2;; ++i) {
        std::string candidate = base + "-" + std::to_string(i);
        if (!exists(candidate)) return candidate;
    }
}

std::vector<CalibrationRow> CalibrationStore::list() const {
    detail::Stmt s(catalog_.handle(), std::string("SELECT ") + kColumns +
                                          " FROM calibrations ORDER BY created_at DESC, id DESC");
    std::vector<CalibrationRow> out;
    while (s.step())
        out.push_back(read_row(s));
    return out;
}

std::optional<CalibrationRow> CalibrationStore::find(std::string_view name) const {
    detail::Stmt s(catalog_.handle(),
                   std::string("SELECT ") + kColumns + " FROM calibrations WHERE name = ?");
    s.bind(1, name);
    if (!s.step()) return std::nullopt;
    return read_row(s);
}

std::optional<sim::CalibrationProfile> CalibrationStore::load(std::string_view name) const {
    auto row = find(name);
    if (!row) return std::nullopt;
    const std::string where = catalog_.path().string() + " calibration '" + row->name + "'";
    if (const auto problem = sim::io::json_nesting_problem(row->fit_json))
        throw CatalogError(where + ": stored fit_json " + *problem + ".");
    try {
        auto profile = sim::profile_from_json(nlohmann::json::parse(row->fit_json), where);
        profile.name = row->name;
        return profile;
    } catch (const nlohmann::json::exception& e) {
        throw CatalogError(where + ": stored fit_json is not valid JSON (" + e.what() + ")");
    } catch (const sim::CalibrationInputError& e) {
        throw CatalogError(e.what());
    }
}

bool CalibrationStore::remove(std::string_view name) {
    bool removed = false;
    catalog_.transaction([&] {
        detail::Stmt s(catalog_.handle(), "DELETE FROM calibrations WHERE name = ?");
        s.bind(1, name).run();
        removed = sqlite3_changes(catalog_.handle()) > 0;
    });
    return removed;
}

} // namespace cp::catalog
