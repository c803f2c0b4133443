// The frameworks' fitted compute efficiencies: multipliers on the compute rates (GEMMs, fused
// attention, memory-bound kernels) per framework, accelerator generation and precision class,
// fitted by fit_framework_factors (validation_runs.h) over tests/data/validation/training_runs.csv.
// A plan takes the most specific cell that has data: (framework, generation, precision class),
// else (framework, generation), else the framework, else every run pooled.
#pragma once

#include "clusterplan/sim/framework.h"

#include <string>
#include <string_view>
#include <vector>

namespace cp::sim {

enum class PrecisionClass { fp32, half, fp8 }; // tf32 counts as fp32, fp16/bf16 as half
PrecisionClass precision_class(Precision precision);

inline constexpr int kAny = -1;

struct FactorCell {
    int framework = kAny;       // static_cast<int>(Framework), kAny = pooled
    int generation = kAny;      // static_cast<int>(AcceleratorGeneration)
    int precision_class = kAny; // static_cast<int>(PrecisionClass)
    double efficiency = 1.0;
    int runs = 0;
    int sources = 0;
};

struct FactorTable {
    std::vector<FactorCell> cells;
    const FactorCell& lookup(Framework framework, AcceleratorGeneration generation,
                             Precision precision) const;
};

// The table fitted over the committed fixtures (framework_factors.cpp; the validation test refits
// and checks it).
const FactorTable& fitted_factor_table();

// "megatron-core / hopper / fp8: 1.07 (7 runs, 1 source)" for plan assumptions.
std::string describe_factor(const FactorCell& cell);

} // namespace cp::sim
