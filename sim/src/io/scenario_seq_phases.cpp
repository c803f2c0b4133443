// training.seq_phases: the share of optimizer steps trained at each sequence length (BERT's
// recipe: 90 % at 128 tokens, 10 % at 512). DESIGN.md "Scenario file".
#include "clusterplan/sim/scenario_limits.h"
#include "io/scenario_reader.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace cp::sim::scenario_io {

void parse_seq_phases(Reader& r, Scenario& sc) {
    const json* v = r.get("seq_phases");
    if (!v) return;
    if (sc.workload.kind != WorkloadKind::transformer)
        r.fail("seq_phases", "only for transformer models (a generic model has no sequence)");
    if (!v->is_array() || v->empty() || v->size() > static_cast<std::size_t>(kMaxSeqPhases))
        r.fail("seq_phases", "must be a list of 1 to " + std::to_string(kMaxSeqPhases) +
                                 " {\"step_fraction\", \"seq_len\"} objects");
    Workload& w = sc.workload;
    w.seq_phase_count = 0;
    double total = 0;
    int longest = 0;
    for (std::size_t i = 0; i < v->size(); ++i) {
        const json& item = (*v)[i];
        const std::string where = "seq_phases[" + std::to_string(i) + "]";
        if (!item.is_object()) r.fail(where, "must be an object with step_fraction and seq_len");
        Reader phase(item, r.field(where), sc.origin);
        const auto fraction = phase.number("step_fraction", 0, false, 1.0);
        const auto seq_len = phase.integer("seq_len", 1, limits::kMaxSeqLen);
        phase.reject_unknown();
        if (!fraction || !seq_len) r.fail(where, "needs both step_fraction and seq_len");
        w.seq_phases[i] = SeqPhase{*fraction, *seq_len};
        ++w.seq_phase_count;
        total += *fraction;
        longest = std::max(longest, *seq_len);
    }
    if (std::abs(total - 1.0) > 1e-6)
        r.fail("seq_phases", "step fractions must add up to 1, got " + std::to_string(total));
    // Memory and the model's own figures follow the longest phase.
    w.shape.seq_len = longest;
}

std::string seq_phases_note(const Workload& w) {
    std::string out = "sequence length in phases: ";
    for (int i = 0; i < w.seq_phase_count; ++i) {
        const SeqPhase& p = w.seq_phases[static_cast<std::size_t>(i)];
        out += (i ? ", " : "") +
               std::to_string(static_cast<int>(std::lround(100 * p.step_fraction))) +
               " % of steps at " + std::to_string(p.seq_len) + " tokens";
    }
    return out + "; step time and tokens are the step-weighted mix, memory that of the longest";
}

} // namespace cp::sim::scenario_io
