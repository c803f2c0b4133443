// How a pipeline splits the layers over its stages. Stages need not hold equal numbers of
// layers: BLOOM ran 70 layers on 12 stages, Llama 3 405B 126 layers on 16 stages with the first
// and last stage one layer short to make room for the embedding and the loss (Grattafiori et al.
// 2024, sec. 3.3.2). The slowest stage sets the pipeline's pace; the fullest sets its memory.
#pragma once

#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/workload.h"

#include <algorithm>
#include <string>
#include <vector>

namespace cp::sim {

// The stages that differ: the first (embedding), the last (output layer and loss) and the
// fullest of the others. With one stage, first == last == all layers.
struct StageSplit {
    int first = 0;
    int last = 0;
    int middle = 0; // most layers on any stage other than the first and the last (0 when pp <= 2)
    int middle_fewest = 0; // fewest layers on such a stage (0 when pp <= 2)
    int fullest() const { return std::max(first, std::max(last, middle)); }
    // The most virtual chunks a stage of this split can be cut into with every chunk holding a
    // layer, except that the first chunk of the first stage may hold the embedding alone and the
    // last chunk of the last stage the loss alone (Megatron-Core get_num_layers_to_build with
    // account_for_embedding/loss_in_pipeline_split allows such a chunk zero transformer layers).
    int most_chunks(int pp) const {
        const int ends = std::min(first, last) + (pp > 1 ? 1 : 0);
        return pp > 2 ? std::min(ends, middle_fewest) : ends;
    }
};

// The layout's split: its explicit stage_layers when set, else the default split: equal stages
// when pp divides the layers; else, when pp divides layers + 2, Megatron-Core's split that counts
// the embedding and the loss as one layer each (first and last stage one layer short); else the
// extra layers go to the middle stages first (they carry neither embedding nor loss).
StageSplit stage_split(int layers, const Layout& layout);

// Micro-batches the interleaved schedule runs per virtual stage before moving to the next
// (Megatron-Core's microbatch_group_size_per_vp_stage): pp when pp divides the micro-batches;
// else, where the framework groups them (FrameworkProfile::interleave_microbatch_groups), the
// smallest N in [pp, M] whose last group is whole or holds at least pp; where the framework runs
// PyTorch's rounds (FrameworkProfile::interleave_rounds), M / rounds, fewer than pp when M < pp;
// 0 when none exists.
int interleave_group_size(const Layout& layout);

// Stores an explicit per-stage list in `layout` (which keeps the first, last and fullest middle
// stage). Returns why the list is not valid for `layers` and layout.pp, or empty.
std::string set_stage_layers(const std::vector<int>& stage_layers, int layers, Layout& layout);
// Why a split cannot run over `pp` stages of a `layers`-layer model ("" when it can).
std::string stage_layers_problem(const std::vector<int>& stage_layers, int pp, int layers);

} // namespace cp::sim
