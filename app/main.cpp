// clusterplan: no arguments opens the GUI; subcommands run headless (DESIGN.md "Command line").
#include "cli.h"
#include "gui_main.h"
#include "report_cmd.h"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    // `clusterplan FILE.json` (and the desktop entry's `clusterplan %f`) opens the file in the GUI.
    if (args.empty() || args[0] == "--screenshot" || args[0] == "--gui" ||
        args[0] == "--bench-plan" ||
        (args[0] != "help" && cp::gui::is_scenario_argument(argv[1]))) {
        return cp::gui::run_gui(argc, argv);
    }
    cp::cli::Io io{std::cout, std::cerr};
    // `report` renders charts with Qt; it creates its own (offscreen when headless) application.
    const std::map<std::string, cp::cli::Command> extra = {
        {"report", [argc, argv](const std::vector<std::string>& rest, cp::cli::Io& rio) {
             return cp::report::cmd_report(argc, argv, rest, rio);
         }}};
    return cp::cli::run(args, io, extra);
}
