// File helpers for the calibration tests (paths come from CMake definitions).
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace cp::test {

inline std::string calibration_fixture(const std::string& name) {
    return std::string(CLUSTERPLAN_TEST_DATA_DIR) + "/calibration/" + name;
}

inline std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace cp::test
