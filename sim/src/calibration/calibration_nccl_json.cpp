// nccl-tests `-J` JSON (util.cu, JSON_FILE_VERSION 2) and the validation CSV tables.
#include "calibration_json.h"
#include "calibration_printed_bw.h"
#include "calibration_text_util.h"
#include "clusterplan/sim/calibration_import.h"

#include <nlohmann/json.hpp>
#include <regex>

namespace cp::sim {
namespace {

using nlohmann::json;

// nccl-tests writes NaN as the string "nan"; anything else non-numeric is malformed.
double json_number(const json& v, const std::string& where) {
    if (v.is_number()) return v.get<double>();
    throw CalibrationInputError(where + " is not a number");
}

struct Timing {
    double time_us = std::nan(""), algbw = std::nan(""), busbw = std::nan("");
    long long wrong = -1;
    bool cpu_time = false;
};

Timing read_timing(const json& obj, const std::string& where) {
    Timing t;
    if (obj.is_null()) return t;
    if (!obj.is_object()) throw CalibrationInputError(where + " is not an object");
    const char* time_key = obj.contains("time") ? "time" : "cpu_time";
    t.cpu_time = !obj.contains("time");
    if (!obj.contains(time_key)) throw CalibrationInputError(where + ".time is missing");
    t.time_us = json_number(obj[time_key], where + "." + time_key);
    if (!obj.contains("alg_bw")) throw CalibrationInputError(where + ".alg_bw is missing");
    if (!obj.contains("bus_bw")) throw CalibrationInputError(where + ".bus_bw is missing");
    t.algbw = json_number(obj["alg_bw"], where + ".alg_bw");
    t.busbw = json_number(obj["bus_bw"], where + ".bus_bw");
    if (obj.contains("nwrong") && !obj["nwrong"].is_null()) {
        const double wrong = json_number(obj["nwrong"], where + ".nwrong");
        // Bounded before the cast: beyond long long range it is undefined (found by fuzzing).
        if (!(std::fabs(wrong) < 9.0e18))
            throw CalibrationInputError(where + ".nwrong is not a count");
        t.wrong = static_cast<long long>(wrong);
    }
    return t;
}

} // namespace

CollectiveTable parse_nccl_tests_json(std::string_view text, const std::string& source,
                                      const std::string& collective_hint) {
    const json doc = detail::parse_measurement_json(text, source, "usable nccl-tests JSON");
    if (!doc.is_object() || !doc.contains("results") || !doc["results"].is_array())
        throw CalibrationInputError(
            source + ": field 'results' is missing or not a list (not nccl-tests -J output)");
    CollectiveTable table;
    table.source_format = "nccl-tests-json";
    std::string collective = canonical_collective(collective_hint);
    if (collective.empty() && doc.contains("args") && doc["args"].is_array() &&
        !doc["args"].empty() && doc["args"][0].is_string())
        collective = canonical_collective(doc["args"][0].get<std::string>());
    if (collective.empty())
        throw CalibrationInputError(
            source + ": field 'args' does not name the nccl-tests program; pass --collective");
    table.collective = collective;
    if (doc.contains("nccl_version") && doc["nccl_version"].is_number_integer())
        table.nccl_version = detail::nccl_version_from_code(doc["nccl_version"].get<long long>());
    int per_process = 1;
    if (doc.contains("config") && doc["config"].is_object()) {
        const json& cfg = doc["config"];
        // Small positive integers only: a string threw nlohmann's type_error and a huge value
        // overflowed int (found by fuzzing).
        const auto small_count = [&](const char* key) {
            if (!cfg.contains(key)) return 1;
            const json& v = cfg[key];
            if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > 1024)
                throw CalibrationInputError(source + ": field 'config." + key +
                                            "' is not a thread/GPU count");
            return static_cast<int>(v.get<long long>());
        };
        per_process = small_count("nthreads") * small_count("ngpus");
        if (cfg.contains("devices") && cfg["devices"].is_array()) {
            // One entry per process (the first GPU of each), see writeDeviceReport().
            const long long ranks = static_cast<long long>(cfg["devices"].size()) * per_process;
            if (ranks > 1000000)
                throw CalibrationInputError(source +
                                            ": field 'config.devices' lists too many ranks");
            table.ranks = static_cast<int>(ranks);
            for (const json& d : cfg["devices"]) {
                if (d.contains("hostname") && d["hostname"].is_string())
                    table.hosts.push_back(d["hostname"]);
                if (table.device.empty() && d.contains("device_info") &&
                    d["device_info"].is_string())
                    table.device = d["device_info"];
            }
        }
    }
    if (doc.contains("average_bus_bandwidth") && doc["average_bus_bandwidth"].is_object() &&
        doc["average_bus_bandwidth"].contains("bandwidth") &&
        doc["average_bus_bandwidth"]["bandwidth"].is_number())
        table.avg_busbw_gbytes_per_s = doc["average_bus_bandwidth"]["bandwidth"].get<double>();

    struct RowTimings {
        std::string where;
        double bytes;
        Timing out, in;
    };
    std::vector<RowTimings> timings;
    const json& results = doc["results"];
    for (std::size_t i = 0; i < results.size(); ++i) {
        const std::string where = source + ": results[" + std::to_string(i) + "]";
        const json& r = results[i];
        if (!r.is_object()) throw CalibrationInputError(where + " is not an object");
        if (!r.contains("size")) throw CalibrationInputError(where + ".size is missing");
        CollectiveSample s;
        s.bytes = json_number(r["size"], where + ".size");
        s.count = r.contains("count") ? json_number(r["count"], where + ".count") : 0;
        // value() threw nlohmann's type_error for a non-string "type" (found by fuzzing).
        if (r.contains("type") && !r["type"].is_string())
            throw CalibrationInputError(where + ".type is not a string");
        s.type = r.value("type", std::string());
        const Timing out = read_timing(r.value("out_of_place", json()), where + ".out_of_place");
        const Timing in = read_timing(r.value("in_place", json()), where + ".in_place");
        if (std::isnan(out.time_us) && std::isnan(in.time_us))
            throw CalibrationInputError(where + " has neither out_of_place nor in_place timings");
        const Timing& primary = std::isnan(out.time_us) ? in : out;
        s.time_us = primary.time_us;
        s.algbw_gbytes_per_s = primary.algbw;
        s.busbw_gbytes_per_s = primary.busbw;
        s.in_place_time_us = in.time_us;
        s.in_place_algbw_gbytes_per_s = in.algbw;
        s.in_place_busbw_gbytes_per_s = in.busbw;
        s.wrong = std::max(out.wrong, in.wrong);
        if (s.wrong > 0)
            throw CalibrationInputError(where + ".nwrong is " + std::to_string(s.wrong) +
                                        "; a failed correctness check cannot calibrate");
        if (!(s.time_us > 0) || s.bytes < 0)
            throw CalibrationInputError(where + ".time must be a positive number of microseconds");
        timings.push_back({where, s.bytes, out, in});
        table.samples.push_back(s);
    }
    detail::finish_table(table, source);
    // The -J writer prints the same three numbers as the text table (src/util.cu
    // writeBenchmarkLineBody), so the same checks hold; the rank count is config.devices'.
    for (const RowTimings& row : timings)
        for (const auto& [t, block] :
             {std::pair{&row.out, "out_of_place."}, std::pair{&row.in, "in_place."}}) {
            if (std::isnan(t->time_us)) continue;
            const detail::PrintedTiming printed{detail::shortest_decimal(t->time_us),
                                                detail::shortest_decimal(t->algbw),
                                                detail::shortest_decimal(t->busbw),
                                                t->cpu_time,
                                                block,
                                                "field",
                                                "alg_bw",
                                                "bus_bw"};
            detail::check_printed_bandwidths(row.bytes, printed, table.collective, table.ranks,
                                             row.where);
        }
    return table;
}

CollectiveTable parse_nccl_csv(std::string_view text, const std::string& source,
                               const std::string& collective_hint) {
    using namespace detail;
    CollectiveTable table;
    table.source_format = "csv";
    table.collective = canonical_collective(collective_hint);
    if (table.collective.empty())
        throw CalibrationInputError(source + ": unknown collective '" + collective_hint + "'");
    const auto lines = split_lines(text);
    if (lines.empty() || lines[0].rfind("size(B),count,type,time(ns),busbw(GB/s)", 0) != 0)
        throw CalibrationInputError(
            source + " line 1: expected header "
                     "'size(B),count,type,time(ns),busbw(GB/s)[,time(ns),busbw(GB/s)]'");
    const bool has_in_place =
        lines[0].find("busbw(GB/s),time(ns),busbw(GB/s)") != std::string_view::npos;
    const std::size_t ncols = has_in_place ? 7 : 5;
    int ranks = 0;
    for (std::size_t li = 1; li < lines.size(); ++li) {
        if (lines[li].empty()) continue;
        std::vector<std::string> cells;
        std::string cell;
        for (char c : lines[li]) {
            if (c == ',') {
                cells.push_back(cell);
                cell.clear();
            } else
                cell += c;
        }
        cells.push_back(cell);
        const std::string at = fmt_line(source, li + 1);
        if (cells.size() != ncols)
            throw CalibrationInputError(at + ": expected " + std::to_string(ncols) +
                                        " comma-separated fields, found " +
                                        std::to_string(cells.size()));
        static const char* kNames[] = {"size(B)",     "count",    "type",       "time(ns)",
                                       "busbw(GB/s)", "time(ns)", "busbw(GB/s)"};
        double v[7] = {};
        for (std::size_t c = 0; c < ncols; ++c) {
            if (c == 2) continue;
            if (!parse_number(cells[c], v[c]) || v[c] < 0 || (c == 3 && v[c] == 0))
                throw CalibrationInputError(at + ": field '" + kNames[c] +
                                            "' is not a valid number ('" + cells[c] + "')");
        }
        CollectiveSample s;
        s.bytes = v[0];
        s.count = v[1];
        s.type = cells[2];
        s.time_us = v[3] / 1000.0;
        s.algbw_gbytes_per_s = s.bytes / (s.time_us * 1e3); // bytes/ns = GB/s
        s.busbw_gbytes_per_s = v[4];
        if (has_in_place) {
            s.in_place_time_us = v[5] / 1000.0;
            s.in_place_algbw_gbytes_per_s = s.bytes / (s.in_place_time_us * 1e3);
            s.in_place_busbw_gbytes_per_s = v[6];
        } else {
            s.in_place_time_us = s.in_place_algbw_gbytes_per_s = s.in_place_busbw_gbytes_per_s =
                std::nan("");
        }
        s.wrong = -1;
        if (ranks == 0 && s.algbw_gbytes_per_s > 0)
            ranks = ranks_from_ratio(table.collective, s.busbw_gbytes_per_s / s.algbw_gbytes_per_s);
        table.samples.push_back(s);
    }
    std::smatch m;
    const std::regex gpu_re(R"((\d{1,6})gpu)"); // bounded: std::stoi below must not overflow
    const std::string base = source.substr(
        source.find_last_of("/\\") == std::string::npos ? 0 : source.find_last_of("/\\") + 1);
    if (std::regex_search(base, m, gpu_re)) {
        const int named = std::stoi(m[1]);
        if (ranks != 0 && ranks != named)
            throw CalibrationInputError(source + ": busbw/algbw implies " + std::to_string(ranks) +
                                        " ranks but the file name says " + std::to_string(named));
        ranks = named;
    }
    table.ranks = ranks;
    finish_table(table, source);
    return table;
}

} // namespace cp::sim
