// The report's numbers equal `clusterplan simulate --json` for the same plan: the report is
// built from the planner, the simulate command is run through the CLI and both compared.
#include "fixture.h"
#include "report_export.h"
#include "scenario_input.h"

#include "cli.h"
#include "clusterplan/catalog/catalog.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

#include <sstream>

TEST_CASE("Report numbers equal simulate --json for the same plan", "[report][numbers]") {
    cp::report::test::ensure_qt_app();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    qputenv("CLUSTERPLAN_DATA_DIR", dir.path().toUtf8());
    const std::string scenario_path = std::string(CLUSTERPLAN_SOURCE_DIR) + "/resources/scenarios/gpt3-175b-p4d.json";
    const auto scenario = cp::cli::load_scenario_file(scenario_path);
    cp::catalog::Catalog catalog = cp::catalog::Catalog::open_default();
    const auto data = cp::report::build_report_data(scenario, catalog, 5);
    REQUIRE_FALSE(data.plans.empty());

    std::ostringstream out, err;
    cp::cli::Io io{out, err};
    REQUIRE(cp::cli::run({"simulate", scenario_path, "--json"}, io) == 0);
    const auto simulated = nlohmann::ordered_json::parse(out.str());
    const auto& reported = data.plans.front();
    for (const char* key : {"instance", "nodes", "devices", "step_time_s", "tokens_per_s", "samples_per_s", "mfu",
                            "time_to_train_h", "cost_usd", "cost_spot_usd", "spot_expected_interruptions",
                            "breakdown_s", "memory_gib", "layout"}) {
        INFO(key);
        CHECK(reported[key] == simulated[key]);
    }
    // And the exported JSON carries the same values.
    const QString json_path = dir.filePath(QStringLiteral("plans.json"));
    QString error;
    REQUIRE(cp::report::export_report(data, json_path, &error));
    QFile f(json_path);
    REQUIRE(f.open(QIODevice::ReadOnly));
    const auto exported = nlohmann::ordered_json::parse(f.readAll().toStdString());
    CHECK(exported["plans"][0]["step_time_s"] == simulated["step_time_s"]);
    CHECK(exported["plans"][0]["cost_usd"] == simulated["cost_usd"]);
}
