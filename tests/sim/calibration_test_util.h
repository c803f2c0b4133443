// File helpers for the calibration tests (paths come from CMake definitions).
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
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

// A JSON fixture of the calibration folder (probe documents, PyTorch measurements).
inline nlohmann::json calibration_json(const std::string& name) {
    return nlohmann::json::parse(read_text(calibration_fixture(name)));
}

} // namespace cp::test
