// CLI-only build (CLUSTERPLAN_BUILD_GUI=OFF): every subcommand except the GUI and `report`.
#include "cli.h"

#include <iostream>

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    cp::cli::Io io{std::cout, std::cerr};
    return cp::cli::run(args, io);
}
