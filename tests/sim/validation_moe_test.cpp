// Validation of the Mixture-of-Experts mechanisms (engine/moe.h) against published MoE training
// throughput on DGX-H100 (tests/data/validation/moe_training.csv and README.md): Megatron-Core's
// Mixtral 8x7B reference mapping, Megatron-Bridge's Qwen3-30B-A3B (dropless and token-dropping;
// EP16 over the HybridEP dispatcher from 26.04), Qwen3-235B-A22B (EP32 with the all-to-all
// overlapped with another micro-batch's compute) and GPT-OSS-120B rows (25.09 to 26.06), NeMo
// AutoModel's Qwen3-30B-A3B and GPT-OSS-20B rows. Megatron rows run grouped GEMMs, fused
// attention, sequence parallelism with tp > 1, the distributed optimizer (ZeRO-1) and
// gradient-reduce overlap, force-balanced routing; AutoModel runs FSDP2 (ZeRO-3) with DeepEP.
//
// A row the same publisher re-measured at the identical configuration in a later release
// (`superseded_by`) is printed with its error but kept out of the means and the fit: the later
// figure replaces it (Megatron-Bridge 26.02's Qwen3-30B-A3B row, 5,113 tokens/s/GPU, re-measured
// at 9,058 by 26.02.01).
//
// The one fitted MoE constant, the host time per local expert and pass of a dropless layer
// (kMoeExpertIssuePerPassS), enters the step time linearly: t(c) = t(c0) + (c - c0) * N with N
// the expert-issue events on the critical path. The test fits c by least squares over the
// relative step-time errors (each source weighing the same), checks that the engine's constant
// is that fit, and prints the leave-one-source-out error.
#include "clusterplan/sim/step_model.h"
#include "engine/moe.h"
#include "engine/pipeline_stages.h"
#include "engine/training_constants.h"
#include "engine_fixtures.h"

#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

using namespace cp;

namespace {

sim::Workload moe_workload(const test::CsvRow& c) {
    sim::Workload w = test::gpt(std::stoi(c[11]), std::stoi(c[12]), std::stoi(c[13]),
                                std::stoi(c[6]), std::stoi(c[15]));
    w.shape.kv_heads = std::stoi(c[14]);
    w.shape.head_dim = std::stoi(c[22]);
    w.shape.tied_embeddings = false; // every fixture model has an untied output layer
    w.shape.gated_mlp = true;
    w.shape.flash_attention = true;
    w.shape.moe.experts = std::stoi(c[16]);
    w.shape.moe.experts_per_token = std::stoi(c[17]);
    w.shape.moe.shared_experts = std::stoi(c[18]);
    w.shape.moe.moe_ffn_hidden = std::stoi(c[19]);
    w.shape.ffn_hidden = w.shape.moe.moe_ffn_hidden;
    w.shape.moe.capacity_factor = std::stod(c[23]);
    return w;
}

sim::Layout moe_layout(const test::CsvRow& c) {
    sim::Layout l;
    const int gpus = std::stoi(c[2]);
    l.global_batch = std::stoi(c[4]);
    l.micro_batch = std::stoi(c[5]);
    l.tp = std::stoi(c[7]);
    l.pp = std::stoi(c[8]);
    l.dp = gpus / (l.tp * l.pp);
    l.virtual_stages = std::stoi(c[9]);
    l.schedule = l.virtual_stages > 1 ? sim::Schedule::interleaved : sim::Schedule::one_f_one_b;
    l.ep = std::stoi(c[10]);
    l.sequence_parallel = l.tp > 1;
    l.zero = std::stoi(c[24]);
    l.framework = *sim::framework_from_name(c[25]);
    // Optional last column: the recipe's activation recompute (none when absent or empty).
    l.recompute = c.size() > 27 && c[27] == "full" ? sim::Recompute::full : sim::Recompute::none;
    // Optional: the token dispatcher (hybrid = DeepEP / HybridEP) and the expert all-to-all
    // overlapped with another micro-batch's compute (Megatron-Core moe_a2a_overlap).
    l.ep_dispatcher = c.size() > 28 && c[28] == "hybrid" ? sim::EpDispatcher::hybrid
                                                         : sim::EpDispatcher::alltoall;
    l.moe_a2a_overlap = c.size() > 29 && c[29] == "1";
    return l;
}

// One fixture row as the fit sees it: predicted and published step time, and the expert-issue
// events the fitted constant multiplies (per step, on the pipeline's critical path).
struct Row {
    std::string source;
    double predicted_s = 0, published_s = 0, events = 0;
};

// Least squares of the relative step-time error over c, each source weighing the same.
double fit_issue_s(const std::vector<Row>& rows, const std::string& leave_out) {
    std::map<std::string, int> per_source;
    for (const Row& r : rows)
        if (r.source != leave_out) ++per_source[r.source];
    const double c0 = sim::model::kMoeExpertIssuePerPassS;
    Eigen::VectorXd design(static_cast<Eigen::Index>(rows.size()));
    Eigen::VectorXd target(static_cast<Eigen::Index>(rows.size()));
    design.setZero();
    target.setZero();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        if (r.source == leave_out) continue;
        const double w = std::sqrt(1.0 / per_source[r.source]) / r.published_s;
        design(static_cast<Eigen::Index>(i)) = w * r.events;
        target(static_cast<Eigen::Index>(i)) =
            w * (r.published_s - (r.predicted_s - c0 * r.events));
    }
    const Eigen::MatrixXd a = design;
    return a.colPivHouseholderQr().solve(target)(0);
}

double error_pct_at(const Row& r, double c) {
    const double t = r.predicted_s + (c - sim::model::kMoeExpertIssuePerPassS) * r.events;
    // Throughput error: published / predicted step time.
    return 100.0 * (r.published_s / t - 1.0);
}

} // namespace

TEST_CASE("published MoE training throughput on DGX-H100 is reproduced", "[validation][moe]") {
    const auto csv = test::read_csv(std::string(CLUSTERPLAN_VALIDATION_DIR) + "/moe_training.csv");
    REQUIRE(csv.size() >= 6);
    std::map<std::string, test::ErrorStats> by_source;
    test::ErrorStats all, with_superseded;
    std::vector<Row> rows;
    int refused = 0;
    std::printf("\n%-24s %-14s %4s %4s %3s %3s %3s %3s %4s %10s %10s %7s\n", "source", "model",
                "gpus", "prec", "tp", "pp", "vp", "ep", "drop", "published", "model", "err %");
    for (std::size_t r = 1; r < csv.size(); ++r) {
        const auto& c = csv[r];
        const sim::Workload w = moe_workload(c);
        const sim::Layout l = moe_layout(c);
        const int gpus = std::stoi(c[2]);
        const sim::Precision precision = c[3] == "fp8" ? sim::Precision::fp8 : sim::Precision::bf16;
        const sim::PlanResult res = sim::evaluate(w, test::h100_cluster(gpus / 8), l, precision);
        INFO("row " << r << " " << c[1] << " limit " << static_cast<int>(res.limit) << " memory "
                    << res.memory_gib.total);
        // Throughput is computed for plans the memory model refuses too; they are counted.
        REQUIRE((res.valid() || res.limit == sim::Limit::out_of_memory));
        if (!res.valid()) ++refused;
        const double published = std::stod(c[21]);
        const bool tflops = c[20] == "model_tflops_per_gpu";
        const double model = tflops ? res.model_tflops_per_device : res.tokens_per_s / gpus;
        const std::string superseded_by = c.size() > 26 ? c[26] : "";
        with_superseded.add(model, published);
        if (superseded_by.empty()) {
            by_source[c[0]].add(model, published);
            all.add(model, published);
        }
        // All layers are MoE layers; the slowest stage holds the most of them (Qwen3-235B-A22B's
        // 94 layers over 8 stages: Megatron-Core's split counting embedding and loss, 11/12/11).
        const double stage_layers = sim::stage_split(w.shape.layers, l).fullest();
        const double pipeline =
            l.micro_batches() + double(l.pp - 1) / std::max(1, l.virtual_stages);
        // Frameworks that run all local experts as one grouped kernel issue no per-expert work.
        const double events =
            sim::framework_profile(l.framework).per_expert_gemm_launch
                ? sim::moe_expert_issue_events(w.shape, l) * stage_layers * pipeline
                : 0.0;
        if (superseded_by.empty())
            rows.push_back({c[0], res.step_time_s, res.step_time_s * model / published, events});
        std::printf("%-24s %-14s %4d %4s %3d %3d %3d %3d %4s %10.0f %10.0f %+7.1f   (a2a %.0f%%, "
                    "host %.0f%% of step, %.0f GiB%s)\n",
                    c[0].c_str(), c[1].c_str(), gpus, c[3].c_str(), l.tp, l.pp, l.virtual_stages,
                    l.ep, w.shape.moe.capacity_factor > 0 ? "yes" : "no", published, model,
                    100.0 * (model - published) / published,
                    100.0 * res.breakdown_s.ep_comm_s / res.step_time_s,
                    100.0 * res.breakdown_s.host_overhead_s / res.step_time_s, res.memory_gib.total,
                    res.valid() ? "" : ", refused");
        if (!superseded_by.empty())
            std::printf("    superseded by %s (same configuration): not in the means or the fit\n",
                        superseded_by.c_str());
    }
    for (const auto& [source, s] : by_source)
        std::printf("  %-24s n=%d mean |err| %.1f %%, max %.1f %%\n", source.c_str(), s.count,
                    s.mean(), s.max);
    std::printf("MoE throughput: n=%d mean |err| %.1f %%, max %.1f %%\n", all.count, all.mean(),
                all.max);
    std::printf("with the superseded rows: n=%d mean |err| %.1f %%, max %.1f %%\n",
                with_superseded.count, with_superseded.mean(), with_superseded.max);
    std::printf("runs the memory model would refuse: %d of %d\n", refused, with_superseded.count);

    // The fitted constant, and the error of each source when it is left out of the fit.
    const double fitted = fit_issue_s(rows, "");
    std::printf("expert issue per local expert and pass: fitted %.3f ms, engine %.3f ms\n",
                1e3 * fitted, 1e3 * sim::model::kMoeExpertIssuePerPassS);
    test::ErrorStats loso;
    for (const auto& [source, s] : by_source) {
        const double c = fit_issue_s(rows, source);
        test::ErrorStats left;
        for (const Row& row : rows) {
            if (row.source != source) continue;
            const double e = std::abs(error_pct_at(row, c));
            left.sum += e;
            left.max = std::max(left.max, e);
            ++left.count;
            loso.sum += e;
            loso.max = std::max(loso.max, e);
            ++loso.count;
        }
        std::printf("  leave out %-24s fit %.3f ms -> its mean |err| %.1f %%, max %.1f %%\n",
                    source.c_str(), 1e3 * c, left.mean(), left.max);
    }
    std::printf("MoE throughput, leave-one-source-out: mean |err| %.1f %%, max %.1f %%\n",
                loso.mean(), loso.max);

    CHECK(std::abs(fitted - sim::model::kMoeExpertIssuePerPassS) <= 0.05 * fitted);
    // Issue 18 asks for a mean of 15 % at most: the rows give 14.4 % (LOSO 15.4 %), the bounds
    // sit just above. They gave 12.5 % (13.6 %) while the Megatron-Core factors were fitted on
    // NeMo 24.07 alone; with the Megatron-LM README and Megatron-Bridge dense H100 runs in that
    // fit, and causal attention skipping its masked tiles, the FP8 Qwen3 rows run 8-16 % faster
    // than published. The Qwen3-235B-A22B rows hide their EP32 all-to-all behind another
    // micro-batch's compute (moe_a2a_overlap) and the EP16 Qwen3-30B-A3B rows send each token
    // once per node (HybridEP); with them the fitted host issue moved from 0.103 to 0.115 ms per
    // local expert and pass. NeMo AutoModel's recipes checkpoint every block
    // (activation_checkpointing: true, full recompute): with it their rows fit in memory and come
    // out slow (Qwen3-30B-A3B -33 %, GPT-OSS-20B -12 %). The 26.02/26.02.01 Qwen3-30B-A3B rows
    // overlap their all-to-all too (their recipe sets moe_a2a_overlap): 14.1 -> 13.5 % (LOSO
    // 15.1 -> 14.2 %), host issue 0.123 -> 0.127 ms. Token-dropping layers issue their experts'
    // kernels too, queued ahead with the rest of the layer's (25.09 +25 -> +15 %): 12.8 % (13.7).
    // With Transformer Engine's attention rate on Hopper fitted over the dense runs (0.60 -> 0.40
    // of peak, te_attention.h) the host issue refits 0.127 -> 0.124 ms: 11.2 % (12.0).
    CHECK(all.mean() <= 12.5);
    CHECK(loso.mean() <= 13.5);
    CHECK(by_source["mcore-0.8-moe-readme"].mean() <= 8.0);
    // Regression bounds: Megatron-Bridge 25.11's FP8 dropless Qwen3 row runs at half the
    // throughput of the token-dropping and later dropless releases (README).
    CHECK(all.max <= 72.5);
    CHECK(with_superseded.mean() <= 15.5);
}
