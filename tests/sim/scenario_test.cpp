// Scenario file (`clusterplan.scenario/1`) parsing, validation and round trip; model presets.
#include "clusterplan/sim/presets.h"
#include "clusterplan/sim/scenario.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace cp::sim;

namespace {

// The example document of DESIGN.md "Scenario file", verbatim.
const char* kDesignExample = R"({
  "schema": "clusterplan.scenario/1",
  "name": "GPT-3 175B on P4d",
  "model": {
    "preset": "gpt3-175b",
    "layers": 96, "hidden": 12288, "heads": 96, "kv_heads": 96,
    "ffn_hidden": 49152, "gated_mlp": false, "seq_len": 2048, "vocab": 51200,
    "params": null, "flops_per_sample": null
  },
  "cluster": {
    "instance": "p4d.24xlarge", "nodes": 128, "region": "us-east-1",
    "pricing": "on_demand",
    "calibration": "datasheet",
    "custom": {
      "accelerator": "A100-80GB", "accelerators_per_node": 8,
      "intra_node_gbytes_per_s": 300, "inter_node_gbps": 1600,
      "inter_node_latency_us": 5, "usd_per_node_hour": 0
    }
  },
  "parallel": {
    "tp": 8, "pp": 8, "dp": 16, "micro_batch": 1, "global_batch": 1536,
    "schedule": "1f1b", "virtual_stages": 1, "sequence_parallel": false,
    "zero": 1, "recompute": "full",
    "dp_comm": "ring", "parameter_servers": 0, "ps_sync": "sync",
    "overlap_dp": true, "grad_compression": 1.0
  },
  "precision": "bf16",
  "training": { "tokens": 3.0e11 },
  "spot": { "checkpoint_write_s": 120, "restart_s": 600 },
  "constraints": { "max_nodes": 512, "deadline_hours": null, "budget_usd": null,
                   "instances": [], "allow_spot": true, "objective": "cost" }
})";

// Parses `text` expecting a ScenarioError; returns its message.
std::string error_of(const std::string& text) {
    try {
        parse_scenario(text, "scenario.json");
    } catch (const ScenarioError& e) {
        return e.what();
    }
    FAIL("expected a ScenarioError for: " << text);
    return {};
}

std::string minimal(const std::string& extra) {
    return R"({"model": {"preset": "gpt3-175b"}, "cluster": {"instance": "p4d.24xlarge", "nodes": 4})" +
           (extra.empty() ? std::string() : ", " + extra) + "}";
}

std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("the DESIGN.md example scenario parses with every field", "[scenario]") {
    const Scenario sc = parse_scenario(kDesignExample, "design.json");
    CHECK(sc.name == "GPT-3 175B on P4d");
    CHECK(sc.preset == "gpt3-175b");
    CHECK(sc.workload.kind == WorkloadKind::transformer);
    CHECK(sc.workload.shape.layers == 96);
    CHECK(sc.workload.shape.hidden == 12288);
    CHECK(sc.workload.shape.vocab == 51200);
    CHECK(sc.instance == "p4d.24xlarge");
    REQUIRE(sc.nodes);
    CHECK(*sc.nodes == 128);
    REQUIRE(sc.custom);
    CHECK(sc.custom->accelerator == "A100-80GB");
    CHECK(sc.custom->inter_node_gbps == 1600);
    CHECK(sc.custom->usd_per_node_hour == 0);
    CHECK(sc.parallel.tp == 8);
    CHECK(sc.parallel.pp == 8);
    CHECK(sc.parallel.dp == 16);
    CHECK(sc.parallel.global_batch == 1536);
    CHECK(sc.parallel.recompute == Recompute::full);
    CHECK(sc.parallel.zero == 1);
    CHECK(sc.precision == Precision::bf16);
    CHECK(sc.training.tokens == 3.0e11);
    CHECK(sc.spot.restart_s == 600);
    CHECK(sc.constraints.max_nodes == 512);
    CHECK_FALSE(is_known(sc.constraints.deadline_hours));
    CHECK(sc.constraints.objective == Objective::cost);
    CHECK(sc.origin == "design.json");
}

TEST_CASE("a preset fills the shape and explicit fields override it", "[scenario]") {
    const Scenario sc = parse_scenario(
        R"({"model": {"preset": "llama2-7b", "seq_len": 2048}, "cluster": {"instance": "p4d.24xlarge"}})",
        "s.json");
    CHECK(sc.workload.shape.layers == 32);
    CHECK(sc.workload.shape.hidden == 4096);
    CHECK(sc.workload.shape.gated_mlp);
    CHECK(sc.workload.shape.seq_len == 2048); // overridden
    CHECK(sc.parallel.global_batch == 1024);  // the preset's published batch
    CHECK(sc.training.tokens == 2.0e12);      // the preset's published length
    CHECK_FALSE(sc.nodes.has_value());        // searched by sweep/recommend
    CHECK_FALSE(sc.parallel.tp.has_value());
}

TEST_CASE("model.flash_attention follows the framework, works next to a preset and round-trips",
          "[scenario][flash]") {
    // Not given: the framework's kernel (fused for the modern default, materialised for the
    // Megatron-LM of 2021-22).
    CHECK(parse_scenario(
              R"({"model": {"preset": "llama3-8b"}, "cluster": {"instance": "p5.48xlarge"}})",
              "s.json")
              .workload.shape.flash_attention);
    const Scenario off = parse_scenario(
        R"({"model": {"preset": "llama3-8b"}, "cluster": {"instance": "p5.48xlarge"},
            "training": {"framework": "megatron-lm"}})",
        "s.json");
    CHECK_FALSE(off.workload.shape.flash_attention);
    const Scenario on = parse_scenario(
        R"({"model": {"preset": "llama3-8b", "flash_attention": true}, "cluster": {"instance": "p5.48xlarge"}})",
        "s.json");
    CHECK(on.workload.shape.flash_attention);
    CHECK(on.workload.shape.seq_len == 8192); // the rest of the preset is kept
    CHECK(parse_scenario(scenario_to_json(on), "again.json").workload.shape.flash_attention);
    CHECK_FALSE(parse_scenario(scenario_to_json(off), "again.json").workload.shape.flash_attention);
    CHECK_THAT(
        error_of(R"({"model": {"preset": "llama3-8b", "flash_attention": "yes"}, "cluster": {}})"),
        Catch::Contains("model.flash_attention: must be true or false"));
    CHECK_THAT(
        error_of(R"({"model": {"preset": "resnet50", "flash_attention": true}, "cluster": {}})"),
        Catch::Contains("model.flash_attention") && Catch::Contains("only for transformer"));
}

TEST_CASE("the attention kernel generation and eager PyTorch are scenario fields",
          "[scenario][flash]") {
    const std::string cluster = R"("cluster": {"instance": "p5.48xlarge"})";
    const Scenario v1 = parse_scenario(
        R"({"model": {"preset": "llama3-8b", "attention_kernel": "flash1"}, )" + cluster + "}",
        "s.json");
    CHECK(v1.workload.shape.flash_attention);
    CHECK(v1.workload.shape.flash_attention_v1);
    CHECK(parse_scenario(scenario_to_json(v1), "again.json").workload.shape.flash_attention_v1);
    // A named kernel turns fused attention on even where the framework's default is off.
    CHECK(parse_scenario(R"({"model": {"preset": "llama3-8b", "attention_kernel": "flash2"}, )" +
                             cluster + R"(, "training": {"framework": "megatron-lm"}})",
                         "s.json")
              .workload.shape.flash_attention);
    CHECK_THAT(error_of(R"({"model": {"preset": "llama3-8b", "attention_kernel": "flash3"}, )" +
                        cluster + "}"),
               Catch::Contains("model.attention_kernel: expected flash1"));
    CHECK_THAT(error_of(R"({"model": {"preset": "llama3-8b", "attention_kernel": "flash1",
                            "flash_attention": false}, )" +
                        cluster + "}"),
               Catch::Contains("model.attention_kernel: names a fused kernel"));

    const Scenario eager = parse_scenario(
        R"({"model": {"preset": "llama3-8b"}, )" + cluster +
            R"(, "training": {"framework": "pytorch-fsdp", "torch_compile": false}})",
        "s.json");
    CHECK(eager.workload.shape.eager_elementwise);
    const Scenario again = parse_scenario(scenario_to_json(eager), "again.json");
    CHECK(again.workload.shape.eager_elementwise);
    CHECK(again.training.torch_compile == std::optional<bool>(false));
    CHECK_FALSE(parse_scenario(R"({"model": {"preset": "llama3-8b"}, )" + cluster +
                                   R"(, "training": {"framework": "pytorch-fsdp",
                                   "torch_compile": true}})",
                               "s.json")
                    .workload.shape.eager_elementwise);
    CHECK_THAT(error_of(R"({"model": {"preset": "llama3-8b"}, )" + cluster +
                        R"(, "training": {"framework": "megatron-core", "torch_compile": false}})"),
               Catch::Contains("training.torch_compile: false is modelled for training.framework "
                               "pytorch-fsdp or deepspeed only"));
    CHECK_THAT(error_of(R"({"model": {"preset": "gpt3-175b"}, )" + cluster +
                        R"(, "training": {"framework": "pytorch-fsdp", "torch_compile": false}})"),
               Catch::Contains("Llama-style blocks"));
}

TEST_CASE("a custom shape without training length assumes 20 tokens per parameter and says so",
          "[scenario]") {
    const Scenario sc = parse_scenario(
        R"({"model": {"layers": 2, "hidden": 256, "heads": 4, "seq_len": 128, "vocab": 1000},
            "cluster": {"instance": "g5.xlarge"}})",
        "s.json");
    CHECK(sc.workload.shape.ffn_hidden == 1024);
    CHECK(sc.workload.shape.kv_heads == 4);
    CHECK(sc.training.tokens > 0);
    bool noted = false;
    for (const auto& n : sc.notes)
        noted = noted || n.find("20 tokens per parameter") != std::string::npos;
    CHECK(noted);
}

TEST_CASE("a generic model needs params and FLOPs per sample and trains data-parallel only",
          "[scenario]") {
    const Scenario sc = parse_scenario(
        R"({"model": {"preset": "resnet50"}, "cluster": {"instance": "p3.16xlarge"}})", "s.json");
    CHECK(sc.workload.kind == WorkloadKind::generic);
    CHECK(sc.workload.params == 2.56e7);
    CHECK(sc.training.epochs == 90);
    CHECK_THAT(
        error_of(R"({"model": {"preset": "resnet50"}, "cluster": {}, "parallel": {"tp": 2}})"),
        Catch::Contains("parallel.tp") && Catch::Contains("data-parallel only"));
    CHECK_THAT(error_of(R"({"model": {"params": 1e6}, "cluster": {}})"),
               Catch::Contains("model.flops_per_sample") && Catch::Contains("required"));
}

TEST_CASE("scenario errors name the file, the field and the reason", "[scenario]") {
    CHECK(error_of(minimal(R"("parallel": {"tpp": 8})")) ==
          "scenario.json: parallel.tpp: unknown field");
    CHECK(error_of(minimal(R"("colour": 1)")) == "scenario.json: colour: unknown field");
    CHECK_THAT(
        error_of(minimal(R"("parallel": {"tp": 5}, "training": {"framework": "megatron-core"})")),
        Catch::StartsWith("scenario.json: parallel.tp: must divide model.heads (96)"));
    // Left automatic, the framework follows the hardware (NeuronX Distributed pads heads): the
    // planner checks tp against the heads once the instance is known (DBRX: 48 heads, tp 32).
    CHECK_NOTHROW(parse_scenario(
        R"({"model": {"layers": 40, "hidden": 6144, "heads": 48, "kv_heads": 8,
                      "ffn_hidden": 10752, "seq_len": 4096, "vocab": 100352},
            "cluster": {"instance": "trn1.32xlarge", "nodes": 16}, "parallel": {"tp": 32}})",
        "scenario.json"));
    CHECK_THAT(error_of(minimal(R"("precision": "fp12")")),
               Catch::StartsWith("scenario.json: precision: unknown value 'fp12'") &&
                   Catch::Contains("bf16"));
    CHECK_THAT(error_of(minimal(R"("parallel": {"schedule": "zigzag"})")),
               Catch::Contains("parallel.schedule"));
    CHECK_THAT(error_of(minimal(R"("parallel": {"recompute": "some"})")),
               Catch::Contains("parallel.recompute"));
    CHECK_THAT(error_of(minimal(R"("parallel": {"dp_comm": "carrier_pigeon"})")),
               Catch::Contains("parallel.dp_comm"));
    CHECK_THAT(error_of(minimal(R"("constraints": {"objective": "fun"})")),
               Catch::Contains("constraints.objective"));
    CHECK_THAT(error_of(minimal(R"("parallel": {"dp": 0})")),
               Catch::StartsWith("scenario.json: parallel.dp: must be an integer"));
    CHECK_THAT(error_of(minimal(R"("parallel": {"micro_batch": -2})")),
               Catch::Contains("parallel.micro_batch"));
    CHECK_THAT(error_of(minimal(R"("parallel": {"tp": 2.5})")),
               Catch::Contains("parallel.tp: must be an integer"));
    CHECK_THAT(error_of(minimal(R"("training": {"tokens": -1})")),
               Catch::Contains("training.tokens: must be greater than 0"));
    CHECK_THAT(error_of(minimal(R"("training": {"tokens": 0})")),
               Catch::Contains("training.tokens"));
    CHECK_THAT(error_of(minimal(R"("spot": {"restart_s": "ten"})")),
               Catch::Contains("spot.restart_s: must be a number"));
    CHECK_THAT(error_of(minimal(R"("constraints": {"max_nodes": 0})")),
               Catch::Contains("constraints.max_nodes"));
    CHECK_THAT(error_of(minimal(R"("parallel": {"grad_compression": 1.5})")),
               Catch::Contains("parallel.grad_compression"));
    CHECK_THAT(error_of(minimal(R"("constraints": {"objective": "cost_under_deadline"})")),
               Catch::Contains("constraints.deadline_hours: required"));
    CHECK_THAT(error_of(minimal(R"("parallel": {"virtual_stages": 2})")),
               Catch::Contains("interleaved"));
    CHECK_THAT(error_of(minimal(R"("parallel": {"pp": 97})")),
               Catch::StartsWith("scenario.json: parallel.pp: must not exceed model.layers (96)"));
    CHECK_THAT(error_of(minimal(R"("parallel": {"pp": 2, "stage_layers": [47, 48]})")),
               Catch::StartsWith(
                   "scenario.json: parallel.stage_layers: holds 95 layers, but the model has 96"));
    CHECK_THAT(error_of(minimal(R"("parallel": {"stage_layers": [48, "x"]})")),
               Catch::Contains("parallel.stage_layers: must hold whole layer counts"));
    CHECK_THAT(error_of(minimal(R"("parallel": {"distribute_saved_activations": true})")),
               Catch::Contains("parallel.distribute_saved_activations: needs parallel.recompute"));
    CHECK_THAT(error_of(minimal(
                   R"("parallel": {"recompute": "full", "distribute_saved_activations": true})")),
               Catch::Contains("needs parallel.sequence_parallel false"));
    CHECK_THAT(error_of(minimal(R"("training": {"fp8_weights": true})")),
               Catch::Contains("training.fp8_weights: needs precision \"fp8\""));
    CHECK_THAT(error_of(minimal(R"("precision": "fp8", "training": {"fp8_weights": 1})")),
               Catch::Contains("training.fp8_weights"));
    CHECK_THAT(error_of(minimal(
                   R"("precision": "fp8", "training": {"method": "qlora", "fp8_weights": true})")),
               Catch::Contains("training.fp8_weights: QLoRA stores"));
    CHECK(parse_scenario(minimal(R"("precision": "fp8", "training": {"fp8_weights": true})"),
                         "s.json")
              .training.fp8_weights);
    // A string field holds a name or an id: a megabyte name would be echoed into every message.
    CHECK_THAT(error_of(minimal(R"("name": ")" + std::string(2000, 'x') + "\"")),
               Catch::Contains("name: is 2000 bytes long; at most 1024"));
    CHECK(parse_scenario(minimal(R"("name": ")" + std::string(1024, 'x') + "\""), "s.json")
              .name.size() == 1024);
    CHECK_THAT(error_of(minimal(R"("parallel": {"cp": 3})")),
               Catch::Contains("parallel.cp: 2 × cp must divide"));
    CHECK_THAT(error_of(minimal(R"("training": {"framework": "caffe"})")),
               Catch::Contains("training.framework: unknown framework 'caffe'"));
    CHECK_THAT(
        error_of(minimal(
            R"("parallel": {"pp": 4, "zero": 3}, "training": {"framework": "megatron-deepspeed"})")),
        Catch::Contains(
            "parallel.zero: training.framework megatron-deepspeed combines pipeline parallelism "
            "with ZeRO up to stage 1 only"));
    // Megatron-FSDP shards weights and gradients (ZeRO-3) without pipeline stages.
    CHECK(parse_scenario(
              R"({"model": {"preset": "llama3-8b"}, "cluster": {}, "parallel": {"zero": 3},
                  "training": {"framework": "megatron-core"}})",
              "s.json")
              .parallel.zero == 3);
    CHECK_THAT(
        error_of(minimal(
            R"("parallel": {"pp": 2, "zero": 3}, "training": {"framework": "megatron-core"})")),
        Catch::Contains("training.framework megatron-core combines pipeline parallelism with "
                        "ZeRO up to stage 1 only"));
    CHECK_THAT(
        error_of(minimal(R"("parallel": {"cp": 2}, "training": {"framework": "megatron-lm"})")),
        Catch::Contains("parallel.cp: training.framework megatron-lm has no context parallelism"));
    // DeepSpeed runs context parallelism as Ulysses: whole heads per rank, cp chunks per sequence.
    CHECK(parse_scenario(
              R"({"model": {"preset": "llama3-8b"}, "cluster": {}, "parallel": {"cp": 8, "zero": 3},
                  "training": {"framework": "deepspeed"}})",
              "s.json")
              .parallel.cp == 8);
    CHECK_THAT(
        error_of(
            R"({"model": {"layers": 4, "hidden": 1536, "heads": 24, "seq_len": 512, "vocab": 1000},
                "cluster": {}, "parallel": {"cp": 16}, "training": {"framework": "deepspeed"}})"),
        Catch::Contains("parallel.cp: cp must divide the heads of a tensor-parallel rank (24"));
    CHECK_THAT(
        error_of(
            R"({"model": {"layers": 4, "hidden": 1536, "heads": 24, "kv_heads": 6, "seq_len": 512,
                     "vocab": 1000}, "cluster": {}, "parallel": {"tp": 4}})"),
        Catch::Contains("parallel.tp: must divide model.kv_heads (6) or be a multiple of it"));
    // tp 16 over Llama 2 70B's 8 KV heads replicates them (Megatron, NeuronX): accepted.
    CHECK(parse_scenario(
              R"({"model": {"preset": "llama2-70b"}, "cluster": {}, "parallel": {"tp": 16}})",
              "s.json")
              .parallel.tp == 16);
    CHECK_THAT(
        error_of(minimal(R"("parallel": {"dp": 7, "micro_batch": 1})")),
        Catch::Contains("parallel.global_batch: must be a multiple of micro_batch × dp (7)"));
    CHECK_THAT(error_of(R"({"model": {"preset": "gpt-5"}, "cluster": {}})"),
               Catch::Contains("model.preset: unknown preset 'gpt-5'") &&
                   Catch::Contains("llama3-8b"));
    CHECK_THAT(error_of(R"({"cluster": {}})"), Catch::Contains("model: required"));
    CHECK_THAT(error_of(R"({"model": {"preset": "gpt3-175b"}})"),
               Catch::Contains("cluster: required"));
    CHECK_THAT(
        error_of(
            R"({"schema": "clusterplan.scenario/2", "model": {"preset": "gpt3-175b"}, "cluster": {}})"),
        Catch::Contains("schema: unsupported"));
    CHECK_THAT(error_of(R"({"model": {"preset": "gpt3-175b", "heads": 7}, "cluster": {}})"),
               Catch::Contains("model.heads: must divide model.hidden"));
    CHECK_THAT(error_of(R"({"model": {"preset": "gpt3-175b"}, "cluster": {"nodes": "128"}})"),
               Catch::Contains("cluster.nodes: must be an integer, got the string \"128\""));
    CHECK_THAT(
        error_of(R"({"model": {"preset": "gpt3-175b"}, "cluster": {"custom": {"gpus": 8}}})"),
        Catch::Contains("cluster.custom.gpus: unknown field"));
    CHECK_THAT(error_of(minimal(R"("training": {"tokens": 1e9, "samples": 5})")),
               Catch::Contains("training.tokens"));
    CHECK_THAT(error_of(minimal(R"("training": {"epochs": 3})")),
               Catch::Contains("training.dataset_samples: required"));
    // NaN and infinities cannot be written in JSON; overflowing numbers are rejected too.
    CHECK_THAT(error_of(minimal(R"("training": {"tokens": NaN})")),
               Catch::Contains("not valid JSON"));
    CHECK_THAT(error_of(minimal(R"("training": {"tokens": 1e999})")),
               Catch::Contains("not valid JSON"));
    CHECK_THAT(error_of("[1, 2]"), Catch::Contains("must hold a JSON object"));
}

TEST_CASE("model.head_dim and model.tied_embeddings are read, checked and written back",
          "[scenario]") {
    // GPT-OSS-120B: 64 heads of 64 over a 2,880 hidden size, untied output layer.
    const Scenario sc = parse_scenario(
        R"({"model": {"layers": 36, "hidden": 2880, "heads": 64, "kv_heads": 8, "head_dim": 64,
                      "seq_len": 4096, "vocab": 201088, "tied_embeddings": false},
            "cluster": {}})",
        "s.json");
    CHECK(sc.workload.shape.head_dim == 64);
    CHECK(sc.workload.shape.query_width() == Approx(4096));
    CHECK_FALSE(sc.workload.shape.tied_embeddings);
    const Scenario again = parse_scenario(scenario_to_json(sc), "again.json");
    CHECK(again.workload.shape.head_dim == 64);
    CHECK_FALSE(again.workload.shape.tied_embeddings);
    // Without head_dim the heads must split the hidden size.
    CHECK_THAT(error_of(R"({"model": {"layers": 2, "hidden": 2048, "heads": 24, "seq_len": 64,
                                    "vocab": 100}, "cluster": {}})"),
               Catch::Contains("model.heads: must divide model.hidden (2048) unless "
                               "model.head_dim is given"));
    CHECK(parse_scenario(R"({"model": {"layers": 2, "hidden": 2048, "heads": 24, "head_dim": 128,
                                       "seq_len": 64, "vocab": 100}, "cluster": {}})",
                         "h.json")
              .workload.shape.query_width() == Approx(3072));
    CHECK_THAT(error_of(R"({"model": {"preset": "llama3-8b", "head_dim": 0}, "cluster": {}})"),
               Catch::Contains("model.head_dim"));
    CHECK_FALSE(parse_scenario(R"({"model": {"preset": "llama3-8b"}, "cluster": {}})", "l.json")
                    .workload.shape.tied_embeddings);
}

TEST_CASE("scenario_to_json round-trips through parse_scenario", "[scenario]") {
    std::vector<std::string> docs = {kDesignExample, minimal(""), minimal(R"("precision": "fp8",
                                                "training": {"fp8_weights": true})"),
                                     R"({"model": {"preset": "resnet50"}, "cluster": {},
                                         "training": {"epochs": 10, "dataset_samples": 1000, "trials": 8,
                                                      "max_parallel_trials": 2},
                                         "constraints": {"objective": "time_under_budget", "budget_usd": 1000,
                                                         "instances": ["p3.16xlarge"]}})"};
    const std::filesystem::path dir =
        std::filesystem::path(CLUSTERPLAN_SOURCE_DIR) / "resources" / "scenarios";
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".json") docs.push_back(read_file(entry.path()));
    REQUIRE(docs.size() >= 5);
    for (const auto& doc : docs) {
        const Scenario first = parse_scenario(doc, "a.json");
        const std::string once = scenario_to_json(first);
        const Scenario second = parse_scenario(once, "b.json");
        INFO(once);
        CHECK(scenario_to_json(second) == once);
        CHECK(second.parallel.tp == first.parallel.tp);
        CHECK(second.nodes == first.nodes);
        CHECK(second.training.tokens == first.training.tokens);
        CHECK(second.training.fp8_weights == first.training.fp8_weights);
        CHECK(second.constraints.instances == first.constraints.instances);
        CHECK(second.workload.shape.ffn_hidden == first.workload.shape.ffn_hidden);
    }
}

TEST_CASE("every model preset has a source, and its shape matches its parameter count",
          "[presets]") {
    // The presets the serving and training contracts name must exist.
    for (const char* id :
         {"bert-base", "bert-large", "gpt2-1.5b", "gpt3-175b", "gpt-j-6b", "llama2-7b",
          "llama2-13b", "llama2-70b", "llama3-8b", "llama3-70b", "llama3-405b", "llama3.1-8b",
          "llama3.1-70b", "mistral-7b", "t5-11b", "resnet50"}) {
        INFO(id);
        CHECK(find_model_preset(id) != nullptr);
    }
    for (const ModelPreset& p : model_presets()) {
        INFO(p.id);
        CHECK_FALSE(p.source.empty());
        CHECK(p.global_batch > 0);
        CHECK(p.params_published > 0);
        if (p.workload.kind == WorkloadKind::generic) continue;
        // Independent count from the shape: attention (GQA, head width), MLP (gated or not,
        // experts on the routed layers), embeddings.
        const TransformerShape& s = p.workload.shape;
        const double h = s.hidden;
        const double matrices = s.gated_mlp ? 3.0 : 2.0;
        const double attention = 2 * h * s.query_width() + 2 * h * s.kv_width();
        const int routed = s.moe.moe_layers(s.layers);
        const double experts = double(s.moe.experts + s.moe.shared_experts);
        const double params =
            s.layers * attention + (s.layers - routed) * matrices * h * s.ffn_width() +
            routed * experts * matrices * h * s.moe.moe_ffn_hidden +
            // Untied presets (Llama 3) count their output layer as a second V·h matrix.
            (s.tied_embeddings ? 1.0 : 2.0) * double(s.vocab) * h +
            (s.learned_positions ? double(s.seq_len) * h : 0.0);
        // Within 4%: biases and norms are not counted here, and T5-11B is an approximation.
        // DeepSeek-V3's note states its shape's two approximations (latent attention as standard
        // attention, its 3 dense layers as MoE layers), which add 5 %.
        const bool stated_approximation = p.id == "deepseek-v3";
        if (stated_approximation) CHECK_THAT(p.note, Catch::Contains("counted as MoE layers"));
        CHECK_REL(params, p.params_published, stated_approximation ? 0.06 : 0.04);
    }
    CHECK_THAT(find_model_preset("t5-11b")->note, Catch::Contains("APPROXIMATION"));
    CHECK(find_model_preset("resnet50")->workload.kind == WorkloadKind::generic);
    CHECK(find_model_preset("nope") == nullptr);
}
