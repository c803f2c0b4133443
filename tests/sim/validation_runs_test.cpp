// Validation against every published training run in tests/data/validation/training_runs.csv
// (sources in its README): per source, the error with the committed fitted factors (in-sample)
// and the error when that source is left out of the factor fit (leave-one-source-out). The
// committed factor table must be what the fit returns over the fixture.
#include "clusterplan/sim/validation_runs.h"
#include "engine/model_constants.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace cp;

namespace {

std::vector<sim::ValidationRun> load_runs() {
    const std::string path = std::string(CLUSTERPLAN_VALIDATION_DIR) + "/training_runs.csv";
    std::ifstream in(path);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return sim::parse_validation_runs(text.str(), "training_runs.csv");
}

struct Errors {
    double sum = 0, max = 0;
    int n = 0, refused = 0, over_memory = 0;
    void add(const sim::RunPrediction& p) {
        if (!p.valid) {
            ++refused;
            return;
        }
        if (!p.fits) ++over_memory;
        const double e = 100.0 * std::abs(p.error);
        sum += e;
        max = std::max(max, e);
        ++n;
    }
    double mean() const { return n ? sum / n : 0.0; }
};

// The rows of the table as C++ for framework_factors.cpp.
void print_table(const sim::FactorTable& t) {
    for (const auto& c : t.cells)
        std::printf("    {%d, %d, %d, %.4f, %d, %d},\n", c.framework, c.generation,
                    c.precision_class, c.efficiency, c.runs, c.sources);
}

} // namespace

TEST_CASE("published training runs: in-sample and leave-one-source-out error per source",
          "[validation]") {
    const auto runs = load_runs();
    REQUIRE(runs.size() >= 417);
    std::set<std::string> sources;
    for (const auto& r : runs)
        sources.insert(r.source);

    // Transformer Engine's fused-attention share on Hopper is fitted over the fixture together
    // with the factors (te_attention.h); the engine carries the fitted value.
    const double te_share = sim::fit_te_attention_fraction(runs);
    std::printf(
        "\nfitted Transformer Engine attention share on Hopper: %.2f (te_attention.h: %.2f)\n",
        te_share, sim::TeAttention{}.hopper_fraction);
    CHECK(std::abs(te_share - sim::TeAttention{}.hopper_fraction) <= 0.005);
    // So is the compute slowdown beside a collective on Hopper (overlap_contention.h), at the
    // committed attention share.
    const double slowdown =
        sim::fit_hopper_overlap_slowdown(sim::with_te_attention(runs, te_share));
    std::printf("fitted compute slowdown beside a collective on Hopper: %.2f "
                "(overlap_contention.h: %.2f)\n",
                slowdown, sim::OverlapContention{}.hopper_slowdown);
    CHECK(std::abs(slowdown - sim::OverlapContention{}.hopper_slowdown) <= 0.005);

    // The committed factors are the fit over the whole fixture.
    const sim::FactorTable fitted = sim::fit_framework_factors(runs);
    const sim::FactorTable& committed = sim::fitted_factor_table();
    bool same = fitted.cells.size() == committed.cells.size();
    for (std::size_t i = 0; same && i < fitted.cells.size(); ++i) {
        const auto &a = fitted.cells[i], &b = committed.cells[i];
        same = a.framework == b.framework && a.generation == b.generation &&
               a.precision_class == b.precision_class &&
               std::abs(a.efficiency / b.efficiency - 1.0) <= 0.005 && a.runs == b.runs &&
               a.sources == b.sources;
    }
    if (!same) {
        std::printf("\nfitted factor table (paste into sim/src/engine/framework_factors.cpp):\n");
        print_table(fitted);
    }
    CHECK(same);

    // A held-out source (column `fit` false) is never fitted on: its in-sample error is already
    // an error on runs the model has not seen.
    std::printf("\n%-46s %4s %9s %9s %9s %9s %4s %6s %5s %s\n", "source", "n", "in mean", "in max",
                "LOSO mean", "LOSO max", "oom", "te att", "ovl", "fit");
    Errors all_in, all_loso;
    std::map<std::string, std::pair<Errors, Errors>> per_source;
    std::set<std::string> held_out_sources;
    for (const std::string& source : sources) {
        std::vector<sim::ValidationRun> others;
        for (const auto& r : runs)
            if (r.source != source) others.push_back(r);
        // Left out, the source constrains neither the attention share, the overlap slowdown nor
        // the factors.
        const double share_without = sim::fit_te_attention_fraction(others);
        const auto others_at = sim::with_te_attention(others, share_without);
        const double slowdown_without = sim::fit_hopper_overlap_slowdown(others_at);
        const sim::FactorTable without =
            sim::fit_framework_factors(sim::with_overlap_slowdown(others_at, slowdown_without));
        Errors in, loso;
        bool held_out = false;
        for (const auto& r : runs) {
            if (r.source != source) continue;
            held_out = held_out || !r.in_fit;
            const sim::RunPrediction p_in = sim::predict_run(r, &committed);
            sim::ValidationRun r_out = r;
            r_out.cluster.node.accelerator.te_attention.hopper_fraction = share_without;
            r_out.cluster.node.accelerator.overlap_contention.hopper_slowdown = slowdown_without;
            const sim::RunPrediction p_out = sim::predict_run(r_out, &without);
            in.add(p_in);
            loso.add(p_out);
            all_in.add(p_in);
            all_loso.add(p_out);
            INFO(r.id);
            CHECK(p_in.valid);
            // A run that trained is never refused for memory when its layout is simulated.
            const sim::MemoryGib& mem = p_in.result.memory_gib;
            CHECK(mem.total <= (1.0 + sim::model::kMemoryEstimateErrorShare) * mem.capacity);
        }
        per_source[source] = {in, loso};
        if (held_out) held_out_sources.insert(source);
        std::printf("%-46s %4d %8.1f%% %8.1f%% %8.1f%% %8.1f%% %4d %6.2f %5.2f %s\n",
                    source.c_str(), in.n, in.mean(), in.max, loso.mean(), loso.max, in.over_memory,
                    share_without, slowdown_without, held_out ? "held out" : "yes");
    }
    std::printf("%-46s %4d %8.1f%% %8.1f%% %8.1f%% %8.1f%%\n", "all runs", all_in.n, all_in.mean(),
                all_in.max, all_loso.mean(), all_loso.max);
    // Fitted and held-out sources are averaged apart: a held-out source's error is the check on
    // runs the model has not seen, not a fit to guard.
    double source_mean_in = 0, source_mean_loso = 0, held_out_mean = 0;
    const std::size_t n_fitted = per_source.size() - held_out_sources.size();
    for (const auto& [s, e] : per_source) {
        if (held_out_sources.count(s)) {
            held_out_mean += e.first.mean() / held_out_sources.size();
            continue;
        }
        source_mean_in += e.first.mean() / n_fitted;
        source_mean_loso += e.second.mean() / n_fitted;
    }
    std::printf("%-46s %4zu %8.1f%% %9s %8.1f%%\n", "mean over fitted sources", n_fitted,
                source_mean_in, "", source_mean_loso);
    std::printf("%-46s %4zu %8.1f%%\n", "mean over held-out sources", held_out_sources.size(),
                held_out_mean);
    // Every published layout is expressible (none refused); the memory model's over-capacity
    // predictions are counted above and timed all the same.
    CHECK(all_in.refused == 0);
    CHECK(all_loso.refused == 0);
    // Targets are 8 % per source in-sample and 10 % leave-one-source-out; the model reaches
    // 4.9 % and 7.7 % over the 22 fitted sources (README "Accuracy"), the bounds guard against
    // regressions.
    CHECK(source_mean_in <= 6.0);
    CHECK(source_mean_loso <= 9.0);
    // The held-out target is 10 %; the held-out sources' mean is in README "Held-out sources"
    // (8.9 % over 10 sources with FSDP2's copies, 9.4 % before): this guards against a
    // regression while the gap is open.
    CHECK(held_out_mean <= 11.0);
}

TEST_CASE("every published run is printed with its layout and error", "[validation]") {
    const auto runs = load_runs();
    std::printf("\n%-34s %-20s %5s %3s %3s %4s %2s %2s %2s %11s %11s %7s\n", "run", "framework",
                "dev", "tp", "pp", "dp", "cp", "mb", "v", "measured", "model", "err %");
    for (const auto& r : runs) {
        const sim::RunPrediction p = sim::predict_run(r);
        if (!p.valid) {
            std::printf("%-34s refused (limit %d)\n", r.id.c_str(),
                        static_cast<int>(p.result.limit));
            continue;
        }
        std::printf("%-34s %-20s %5d %3d %3d %4d %2d %2d %2d %11.4g %11.4g %+7.1f", r.id.c_str(),
                    std::string(sim::enum_name(r.framework)).c_str(), r.cluster.devices(),
                    p.layout.tp, p.layout.pp, p.layout.dp, p.layout.cp, p.layout.micro_batch,
                    p.layout.virtual_stages, r.measured, p.predicted, 100.0 * p.error);
        if (!p.fits)
            std::printf("  predicted over memory: %.1f of %.1f GiB", p.result.memory_gib.total,
                        p.result.memory_gib.capacity);
        // TRAINING_DUMP=<id prefix>: the step's parts for those rows, to see which mechanism a
        // residual comes from.
        if (const char* d = std::getenv("TRAINING_DUMP"); d && r.id.rfind(d, 0) == 0) {
            const auto& b = p.result.breakdown_s;
            std::printf(
                "  [step %.3f comp %.3f rec %.3f tp %.3f dpx %.3f dptot %.3f opt %.3f host %.3f]",
                p.result.step_time_s, b.compute_s, b.recompute_s, b.tp_comm_s, b.dp_comm_exposed_s,
                p.result.dp_comm_total_s, b.optimizer_s, b.host_overhead_s);
        }
        std::printf("\n");
    }
    SUCCEED();
}

TEST_CASE("a fixture row that is not valid is reported with its line and column", "[validation]") {
    const std::string header =
        "id,source,framework,model,accelerator,devices,devices_per_node,peak_tflops_half,"
        "peak_tflops_fp8,hbm_gbytes_per_s,memory_gib,link,intra_node_gbytes_per_s,"
        "inter_node_gbps,layers,hidden,heads,kv_heads,ffn_hidden,gated_mlp,vocab,seq_len,"
        "learned_positions,flash_attention,precision,tp,pp,dp,cp,schedule,virtual_stages,"
        "stage_layers,micro_batch,global_batch,zero,recompute,sequence_parallel,metric,"
        "value,note\n";
    const std::string good =
        "r,s,megatron-core,m,H100-80GB,16,8,989,1979,3350,80,nvswitch,450,3200,126,1024,8,8,"
        "4096,false,32000,2048,false,true,bf16,1,16,1,1,1f1b,,7;8;8;8;8;8;8;8;8;8;8;8;8;8;8;7,"
        "1,64,1,full,false,step_time_s,1.5,\"a, quoted note\"\n";
    const auto runs = sim::parse_validation_runs(header + good, "t.csv");
    REQUIRE(runs.size() == 1);
    CHECK(runs[0].note == "a, quoted note");
    CHECK(runs[0].layout.stage_layers_first == 7);
    CHECK(runs[0].layout.stage_layers_middle == 8);
    CHECK(runs[0].layout.stage_layers_last == 7);
    const auto fails = [&](const std::string& row, const char* text) {
        try {
            sim::parse_validation_runs(header + row, "t.csv");
            FAIL("no error for " << row);
        } catch (const std::runtime_error& e) {
            CHECK_THAT(e.what(), Catch::Contains(text));
        }
    };
    std::string bad_fw = good;
    bad_fw.replace(bad_fw.find("megatron-core"), 13, "caffe");
    fails(bad_fw, "t.csv:2, column framework: unknown framework 'caffe'");
    std::string bad_stages = good;
    bad_stages.replace(bad_stages.find("7;8;"), 4, "9;8;");
    fails(bad_stages, "column stage_layers: holds 128 layers, but the model has 126");
    // The fused kernel's generation (optional column): flash1 needs a fused kernel.
    const std::string kernel_header = header.substr(0, header.size() - 1) + ",attention_kernel\n";
    const std::string v1 = good.substr(0, good.size() - 1) + ",flash1\n";
    CHECK(sim::parse_validation_runs(kernel_header + v1, "t.csv")[0]
              .workload.shape.flash_attention_v1);
    std::string unfused = v1;
    unfused.replace(unfused.find(",true,bf16,"), 11, ",false,bf16,");
    CHECK_THROWS_WITH(sim::parse_validation_runs(kernel_header + unfused, "t.csv"),
                      Catch::Contains("column attention_kernel: names a fused kernel"));
    CHECK_THROWS_WITH(sim::parse_validation_runs(
                          kernel_header + good.substr(0, good.size() - 1) + ",flash9\n", "t.csv"),
                      Catch::Contains("expected flash1 or flash2, got 'flash9'"));
    // torch_compile false (optional column): eager pointwise kernels, for pytorch-fsdp Llama-style
    // blocks only.
    const std::string compile_header = header.substr(0, header.size() - 1) +
                                       ",tdp_w,power_limit_w,attention_kernel,torch_compile\n";
    std::string fsdp = good;
    fsdp.replace(fsdp.find("megatron-core"), 13, "pytorch-fsdp");
    fsdp.replace(fsdp.find(",false,32000,"), 13, ",true,32000,");
    const std::string eager = fsdp.substr(0, fsdp.size() - 1) + ",,,,false\n";
    CHECK(sim::parse_validation_runs(compile_header + eager, "t.csv")[0]
              .workload.shape.eager_elementwise);
    CHECK_FALSE(sim::parse_validation_runs(
                    compile_header + fsdp.substr(0, fsdp.size() - 1) + ",,,,true\n", "t.csv")[0]
                    .workload.shape.eager_elementwise);
    CHECK_THROWS_WITH(
        sim::parse_validation_runs(compile_header + good.substr(0, good.size() - 1) + ",,,,false\n",
                                   "t.csv"),
        Catch::Contains("column torch_compile: false is counted for pytorch-fsdp"));
    // head_positions: the vocabulary head's positions per sequence, at most the sequence.
    const std::string head_header = header.substr(0, header.size() - 1) + ",head_positions\n";
    CHECK(sim::parse_validation_runs(head_header + good.substr(0, good.size() - 1) + ",20\n",
                                     "t.csv")[0]
              .workload.shape.head_positions == 20);
    CHECK_THROWS(sim::parse_validation_runs(
        head_header + good.substr(0, good.size() - 1) + ",4096\n", "t.csv"));
    // A GeLU (BERT-style) block under megatron-lm's profile runs its pointwise ops eagerly.
    std::string gelu = good;
    gelu.replace(gelu.find("megatron-core"), 13, "megatron-lm");
    CHECK(sim::parse_validation_runs(
              compile_header + gelu.substr(0, gelu.size() - 1) + ",,,,false\n", "t.csv")[0]
              .workload.shape.eager_elementwise);
    // Per-run framework options (optional columns): async TP only where the framework has it.
    const std::string options_header =
        header.substr(0, header.size() - 1) +
        ",tdp_w,power_limit_w,attention_kernel,torch_compile,async_tp,grad_reduce_dtype,"
        "fp8_all_gather,model_code\n";
    const auto options_row = [](const std::string& row, const std::string& cells) {
        return row.substr(0, row.size() - 1) + ",,,,," + cells + "\n";
    };
    const auto options = sim::parse_validation_runs(
        options_header + options_row(fsdp, "true,fp32,true,llama-reference"), "t.csv")[0];
    CHECK(options.layout.async_tp);
    CHECK(options.layout.fp32_grad_reduce);
    CHECK(options.layout.fp8_param_gather);
    CHECK(options.workload.shape.llama_reference_code);
    CHECK_THROWS_WITH(
        sim::parse_validation_runs(options_header + options_row(good, "true,,,"), "t.csv"),
        Catch::Contains("column async_tp: the framework has no async TP option"));
    CHECK_THROWS_WITH(
        sim::parse_validation_runs(options_header + options_row(fsdp, ",fp64,,"), "t.csv"),
        Catch::Contains("column grad_reduce_dtype: fp32 or bf16"));
    CHECK_THROWS_WITH(
        sim::parse_validation_runs(options_header + options_row(fsdp, ",,,gpt2"), "t.csv"),
        Catch::Contains("column model_code: expected llama-reference"));
    // FSDP2's per-parameter sharding, a PyTorch FSDP option only.
    const std::string sharding_header =
        options_header.substr(0, options_header.size() - 1) + ",fsdp_sharding\n";
    CHECK(sim::parse_validation_runs(sharding_header + options_row(fsdp, ",,,,per-parameter"),
                                     "t.csv")[0]
              .layout.fsdp_per_param_copies);
    CHECK_THROWS_WITH(
        sim::parse_validation_runs(sharding_header + options_row(fsdp, ",,,,flat"), "t.csv"),
        Catch::Contains("column fsdp_sharding: expected per-parameter or empty"));
    CHECK_THROWS_WITH(
        sim::parse_validation_runs(sharding_header + options_row(good, ",,,,per-parameter"),
                                   "t.csv"),
        Catch::Contains("column fsdp_sharding: per-parameter sharding is PyTorch FSDP2's"));
    // tp_comm_overlap false: a Megatron-Core run without --tp-comm-overlap; only false is an
    // option, and only where the framework overlaps TP communication at all.
    const std::string overlap_header =
        options_header.substr(0, options_header.size() - 1) + ",tp_comm_overlap\n";
    CHECK(sim::parse_validation_runs(overlap_header + options_row(good, ",,,,false"), "t.csv")[0]
              .layout.no_tp_comm_overlap);
    CHECK_FALSE(sim::parse_validation_runs(overlap_header + options_row(good, ",,,,"), "t.csv")[0]
                    .layout.no_tp_comm_overlap);
    CHECK_THROWS_WITH(
        sim::parse_validation_runs(overlap_header + options_row(good, ",,,,true"), "t.csv"),
        Catch::Contains("column tp_comm_overlap: only false is a per-run option"));
    CHECK_THROWS_WITH(
        sim::parse_validation_runs(overlap_header + options_row(fsdp, ",,,,false"), "t.csv"),
        Catch::Contains("column tp_comm_overlap: the framework has no TP communication overlap"));
    // Fine-tuning (optional columns): the method, and the adapters' rank and targets for LoRA.
    const std::string tuning_header =
        header.substr(0, header.size() - 1) + ",training_method,lora_rank,lora_targets\n";
    const auto tuning_row = [&](const std::string& cells) {
        return tuning_header + good.substr(0, good.size() - 1) + "," + cells + "\n";
    };
    const auto lora = sim::parse_validation_runs(tuning_row("lora,32,attention"), "t.csv")[0];
    CHECK(lora.workload.finetune.method == sim::TrainingMethod::lora);
    CHECK(lora.workload.finetune.lora.rank == 32);
    CHECK(lora.workload.finetune.lora.targets == sim::LoraTargets::attention);
    CHECK(sim::parse_validation_runs(tuning_row("full,,"), "t.csv")[0].workload.finetune.method ==
          sim::TrainingMethod::full);
    CHECK(sim::parse_validation_runs(header + good, "t.csv")[0].workload.finetune.method ==
          sim::TrainingMethod::pretrain);
    CHECK_THROWS_WITH(sim::parse_validation_runs(tuning_row("dora,,"), "t.csv"),
                      Catch::Contains("column training_method: unknown method 'dora'"));
    CHECK_THROWS_WITH(sim::parse_validation_runs(tuning_row("full,16,"), "t.csv"),
                      Catch::Contains("column lora_rank: only with training_method lora"));
    CHECK_THROWS_WITH(sim::parse_validation_runs(tuning_row("lora,0,"), "t.csv"),
                      Catch::Contains("column lora_rank: must be a whole number"));
    CHECK_THROWS_WITH(sim::parse_validation_runs(tuning_row("lora,8,embeddings"), "t.csv"),
                      Catch::Contains("column lora_targets: unknown targets 'embeddings'"));
    // packed_example_tokens: examples attended separately inside each sequence, under a fused
    // kernel only and no longer than the sequence.
    const std::string packed_header =
        header.substr(0, header.size() - 1) + ",packed_example_tokens\n";
    const auto packed_row = [&](const std::string& row, const std::string& cell) {
        return packed_header + row.substr(0, row.size() - 1) + "," + cell + "\n";
    };
    CHECK(sim::parse_validation_runs(packed_row(good, "256"), "t.csv")[0]
              .workload.shape.packed_example_tokens == 256);
    CHECK(sim::parse_validation_runs(packed_row(good, ""), "t.csv")[0]
              .workload.shape.packed_example_tokens == 0);
    CHECK_THROWS_WITH(sim::parse_validation_runs(packed_row(good, "0"), "t.csv"),
                      Catch::Contains("column packed_example_tokens: must lie in [1, seq_len]"));
    CHECK_THROWS_WITH(sim::parse_validation_runs(packed_row(good, "1e9"), "t.csv"),
                      Catch::Contains("column packed_example_tokens: must lie in [1, seq_len]"));
    CHECK_THROWS_WITH(sim::parse_validation_runs(packed_row(good, "many"), "t.csv"),
                      Catch::Contains("column packed_example_tokens: not a number"));
    std::string unfused_packed = good;
    unfused_packed.replace(unfused_packed.find(",true,bf16,"), 11, ",false,bf16,");
    CHECK_THROWS_WITH(sim::parse_validation_runs(packed_row(unfused_packed, "256"), "t.csv"),
                      Catch::Contains("column packed_example_tokens: needs a fused kernel"));
    // FP8 weight storage and the FP8 activation-input store: FP8 runs only.
    const std::string fp8_header =
        header.substr(0, header.size() - 1) + ",fp8_weights,fp8_activation_input\n";
    const auto fp8_row = [&](const std::string& row, const std::string& cells) {
        return fp8_header + row.substr(0, row.size() - 1) + "," + cells + "\n";
    };
    std::string fp8 = good;
    fp8.replace(fp8.find(",true,bf16,"), 11, ",true,fp8,");
    const auto stored = sim::parse_validation_runs(fp8_row(fp8, "true,true"), "t.csv")[0];
    CHECK(stored.layout.fp8_weights);
    CHECK(stored.layout.fp8_activation_input);
    CHECK_FALSE(sim::parse_validation_runs(fp8_row(fp8, ","), "t.csv")[0].layout.fp8_weights);
    CHECK_THROWS_WITH(sim::parse_validation_runs(fp8_row(good, "true,"), "t.csv"),
                      Catch::Contains("column fp8_weights: FP8 weight storage needs precision"));
    CHECK_THROWS_WITH(sim::parse_validation_runs(fp8_row(good, ",true"), "t.csv"),
                      Catch::Contains("column fp8_activation_input: needs precision fp8"));
    std::string bad_value = good;
    bad_value.replace(bad_value.find(",1.5,"), 5, ",-1,");
    fails(bad_value, "column value");
}
