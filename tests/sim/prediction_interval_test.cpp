// Prediction intervals: the committed residual table matches the fixtures, a plan whose bucket
// no independent sources validate gets the widest range, and published runs fall inside theirs.
#include "clusterplan/sim/prediction_interval.h"
#include "clusterplan/sim/validation_runs.h"
#include "residual_buckets.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

using namespace cp::sim;

namespace {

std::vector<ValidationRun> load_runs() {
    std::ifstream in(std::string(CLUSTERPLAN_VALIDATION_DIR) + "/training_runs.csv");
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return parse_validation_runs(text.str(), "training_runs.csv");
}

} // namespace

TEST_CASE("the committed residual buckets are the fixtures' leave-one-source-out residuals",
          "[validation]") {
    const std::vector<ResidualBucket> fresh = compute_residual_buckets(load_runs());
    const bool same = cp::test::same_buckets(fresh, residual_buckets());
    std::printf("\nresidual buckets (measured/predicted step time, leave-one-source-out):\n");
    cp::test::print_buckets(fresh);
    INFO("paste the table above into sim/src/validation/prediction_interval_table.cpp");
    CHECK(same);
}

TEST_CASE("a bucket without two independent sources is unvalidated and gets the widest range") {
    const PredictionInterval megatron =
        prediction_interval(Framework::megatron_lm, AcceleratorGeneration::ampere);
    CHECK(megatron.validated);
    CHECK(megatron.runs >= kMinValidatingRuns);
    CHECK(megatron.sources >= kMinValidatingSources);
    CHECK(megatron.low_factor < 1.0);
    CHECK(megatron.high_factor > 1.0);
    CHECK(megatron.bucket == "megatron / ampere");

    // Trainium1 has three published sources (the Neuron benchmark page, data-on-eks, HyperPod).
    const PredictionInterval trainium =
        prediction_interval(Framework::neuronx_distributed, AcceleratorGeneration::trainium);
    CHECK(trainium.validated);
    CHECK(trainium.sources >= kMinValidatingSources);

    for (const auto& [fw, gen] :
         {std::pair{Framework::deepspeed, AcceleratorGeneration::gaudi},
          std::pair{Framework::megatron_core, AcceleratorGeneration::blackwell}}) {
        const PredictionInterval p = prediction_interval(fw, gen);
        INFO(p.bucket);
        CHECK_FALSE(p.validated);
        CHECK(p.low_factor <= megatron.low_factor);
        CHECK(p.high_factor >= megatron.high_factor);
        CHECK(p.high_factor / p.low_factor > megatron.high_factor / megatron.low_factor);
    }
}

TEST_CASE("a Trainium2 training plan is unvalidated while Trainium1 ones are validated") {
    // Every published NeuronX Distributed training run is on Trainium1; Trainium2 is a different
    // chip (NeuronCore-v3), so its training plans get the widest range until a Trn2 run exists.
    AcceleratorSpec trn1, trn2;
    trn1.id = "Trainium1";
    trn2.id = "Trainium2";
    CHECK(accelerator_generation(trn1) == AcceleratorGeneration::trainium);
    CHECK(accelerator_generation(trn2) == AcceleratorGeneration::trainium2);
    const PredictionInterval on_trn1 =
        prediction_interval(Framework::neuronx_distributed, accelerator_generation(trn1));
    const PredictionInterval on_trn2 =
        prediction_interval(Framework::neuronx_distributed, accelerator_generation(trn2));
    CHECK(on_trn1.validated);
    CHECK(on_trn1.bucket == "neuron / trainium");
    CHECK_FALSE(on_trn2.validated);
    CHECK(on_trn2.basis == IntervalBasis::unvalidated);
    CHECK(on_trn2.runs == 0);
    CHECK(on_trn2.bucket == "neuron / trainium2");
    CHECK(on_trn2.high_factor / on_trn2.low_factor > on_trn1.high_factor / on_trn1.low_factor);
}

TEST_CASE("the published GPT-3 175B Megatron runs lie inside their interval", "[validation]") {
    int checked = 0;
    for (const ValidationRun& r : load_runs()) {
        // Korthikanti et al. 2022 Table 5: GPT-3 175B measured with Megatron-LM on A100.
        if (r.source != "Korthikanti et al. 2022 Table 5" || r.id.find("175b") == std::string::npos)
            continue;
        const RunPrediction p = predict_run(r);
        REQUIRE(p.valid);
        const PredictionInterval iv =
            prediction_interval(r.framework, accelerator_generation(r.cluster.node.accelerator));
        const bool time = r.metric == RunMetric::step_time_s;
        // A time scales with the factors; a throughput is divided by them.
        const double low = time ? p.predicted * iv.low_factor : p.predicted / iv.high_factor;
        const double high = time ? p.predicted * iv.high_factor : p.predicted / iv.low_factor;
        INFO(r.id << ": measured " << r.measured << ", interval " << low << "-" << high);
        CHECK(r.measured >= low);
        CHECK(r.measured <= high);
        ++checked;
    }
    CHECK(checked >= 2);
}
