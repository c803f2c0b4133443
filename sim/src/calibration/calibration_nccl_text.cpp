// nccl-tests text output. Column positions come from the commented header line, so the
// older layouts (no redop/root columns, "error" instead of "#wrong") and the newer ones (root,
// per-iteration and timestamp columns) all parse; rows must have every column.
#include "calibration_printed_bw.h"
#include "calibration_text_util.h"
#include "clusterplan/sim/calibration_import.h"

#include <cctype>
#include <map>
#include <regex>

namespace cp::sim {
namespace {

// A data row's printed timings, checked once the rank count is known.
struct PrintedRow {
    std::size_t line_no = 0;
    double bytes = 0;
    std::vector<detail::PrintedTiming> timings;
};

struct Columns {
    int size = -1, count = -1, type = -1;
    int time[2] = {-1, -1}, algbw[2] = {-1, -1}, busbw[2] = {-1, -1}, wrong[2] = {-1, -1};
    bool cpu_time = false;
    std::size_t n = 0;
    bool timestamp = false;
};

Columns columns_from_header(const std::vector<std::string>& names) {
    Columns c;
    c.n = names.size();
    int block = -1;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string& name = names[i];
        const int idx = static_cast<int>(i);
        if (name == "size")
            c.size = idx;
        else if (name == "count")
            c.count = idx;
        else if (name == "type")
            c.type = idx;
        else if (name == "time" || name == "cputime") {
            if (++block > 1) break;
            c.time[block] = idx;
            c.cpu_time = name == "cputime";
        } else if (block >= 0 && name == "algbw")
            c.algbw[block] = idx;
        else if (block >= 0 && name == "busbw")
            c.busbw[block] = idx;
        else if (block >= 0 && (name == "#wrong" || name == "error" || name == "errors"))
            c.wrong[block] = idx;
        else if (name == "timestamp")
            c.timestamp = true;
    }
    return c;
}

} // namespace

CollectiveTable parse_nccl_tests_text(std::string_view text, const std::string& source,
                                      const std::string& collective_hint) {
    using namespace detail;
    CollectiveTable table;
    table.source_format = "nccl-tests-text";
    std::string collective = canonical_collective(collective_hint);
    std::string logged_collective;
    std::map<int, std::string> rank_hosts;
    Columns cols;
    std::vector<PrintedRow> printed;
    bool have_header = false;
    int gpus_per_thread = 0, threads = 0;
    const std::regex rank_re(
        R"(^#\s+Rank\s+(\d+)\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)\s+device\s+\d+\s+\[[^\]]*\]\s+(.*)$)");
    const std::regex start_re(R"(^#\s*Collective test starting:\s*(\S+))");
    const std::regex version_re(R"(nccl-library=(\d+))");
    const std::regex config_re(R"(^#\s*nThread\s+(\d+)\s+nGpus\s+(\d+))");
    const std::regex avg_re(R"(^#\s*Avg bus bandwidth\s*:\s*(\S+))");

    const auto lines = split_lines(text);
    for (std::size_t li = 0; li < lines.size(); ++li) {
        const std::string line(lines[li]);
        const std::size_t line_no = li + 1;
        std::smatch m;
        // std::regex recurses per character, so a huge '#' line overflowed the stack; real
        // nccl-tests header lines are short (issue 7, found by the bad-input table).
        if (!line.empty() && line[0] == '#' && line.size() > 4096)
            throw CalibrationInputError(fmt_line(source, line_no) + ": a '#' line of " +
                                        std::to_string(line.size()) +
                                        " characters is not nccl-tests output");
        if (!line.empty() && line[0] == '#') try {
                if (std::regex_search(line, m, start_re)) {
                    logged_collective = canonical_collective(m[1]);
                    if (logged_collective.empty())
                        throw CalibrationInputError(fmt_line(source, line_no) +
                                                    ": unknown collective '" + m[1].str() +
                                                    "' in 'Collective test starting'");
                    if (have_header && !table.samples.empty())
                        throw CalibrationInputError(fmt_line(source, line_no) +
                                                    ": a second test starts in the same log; "
                                                    "import one collective per file");
                } else if (std::regex_search(line, m, version_re)) {
                    table.nccl_version = nccl_version_from_code(std::stoll(m[1]));
                } else if (std::regex_search(line, m, config_re)) {
                    threads = std::stoi(m[1]);
                    gpus_per_thread = std::stoi(m[2]);
                } else if (std::regex_search(line, m, rank_re)) {
                    rank_hosts[std::stoi(m[1])] = m[2];
                    if (table.device.empty()) table.device = m[3];
                } else if (std::regex_search(line, m, avg_re)) {
                    double v = 0;
                    if (!parse_number(m[1], v))
                        throw CalibrationInputError(
                            fmt_line(source, line_no) +
                            ": field 'Avg bus bandwidth' is not a number ('" + m[1].str() + "')");
                    table.avg_busbw_gbytes_per_s = v;
                } else {
                    auto names = split_ws(std::string_view(line).substr(1));
                    if (names.size() >= 4 && names[0] == "size" && names[1] == "count") {
                        if (have_header && !table.samples.empty())
                            throw CalibrationInputError(fmt_line(source, line_no) +
                                                        ": a second results table starts in the "
                                                        "same log; import one run per file");
                        cols = columns_from_header(names);
                        if (cols.time[0] < 0 || cols.busbw[0] < 0 || cols.algbw[0] < 0)
                            throw CalibrationInputError(
                                fmt_line(source, line_no) +
                                ": results header lacks time/algbw/busbw columns");
                        have_header = true;
                    }
                }
                continue;
            } catch (const std::logic_error&) { // std::stoi/stoll: digits beyond int range
                throw CalibrationInputError(fmt_line(source, line_no) +
                                            ": a number in this header line is out of range");
            }
        auto toks = split_ws(line);
        if (toks.empty()) continue;
        // NCCL_DEBUG=INFO lines and other chatter interleave with the table: only rows that
        // start with a number are data rows, and those must be complete.
        // A first token spelled like a number marks a data row even when it does not parse
        // ("1e999"): that row is an error, not chatter to skip (found by the bad-input table).
        const std::string& first = toks[0];
        const bool numeric_start =
            std::isdigit(static_cast<unsigned char>(first[0])) ||
            (first.size() > 1 && (first[0] == '-' || first[0] == '+' || first[0] == '.') &&
             std::isdigit(static_cast<unsigned char>(first[1])));
        if (!numeric_start || first.find_first_not_of("0123456789.eE+-") != std::string::npos)
            continue;
        if (!have_header)
            throw CalibrationInputError(
                fmt_line(source, line_no) +
                ": data row before the '# size count type ...' header line");
        const std::size_t expected = cols.n + (cols.timestamp ? 1 : 0);
        if (toks.size() != expected && toks.size() != cols.n)
            throw CalibrationInputError(
                fmt_line(source, line_no) + ": expected " + std::to_string(cols.n) +
                " columns as in the header, found " + std::to_string(toks.size()));
        auto num = [&](int col, const char* field, bool optional) {
            if (col < 0) return optional ? std::nan("") : 0.0;
            double v = 0;
            if (!parse_number(toks[static_cast<std::size_t>(col)], v) || v < 0)
                throw CalibrationInputError(fmt_line(source, line_no) + ": field '" + field +
                                            "' is not a non-negative number ('" +
                                            toks[static_cast<std::size_t>(col)] + "')");
            return v;
        };
        auto wrong = [&](int col) -> long long {
            if (col < 0 || toks[static_cast<std::size_t>(col)] == "N/A") return -1;
            double v = 0;
            if (!parse_number(toks[static_cast<std::size_t>(col)], v) || v < 0)
                throw CalibrationInputError(fmt_line(source, line_no) +
                                            ": field '#wrong' is not a count ('" +
                                            toks[static_cast<std::size_t>(col)] + "')");
            return static_cast<long long>(v);
        };
        CollectiveSample s;
        s.bytes = num(cols.size, "size", false);
        s.count = num(cols.count, "count", false);
        s.type = cols.type >= 0 ? toks[static_cast<std::size_t>(cols.type)] : "";
        s.time_us = num(cols.time[0], "time", false);
        s.algbw_gbytes_per_s = num(cols.algbw[0], "algbw", false);
        s.busbw_gbytes_per_s = num(cols.busbw[0], "busbw", false);
        s.in_place_time_us = num(cols.time[1], "in-place time", true);
        s.in_place_algbw_gbytes_per_s = num(cols.algbw[1], "in-place algbw", true);
        s.in_place_busbw_gbytes_per_s = num(cols.busbw[1], "in-place busbw", true);
        const long long w0 = wrong(cols.wrong[0]), w1 = wrong(cols.wrong[1]);
        s.wrong = std::max(w0, w1);
        if (s.wrong > 0)
            throw CalibrationInputError(fmt_line(source, line_no) + ": nccl-tests reports " +
                                        std::to_string(s.wrong) + " wrong elements at size " +
                                        toks[static_cast<std::size_t>(cols.size)] +
                                        "; a failed correctness check cannot calibrate");
        if (s.time_us <= 0)
            throw CalibrationInputError(fmt_line(source, line_no) +
                                        ": field 'time' must be positive");
        PrintedRow row{line_no, s.bytes, {}};
        for (int b = 0; b < 2; ++b)
            if (cols.time[b] >= 0 && cols.algbw[b] >= 0 && cols.busbw[b] >= 0)
                row.timings.push_back({toks[static_cast<std::size_t>(cols.time[b])],
                                       toks[static_cast<std::size_t>(cols.algbw[b])],
                                       toks[static_cast<std::size_t>(cols.busbw[b])], cols.cpu_time,
                                       b == 0 ? "" : "in-place "});
        printed.push_back(std::move(row));
        table.samples.push_back(s);
    }
    if (!have_header)
        throw CalibrationInputError(
            source + ": not nccl-tests output (no '# size count type ...' header line)");

    if (collective.empty()) collective = logged_collective;
    if (collective.empty())
        throw CalibrationInputError(source + ": the log does not name its collective (no "
                                             "'Collective test starting' line); pass --collective");
    table.collective = collective;
    for (const auto& [rank, host] : rank_hosts)
        table.hosts.push_back(host);
    if (!rank_hosts.empty()) table.ranks = rank_hosts.rbegin()->first + 1;
    finish_table(table, source);
    if (table.ranks == 0 && !table.samples.empty()) {
        const auto& s = table.samples.back();
        table.ranks = ranks_from_ratio(collective, s.busbw_gbytes_per_s / s.algbw_gbytes_per_s);
    }
    // Rank lines or the largest row's busbw/algbw give the rank count the factors need; the
    // nThread x nGpus fallback counts one process's devices only, so it checks nothing.
    for (const PrintedRow& row : printed)
        for (const PrintedTiming& t : row.timings)
            check_printed_bandwidths(row.bytes, t, collective, table.ranks,
                                     fmt_line(source, row.line_no));
    if (table.ranks == 0 && threads > 0) table.ranks = threads * gpus_per_thread;
    return table;
}

std::vector<CollectiveTable> parse_nccl_tests_text_runs(std::string_view text,
                                                        const std::string& source,
                                                        const std::string& collective_hint) {
    const auto lines = detail::split_lines(text);
    auto starts_run = [](std::string_view l) {
        return l.rfind("# nccl-tests version", 0) == 0 ||
               l.rfind("# Collective test starting", 0) == 0 || l.rfind("# nThread", 0) == 0;
    };
    // Chunks keep their original line numbers (leading blank lines) so errors point into the file.
    std::vector<std::string> chunks;
    std::string current;
    bool seen_table = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view l = lines[i];
        if (seen_table && starts_run(l)) {
            chunks.push_back(current);
            current.assign(i, '\n');
            seen_table = false;
        }
        if (l.size() > 1 && l[0] == '#') {
            const auto names = detail::split_ws(l.substr(1));
            if (names.size() >= 2 && names[0] == "size" && names[1] == "count") seen_table = true;
        }
        current.append(l);
        current += '\n';
    }
    chunks.push_back(current);
    std::vector<CollectiveTable> out;
    for (const auto& chunk : chunks)
        out.push_back(
            parse_nccl_tests_text(chunk, source, chunks.size() == 1 ? collective_hint : ""));
    return out;
}

} // namespace cp::sim
