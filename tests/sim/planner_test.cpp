// Planner, spot/HPO economics, sweep, Pareto front, ranking and the plan-report JSON.
#include "clusterplan/sim/plan_json.h"
#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/recommend.h"
#include "clusterplan/sim/scenario.h"
#include "clusterplan/sim/search.h"
#include "clusterplan/sim/spot_cost.h"
#include "engine/model_constants.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <set>

using namespace cp::sim;

namespace {

NodeSpec inferentia_node() {
    NodeSpec n = cp::test::priced_a100_node("inf2.48xlarge");
    n.accelerator.id = "Inferentia2";
    n.accelerator.is_gpu = false;
    n.accelerator.can_train = false;
    return n;
}

Scenario scenario(const std::string& extra) {
    return parse_scenario(R"({"name": "t", "model": {"preset": "llama2-7b"}, "cluster": {})" +
                              (extra.empty() ? std::string() : ", " + extra) + "}",
                          "t.json");
}

std::string error_field(const std::function<void()>& f) {
    try {
        f();
    } catch (const ScenarioError& e) {
        return e.field() + " | " + e.what();
    }
    return "(no error)";
}

} // namespace

TEST_CASE("the layout space holds only layouts that match the cluster and the model", "[planner]") {
    const Scenario sc =
        parse_scenario(R"({"model": {"preset": "gpt3-175b"}, "cluster": {}})", "t.json");
    LayoutSpace space;
    build_layout_space(sc, 128, 8, space);
    REQUIRE_FALSE(space.bases.empty());
    CHECK(space.recomputes.size() == 3);
    std::set<int> tps;
    for (const Layout& l : space.bases) {
        CHECK(l.tp * l.pp * l.dp == 128);
        CHECK(96 % l.tp == 0);
        CHECK(8 % l.tp == 0);
        CHECK(l.pp <= 96);
        CHECK(1536 % l.dp == 0);
        CHECK(l.zero >= 0);
        CHECK(l.zero <= (l.dp > 1 ? 3 : 0));
        tps.insert(l.tp);
    }
    CHECK(tps == std::set<int>{1, 2, 4, 8});
    // Stages need not split the layers evenly (BLOOM: 70 layers on 12 stages), and sequence
    // parallelism is searched whenever tp > 1.
    bool uneven = false, sp = false;
    for (const Layout& l : space.bases) {
        uneven = uneven || 96 % l.pp != 0;
        sp = sp || (l.tp > 1 && l.sequence_parallel);
        CHECK((l.tp > 1 || !l.sequence_parallel));
    }
    CHECK(uneven);
    CHECK(sp);

    // Fixed fields stay fixed.
    const Scenario fixed = parse_scenario(
        R"({"model": {"preset": "gpt3-175b"}, "cluster": {}, "parallel": {"tp": 8, "zero": 1, "recompute": "full"}})",
        "t.json");
    build_layout_space(fixed, 128, 8, space);
    for (const Layout& l : space.bases) {
        CHECK(l.tp == 8);
        CHECK(l.zero == 1);
    }
    CHECK(space.recomputes == std::vector<Recompute>{Recompute::full});

    // Generic models: data parallel only.
    const Scenario cnn =
        parse_scenario(R"({"model": {"preset": "resnet50"}, "cluster": {}})", "t.json");
    build_layout_space(cnn, 16, 8, space);
    for (const Layout& l : space.bases) {
        CHECK(l.tp == 1);
        CHECK(l.pp == 1);
        CHECK(l.dp == 16);
    }
}

TEST_CASE("simulate refuses layouts that do not match the cluster, naming the field", "[planner]") {
    const NodeSpec node = cp::test::priced_a100_node();
    const Scenario sc = scenario(R"("parallel": {"tp": 8, "pp": 4, "dp": 8})");
    Scenario with_nodes = sc;
    with_nodes.nodes = 2; // 16 devices, layout wants 256
    CHECK_THAT(error_field([&] { simulate_plan(with_nodes, node, nullptr); }),
               Catch::StartsWith(
                   "parallel.dp | t.json: parallel.dp: tp × pp × dp = 256 does not equal the "
                   "cluster's 16 devices (2 nodes × 8)"));
    CHECK_THAT(error_field([&] { simulate_plan(sc, node, nullptr); }),
               Catch::StartsWith("cluster.nodes"));
    Scenario pp32 = scenario(R"("parallel": {"pp": 32})");
    pp32.nodes = 2;
    CHECK_THAT(error_field([&] { simulate_plan(pp32, node, nullptr); }),
               Catch::StartsWith("parallel.pp") &&
                   Catch::Contains("must divide the cluster's 16 devices"));
}

TEST_CASE("Inferentia is refused with a clear reason", "[planner]") {
    Scenario sc = scenario("");
    sc.instance = "inf2.48xlarge";
    sc.nodes = 1;
    const std::string err = error_field([&] { simulate_plan(sc, inferentia_node(), nullptr); });
    CHECK_THAT(err, Catch::StartsWith("cluster.instance") && Catch::Contains("Inferentia2") &&
                        Catch::Contains("built for inference"));
    CHECK_FALSE(training_refusal(sc, inferentia_node()).empty());
    CHECK(training_refusal(sc, cp::test::priced_a100_node()).empty());
    // In a sweep it is skipped with the same reason, and nothing is evaluated on it.
    const SweepResult sw =
        sweep(scenario(R"("constraints": {"max_nodes": 2})"), {inferentia_node()}, nullptr);
    CHECK(sw.evaluated == 0);
    CHECK_THAT(sw.summaries.at(0).skipped, Catch::Contains("built for inference"));
}

TEST_CASE("simulate fills searched fields with the fastest fitting layout and says so",
          "[planner]") {
    Scenario sc = scenario("");
    sc.nodes = 2;
    const PlanReport r = simulate_plan(sc, cp::test::priced_a100_node(), nullptr);
    REQUIRE(r.result.valid());
    CHECK(r.layout.tp * r.layout.pp * r.layout.dp == 16);
    CHECK(r.searched == std::vector<std::string>{"tp", "pp", "dp", "micro_batch", "zero",
                                                 "recompute", "sequence_parallel"});
    CHECK_THAT(r.note, Catch::StartsWith("searched tp, pp, dp, micro_batch, zero, recompute, "
                                         "sequence_parallel: the fastest of"));
    // No layout the planner tries on this cluster is faster and fits.
    LayoutSpace space;
    build_layout_space(sc, 16, 8, space);
    evaluate_layouts(sc, Cluster{cp::test::priced_a100_node(), 2}, space, nullptr,
                     [&](const Layout&, const PlanResult& p) {
                         if (p.valid()) CHECK(p.step_time_s >= r.result.step_time_s);
                     });
}

TEST_CASE("time to train and on-demand cost follow from the step time", "[planner][cost]") {
    Scenario sc =
        scenario(R"("training": {"tokens": 4.096e10}, "parallel": {"global_batch": 1000})");
    const NodeSpec node = cp::test::priced_a100_node();
    const JobEconomics j = job_economics(sc, node, 4, 2.0);
    CHECK(j.samples_total == 4.096e10 / 4096); // tokens / seq_len
    CHECK(j.steps == 10000);                   // ceil(1e7 / 1000)
    CHECK_REL(j.time_to_train_h, 10000 * 2.0 / 3600, 1e-12);
    CHECK_REL(j.cost_usd, 4 * 32.0 * j.time_to_train_h, 1e-12);

    Scenario epochs = parse_scenario(
        R"({"model": {"preset": "resnet50"}, "cluster": {}, "parallel": {"global_batch": 256},
            "training": {"epochs": 2, "dataset_samples": 1000}})",
        "t.json");
    CHECK(training_samples(epochs) == 2000);
    CHECK(job_economics(epochs, node, 1, 1.0).steps == 8); // ceil(2000 / 256)
}

TEST_CASE("spot: cluster rate, Young/Daly interval, interruptions and expected cost",
          "[cost][spot]") {
    // Bucket midpoints read as monthly reclaim probabilities.
    CHECK_REL(spot_interruptions_per_node_hour(0), -std::log(1 - 0.025) / 720, 1e-12);
    CHECK_REL(spot_interruptions_per_node_hour(4), -std::log(1 - 0.25) / 720, 1e-12);
    CHECK(spot_interruptions_per_node_hour(-1) ==
          spot_interruptions_per_node_hour(kConservativeSpotBucket));
    CHECK(spot_bucket_label(2) == "10-15%");

    const NodeSpec node = cp::test::priced_a100_node("x", 32.0, 12.0, 2);
    SpotSpec spot;
    spot.checkpoint_write_s = 120;
    spot.restart_s = 600;
    const int nodes = 16;
    const double work_h = 200;
    const SpotEstimate e = spot_estimate(spot, node, nodes, work_h);
    const double rate = nodes * spot_interruptions_per_node_hour(2);
    REQUIRE(e.feasible);
    CHECK_REL(e.cluster_rate_per_hour, rate, 1e-12);
    CHECK_REL(e.mtbf_h, 1 / rate, 1e-12);
    const double interval_h = std::sqrt(2 * (120.0 / 3600) * (1 / rate));
    CHECK_REL(e.checkpoint_interval_s, interval_h * 3600, 1e-9);
    // T = W·(1 + C/τ) / (1 − rate·(R + (τ + C)/2))
    const double c_h = 120.0 / 3600, r_h = 600.0 / 3600;
    const double expected_wall =
        work_h * (interval_h + c_h) / interval_h / (1 - rate * (r_h + 0.5 * (interval_h + c_h)));
    CHECK_REL(e.wall_time_h, expected_wall, 1e-9);
    CHECK_REL(e.expected_interruptions, rate * e.wall_time_h, 1e-12);
    CHECK_REL(e.cost_usd, nodes * 12.0 * e.wall_time_h, 1e-12);
    CHECK(e.wall_time_h > work_h);

    // More nodes: more interruptions per hour of the cluster.
    CHECK(spot_estimate(spot, node, 64, work_h).expected_interruptions > e.expected_interruptions);

    // Checkpoint on notice: nothing is lost, no periodic checkpoints.
    spot.checkpoint_on_notice = true;
    const SpotEstimate n = spot_estimate(spot, node, nodes, work_h);
    CHECK(n.checkpoint_interval_s == 0);
    CHECK_REL(n.wall_time_h, work_h / (1 - rate * (r_h + c_h)), 1e-9);
    CHECK(n.wall_time_h < e.wall_time_h);

    // A cluster that is interrupted faster than it can restart is not feasible.
    spot.checkpoint_on_notice = false;
    spot.restart_s = 3600 * 10;
    CHECK_FALSE(
        spot_estimate(spot, cp::test::priced_a100_node("x", 32, 12, 4), 512, work_h).feasible);
}

TEST_CASE("a tuning job runs trials in waves of max_parallel_trials", "[cost][hpo]") {
    TrainingSpec t;
    t.trials = 10;
    t.max_parallel_trials = 3;
    JobEconomics job;
    job.time_to_train_h = 5;
    job.cost_usd = 100;
    job.spot.feasible = true;
    job.spot.wall_time_h = 6;
    job.spot.cost_usd = 40;
    const HpoEstimate h = hpo_estimate(t, 4, job);
    CHECK(h.waves == 4);
    CHECK(h.peak_nodes == 12);
    CHECK(h.wall_time_h == 20);
    CHECK(h.cost_usd == 1000);
    CHECK(h.spot_wall_time_h == 24);
    CHECK(h.spot_cost_usd == 400);
}

TEST_CASE("sweep results do not depend on the thread count", "[search]") {
    const Scenario sc = scenario(R"("constraints": {"max_nodes": 6})");
    const std::vector<NodeSpec> nodes = {cp::test::priced_a100_node("a"),
                                         cp::test::priced_a100_node("b", 20.0, 9.0, 3),
                                         inferentia_node()};
    const SweepResult one = sweep(sc, nodes, nullptr, SweepOptions{1});
    const SweepResult three = sweep(sc, nodes, nullptr, SweepOptions{3});
    REQUIRE(one.evaluated > 0);
    CHECK(one.evaluated == three.evaluated);
    CHECK(one.valid == three.valid);
    REQUIRE(one.configs.size() == three.configs.size());
    std::uint64_t per_candidate = 0;
    for (const auto& s : one.summaries)
        per_candidate += s.evaluated;
    CHECK(per_candidate == one.evaluated);
    for (std::size_t i = 0; i < one.configs.size(); ++i) {
        const ConfigBest& a = one.configs[i];
        const ConfigBest& b = three.configs[i];
        CHECK(a.candidate == b.candidate);
        CHECK(a.nodes == b.nodes);
        CHECK(a.step_time_s == b.step_time_s);
        CHECK(a.layout.tp == b.layout.tp);
        CHECK(a.layout.pp == b.layout.pp);
        CHECK(a.layout.micro_batch == b.layout.micro_batch);
        CHECK(a.layout.zero == b.layout.zero);
        CHECK(a.layout.recompute == b.layout.recompute);
    }
    // Each kept configuration is the fastest fitting plan of its cluster.
    LayoutSpace space;
    for (const ConfigBest& c : one.configs) {
        const Cluster cluster{nodes[c.candidate], c.nodes};
        build_layout_space(sc, cluster.devices(), 8, space);
        evaluate_layouts(sc, cluster, space, nullptr, [&](const Layout&, const PlanResult& r) {
            if (r.valid()) CHECK(r.step_time_s >= c.step_time_s);
        });
    }
}

TEST_CASE("the Pareto front holds no dominated plan and ranking respects constraints",
          "[search][recommend]") {
    const Scenario sc = scenario(R"("constraints": {"max_nodes": 8, "allow_spot": true})");
    const SweepResult sw =
        sweep(sc, {cp::test::priced_a100_node("a"), cp::test::priced_a100_node("b", 20.0, 9.0, 3)},
              nullptr, SweepOptions{2});
    const Ranking rk = rank_options(sc, sw, 5);
    REQUIRE(rk.pareto.size() >= 2);
    for (std::size_t i = 1; i < rk.pareto.size(); ++i) {
        CHECK(rk.pareto[i].wall_time_h >= rk.pareto[i - 1].wall_time_h);
        CHECK(rk.pareto[i].cost_usd < rk.pareto[i - 1].cost_usd);
    }
    for (const PlanOption& p : rk.pareto)
        for (const PlanOption& o : rk.sorted) {
            const bool dominates = o.wall_time_h <= p.wall_time_h && o.cost_usd <= p.cost_usd &&
                                   (o.wall_time_h < p.wall_time_h || o.cost_usd < p.cost_usd);
            CHECK_FALSE(dominates);
        }
    for (std::size_t i = 1; i < rk.sorted.size(); ++i)
        CHECK(rk.sorted[i].cost_usd >= rk.sorted[i - 1].cost_usd);
    CHECK(rk.ranked.size() <= 5);
    CHECK(rk.ranked.front().cost_usd == rk.sorted.front().cost_usd);

    // A deadline between the fastest and the cheapest plan excludes the slow ones.
    const double deadline = 0.5 * (rk.pareto.front().wall_time_h + rk.pareto.back().wall_time_h);
    Scenario dl = sc;
    dl.constraints.deadline_hours = deadline;
    dl.constraints.objective = Objective::cost_under_deadline;
    const Ranking rd = rank_options(dl, sw, 5);
    CHECK(rd.excluded_deadline > 0);
    REQUIRE_FALSE(rd.ranked.empty());
    for (const auto& o : rd.sorted)
        CHECK(o.wall_time_h <= deadline);

    Scenario bud = sc;
    bud.constraints.budget_usd = rk.sorted.front().cost_usd * 1.5;
    bud.constraints.objective = Objective::time_under_budget;
    const Ranking rb = rank_options(bud, sw, 5);
    for (const auto& o : rb.sorted)
        CHECK(o.cost_usd <= bud.constraints.budget_usd);
    for (std::size_t i = 1; i < rb.sorted.size(); ++i)
        CHECK(rb.sorted[i].wall_time_h >= rb.sorted[i - 1].wall_time_h);

    // Spot not allowed and on-demand pricing: only on-demand options.
    Scenario od = sc;
    od.constraints.allow_spot = false;
    for (const auto& o : rank_options(od, sw, 5).sorted)
        CHECK_FALSE(o.spot);
}

TEST_CASE("recommend explains each choice and the plan JSON carries every DESIGN.md field",
          "[recommend][json]") {
    const Scenario sc = scenario(
        R"("constraints": {"max_nodes": 4}, "training": {"tokens": 1e10, "trials": 4, "max_parallel_trials": 2})");
    const RecommendResult res = recommend(
        sc, {cp::test::priced_a100_node("a"), cp::test::priced_a100_node("b", 20.0, 9.0, 3)},
        nullptr, 3, SweepOptions{2});
    REQUIRE_FALSE(res.recommendations.empty());
    const Recommendation& top = res.recommendations.front();
    CHECK_THAT(top.reasons.front(), Catch::StartsWith("best by lowest cost"));
    REQUIRE_FALSE(top.limits.empty());
    CHECK_THAT(top.limits.front(), Catch::StartsWith("compute is"));
    bool mentions_tuning = false;
    for (const auto& l : top.limits)
        mentions_tuning = mentions_tuning || l.find("tuning job: 4 trials") != std::string::npos;
    CHECK(mentions_tuning);
    CHECK(top.report.hpo.waves == 2);

    const auto j = plan_report_json(top.report);
    for (const char* key : {"step_time_s",
                            "breakdown_s",
                            "tokens_per_s",
                            "samples_per_s",
                            "model_tflops_per_device",
                            "hardware_tflops_per_device",
                            "mfu",
                            "memory_gib",
                            "fits_in_memory",
                            "scaling_efficiency",
                            "time_to_train_h",
                            "cost_usd",
                            "cost_spot_usd",
                            "spot_expected_interruptions",
                            "layout",
                            "instance",
                            "nodes",
                            "assumptions",
                            "calibration",
                            "tuning"})
        CHECK(j.contains(key));
    for (const char* key : {"compute", "recompute", "tp_comm", "pp_bubble", "pp_comm",
                            "dp_comm_exposed", "optimizer"})
        CHECK(j["breakdown_s"].contains(key));
    for (const char* key :
         {"weights", "gradients", "optimizer", "activations", "total", "capacity"})
        CHECK(j["memory_gib"].contains(key));
    for (const char* key :
         {"tp", "pp", "dp", "micro_batch", "virtual_stages", "zero", "recompute", "schedule"})
        CHECK(j["layout"].contains(key));
    CHECK(j["calibration"]["source"] == "datasheet");
    CHECK_THAT(j["note"].get<std::string>(), Catch::StartsWith("searched instance, nodes, tp"));
    // Breakdown components add up to the step time (the step is their sum).
    double sum = 0;
    for (const auto& [k, v] : j["breakdown_s"].items())
        sum += v.get<double>();
    CHECK_REL(sum, j["step_time_s"].get<double>(), 1e-9);
    CHECK_REL(j["cost_usd"].get<double>(),
              top.report.nodes * top.report.usd_per_node_hour * j["time_to_train_h"].get<double>(),
              1e-9);

    const auto rj = recommend_json(sc, res);
    CHECK(rj["recommendations"].size() == res.recommendations.size());
    CHECK(rj["evaluated"].get<std::uint64_t>() == res.sweep.evaluated);
}

TEST_CASE("QLoRA is refused where bitsandbytes cannot run, and allowed on NVIDIA GPUs",
          "[planner]") {
    Scenario sc = scenario("");
    sc.workload.finetune.method = TrainingMethod::qlora;
    NodeSpec trainium = cp::test::priced_a100_node();
    trainium.instance_type = "trn1.32xlarge";
    trainium.accelerator.id = "Trainium1";
    trainium.accelerator.vendor = "AWS";
    const std::string why = training_refusal(sc, trainium);
    CHECK_THAT(why, Catch::Contains("bitsandbytes") && Catch::Contains("trn1.32xlarge") &&
                        Catch::Contains("\"lora\""));
    CHECK(training_refusal(sc, cp::test::priced_a100_node()).empty());
    sc.workload.finetune.method = TrainingMethod::lora;
    CHECK(training_refusal(sc, trainium).empty());
}

TEST_CASE("a fixed layout is refused for memory only beyond the memory model's error",
          "[planner]") {
    // Llama 2 7B at 512 tokens data parallel on one A100 node without recompute: each sample
    // adds ~3 % of the 80 GiB device until the estimate crosses it.
    auto fixed = [](int micro_batch) {
        const std::string mb = std::to_string(micro_batch);
        Scenario sc = parse_scenario(
            R"({"name": "t", "model": {"preset": "llama2-7b", "seq_len": 512}, "cluster": {},
                "parallel": {"tp": 1, "pp": 1, "dp": 8, "micro_batch": )" +
                mb + R"(, "global_batch": )" + std::to_string(8 * micro_batch) +
                R"(, "zero": 1, "recompute": "none", "sequence_parallel": false}})",
            "t.json");
        sc.nodes = 1;
        return simulate_plan(sc, cp::test::priced_a100_node(), nullptr);
    };
    const double margin = 1.0 + model::kMemoryEstimateErrorShare;
    int within = 0, beyond = 0;
    for (int mb = 1; mb <= 64 && !beyond; ++mb) {
        const PlanReport r = fixed(mb);
        REQUIRE(r.searched.empty());
        const double share = r.result.memory_gib.total / r.result.memory_gib.capacity;
        if (!within && share > 1.0 && share <= margin) within = mb;
        if (share > margin) beyond = mb;
    }
    REQUIRE(within > 0);
    REQUIRE(beyond > within);
    const PlanReport kept = fixed(within);
    CHECK(kept.result.valid());
    CHECK_FALSE(kept.result.fits_in_memory);
    CHECK(std::any_of(kept.assumptions.begin(), kept.assumptions.end(),
                      [](const std::string& a) { return a.find("may not fit") != a.npos; }));
    const PlanReport refused = fixed(beyond);
    CHECK(refused.result.limit == Limit::out_of_memory);
    CHECK_THAT(refused.limit_reason, Catch::StartsWith("does not fit in memory"));
}

TEST_CASE("packed fine-tuning examples set the attention span, padded ones do not", "[planner]") {
    const auto examples = [](const std::string& packing) {
        return scenario(R"("training": {"method": "full", "examples": 1000, "seq_len": 4096,
                            "example_tokens": 256, "packing": )" +
                        packing + "}");
    };
    const Scenario packed = examples("true");
    CHECK(packed.workload.shape.packed_example_tokens == 256);
    // The examples are the training length: the preset's pre-training length does not replace
    // them (1,000 examples of 256 tokens packed into 4,096-token sequences: 63 sequences).
    CHECK(packed.training.tokens == 0);
    CHECK(training_samples(packed) == 63);
    // Written back, the scenario keeps the examples' length and packing, and so the span.
    CHECK(parse_scenario(scenario_to_json(packed), "t.json").workload.shape.packed_example_tokens ==
          256);
    // Padded examples still run the whole sequence through attention.
    CHECK(examples("false").workload.shape.packed_example_tokens == 0);
    CHECK(scenario("").workload.shape.packed_example_tokens == 0);
    CHECK(error_field([] {
              scenario(R"("training": {"examples": 10, "seq_len": 1024, "example_tokens": 2048})");
          }).rfind("training.example_tokens | ", 0) == 0);
}
