#include "clusterplan/sim/framework_factors.h"

#include <array>
#include <cstdio>

namespace cp::sim {
namespace {

// Fitted by fit_framework_factors (validation_runs.h) over tests/data/validation/training_runs.csv;
// validation_runs_test refits and fails when these differ from the fit by more than 0.5 %, printing
// the table to paste here. Cells: framework, generation, precision class (kAny = pooled),
// efficiency, runs, sources.
const FactorTable kFitted{{
    {-1, -1, -1, 0.9189, 491, 23}, {0, -1, -1, 0.9885, 127, 3},  {1, -1, -1, 0.9459, 82, 5},
    {2, -1, -1, 0.7995, 5, 3},     {4, -1, -1, 0.9425, 259, 10}, {6, -1, -1, 0.7038, 18, 2},
    {0, 1, -1, 0.9885, 127, 3},    {1, 2, -1, 0.9459, 82, 5},    {2, 1, -1, 0.7995, 5, 3},
    {4, 1, -1, 0.9223, 154, 6},    {4, 2, -1, 0.9697, 105, 5},   {6, 4, -1, 0.7038, 18, 2},
    {0, 1, 1, 0.9885, 127, 3},     {1, 2, 1, 0.8938, 34, 2},     {1, 2, 2, 0.9666, 48, 4},
    {2, 1, 1, 0.7995, 5, 3},       {4, 1, 1, 0.9223, 154, 6},    {4, 2, 1, 0.9999, 80, 4},
    {4, 2, 2, 0.9262, 25, 3},      {6, 4, 1, 0.7038, 18, 2},
}};

} // namespace

PrecisionClass precision_class(Precision precision) {
    switch (precision) {
    case Precision::fp32:
    case Precision::tf32:
        return PrecisionClass::fp32;
    case Precision::fp16:
    case Precision::bf16:
        return PrecisionClass::half;
    case Precision::fp8:
        return PrecisionClass::fp8;
    }
    return PrecisionClass::half;
}

const FactorCell& FactorTable::lookup(Framework framework, AcceleratorGeneration generation,
                                      Precision precision) const {
    const int fw = static_cast<int>(factor_group(framework)), gen = static_cast<int>(generation),
              pc = static_cast<int>(precision_class(precision));
    // Most specific first: (fw, gen, pc), (fw, gen), (fw), pooled.
    const std::array<std::array<int, 3>, 4> keys{
        {{fw, gen, pc}, {fw, gen, kAny}, {fw, kAny, kAny}, {kAny, kAny, kAny}}};
    for (const auto& key : keys)
        for (const FactorCell& c : cells)
            if (c.framework == key[0] && c.generation == key[1] && c.precision_class == key[2])
                return c;
    static const FactorCell unit{};
    return unit;
}

const FactorTable& fitted_factor_table() {
    return kFitted;
}

std::string describe_factor(const FactorCell& cell) {
    std::string where = cell.framework == kAny
                            ? std::string("all frameworks")
                            : std::string(enum_name(static_cast<Framework>(cell.framework)));
    if (cell.generation != kAny)
        where +=
            " on " + std::string(enum_name(static_cast<AcceleratorGeneration>(cell.generation)));
    if (cell.precision_class != kAny) {
        static constexpr std::array<const char*, 3> kClass{"fp32/tf32", "fp16/bf16", "fp8"};
        where += std::string(" at ") + kClass[static_cast<std::size_t>(cell.precision_class)];
    }
    char buf[160];
    std::snprintf(buf, sizeof buf, "%.3f, fitted on %d published runs from %d sources",
                  cell.efficiency, cell.runs, cell.sources);
    return "framework compute efficiency " + where + ": " + buf;
}

} // namespace cp::sim
