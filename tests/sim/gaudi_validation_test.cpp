// Gaudi1 (dl1.24xlarge) against published Gaudi1 training runs: the measured-derived BF16 rate
// of the catalog and the CNN whole-step fraction (engine/gaudi_rates.h) are refitted here from the
// fixture's fit rows, and every row's error is printed per source, in-sample and held out
// (tests/data/validation/gaudi_training.csv, README.md "gaudi_training.csv").
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/sim/prediction_interval.h"
#include "clusterplan/sim/presets.h"
#include "clusterplan/sim/serving_plan.h"
#include "clusterplan/sim/step_model.h"
#include "engine/gaudi_rates.h"
#include "test_helpers.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

using namespace cp::sim;

namespace {

constexpr const char* kInstance = "dl1.24xlarge";

struct GaudiRun {
    std::string id, source, model, framework, optimizer, note;
    int devices = 0, micro_batch = 0, global_batch = 0, seq_len = 0;
    bool flash_attention = false, fit = false;
    double measured = 0; // samples/s over the whole cluster
};

// One CSV line split at commas outside double quotes ("" inside quotes is a quote).
std::vector<std::string> split_csv(const std::string& line) {
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') {
            cells.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            cells.emplace_back();
        } else {
            cells.back() += c;
        }
    }
    return cells;
}

std::vector<GaudiRun> load_gaudi_runs() {
    std::ifstream in(std::string(CLUSTERPLAN_VALIDATION_DIR) + "/gaudi_training.csv");
    REQUIRE(in);
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = split_csv(line);
    std::vector<GaudiRun> runs;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const std::vector<std::string> cells = split_csv(line);
        REQUIRE(cells.size() == header.size());
        std::map<std::string, std::string> c;
        for (std::size_t i = 0; i < header.size(); ++i)
            c[header[i]] = cells[i];
        REQUIRE(c["metric"] == "samples_per_s");
        GaudiRun r;
        r.id = c["id"];
        r.source = c["source"];
        r.model = c["model"];
        r.framework = c["framework"];
        r.optimizer = c["optimizer"];
        r.note = c["note"];
        r.devices = std::stoi(c["devices"]);
        r.micro_batch = std::stoi(c["micro_batch"]);
        r.global_batch = std::stoi(c["global_batch"]);
        r.seq_len = c["seq_len"].empty() ? 0 : std::stoi(c["seq_len"]);
        r.flash_attention = c["flash_attention"] == "true";
        r.fit = c["fit"] == "true";
        r.measured = std::stod(c["value"]);
        runs.push_back(r);
    }
    return runs;
}

struct Fixture {
    cp::test::TempDir dir;
    cp::catalog::Catalog catalog{dir.path() / "catalog.sqlite"};
    NodeSpec node() {
        auto n = catalog.node_spec(kInstance);
        REQUIRE(n);
        return *n;
    }
};

Fixture& fixture() {
    static Fixture f;
    return f;
}

// The row on dl1.24xlarge with Gaudi1's bf16 rate set to `bf16_tflops` (NaN: the catalog's).
PlanResult evaluate_run(const GaudiRun& run, double bf16_tflops) {
    NodeSpec node = fixture().node();
    if (is_known(bf16_tflops))
        node.accelerator.peak_tflops[static_cast<int>(Precision::bf16)] = bf16_tflops;
    Cluster cluster;
    cluster.node = node;
    cluster.node.accelerators_per_node = std::min(run.devices, node.accelerators_per_node);
    cluster.nodes = run.devices / cluster.node.accelerators_per_node;
    const ModelPreset* preset = find_model_preset(run.model);
    REQUIRE(preset);
    Workload w = preset->workload;
    if (w.kind == WorkloadKind::transformer) {
        w.shape.seq_len = run.seq_len;
        w.shape.flash_attention = run.flash_attention;
        w.seq_phase_count = 0;
    }
    Layout l;
    l.dp = run.devices;
    l.micro_batch = run.micro_batch;
    l.global_batch = run.global_batch;
    l.framework = *framework_from_name(run.framework);
    l.optimizer = run.optimizer == "sgd" ? Optimizer::sgd : Optimizer::adamw;
    return evaluate(w, cluster, l, Precision::bf16);
}

double predicted(const GaudiRun& run, double bf16_tflops) {
    const PlanResult r = evaluate_run(run, bf16_tflops);
    INFO(run.id << " limit " << static_cast<int>(r.limit));
    REQUIRE(r.valid());
    return r.samples_per_s;
}

// The rate at which the rows' mean log error is zero (predictions rise with the rate): bisection
// in log space over a bracket far wider than any 16-bit accelerator's.
double fit_rate(const std::vector<const GaudiRun*>& rows, double scale) {
    const auto mean_log_error = [&](double rate) {
        double sum = 0;
        for (const GaudiRun* r : rows)
            sum += std::log(predicted(*r, rate * scale) / r->measured);
        return sum / double(rows.size());
    };
    double lo = 1.0, hi = 10000.0;
    for (int i = 0; i < 60; ++i) {
        const double mid = std::sqrt(lo * hi);
        (mean_log_error(mid) < 0 ? lo : hi) = mid;
    }
    return std::sqrt(lo * hi);
}

bool is_cnn(const GaudiRun& r) {
    return find_model_preset(r.model)->workload.kind == WorkloadKind::generic;
}

} // namespace

TEST_CASE("Gaudi1's measured-derived rates are the fit over the published Gaudi1 runs",
          "[validation][gaudi]") {
    const std::vector<GaudiRun> runs = load_gaudi_runs();
    std::vector<const GaudiRun*> transformer, cnn;
    for (const GaudiRun& r : runs)
        if (r.fit) (is_cnn(r) ? cnn : transformer).push_back(&r);
    REQUIRE(!transformer.empty());
    REQUIRE(!cnn.empty());
    const double catalog_bf16 = fixture().node().accelerator.peak(Precision::bf16);
    const double bf16 = fit_rate(transformer, 1.0);
    // The CNN step scales with rate x fraction: the committed fraction at a fitted rate r gives
    // the fraction fraction x r / catalog rate at the catalog rate.
    const double fraction_now =
        gaudi_generic_compute_fraction(fixture().node().accelerator, Precision::bf16);
    REQUIRE(is_known(fraction_now));
    const double fraction = fraction_now * fit_rate(cnn, 1.0) / catalog_bf16;
    std::printf("\nGaudi1 fitted: bf16 rate %.2f TFLOP/s (paste into catalog/data/accelerators.csv "
                "fp16_bf16_tflops_dense), CNN whole-step fraction %.4f (paste into "
                "sim/src/engine/gaudi_rates.cpp)\n",
                bf16, fraction);
    CHECK_REL(catalog_bf16, bf16, 0.005);
    CHECK_REL(fraction_now, fraction, 0.005);
}

TEST_CASE("Gaudi1 error per source against published runs, in-sample and held out",
          "[validation][gaudi]") {
    const std::vector<GaudiRun> runs = load_gaudi_runs();
    struct Tally {
        int n_fit = 0, n_held = 0;
        double fit_sum = 0, held_sum = 0, held_max = 0;
    };
    std::map<std::string, Tally> by_source;
    double held_sum = 0;
    int held_n = 0;
    std::printf("\nGaudi1 rows (dl1.24xlarge, catalog rates):\n");
    for (const GaudiRun& r : runs) {
        const double p = predicted(r, kUnknown);
        const double err = p / r.measured - 1.0;
        std::printf("ROW %-36s %-9s %3d dev  measured %9.1f  predicted %9.1f  %+6.1f %%\n",
                    r.id.c_str(), r.fit ? "fit" : "held-out", r.devices, r.measured, p,
                    100.0 * err);
        Tally& t = by_source[r.source];
        if (r.fit) {
            ++t.n_fit;
            t.fit_sum += std::abs(err);
        } else {
            // A held-out row lies inside the range the plan states for its bucket (Gaudi has no
            // two independent sources per bucket: the widest, unvalidated range).
            const PredictionInterval iv = prediction_interval(*framework_from_name(r.framework),
                                                              AcceleratorGeneration::gaudi);
            INFO(r.id << ": measured " << r.measured << ", stated range " << p / iv.high_factor
                      << "-" << p / iv.low_factor);
            CHECK(r.measured >= p / iv.high_factor);
            CHECK(r.measured <= p / iv.low_factor);
            ++t.n_held;
            t.held_sum += std::abs(err);
            t.held_max = std::max(t.held_max, std::abs(err));
            held_sum += std::abs(err);
            ++held_n;
        }
    }
    for (const auto& [source, t] : by_source) {
        std::printf("%-60.60s fit n=%d mean %5.1f %%  held-out n=%d mean %5.1f %% max %5.1f %%\n",
                    source.c_str(), t.n_fit, t.n_fit ? 100.0 * t.fit_sum / t.n_fit : 0.0, t.n_held,
                    t.n_held ? 100.0 * t.held_sum / t.n_held : 0.0, 100.0 * t.held_max);
        // Each source is the only one measuring its workload family on Gaudi1, so leaving it out
        // leaves nothing to derive that family's rate from: such plans would be refused.
        std::printf("%-60.60s left out: no other Gaudi1 source of its workload family\n",
                    source.c_str());
        if (t.n_fit) CHECK(t.fit_sum / t.n_fit <= 0.08);
    }
    REQUIRE(held_n > 0);
    std::printf("held-out rows: n=%d mean %.1f %%\n", held_n, 100.0 * held_sum / held_n);
}

TEST_CASE("planning on dl1.24xlarge answers transformer and CNN training and refuses serving "
          "with its reason",
          "[gaudi]") {
    const NodeSpec node = fixture().node();
    CHECK(node.accelerator.peak_estimated[static_cast<int>(Precision::bf16)]);
    CHECK(node.accelerator.hbm_estimated);
    CHECK_FALSE(is_known(node.accelerator.peak(Precision::fp16)));
    bool listed = false;
    for (const NodeSpec& n : fixture().catalog.trainable_node_specs())
        listed = listed || n.instance_type == kInstance;
    CHECK(listed);

    Cluster cluster;
    cluster.node = node;
    cluster.nodes = 2;
    Layout l;
    l.dp = 16;
    l.micro_batch = 16;
    l.global_batch = 256;
    const PlanResult bert =
        evaluate(find_model_preset("bert-large")->workload, cluster, l, Precision::bf16);
    CHECK(bert.valid());
    // No fused attention kernel on Gaudi1: asking for one plans the unfused attention.
    Workload fused = find_model_preset("bert-large")->workload, unfused = fused;
    fused.shape.flash_attention = true;
    unfused.shape.flash_attention = false;
    CHECK(evaluate(fused, cluster, l, Precision::bf16).step_time_s ==
          evaluate(unfused, cluster, l, Precision::bf16).step_time_s);
    l.micro_batch = 256;
    l.global_batch = 4096;
    const PlanResult resnet =
        evaluate(find_model_preset("resnet50")->workload, cluster, l, Precision::bf16);
    CHECK(resnet.valid());
    // Gaudi1 has no fp16 type: an fp16 plan is not answered as if it had.
    CHECK_FALSE(
        evaluate(find_model_preset("resnet50")->workload, cluster, l, Precision::fp16).valid());

    ServingRequest req;
    req.name = "bert-large batch 1";
    req.workload = find_model_preset("bert-large")->workload;
    req.spec.output_tokens = 0;
    req.spec.batch = 1;
    const ServingPlan serve = plan_serving(req, node, ServingFactors{}, nullptr);
    CHECK_FALSE(serve.valid);
    INFO(serve.limits.reason);
    CHECK(serve.limits.reason.find("Gaudi") != std::string::npos);
}
