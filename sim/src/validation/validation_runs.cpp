#include "clusterplan/sim/validation_runs.h"

#include "engine/pipeline_stages.h"
#include "io/scenario_training_options.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>

namespace cp::sim {
namespace {

constexpr std::size_t kMaxFields = 64;
constexpr std::size_t kMaxRows = 100000;

// One CSV record: comma separated, double quotes around fields that hold commas.
std::vector<std::string> split_record(const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '"') {
            if (quoted && i + 1 < line.size() && line[i + 1] == '"') {
                out.back() += '"';
                ++i;
            } else {
                quoted = !quoted;
            }
        } else if (c == ',' && !quoted) {
            if (out.size() >= kMaxFields) throw std::runtime_error("more than 64 fields");
            out.emplace_back();
        } else {
            out.back() += c;
        }
    }
    return out;
}

class Row {
public:
    Row(const std::map<std::string, std::size_t>& columns, std::vector<std::string> cells,
        std::string where)
        : columns_(columns), cells_(std::move(cells)), where_(std::move(where)) {}
    const std::string& text(const char* key) const {
        auto it = columns_.find(key);
        if (it == columns_.end()) fail(key, "column missing");
        static const std::string empty;
        return it->second < cells_.size() ? cells_[it->second] : empty;
    }
    bool has(const char* key) const { return !text(key).empty(); }
    // A column later schema additions brought: an older file without it reads as empty.
    bool has_optional(const char* key) const {
        return columns_.find(key) != columns_.end() && has(key);
    }
    double number(const char* key) const {
        const std::string& t = text(key);
        std::size_t used = 0;
        double v = 0;
        try {
            v = std::stod(t, &used);
        } catch (const std::exception&) {
            fail(key, "not a number: '" + t + "'");
        }
        if (used != t.size() || !std::isfinite(v) || v < 0)
            fail(key, "not a non-negative number: '" + t + "'");
        return v;
    }
    int integer(const char* key, int lo, int hi) const {
        const double v = number(key);
        if (v != std::floor(v) || v < lo || v > hi)
            fail(key, "must be a whole number in [" + std::to_string(lo) + ", " +
                          std::to_string(hi) + "]");
        return static_cast<int>(v);
    }
    bool optional_flag(const char* key) const { return has_optional(key) && flag(key); }
    bool flag(const char* key) const {
        const std::string& t = text(key);
        if (t == "true" || t == "1") return true;
        if (t == "false" || t == "0" || t.empty()) return false;
        fail(key, "must be true or false, got '" + t + "'");
    }
    [[noreturn]] void fail(const std::string& key, const std::string& why) const {
        throw std::runtime_error(where_ + ", column " + key + ": " + why);
    }

private:
    const std::map<std::string, std::size_t>& columns_;
    std::vector<std::string> cells_;
    std::string where_;
};

Precision parse_precision(const Row& row) {
    const std::string& t = row.text("precision");
    for (auto [name, p] : {std::pair{"fp32", Precision::fp32},
                           {"tf32", Precision::tf32},
                           {"fp16", Precision::fp16},
                           {"bf16", Precision::bf16},
                           {"fp8", Precision::fp8}})
        if (t == name) return p;
    row.fail("precision", "unknown precision '" + t + "'");
}

RunMetric parse_metric(const Row& row) {
    const std::string& t = row.text("metric");
    for (RunMetric m :
         {RunMetric::step_time_s, RunMetric::tokens_per_s_per_device, RunMetric::samples_per_s,
          RunMetric::model_tflops_per_device, RunMetric::hardware_tflops_per_device})
        if (t == enum_name(m)) return m;
    row.fail("metric", "unknown metric '" + t + "'");
}

Cluster parse_cluster(const Row& row, Precision precision) {
    Cluster c;
    const int devices = row.integer("devices", 1, 1 << 20);
    const int per_node = row.integer("devices_per_node", 1, 1024);
    if (devices % per_node != 0) row.fail("devices", "must be a multiple of devices_per_node");
    c.nodes = devices / per_node;
    NodeSpec& n = c.node;
    n.instance_type = "fixture";
    AcceleratorSpec& a = n.accelerator;
    a.id = row.text("accelerator");
    const bool trainium = a.id.starts_with("Trainium");
    a.vendor = trainium ? "AWS" : "NVIDIA";
    a.is_gpu = !trainium;
    a.eager_kernel_issue = !trainium; // Neuron compiles the step (hardware.h)
    a.max_zero_stage = trainium ? 1 : 3;
    a.peak_tflops[static_cast<int>(Precision::fp16)] = row.number("peak_tflops_half");
    a.peak_tflops[static_cast<int>(Precision::bf16)] = row.number("peak_tflops_half");
    if (row.has("peak_tflops_fp8"))
        a.peak_tflops[static_cast<int>(Precision::fp8)] = row.number("peak_tflops_fp8");
    // TF32 and FP32 runs (CNN and BERT fixtures) carry their dense peaks in optional columns.
    for (auto [p, key] : {std::pair{Precision::tf32, "peak_tflops_tf32"},
                          std::pair{Precision::fp32, "peak_tflops_fp32"}})
        if (row.has_optional(key)) a.peak_tflops[static_cast<int>(p)] = row.number(key);
    if ((precision == Precision::fp32 || precision == Precision::tf32) && !(a.peak(precision) > 0))
        row.fail("precision", "a tf32 or fp32 run needs its peak_tflops_tf32 / peak_tflops_fp32");
    a.memory_gib = row.number("memory_gib");
    if (row.has_optional("tdp_w")) a.tdp_w = row.number("tdp_w");
    if (row.has_optional("power_limit_w")) a.power_limit_w = row.number("power_limit_w");
    a.hbm_gbytes_per_s = row.number("hbm_gbytes_per_s");
    a.link_gbytes_per_s = row.number("intra_node_gbytes_per_s");
    n.accelerators_per_node = per_node;
    const std::string& link = row.text("link");
    n.intra_link = link == "nvswitch"     ? IntraNodeLink::nvswitch
                   : link == "nvlink"     ? IntraNodeLink::nvlink
                   : link == "neuronlink" ? IntraNodeLink::neuronlink
                   : link == "pcie"
                       ? IntraNodeLink::pcie
                       : (row.fail("link", "unknown link '" + link + "'"), IntraNodeLink::none);
    n.intra_node_gbytes_per_s = a.link_gbytes_per_s;
    n.inter_node_gbps = row.number("inter_node_gbps");
    n.efa = true;
    return c;
}

Workload parse_workload(const Row& row) {
    Workload w;
    w.name = row.text("model");
    // A generic model (CNN) is given by its parameters and FLOPs per sample (workload.h), as the
    // planner takes it from a scenario; the shape columns stay empty.
    if (row.has_optional("flops_per_sample")) {
        if (row.has("layers")) row.fail("layers", "a generic model has no transformer shape");
        w.kind = WorkloadKind::generic;
        w.params = row.number("params");
        w.flops_per_sample = row.number("flops_per_sample");
        if (!(w.params > 0) || !(w.flops_per_sample > 0))
            row.fail("flops_per_sample", "params and flops_per_sample must be positive");
        return w;
    }
    w.kind = WorkloadKind::transformer;
    TransformerShape& s = w.shape;
    s.layers = row.integer("layers", 1, 100000);
    s.hidden = row.integer("hidden", 1, 1 << 20);
    s.heads = row.integer("heads", 1, 1 << 16);
    s.kv_heads = row.has("kv_heads") ? row.integer("kv_heads", 1, 1 << 16) : s.heads;
    s.ffn_hidden = row.has("ffn_hidden") ? row.integer("ffn_hidden", 1, 1 << 22) : 4 * s.hidden;
    s.gated_mlp = row.flag("gated_mlp");
    s.vocab = row.integer("vocab", 1, 1 << 22);
    s.seq_len = row.integer("seq_len", 1, 1 << 24);
    s.learned_positions = row.flag("learned_positions");
    s.flash_attention = row.flag("flash_attention");
    if (row.has_optional("attention_kernel")) {
        const std::string& kernel = row.text("attention_kernel");
        if (kernel != "flash1" && kernel != "flash2")
            row.fail("attention_kernel", "expected flash1 or flash2, got '" + kernel + "'");
        if (!s.flash_attention)
            row.fail("attention_kernel", "names a fused kernel but flash_attention is false");
        s.flash_attention_v1 = kernel == "flash1";
    }
    // head_positions: positions per sequence the vocabulary head runs over (workload.h); empty:
    // every position.
    if (row.has_optional("head_positions"))
        s.head_positions = row.integer("head_positions", 0, s.seq_len);
    // training_method (workload.h finetune): full fine-tuning or low-rank adapters over frozen
    // weights, with lora_rank and lora_targets as scenarios name them; empty: pre-training.
    if (row.has_optional("training_method")) {
        const std::string& m = row.text("training_method");
        const auto& methods = scenario_io::kMethods;
        const auto it = std::find_if(methods.begin(), methods.end(),
                                     [&](const auto& entry) { return m == entry.second; });
        if (it == methods.end()) row.fail("training_method", "unknown method '" + m + "'");
        w.finetune.method = it->first;
    }
    const bool rank = row.has_optional("lora_rank"), targets = row.has_optional("lora_targets");
    if ((rank || targets) && !w.finetune.adapters())
        row.fail(rank ? "lora_rank" : "lora_targets", "only with training_method lora or qlora");
    if (rank) w.finetune.lora.rank = row.integer("lora_rank", 1, 1 << 16);
    if (targets) {
        const std::string& t = row.text("lora_targets");
        const auto& names = scenario_io::kLoraTargets;
        const auto it = std::find_if(names.begin(), names.end(),
                                     [&](const auto& entry) { return t == entry.second; });
        if (it == names.end()) row.fail("lora_targets", "unknown targets '" + t + "'");
        w.finetune.lora.targets = it->first;
    }
    // packed_example_tokens: mean tokens of the examples packed into each sequence and attended
    // separately (workload.h); empty: one example per sequence.
    if (row.has_optional("packed_example_tokens")) {
        if (!s.flash_attention)
            row.fail("packed_example_tokens", "needs a fused kernel (flash_attention true)");
        s.packed_example_tokens = row.number("packed_example_tokens");
        if (s.packed_example_tokens < 1 || s.packed_example_tokens > s.seq_len)
            row.fail("packed_example_tokens", "must lie in [1, seq_len]");
    }
    return w;
}

Layout parse_layout(const Row& row, const Workload& w, Framework framework, bool& mb_searched,
                    bool& v_searched) {
    Layout l;
    l.framework = framework;
    l.tp = row.integer("tp", 1, 4096);
    l.pp = row.integer("pp", 1, 4096);
    l.dp = row.integer("dp", 1, 1 << 20);
    l.cp = row.has("cp") ? row.integer("cp", 1, 4096) : 1;
    l.global_batch = row.integer("global_batch", 1, 1 << 26);
    mb_searched = !row.has("micro_batch");
    l.micro_batch = mb_searched ? 1 : row.integer("micro_batch", 1, 1 << 20);
    v_searched = !row.has("virtual_stages") && row.text("schedule") == "interleaved";
    l.virtual_stages = row.has("virtual_stages") ? row.integer("virtual_stages", 1, 1024) : 1;
    l.schedule = row.text("schedule") == "interleaved" || l.virtual_stages > 1
                     ? Schedule::interleaved
                     : Schedule::one_f_one_b;
    l.zero = row.integer("zero", 0, 3);
    const std::string& rc = row.text("recompute");
    l.recompute = rc == "full"        ? Recompute::full
                  : rc == "selective" ? Recompute::selective
                                      : Recompute::none;
    if (rc != "full" && rc != "selective" && rc != "none")
        row.fail("recompute", "none, selective or full");
    l.sequence_parallel = row.flag("sequence_parallel");
    // Per-run framework options (plan.h): optional columns, empty = off.
    l.async_tp = row.optional_flag("async_tp");
    if (l.async_tp && !framework_profile(framework).async_tp_option)
        row.fail("async_tp", "the framework has no async TP option");
    // tp_comm_overlap false: a Megatron-Core run without --tp-comm-overlap (Layout).
    if (row.has_optional("tp_comm_overlap")) {
        if (row.flag("tp_comm_overlap"))
            row.fail("tp_comm_overlap", "only false is a per-run option (empty = the framework's)");
        if (!framework_profile(framework).tp_comm_overlap)
            row.fail("tp_comm_overlap", "the framework has no TP communication overlap");
        l.no_tp_comm_overlap = true;
    }
    // Empty: the framework's default for the run's precision (resolve_fp32_grad_reduce).
    if (row.has_optional("grad_reduce_dtype")) {
        const std::string& d = row.text("grad_reduce_dtype");
        if (d != "fp32" && d != "bf16") row.fail("grad_reduce_dtype", "fp32 or bf16");
        l.fp32_grad_reduce = d == "fp32";
    }
    l.fp8_param_gather = row.optional_flag("fp8_all_gather");
    l.dp_reduce_per_tensor = row.optional_flag("dp_reduce_per_tensor");
    if (row.has_optional("dp_bucket_mb")) l.dp_bucket_bytes = row.number("dp_bucket_mb") * 1048576;
    l.fp8_weights = row.optional_flag("fp8_weights"); // FP8 linear weights (Layout)
    if (l.fp8_weights && row.text("precision") != "fp8")
        row.fail("fp8_weights", "FP8 weight storage needs precision fp8");
    if (l.fp8_weights && w.finetune.method == TrainingMethod::qlora)
        row.fail("fp8_weights", "QLoRA stores its frozen weights as NF4");
    l.fp8_activation_input = row.optional_flag("fp8_activation_input"); // MLP input as FP8
    if (l.fp8_activation_input && row.text("precision") != "fp8")
        row.fail("fp8_activation_input", "needs precision fp8");
    // tp_input_gather per-projection: Layout::tp_gather_per_projection (DTensor TP plans only).
    if (row.has_optional("tp_input_gather")) {
        if (row.text("tp_input_gather") != "per-projection")
            row.fail("tp_input_gather", "expected per-projection or empty");
        if (framework != Framework::pytorch_fsdp)
            row.fail("tp_input_gather", "per-projection gathers are a PyTorch TP plan's");
        l.tp_gather_per_projection = true;
    }
    // fsdp_sharding per-parameter: Layout::fsdp_per_param_copies (PyTorch FSDP2 only).
    if (row.has_optional("fsdp_sharding")) {
        if (row.text("fsdp_sharding") != "per-parameter")
            row.fail("fsdp_sharding", "expected per-parameter or empty");
        if (framework != Framework::pytorch_fsdp)
            row.fail("fsdp_sharding", "per-parameter sharding is PyTorch FSDP2's");
        l.fsdp_per_param_copies = true;
    }
    l.distribute_saved_activations = row.optional_flag("distribute_saved_activations");
    l.cuda_graphs = row.optional_flag("cuda_graphs"); // per-layer CUDA graphs (Layout)
    // The optimizer as scenarios name it (adamw-bf16: all state BF16, Neuron XLA_USE_BF16).
    if (row.has_optional("optimizer")) {
        const std::string& o = row.text("optimizer");
        const auto& names = scenario_io::kOptimizers;
        const auto it = std::find_if(names.begin(), names.end(),
                                     [&](const auto& entry) { return o == entry.second; });
        if (it == names.end()) row.fail("optimizer", "unknown optimizer '" + o + "'");
        l.optimizer = it->first;
    }
    if (row.has("stage_layers")) {
        std::vector<int> stages;
        std::string item;
        for (char c : row.text("stage_layers") + ";") {
            if (c != ';') {
                item += c;
                continue;
            }
            try {
                stages.push_back(std::stoi(item));
            } catch (const std::exception&) {
                row.fail("stage_layers", "not a list of layer counts separated by ';'");
            }
            item.clear();
        }
        if (const std::string why = set_stage_layers(stages, w.shape.layers, l); !why.empty())
            row.fail("stage_layers", why);
    }
    return l;
}

} // namespace

std::string_view enum_name(RunMetric metric) {
    switch (metric) {
    case RunMetric::step_time_s:
        return "step_time_s";
    case RunMetric::tokens_per_s_per_device:
        return "tokens_per_s_per_device";
    case RunMetric::samples_per_s:
        return "samples_per_s";
    case RunMetric::model_tflops_per_device:
        return "model_tflops_per_device";
    case RunMetric::hardware_tflops_per_device:
        return "hardware_tflops_per_device";
    }
    return "step_time_s";
}

double metric_value(RunMetric metric, const PlanResult& r, int devices) {
    switch (metric) {
    case RunMetric::step_time_s:
        return r.step_time_s;
    case RunMetric::tokens_per_s_per_device:
        return r.tokens_per_s / devices;
    case RunMetric::samples_per_s:
        return r.samples_per_s;
    case RunMetric::model_tflops_per_device:
        return r.model_tflops_per_device;
    case RunMetric::hardware_tflops_per_device:
        return r.hardware_tflops_per_device;
    }
    return r.step_time_s;
}

std::vector<ValidationRun> parse_validation_runs(const std::string& text,
                                                 const std::string& origin) {
    std::vector<ValidationRun> runs;
    std::map<std::string, std::size_t> columns;
    std::size_t line_no = 0, start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        start = end + 1;
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        const std::string where = origin + ":" + std::to_string(line_no);
        std::vector<std::string> cells;
        try {
            cells = split_record(line);
        } catch (const std::exception& e) {
            throw std::runtime_error(where + ": " + e.what());
        }
        if (columns.empty()) {
            for (std::size_t i = 0; i < cells.size(); ++i)
                columns[cells[i]] = i;
            continue;
        }
        if (runs.size() >= kMaxRows) throw std::runtime_error(where + ": more than 100000 rows");
        const Row row(columns, std::move(cells), where);
        ValidationRun run;
        run.id = row.text("id");
        run.source = row.text("source");
        if (run.id.empty() || run.source.empty()) row.fail("id", "id and source are required");
        run.precision = parse_precision(row);
        run.workload = parse_workload(row);
        // A generic model names no framework: it is planned as a scenario without one is.
        const bool generic = run.workload.kind == WorkloadKind::generic;
        const auto fw = generic && !row.has("framework")
                            ? std::optional{Framework::automatic}
                            : framework_from_name(row.text("framework"));
        if (!fw) row.fail("framework", "unknown framework '" + row.text("framework") + "'");
        run.framework = *fw;
        // torch_compile false: the Llama block's pointwise ops run as eager PyTorch kernels
        // (TransformerShape::eager_elementwise); true or empty: fused.
        // A gated block is the Llama reference code under pytorch-fsdp or DeepSpeed's engine
        // (which trains the module it is handed, e.g. Hugging Face's eager LlamaForCausalLM); a
        // GeLU block is the BERT reference code (transformer_work.cpp) in plain PyTorch
        // (megatron-lm's profile or pytorch-fsdp). Megatron-Core and the other engines always
        // run fused kernels.
        if (row.has_optional("torch_compile") && !row.flag("torch_compile")) {
            const bool gated = run.workload.shape.gated_mlp;
            const bool plain_pytorch = run.framework == Framework::pytorch_fsdp ||
                                       (gated && run.framework == Framework::deepspeed) ||
                                       (!gated && run.framework == Framework::megatron_lm);
            if (!plain_pytorch)
                row.fail("torch_compile", "false is counted for pytorch-fsdp or deepspeed "
                                          "Llama-style (gated MLP) blocks and for megatron-lm "
                                          "or pytorch-fsdp GeLU blocks");
            run.workload.shape.eager_elementwise = true;
        }
        // model_code llama-reference: the reference block's complex RoPE and separate
        // projections (TransformerShape::llama_reference_code).
        if (row.has_optional("model_code")) {
            if (row.text("model_code") != "llama-reference")
                row.fail("model_code", "expected llama-reference or empty");
            run.workload.shape.llama_reference_code = true;
        }
        run.cluster = parse_cluster(row, run.precision);
        run.layout = parse_layout(row, run.workload, run.framework, run.micro_batch_searched,
                                  run.virtual_stages_searched);
        run.metric = parse_metric(row);
        run.measured = row.number("value");
        if (!(run.measured > 0)) row.fail("value", "must be positive");
        run.note = row.text("note");
        // fit false: a held-out source (ValidationRun::in_fit); true or empty: fitted.
        if (row.has_optional("fit")) run.in_fit = row.flag("fit");
        runs.push_back(std::move(run));
    }
    return runs;
}

RunPrediction predict_run(const ValidationRun& run, const FactorTable* factors) {
    const FactorTable& table = factors ? *factors : fitted_factor_table();
    // A generic model's whole-step fraction is already a measured rate: the transformer factors
    // do not apply to it (as the planner evaluates it, step_model.cpp).
    const double eff =
        run.workload.kind == WorkloadKind::generic
            ? 1.0
            : table
                  .lookup(run.framework, accelerator_generation(run.cluster.node.accelerator),
                          run.precision)
                  .efficiency;
    std::vector<int> mbs{run.layout.micro_batch}, vs{run.layout.virtual_stages};
    if (run.micro_batch_searched) {
        mbs.clear();
        for (int b = 1; b <= 16; ++b)
            mbs.push_back(b);
    }
    if (run.virtual_stages_searched) {
        vs.clear();
        for (int v = 1; v <= 8; ++v)
            vs.push_back(v);
    }
    // The fastest plan that fits; when none fits (the memory model is conservative), the one
    // closest to fitting, timed all the same and marked.
    RunPrediction best;
    for (int b : mbs) {
        for (int v : vs) {
            Layout l = run.layout;
            l.micro_batch = b;
            l.virtual_stages = v;
            if (v > 1) l.schedule = Schedule::interleaved;
            const PlanResult r =
                evaluate_with_efficiency(run.workload, run.cluster, l, run.precision, nullptr, eff);
            const bool timed = r.valid() || r.limit == Limit::out_of_memory;
            if (!timed) {
                if (!best.valid) best.result = r;
                continue;
            }
            const bool better = !best.valid || (r.valid() && !best.fits) ||
                                (r.valid() == best.fits &&
                                 (r.valid() ? r.step_time_s < best.result.step_time_s
                                            : r.memory_gib.total < best.result.memory_gib.total));
            if (!better) continue;
            best.valid = true;
            best.fits = r.valid();
            best.result = r;
            best.layout = l;
        }
    }
    if (best.valid) {
        best.predicted = metric_value(run.metric, best.result, run.cluster.devices());
        best.error = best.predicted / run.measured - 1.0;
    }
    return best;
}

} // namespace cp::sim
