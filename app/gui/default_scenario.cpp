#include "app_context.h"

namespace cp::gui {

// The scenario a first start opens with: a GPT-3-style 13B model (Megatron SC'21 shape) on
// p4d.24xlarge — small enough to plan interactively, large enough to need model parallelism.
sim::Scenario AppContext::defaultScenario() {
    static const char* const kJson = R"({
  "schema": "clusterplan.scenario/1",
  "name": "GPT 13B on p4d.24xlarge",
  "model": {"layers": 40, "hidden": 5120, "heads": 40, "kv_heads": 40, "ffn_hidden": 20480,
            "gated_mlp": false, "seq_len": 2048, "vocab": 51200},
  "cluster": {"instance": "p4d.24xlarge", "nodes": 16, "region": "us-east-1",
              "pricing": "on_demand"},
  "parallel": {"global_batch": 1024},
  "precision": "bf16",
  "training": {"tokens": 2.6e11},
  "constraints": {"max_nodes": 64, "objective": "cost"}
})";
    return sim::parse_scenario(kJson, "default scenario");
}

} // namespace cp::gui
