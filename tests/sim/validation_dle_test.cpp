// Held-out validation of the non-LLM training that users run on P3 / P4d / G5 instances: ResNet-50
// v1.5 (the generic model) and BERT-large pre-training and SQuAD fine-tuning (an encoder
// transformer), NVIDIA DeepLearningExamples' published throughput on DGX-1, DGX-2 and DGX A100
// (tests/data/validation/dle_training_runs.csv, README_dle_training.md). Every row is evaluated
// as the planner evaluates a scenario (sim::predict_run). The only fitted rows are the four
// single-GPU PyTorch ResNet-50 figures the whole-step CNN fractions come from (column `fit`);
// every other row is held out: neither those fractions nor the transformer factors
// (training_runs.csv) saw it.
#include "clusterplan/sim/validation_runs.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

using namespace cp;

namespace {

std::vector<sim::ValidationRun> load_dle_runs() {
    const std::string path = std::string(CLUSTERPLAN_VALIDATION_DIR) + "/dle_training_runs.csv";
    std::ifstream in(path);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return sim::parse_validation_runs(text.str(), "dle_training_runs.csv");
}

const char* precision_name(sim::Precision p) {
    constexpr const char* kNames[] = {"fp32", "tf32", "fp16", "bf16", "fp8"};
    return kNames[static_cast<int>(p)];
}

struct Errors {
    double sum = 0, signed_sum = 0, max = 0;
    int n = 0;
    void add(double error) {
        const double e = 100.0 * std::abs(error);
        sum += e;
        signed_sum += 100.0 * error;
        max = std::max(max, e);
        ++n;
    }
    double mean() const { return n ? sum / n : 0.0; }
    double bias() const { return n ? signed_sum / n : 0.0; }
};

} // namespace

TEST_CASE("ResNet-50 and BERT training throughput: in-sample and held-out error per source",
          "[validation]") {
    const auto runs = load_dle_runs();
    REQUIRE(runs.size() >= 96);
    std::map<std::string, std::pair<Errors, Errors>> per_source; // fitted rows, held-out rows
    Errors all_held;
    std::printf("\n%-28s %-9s %4s %5s %6s %10s %10s %7s %s\n", "run", "precision", "dev", "mb",
                "fits", "measured", "model", "err %", "fit");
    for (const auto& r : runs) {
        INFO(r.id);
        const sim::RunPrediction p = sim::predict_run(r);
        REQUIRE(p.valid); // every published layout is planned
        std::printf("%-28s %-9s %4d %5d %6s %10.1f %10.1f %+7.1f %s\n", r.id.c_str(),
                    precision_name(r.precision), r.cluster.devices(),
                    p.layout.micro_batch, p.fits ? "yes" : "no", r.measured, p.predicted,
                    100.0 * p.error, r.in_fit ? "fitted" : "held out");
        auto& [fitted, held] = per_source[r.source];
        (r.in_fit ? fitted : held).add(p.error);
        if (!r.in_fit) all_held.add(p.error);
    }
    std::printf("\n%-40s %4s %8s %8s %4s %8s %8s %8s\n", "source", "n in", "in mean", "in max",
                "n out", "out mean", "out max", "out bias");
    for (const auto& [source, e] : per_source)
        std::printf("%-40s %4d %7.1f%% %7.1f%% %4d %7.1f%% %7.1f%% %+7.1f%%\n", source.c_str(),
                    e.first.n, e.first.mean(), e.first.max, e.second.n, e.second.mean(),
                    e.second.max, e.second.bias());
    std::printf("%-40s %4s %8s %8s %4d %7.1f%% %7.1f%% %+7.1f%%\n", "all held-out rows", "", "",
                "", all_held.n, all_held.mean(), all_held.max, all_held.bias());
}
