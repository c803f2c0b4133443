#include "args.h"

#include <charconv>

namespace cp::cli {

Args::Args(const std::vector<std::string>& argv, const ArgSpec& spec) {
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a.size() > 1 && a.rfind("--", 0) == 0) {
            std::string name = a;
            std::string inline_value;
            bool has_inline = false;
            if (auto eq = a.find('='); eq != std::string::npos) {
                name = a.substr(0, eq);
                inline_value = a.substr(eq + 1);
                has_inline = true;
            }
            if (spec.flags.count(name) && !has_inline) {
                flags_.insert(name);
            } else if (spec.options.count(name)) {
                if (has_inline) {
                    options_[name].push_back(inline_value);
                } else if (i + 1 < argv.size()) {
                    options_[name].push_back(argv[++i]);
                } else {
                    throw UsageError("option " + name + " needs a value");
                }
            } else {
                throw UsageError("unknown option " + name);
            }
        } else {
            positional_.push_back(a);
        }
    }
}

std::string Args::value(const std::string& name, const std::string& fallback) const {
    auto it = options_.find(name);
    return it == options_.end() || it->second.empty() ? fallback : it->second.back();
}

std::vector<std::string> Args::values(const std::string& name) const {
    auto it = options_.find(name);
    return it == options_.end() ? std::vector<std::string>{} : it->second;
}

int Args::int_value(const std::string& name, int fallback, int min, int max) const {
    if (!has(name)) return fallback;
    const std::string v = value(name);
    int out = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (ec != std::errc() || ptr != v.data() + v.size() || out < min || out > max) {
        throw UsageError("option " + name + " expects an integer from " + std::to_string(min) +
                         " to " + std::to_string(max) + ", got '" + v + "'");
    }
    return out;
}

} // namespace cp::cli
