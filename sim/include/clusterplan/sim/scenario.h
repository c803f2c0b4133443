// The scenario file (`clusterplan.scenario/1`, DESIGN.md): parsed, validated, and resolved
// against hardware. Parsing errors name the field ("parallel.tp: must divide model.heads (96)").
#pragma once

#include "clusterplan/sim/framework.h"
#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/serving.h"
#include "clusterplan/sim/spot_price_stats.h"
#include "clusterplan/sim/workload.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cp::sim {

// Thrown for any bad scenario input; what() is one sentence naming the field and the reason.
class ScenarioError : public std::runtime_error {
public:
    ScenarioError(std::string field, const std::string& reason)
        : std::runtime_error(field + ": " + reason), field_(std::move(field)) {}
    // "scenario.json: parallel.tp: must divide model.heads (96)"
    ScenarioError(const std::string& origin, std::string field, const std::string& reason)
        : std::runtime_error((origin.empty() ? "" : origin + ": ") + field + ": " + reason),
          field_(std::move(field)) {}
    const std::string& field() const { return field_; }

private:
    std::string field_;
};

// Upper limit of cluster.nodes and constraints.max_nodes: 8192 nodes (65k GPUs) is beyond any
// published training run, and keeps a sweep's per-(instance, node count) results bounded.
inline constexpr int kMaxScenarioNodes = 8192;

enum class Objective { cost, time, cost_under_deadline, time_under_budget };
// The purchase option a scenario asks for; `any` (the default) compares every option the catalog
// prices and constraints.allow_spot permits (DESIGN.md "Purchase options").
enum class Pricing { on_demand, spot, any, capacity_block, reserved_1y, reserved_3y };

// Custom hardware (cluster.custom): NaN/empty = not given, take from the catalog instance.
struct CustomHardware {
    std::string accelerator;
    int accelerators_per_node = 0;
    double intra_node_gbytes_per_s = kUnknown;
    double inter_node_gbps = kUnknown;
    double inter_node_latency_us = kUnknown;
    double usd_per_node_hour = kUnknown;
    double nvme_gbytes_per_s = kUnknown; // node's local NVMe read bandwidth (NVMe offload)
    // Accelerator figures replacing the catalog's (NaN = keep): dense peaks per precision,
    // memory per device, device memory bandwidth.
    std::array<double, kPrecisionCount> peak_tflops{kUnknown, kUnknown, kUnknown, kUnknown,
                                                    kUnknown};
    double memory_gib = kUnknown;
    double hbm_gbytes_per_s = kUnknown;
};

// Parallel settings as written: std::nullopt means "search this".
struct ParallelSpec {
    std::optional<int> tp, pp, dp, micro_batch;
    int global_batch = 0; // 0 = preset/default
    std::optional<int> virtual_stages;
    Schedule schedule = Schedule::one_f_one_b;
    bool sequence_parallel = false;
    std::optional<int> zero;
    std::optional<Recompute> recompute;
    DpComm dp_comm = DpComm::ring;
    int parameter_servers = 0;
    PsSync ps_sync = PsSync::sync;
    bool overlap_dp = true;
    double grad_compression = 1.0;
    std::optional<int> ep;  // expert parallel size; nullopt = searched (MoE models)
    std::optional<int> etp; // expert tensor parallel size; nullopt = 1
    EpDispatcher ep_dispatcher = EpDispatcher::alltoall;
    bool moe_a2a_overlap = false;
    Offload offload;
    // Context parallelism (ring attention); nullopt = searched for long sequences.
    std::optional<int> cp;
    // Layers per pipeline stage, first to last; empty = the default split (pipeline_stages.h).
    std::vector<int> stage_layers;
    bool sequence_parallel_given = false; // else searched whenever tp > 1
    // Layout::distribute_saved_activations; needs recompute full and sequence_parallel false.
    bool distribute_saved_activations = false;
};

struct TrainingSpec {
    double tokens = 0; // one of tokens / samples / epochs*dataset_samples
    double samples = 0;
    double epochs = 0;
    double dataset_samples = 0;
    int trials = 1;              // hyper-parameter tuning: number of training jobs
    int max_parallel_trials = 1; // SageMaker max_parallel_jobs (1 = trials run one by one)
    // Fine-tuning data (training.examples, seq_len, example_tokens, packing; with epochs): the
    // sequence length trained (overrides model.seq_len), and examples of `example_tokens` tokens
    // each (default: seq_len) that are padded to it, or packed back to back with `packing`.
    double examples = 0;
    int seq_len = 0;
    double example_tokens = 0;
    bool packing = true;
    Optimizer optimizer = Optimizer::adamw;
    // Training software; automatic = Megatron-Core on NVIDIA GPUs (PyTorch FSDP for ZeRO-2/3),
    // NeuronX Distributed on Trainium (framework.h). The plan names the one it assumed.
    Framework framework = Framework::automatic;
    // false: a pytorch-fsdp Llama-style block runs its pointwise ops as eager PyTorch kernels
    // (TransformerShape::eager_elementwise); true or absent: fused (torch.compile, fused kernels).
    std::optional<bool> torch_compile;
    // true: FP8 plans keep the linear layers' weights as FP8 with no 16-bit copy
    // (Layout::fp8_weights; Transformer Engine fp8_model_init, NeMo fp8_params).
    bool fp8_weights = false;
    // true: data-parallel gradients are reduced in fp32, false: in the weights' 16 bits
    // (Layout::fp32_grad_reduce); absent: the framework's default (Megatron-LM/Core and NeMo
    // reduce BF16 runs' gradients in fp32, framework.h resolve_fp32_grad_reduce).
    std::optional<bool> fp32_grad_reduce;
};

struct SpotSpec {
    double checkpoint_write_s = 120;
    double restart_s = 600;
    // true: the job writes a checkpoint inside AWS's 2-minute notice (needs checkpoint_write_s
    // <= 120), so an interruption loses no work; false: only periodic (Young/Daly) checkpoints.
    bool checkpoint_on_notice = false;
    SpotPriceRule price_rule; // which statistic of the spot price history is used
};

// Optional checkpoint storage cost line (storage section).
enum class StorageService { none, s3, fsx_lustre };
struct StorageSpec {
    StorageService service = StorageService::none;
    int checkpoints_kept = 2;           // how many full checkpoints are stored at once
    double usd_per_gb_month = kUnknown; // NaN: the service's published us-east-1 rate
    double checkpoint_gb = kUnknown;    // NaN: derived from the parameter count
};

struct Constraints {
    int max_nodes = 512;
    bool max_nodes_given = false; // the default never caps an explicit cluster.nodes
    double deadline_hours = kUnknown;
    double budget_usd = kUnknown;
    std::vector<std::string> instances; // empty = all that can train
    bool allow_spot = true;
    Objective objective = Objective::cost;
    // Memory headroom: the share of each device's memory a layout the planner chooses may fill.
    // The rest is for what the model does not count - the CUDA context, the caching allocator's
    // fragmentation (ZeRO, Rajbhandari et al. 2020, sec. 6.3: out of memory "with over 30 % of
    // memory still available" on large models) and NCCL buffers. 0.9 is vLLM's default
    // gpu_memory_utilization for the same reason. A layout the scenario fixes completely is
    // evaluated as given, and the plan says when it exceeds this.
    double max_memory_fraction = 0.9;
};

struct Scenario {
    std::string name;
    std::string preset; // model preset id, empty for custom shapes
    Workload workload;
    std::string instance;     // empty = search (sweep/recommend only)
    std::optional<int> nodes; // empty = search (sweep/recommend only)
    std::string region = "us-east-1";
    Pricing pricing = Pricing::any;
    std::string calibration = "datasheet";
    std::optional<CustomHardware> custom;
    ParallelSpec parallel;
    Precision precision = Precision::bf16;
    // Precisions to fall back to, in order, on parts that cannot run `precision` (precision
    // "auto" or a list); empty = no fallback.
    std::vector<Precision> precision_fallbacks;
    bool precision_auto = false;
    StorageSpec storage;
    TrainingSpec training;
    // Inference serving (`serving` section, DESIGN.md "Inference serving"); empty for training.
    std::optional<ServingSpec> serving;
    SpotSpec spot;
    Constraints constraints;
    // Added by parsing: where the scenario came from (for errors) and the defaults it filled in
    // that a reader should know about (stated as assumptions in every plan report).
    std::string origin;
    std::vector<std::string> notes;
};

// Parses and validates a scenario document (JSON text). `origin` names the file in errors.
Scenario parse_scenario(const std::string& json_text, const std::string& origin);
// The field paths the parser looks up while reading `json_text`, given or not ("model.layers",
// "serving.slo.p", "training.seq_phases[0].seq_len"), sorted: the fields a scenario may hold in
// the sections the document has. A section it leaves out is not entered, so its fields are not
// listed; a document the parser refuses lists those looked up before the error.
std::vector<std::string> scenario_field_paths(const std::string& json_text);
// Serialises back to `clusterplan.scenario/1` JSON (round-trips through parse_scenario).
std::string scenario_to_json(const Scenario& scenario);

// Names used in the file format, shared by the plan report and the GUI.
const char* enum_name(Precision p);
const char* enum_name(Recompute r);
const char* enum_name(Schedule s);
const char* enum_name(DpComm d);
const char* enum_name(PsSync s);
const char* enum_name(Pricing p);
const char* enum_name(Objective o);
const char* enum_name(TrainingMethod m);
const char* enum_name(LoraTargets t);
const char* enum_name(Optimizer o);
const char* enum_name(OffloadTarget t);
const char* enum_name(StorageService s);

// Whether the scenario's blocks run their pointwise ops as eager kernels: training.torch_compile
// false, which the parser accepts for pytorch-fsdp with Llama-style (gated) blocks only.
bool eager_pointwise_kernels(const Scenario& sc);

} // namespace cp::sim
