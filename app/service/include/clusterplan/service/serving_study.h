// A serving question end to end, for the GUI's Serve page, the serving report and the CLI:
// the question as form fields (model, engine, precision, traffic, SLO, instance filter), the
// scenario it stands for (validated by the scenario parser, so a form and a file refuse the same
// input with the same sentence), and the ranked deployments over the chosen instances. Qt-free.
#pragma once

#include "clusterplan/catalog/catalog.h"
#include "clusterplan/sim/scenario.h"
#include "clusterplan/sim/serving_plan.h"

#include <string>
#include <vector>

namespace cp::service {

// The serving section of a scenario as a form holds it. Empty strings and zeros mean "searched"
// or "no limit", as a left-out field does in a scenario file.
struct ServingQuestion {
    std::string name;
    std::string preset = "llama3-8b";
    // The scenario's `model` section as JSON, written back unchanged while the form's model is the
    // one loaded: a shape without a preset, or a preset with fields the file overrides. Empty =
    // the preset alone. `model_generates` says whether that model is a decoder.
    std::string model_json;
    bool model_generates = true;
    std::string engine;   // "" = the hardware's usual engine
    std::string weights;  // "" = searched
    std::string kv_cache; // "" = the weights' type (at least 8 bit)
    int tp = 0;           // 0 = searched
    int batch = 0;        // 0 = as memory allows
    int pp = 0;           // pipeline stages per replica; 0 = searched
    int replicas = 0;     // 0 = as many as the request rate needs
    // The engine build's max batch (trtllm-build --max_batch_size); 0 = built for the batch it
    // runs.
    int engine_max_batch = 0;
    // false: the engine's decode kernels re-read each KV head per query head (no GQA kernel).
    bool gqa_shared_kv_reads = true;
    // true: the server schedules one step ahead (Neuron's vLLM plugin default).
    bool async_scheduling = false;
    // false: the server's graphs return logits and the host samples each token (Neuron).
    bool on_device_sampling = true;
    // Defaults: a chat service (512 tokens in, 256 out, 10 requests/s, first token within half a
    // second and 20 tokens/s read speed per user).
    double request_rate_per_s = 10; // 0 = saturated (offline throughput)
    int input_tokens = 512;
    int output_tokens = 256;            // 0 for encoders and CNNs (one forward pass per request)
    double ttft_ms = 500, tpot_ms = 50; // 0 = no limit
    double slo_p = 0.5;                 // quantile the limits apply to
    bool spot = false;
    std::string region = "us-east-1";
    // The scenario's cluster fields the form has no field for (`calibration` other than
    // datasheet, `custom` hardware) as a JSON object, written back unchanged; empty = none.
    std::string cluster_json;
    // Catalog instance types or families ("g5", "inf2", "p5.48xlarge"); empty = every type.
    std::vector<std::string> instances;
};

// True when the preset generates tokens (a decoder LLM); false for encoders and CNNs, and for an
// unknown id.
bool preset_generates(const std::string& preset);
// Whether a model generates tokens: a decoder, not an encoder or a CNN.
bool workload_generates(const sim::Workload& workload);

// The question a serving scenario asks (its model preset, `serving` section, region, pricing and
// instance choice). A scenario without a `serving` section gives the default question for its
// preset when that preset can be served, else for llama3-8b.
ServingQuestion serving_question(const sim::Scenario& scenario);

// Catalog instance types in `region` that the patterns name: an exact type, or a family (the part
// before the dot, so "g6" is not "g6e"), in any letter case. Throws sim::ScenarioError naming
// `constraints.instances` for a pattern that matches nothing.
std::vector<std::string> match_instances(const std::vector<std::string>& patterns,
                                         const catalog::Catalog& catalog,
                                         const std::string& region);

// The scenario the question stands for, written as a scenario document and read back by the
// scenario parser (origin "Serve page"). Throws sim::ScenarioError with the parser's sentence.
sim::Scenario serving_scenario(const ServingQuestion& question, const catalog::Catalog& catalog);

// The model the question serves (its preset, or its own model section) as the scenario parser
// reads it. Throws sim::ScenarioError.
sim::Workload question_model(const ServingQuestion& question);

// Reads the question's model and serving sections with the scenario parser (the catalog is not
// consulted: the instance filter is not checked). Throws sim::ScenarioError naming the field
// (serving.pp that does not divide model.layers, serving.batch above serving.engine_max_batch).
void check_question(const ServingQuestion& question);

// The question's model section (`model_json`, or {"preset": preset}) with the fields of `shape`
// that differ from question_model() written over it, under the names the scenario file uses
// (model.layers, model.kv_heads, model.learned_positions, model.experts, model.capacity_factor
// ...; a head width of 0 drops model.head_dim, a capacity factor of 0 drops it (no cap); the
// attention kernel is written as model.attention_kernel, or model.flash_attention false when
// unfused; no experts drops the section's routing, and is refused naming model.experts where the
// preset routes them). Every other field of the section stays as it is. Read back by the scenario
// parser with the question's serving section, so a shape it refuses throws its sentence naming the
// field and nothing changes.
std::string reshaped_model_json(const ServingQuestion& question,
                                const sim::TransformerShape& shape);

struct ServingStudy {
    sim::Scenario scenario;
    // Deployments best first: meeting the SLO by cost, then missing it, then those that cannot
    // run (each with its reason). One entry when the scenario names one instance.
    std::vector<sim::ServingPlan> ranked;
    int servable() const;    // plans that run
    int meeting_slo() const; // plans that run and meet the SLO
};

// Plans the scenario's serving section on its candidates (cluster.instance, else
// constraints.instances, else every catalog instance of the region). Throws sim::ScenarioError
// when the scenario has no `serving` section. A single instance is planned with the scenario's
// calibration profile; a ranking uses datasheet figures for every candidate.
ServingStudy study_serving(const sim::Scenario& scenario, catalog::Catalog& catalog);

} // namespace cp::service
