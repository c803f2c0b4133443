// `clusterplan report SCENARIO.json --out FILE.pdf|.html|.md|.csv|.json [--top N] [--threads N]`
#include "report_cmd.h"

#include "args.h"
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/service/scenario_input.h"
#include "clusterplan/sim/io/output_file.h"
#include "report_export.h"

#include <QApplication>
#include <QFileInfo>
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <thread>

namespace cp::report {
namespace {

// Qt Charts need a QApplication. Without a display (CI, ssh, cron) use the offscreen
// platform; it must be chosen before the application is constructed.
std::unique_ptr<QApplication> ensure_application(int& argc, char** argv) {
    if (QApplication::instance() != nullptr) return nullptr;
    const bool has_display =
        std::getenv("DISPLAY") != nullptr || std::getenv("WAYLAND_DISPLAY") != nullptr;
    if (!has_display && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", QByteArray("offscreen"));
    }
    return std::make_unique<QApplication>(argc, argv);
}

} // namespace

int cmd_report(int argc, char** argv, const std::vector<std::string>& args, cli::Io& io) {
    const cli::Args parsed(args, cli::ArgSpec{{}, {"--out", "--top", "--threads"}});
    if (parsed.positional().size() != 1)
        throw cli::UsageError("report needs exactly one SCENARIO.json argument");
    const std::string out = parsed.value("--out");
    if (out.empty()) throw cli::UsageError("report needs --out FILE.pdf|.html|.md|.csv|.json");
    const QString out_path = QString::fromStdString(out);
    const QFileInfo out_info(out_path);
    if (!export_formats().contains(out_info.suffix().toLower())) {
        // A bad value rather than a bad command line: exit 2, like an unwritable --out.
        throw cli::InputError("--out " + out +
                              ": unknown report format (use .pdf, .html, .md, .csv or .json)");
    }
    const int top = parsed.int_value("--top", kDefaultTopN, 1, 1000);
    const int threads = parsed.int_value(
        "--threads", static_cast<int>(std::max(1u, std::thread::hardware_concurrency())), 1, 256);

    // Bad input first (exit 2), before minutes of sweeping: the scenario, then the output place.
    const sim::Scenario scenario = service::load_scenario_file(parsed.positional()[0]);
    const QFileInfo dir(out_info.absolutePath());
    if (!dir.isDir())
        throw cli::InputError("cannot write " + out + ": directory " +
                              dir.filePath().toStdString() + " does not exist");
    if (!dir.isWritable())
        throw cli::InputError("cannot write " + out + ": directory " +
                              dir.filePath().toStdString() + " is not writable");
    if (out_info.isDir()) throw cli::InputError("cannot write " + out + ": it is a directory");
    try {
        sim::io::check_output_target(out); // a symlink, device or FIFO is refused, not followed
    } catch (const sim::io::OutputFileError& e) {
        throw cli::InputError(e.what());
    }
    // `report s.json --out s.json` would replace the scenario with the report.
    const QFileInfo scenario_info(QString::fromStdString(parsed.positional()[0]));
    if (out_info.exists() && out_info.canonicalFilePath() == scenario_info.canonicalFilePath()) {
        throw cli::InputError("cannot write " + out +
                              ": it is the scenario file being reported on");
    }

    catalog::Catalog catalog = catalog::Catalog::open_default();
    sim::SweepOptions options;
    options.threads = threads;
    const ReportData data = build_report_data(scenario, catalog, top, options);

    int qt_argc = std::min(argc, 1); // Qt must not interpret the subcommand's arguments
    auto app = ensure_application(qt_argc, argv);
    QString error;
    if (!export_report(data, out_path, &error)) {
        io.err << "clusterplan report: " << error.toStdString() << "\n";
        return cli::kBadInput;
    }
    if (data.serving) {
        io.out << "wrote " << out << ": " << data.serving->ranked.size()
               << " ranked deployments of " << data.serving->candidates << " instance types\n";
        if (data.serving->ranked.empty())
            return cli::no_feasible_plan(io, "report",
                                         "no instance type can serve this model; " + out +
                                             " says why for each");
        return cli::kOk;
    }
    io.out << "wrote " << out << ": " << data.plans.size() << " ranked plans of " << data.evaluated
           << " evaluated\n";
    if (data.plans.empty())
        return cli::no_feasible_plan(io, "report",
                                     "no plan meets the scenario's constraints; " + out +
                                         " says why for each instance");
    return cli::kOk;
}

} // namespace cp::report
