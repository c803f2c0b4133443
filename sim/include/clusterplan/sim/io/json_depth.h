// Checks on JSON text from outside, made before a document is parsed. nlohmann's parser is
// iterative, but serialising, copying and comparing a parsed document recurse once per level: a
// file nested 100,000 deep overflowed the stack (SIGSEGV) while an error message quoted it or the
// raw file was stored. The parser also accepts two kinds of text silently: it stops at a NUL byte
// (`{...}\0anything` reads as `{...}`) and keeps the last of a key given twice in one object, so
// a file saying `"tp": 8, "tp": 4` was planned with tp 4 and the error, if any, named another
// field. Every reader of JSON from outside (scenario, probe and nccl-tests JSON, AWS price JSON,
// probe run output, documents stored in the catalog) checks json_input_problem first.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace cp::sim::io {

// The deepest document ClusterPlan reads nests 6 levels (Spot Advisor: spot_advisor.region.os.
// type.{r,s}; a probe run's stored document: rank0.nccl.results[i].samples[j]); 64 leaves ten
// times that while keeping recursion far below any thread's stack.
inline constexpr int kMaxJsonDepth = 64;

// Empty when `text` nests at most `max_depth` arrays/objects deep; otherwise one phrase for an
// error message: "nests deeper than 64 levels (at byte 1234)". Brackets inside strings do not
// count. Linear time, constant memory; the text need not be valid JSON.
std::optional<std::string> json_nesting_problem(std::string_view text,
                                                int max_depth = kMaxJsonDepth);

// The nesting bound, plus a NUL byte anywhere and a key repeated within one object (keys are
// compared as written, escapes undecoded). Empty when none applies; otherwise one phrase that
// follows "it": "names parallel.tp twice in one object (at byte 120)". Linear time; memory
// grows with the keys of the open objects only. The text need not be valid JSON.
std::optional<std::string> json_input_problem(std::string_view text, int max_depth = kMaxJsonDepth);

} // namespace cp::sim::io
