// Parsers for collective measurements users already have: nccl-tests text output (old and
// new column layouts, out-of-place and in-place), nccl-tests `-J` JSON and the CSV tables of
// tests/data/validation/nccl_allreduce. `source_name` (usually the file path) appears in errors.
#pragma once

#include "clusterplan/sim/calibration_samples.h"

#include <string>
#include <string_view>
#include <vector>

namespace cp::sim {

enum class CollectiveFormat { unknown, nccl_tests_text, nccl_tests_json, csv, probe_json };

// Sniffs the format from the content (JSON object with "schema": "clusterplan.probe/1" is a
// probe document; JSON with "results" is nccl-tests -J; a "size(B)," header is CSV; lines
// starting with '#' and a size/count header are nccl-tests text).
CollectiveFormat detect_collective_format(std::string_view text);

// `collective_hint` overrides/complements what the log says (required when the log does not
// name its collective). Throws CalibrationInputError on malformed input.
CollectiveTable parse_nccl_tests_text(std::string_view text, const std::string& source_name,
                                      const std::string& collective_hint = "");
// A log holding several consecutive runs (e.g. all_reduce_perf then all_gather_perf appended
// to one file): one table per run, split where a new run's header starts after a results
// table. `collective_hint` applies only when the log holds a single run.
std::vector<CollectiveTable> parse_nccl_tests_text_runs(std::string_view text,
                                                        const std::string& source_name,
                                                        const std::string& collective_hint = "");
CollectiveTable parse_nccl_tests_json(std::string_view text, const std::string& source_name,
                                      const std::string& collective_hint = "");
// CSV: size(B),count,type,time(ns),busbw(GB/s)[,time(ns),busbw(GB/s)]. Ranks are derived from
// busbw/algbw (and must agree with a "_<n>gpu" file name when present).
CollectiveTable parse_nccl_csv(std::string_view text, const std::string& source_name,
                               const std::string& collective_hint = "all_reduce");

} // namespace cp::sim
