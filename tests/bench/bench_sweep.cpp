// Full sweep speed (issue 3 target: a GPT-3 175B sweep over every catalog instance that can train,
// 1..512 nodes, evaluates >= 1,000,000 plans/s on the 2-core build machine). Reports the plan
// count and plans/s per thread count; run the Release build:
//   build/release/tests/bench/bench_sweep
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/sim/scenario.h"
#include "clusterplan/sim/search.h"

#include <benchmark/benchmark.h>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <unistd.h>

namespace {

using namespace cp;

// The bundled catalog, created once in a temporary directory.
const std::vector<sim::NodeSpec>& catalog_nodes() {
    static const std::vector<sim::NodeSpec> nodes = [] {
        char tmpl[] = "/tmp/cp-bench-sweep-XXXXXX";
        const std::filesystem::path dir = mkdtemp(tmpl);
        std::vector<sim::NodeSpec> out;
        {
            catalog::Catalog cat(dir / "catalog.sqlite");
            out = cat.trainable_node_specs();
        }
        std::filesystem::remove_all(dir);
        return out;
    }();
    return nodes;
}

// CPU time of the whole process (all threads): on a shared, loaded machine the wall-clock rate
// understates what the code does, so both are reported.
double process_cpu_s() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

const sim::Scenario& gpt3_sweep_scenario() {
    static const sim::Scenario sc = sim::parse_scenario(
        R"({"name": "GPT-3 175B, every instance, 1-512 nodes", "model": {"preset": "gpt3-175b"},
            "cluster": {}, "constraints": {"max_nodes": 512}})",
        "bench");
    return sc;
}

void BM_SweepGpt3AllInstances(benchmark::State& state) {
    const auto& nodes = catalog_nodes();
    const auto& sc = gpt3_sweep_scenario();
    sim::SweepOptions options;
    options.threads = static_cast<int>(state.range(0));
    std::uint64_t evaluated = 0;
    std::uint64_t configs = 0;
    double cpu_s = 0;
    for (auto _ : state) {
        const double cpu_start = process_cpu_s();
        const sim::SweepResult result = sim::sweep(sc, nodes, nullptr, options);
        cpu_s += process_cpu_s() - cpu_start;
        evaluated += result.evaluated;
        configs = result.configs.size();
        benchmark::DoNotOptimize(result.configs.data());
    }
    state.counters["plans_per_sweep"] = benchmark::Counter(static_cast<double>(evaluated) /
                                                           static_cast<double>(state.iterations()));
    state.counters["plans_per_s"] =
        benchmark::Counter(static_cast<double>(evaluated), benchmark::Counter::kIsRate);
    state.counters["plans_per_cpu_s"] = benchmark::Counter(static_cast<double>(evaluated) / cpu_s);
    state.counters["instances"] = static_cast<double>(nodes.size());
    state.counters["fitting_configs"] = static_cast<double>(configs);
}
// Real time: the sweep runs its own worker threads.
BENCHMARK(BM_SweepGpt3AllInstances)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(2.0);

} // namespace
