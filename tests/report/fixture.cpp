#include "fixture.h"

#include "cli.h"
#include "report_cmd.h"

#include <QApplication>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>

namespace cp::report::test {

ReportRun run_report(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    cli::Io io{out, err};
    static char name[] = "clusterplan";
    static char* argv[] = {name, nullptr};
    const std::map<std::string, cli::Command> extra = {
        {"report", [](const std::vector<std::string>& rest, cli::Io& rio) {
             return cmd_report(1, argv, rest, rio);
         }}};
    std::vector<std::string> full = {"report"};
    full.insert(full.end(), args.begin(), args.end());
    const int code = cli::run(full, io, extra);
    return {code, out.str(), err.str()};
}

void ensure_qt_app() {
    static std::unique_ptr<QApplication> app;
    if (app || QCoreApplication::instance() != nullptr) return; // main() normally owns it
    qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
    static int argc = 1;
    static char name[] = "report_tests";
    static char* argv[] = {name, nullptr};
    app = std::make_unique<QApplication>(argc, argv);
}

ReportData fixture_report(const std::string& name, int plans) {
    ReportData data;
    data.title = name;
    data.generated_at_utc = "2026-11-22T03:00:00Z";
    const nlohmann::ordered_json scenario = {
        {"schema", "clusterplan.scenario/1"},
        {"name", name},
        {"model",
         {{"preset", "gpt3-175b"},
          {"layers", 96},
          {"hidden", 12288},
          {"heads", 96},
          {"seq_len", 2048},
          {"vocab", 51200}}},
        {"cluster", {{"region", "us-east-1"}, {"pricing", "on_demand"}}},
        {"parallel", {{"global_batch", 1536}}},
        {"precision", "bf16"},
        {"training", {{"tokens", 3.0e11}}},
        {"constraints",
         {{"max_nodes", 512},
          {"instances", nlohmann::ordered_json::array()},
          {"allow_spot", true},
          {"objective", "cost"}}}};
    data.scenario = cp::sim::parse_scenario(scenario.dump(), "report fixture");
    const char* instances[] = {"p4d.24xlarge", "p4de.24xlarge", "p5.48xlarge", name.c_str()};
    for (int i = 0; i < plans; ++i) {
        const int nodes = 16 << (i % 4);
        const double step = 9.5 * 64.0 / nodes * (1.0 + 0.04 * i);
        const double hours = 3.0e11 / (1536.0 * 2048.0) * step / 3600.0;
        const double usd = hours * nodes * 32.77;
        nlohmann::ordered_json plan = {
            {"instance", instances[i % 4]},
            {"nodes", nodes},
            {"devices", nodes * 8},
            {"accelerator", "A100-40GB"},
            {"params", 1.746e11},
            {"step_time_s", step},
            {"breakdown_s",
             {{"compute", step * 0.62},
              {"recompute", step * 0.14},
              {"tp_comm", step * 0.08},
              {"pp_bubble", step * 0.11},
              {"pp_comm", step * 0.01},
              {"dp_comm_exposed", step * 0.03},
              {"optimizer", step * 0.01}}},
            {"tokens_per_s", 1536.0 * 2048.0 / step},
            {"samples_per_s", 1536.0 / step},
            {"mfu", 0.52 - 0.01 * i},
            {"memory_gib",
             {{"weights", 5.4},
              {"gradients", 5.4},
              {"optimizer", 4.1},
              {"activations", 14.0 + i},
              {"total", 28.9 + i},
              {"capacity", 40.0}}},
            {"fits_in_memory", true},
            {"scaling_efficiency", 0.9 - 0.02 * i},
            {"time_to_train_h", hours},
            {"cost_usd", usd},
            {"cost_spot_usd",
             i == 2 ? nlohmann::ordered_json() : nlohmann::ordered_json(usd * 0.55)},
            {"spot_expected_interruptions", 0.4 * nodes / 16.0},
            {"layout",
             {{"tp", 8},
              {"pp", 8},
              {"dp", nodes / 8},
              {"micro_batch", 1},
              {"zero", 1},
              {"recompute", "full"}}},
            {"explanation",
             {"Cheapest plan that fits: full recompute keeps activations within 40 GiB.", name}},
        };
        data.plans.push_back(plan);
    }
    for (int i = 0; i < 300; ++i) {
        const double t = 200.0 * std::pow(1.03, i % 90) * (1.0 + 0.1 * (i % 7));
        data.cost_time.push_back(
            {t, 1.2e6 * std::pow(1.01, i % 50) * (1.0 + 0.05 * (i % 11)), false, 0});
    }
    for (int i = 0; i < 8; ++i)
        data.cost_time.push_back({200.0 * (8 - i), 1.1e6 + 3.0e4 * i, true, 0});
    for (int i = 0; i < plans; ++i) {
        data.cost_time.push_back(
            {data.plans[static_cast<size_t>(i)]["time_to_train_h"].get<double>(),
             data.plans[static_cast<size_t>(i)]["cost_usd"].get<double>(), i == 0, i + 1});
    }
    for (int devices = 8; devices <= 1024; devices *= 2) {
        const double x = std::log2(devices / 8.0);
        data.scaling.push_back(
            {"Data parallel", devices, 4.0e3 * devices * (1.0 - 0.05 * x), 1.0 - 0.05 * x});
        data.scaling.push_back({"Model parallel (TP/PP)", devices,
                                3.6e3 * devices * (1.0 - 0.03 * x), 0.9 - 0.03 * x});
        data.scaling.push_back(
            {"3D (best)", devices, 4.1e3 * devices * (1.0 - 0.02 * x), 1.0 - 0.02 * x});
    }
    data.prices = {
        {"p4d.24xlarge", "us-east-1", "on_demand", 32.7726, "2025-06", 520, "AWS price list", ""},
        {"p4d.24xlarge", "us-east-1", "spot", 14.2, "2025-06-01", 509, "SkyPilot catalog",
         "min over zones"},
        {name, "us-east-1", "on_demand", std::nan(""), "", std::nan(""), name, ""}};
    data.calibration = {{"Source", "datasheet"}, {"Profile", name}};
    data.assumptions = {"Spot interruption rate: the Spot Advisor bucket's midpoint per month.",
                        name};
    data.caveats = {"Analytical model; expect ±10 % against measured runs."};
    data.evaluated = 1234567;
    data.search_s = 0.82;
    return data;
}

} // namespace cp::report::test
