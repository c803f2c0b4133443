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
// figure replaces it. No row is marked so today: Megatron-Bridge 26.02.01's Qwen3-30B-A3B figure
// (9,058 tokens/s/GPU) ran the v0.3.1 recipe (EP16 PP1 HybridEP), not 26.02's (README).
// A row with `fit` false was added after the engine was fixed: printed, kept out of the fit and
// the means, and checked on its own.
//
// The two fitted MoE constants, the host time per local expert and pass of a dropless layer
// (kMoeExpertIssuePerPassS) and what the combined 1F1B schedule adds to it
// (kMoeCombinedScheduleIssuePerPassS), enter the step time linearly: t(c) = t(c0) + (c - c0) . N
// with N the expert-issue events on the critical path (the second only where moe_a2a_overlap).
// The test fits c by least squares over the relative step-time errors (each source weighing the
// same), checks that the engine's constants are that fit, and prints the leave-one-source-out
// error.
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
    double predicted_s = 0, published_s = 0;
    Eigen::Vector2d events = Eigen::Vector2d::Zero(); // all dropless rows, combined 1F1B only
};

Eigen::Vector2d engine_constants() {
    return {sim::model::kMoeExpertIssuePerPassS, sim::model::kMoeCombinedScheduleIssuePerPassS};
}

// Least squares of the relative step-time error over both constants, each source weighing the
// same.
Eigen::Vector2d fit_issue_s(const std::vector<Row>& rows, const std::string& leave_out) {
    std::map<std::string, int> per_source;
    for (const Row& r : rows)
        if (r.source != leave_out) ++per_source[r.source];
    const Eigen::Vector2d c0 = engine_constants();
    Eigen::MatrixXd design(static_cast<Eigen::Index>(rows.size()), 2);
    Eigen::VectorXd target(static_cast<Eigen::Index>(rows.size()));
    design.setZero();
    target.setZero();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        if (r.source == leave_out) continue;
        const double w = std::sqrt(1.0 / per_source[r.source]) / r.published_s;
        const auto row = static_cast<Eigen::Index>(i);
        design.row(row) = w * r.events.transpose();
        target(row) = w * (r.published_s - (r.predicted_s - c0.dot(r.events)));
    }
    return design.colPivHouseholderQr().solve(target);
}

double error_pct_at(const Row& r, const Eigen::Vector2d& c) {
    const double t = r.predicted_s + (c - engine_constants()).dot(r.events);
    // Throughput error: published / predicted step time.
    return 100.0 * (r.published_s / t - 1.0);
}

} // namespace

TEST_CASE("published MoE training throughput on DGX-H100 is reproduced", "[validation][moe]") {
    const auto csv = test::read_csv(std::string(CLUSTERPLAN_VALIDATION_DIR) + "/moe_training.csv");
    REQUIRE(csv.size() >= 6);
    std::map<std::string, test::ErrorStats> by_source;
    test::ErrorStats all, with_superseded, held_out;
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
        // Optional: `fit` false marks a row added after the engine was fixed (held out).
        const bool fitted = !(c.size() > 30 && c[30] == "false");
        if (!fitted) held_out.add(model, published);
        if (fitted) with_superseded.add(model, published);
        if (fitted && superseded_by.empty()) {
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
        const Eigen::Vector2d row_events(events, l.moe_a2a_overlap ? events : 0.0);
        if (fitted && superseded_by.empty())
            rows.push_back(
                {c[0], res.step_time_s, res.step_time_s * model / published, row_events});
        std::printf("%-24s %-14s %4d %4s %3d %3d %3d %3d %4s %10.0f %10.0f %+7.1f   (a2a %.0f%%, "
                    "host %.0f%% of step, %.0f GiB%s)\n",
                    c[0].c_str(), c[1].c_str(), gpus, c[3].c_str(), l.tp, l.pp, l.virtual_stages,
                    l.ep, w.shape.moe.capacity_factor > 0 ? "yes" : "no", published, model,
                    100.0 * (model - published) / published,
                    100.0 * res.breakdown_s.ep_comm_s / res.step_time_s,
                    100.0 * res.breakdown_s.host_overhead_s / res.step_time_s, res.memory_gib.total,
                    res.valid() ? "" : ", refused");
        if (!fitted) std::printf("    held out: not in the means or the fit\n");
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
    std::printf("held out: n=%d mean |err| %.1f %%, max %.1f %%\n", held_out.count, held_out.mean(),
                held_out.max);
    std::printf("runs the memory model would refuse: %d of %d\n", refused,
                with_superseded.count + held_out.count);

    // The fitted constant, and the error of each source when it is left out of the fit.
    const Eigen::Vector2d fitted = fit_issue_s(rows, "");
    const Eigen::Vector2d engine = engine_constants();
    std::printf("expert issue per local expert and pass: fitted %.3f ms, engine %.3f ms; "
                "combined 1F1B adds fitted %.3f ms, engine %.3f ms\n",
                1e3 * fitted(0), 1e3 * engine(0), 1e3 * fitted(1), 1e3 * engine(1));
    test::ErrorStats loso;
    for (const auto& [source, s] : by_source) {
        const Eigen::Vector2d c = fit_issue_s(rows, source);
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
        std::printf("  leave out %-24s fit %.3f + %.3f ms -> its mean |err| %.1f %%, max %.1f %%\n",
                    source.c_str(), 1e3 * c(0), 1e3 * c(1), left.mean(), left.max);
    }
    std::printf("MoE throughput, leave-one-source-out: mean |err| %.1f %%, max %.1f %%\n",
                loso.mean(), loso.max);

    CHECK(std::abs(fitted(0) - engine(0)) <= 0.05 * fitted(0));
    CHECK(std::abs(fitted(1) - engine(1)) <= 0.05 * fitted(1));
    // Issue 12 asks for a mean of 8 % at most per table and 10 % left out: the rows give 4.3 %
    // (LOSO 4.6 %), the bounds sit just above. Each row carries the layout of the recipe its
    // release ran (README): 25.11's Qwen3-30B-A3B row is PP2 VP12 MBS 1 with the combined 1F1B
    // schedule (its table cells MBS 2 / VP 24 are 25.09's), 26.02.01's is EP16 PP1 over HybridEP
    // (its cells PP2 VP12 EP8 are 26.02's), 25.11's GPT-OSS-120B row MBS 1; 26.02's Qwen3-30B-A3B
    // and both AutoModel rows run DeepEP. Every dropless row with the combined 1F1B schedule
    // (moe_a2a_overlap) ran 30-44 % (Qwen3-30B-A3B, 16 local experts) and 7-15 % (Qwen3-235B-A22B,
    // 4) slower than the engine without its extra per-expert host issue
    // (kMoeCombinedScheduleIssuePerPassS, fitted 0.102 ms beside the 0.124 ms of every dropless
    // layer); DeepEP's one copy per destination rank took AutoModel's Qwen3-30B-A3B row from
    // -19 to -12 %, still the largest error with the token-dropping 25.09 row (+12 %).
    CHECK(all.mean() <= 4.5);
    CHECK(loso.mean() <= 4.8);
    CHECK(by_source["mcore-0.8-moe-readme"].mean() <= 8.0);
    CHECK(all.max <= 12.5);
    CHECK(with_superseded.mean() <= 4.5);
    // Held out (Megatron-Core v0.9's Mixtral 8x7B figure, -5.9 %): issue 12's 10 % left out.
    CHECK(held_out.mean() <= 10.0);
}
