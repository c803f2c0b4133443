// Fitting the engine factors on published serving runs (Eigen least squares on relative
// error, factors kept non-negative), and predicting every run for the validation report,
// including leave-one-source-out (factors refitted without the source being predicted).
#pragma once

#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/serving_engine.h"
#include "clusterplan/sim/serving_runs.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cp::sim {

// Hardware of a catalog instance type (the catalog supplies it; sim does not read the database).
using NodeResolver = std::function<std::optional<NodeSpec>(const std::string& instance_type)>;

// Fits every engine with runs of its own on `runs` (those marked fit, minus `exclude_source`);
// vllm, tgi and pytorch, which have none, borrow the tensorrt-llm factors and say so.
// A run on an instance the resolver does not know is left out of the fit (and predicted NaN).
ServingFactors fit_serving_factors(const ServingRunSet& runs, const NodeResolver& resolve,
                                   std::string_view exclude_source = {});

// The model's figure for `run` under `factors` (NaN, with `why`, when it cannot answer).
double predict_serving_run(const ServingRun& run, const NodeSpec& node,
                           const ServingFactors& factors, std::string* why = nullptr);

struct ServingRunCheck {
    const ServingRun* run = nullptr;
    double predicted = kUnknown;
    double predicted_left_out = kUnknown; // factors refitted without this run's source
    std::string why;                      // why no prediction
    double error() const { return std::abs(predicted - run->value) / run->value; }
    double error_left_out() const { return std::abs(predicted_left_out - run->value) / run->value; }
};

// Every run predicted in sample and leave-one-source-out.
std::vector<ServingRunCheck> validate_serving_runs(const ServingRunSet& runs,
                                                   const NodeResolver& resolve);

} // namespace cp::sim
