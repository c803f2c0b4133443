// The report's numbers equal `clusterplan simulate --json` for the same plan. For every
// ranked plan of a searched scenario, the plan (instance, nodes, layout, purchase option) is
// written back into a scenario file and run through the CLI's simulate command; the report
// data, the CSV and JSON exports and the table cells of the rendered HTML must all show the
// values simulate printed.
#include "cli.h"
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/service/scenario_input.h"
#include "fixture.h"
#include "plan_fields.h"
#include "report_export.h"
#include "report_format.h"

#include <QFile>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

namespace {

using json = nlohmann::ordered_json;

// The report's scenario with one ranked plan's choices fixed, so simulate evaluates exactly it.
json scenario_for_plan(json scenario, const json& plan) {
    scenario["cluster"]["instance"] = plan["instance"];
    scenario["cluster"]["nodes"] = plan["nodes"];
    scenario["cluster"]["pricing"] = plan["purchase"];
    for (const char* key : {"tp", "pp", "dp", "cp", "sequence_parallel", "micro_batch",
                            "virtual_stages", "zero", "recompute"}) {
        scenario["parallel"][key] = plan["layout"][key];
    }
    return scenario;
}

json simulate(const std::string& scenario_path) {
    std::ostringstream out, err;
    cp::cli::Io io{out, err};
    INFO(err.str());
    REQUIRE(cp::cli::run({"simulate", scenario_path, "--json"}, io) == 0);
    return json::parse(out.str());
}

QString read_text(const QString& path) {
    QFile f(path);
    REQUIRE(f.open(QIODevice::ReadOnly));
    return QString::fromUtf8(f.readAll());
}

// One CSV line split at commas (the ranked-plan cells never need quoting).
QStringList csv_cells(const QString& line) {
    return line.split(u',');
}

} // namespace

TEST_CASE("Report numbers equal simulate --json for every ranked plan", "[report][numbers]") {
    cp::report::test::ensure_qt_app();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    qputenv("CLUSTERPLAN_DATA_DIR", dir.path().toUtf8());
    // Instance, node count and layout are searched here, and spot is allowed, so the ranking
    // holds different instances and purchase options.
    const std::string source =
        std::string(CLUSTERPLAN_SOURCE_DIR) + "/resources/scenarios/llama3-8b-any.json";
    const auto scenario = cp::service::load_scenario_file(source);
    cp::catalog::Catalog catalog = cp::catalog::Catalog::open_default();
    const auto data = cp::report::build_report_data(scenario, catalog, 5);
    REQUIRE(data.plans.size() == 5);

    QString error;
    const QString csv_path = dir.filePath(QStringLiteral("plans.csv"));
    const QString json_path = dir.filePath(QStringLiteral("plans.json"));
    const QString html_path = dir.filePath(QStringLiteral("report.html"));
    REQUIRE(cp::report::export_report(data, csv_path, &error));
    REQUIRE(cp::report::export_report(data, json_path, &error));
    REQUIRE(cp::report::export_report(data, html_path, &error));
    const QStringList csv = read_text(csv_path).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    REQUIRE(csv.size() == 6);
    const QStringList header = csv_cells(csv[0]);
    const json exported = json::parse(read_text(json_path).toStdString());
    const QString html = read_text(html_path);

    for (size_t i = 0; i < data.plans.size(); ++i) {
        const json& reported = data.plans[i];
        INFO("plan #" << i + 1 << ": " << reported["instance"] << " x " << reported["nodes"] << ", "
                      << reported["purchase"]);
        const std::string path =
            dir.filePath(QStringLiteral("plan%1.json").arg(i + 1)).toStdString();
        std::ofstream(path) << scenario_for_plan(
                                   json::parse(cp::sim::scenario_to_json(data.scenario)), reported)
                                   .dump(2);
        const json simulated = simulate(path);

        for (const char* key :
             {"instance", "nodes", "devices", "purchase", "step_time_s", "tokens_per_s",
              "samples_per_s", "mfu", "time_to_train_h", "cost_usd", "cost_spot_usd",
              "spot_expected_interruptions", "breakdown_s", "memory_gib", "layout", "spot",
              "tuning", "prices"}) {
            INFO(key);
            REQUIRE(simulated.contains(key));
            CHECK(reported[key] == simulated[key]);
            CHECK(exported["plans"][i][key] == simulated[key]);
        }

        // CSV: each column is the simulate value as JSON prints it.
        const QStringList row = csv_cells(csv[static_cast<qsizetype>(i) + 1]);
        REQUIRE(row.size() == header.size());
        CHECK(row[0] == QString::number(i + 1));
        for (const char* column :
             {"step_time_s", "tokens_per_s", "mfu", "time_to_train_h", "cost_usd", "cost_spot_usd",
              "spot_expected_interruptions", "spot.wall_time_h"}) {
            INFO(column);
            const qsizetype at = header.indexOf(QString::fromLatin1(column));
            REQUIRE(at >= 0);
            const std::string name(column);
            const json& value =
                name == "spot.wall_time_h" ? simulated["spot"]["wall_time_h"] : simulated[name];
            CHECK(row[at].toStdString() == value.dump());
        }
        CHECK(row[header.indexOf(QStringLiteral("purchase"))].toStdString() ==
              simulated["purchase"].get<std::string>());

        // HTML: the ranked table's cells are the simulate values, formatted. On spot the time
        // to train is the expected spot wall time, not the on-demand one.
        namespace fmt = cp::report::fmt;
        const bool spot = simulated["purchase"] == "spot";
        const double hours = spot ? simulated["spot"]["wall_time_h"].get<double>()
                                  : simulated["time_to_train_h"].get<double>();
        const QStringList cells = {
            fmt::duration_s(simulated["step_time_s"].get<double>()),
            fmt::percent(simulated["mfu"].get<double>()),
            fmt::hours(hours),
            fmt::usd(simulated["cost_usd"].get<double>()),
            fmt::usd(simulated["cost_spot_usd"].get<double>()),
            fmt::plain(simulated["spot_expected_interruptions"].get<double>(), 3)};
        // The row starts with its rank and instance cells (a bare rank could be a node count).
        const QString row_html =
            QStringLiteral("<td class=\"num\">%1</td><td>%2")
                .arg(i + 1)
                .arg(QString::fromStdString(simulated["instance"].get<std::string>()));
        const qsizetype row_at = html.indexOf(row_html);
        REQUIRE(row_at >= 0);
        const QString table_row =
            html.mid(row_at, html.indexOf(QStringLiteral("</tr>"), row_at) - row_at);
        for (const QString& cell : cells) {
            INFO(cell.toStdString());
            CHECK(table_row.contains(QStringLiteral(">%1</td>").arg(cell.toHtmlEscaped())));
        }
    }
}
