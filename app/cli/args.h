// Minimal argv parser for subcommands: positional arguments, `--flag`, `--opt value`
// (repeatable). Unknown options are a usage error (exit 1).
#pragma once

#include "clusterplan/service/errors.h"

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cp::cli {

class UsageError : public std::runtime_error {
public:
    // `usage` is the command's own (trusted, multi-line) usage text, printed after the
    // one-line sentence; the sentence may quote user input and is printed escaped.
    explicit UsageError(const std::string& sentence, std::string usage = {})
        : std::runtime_error(sentence), usage_(std::move(usage)) {}
    const std::string& usage() const { return usage_; }

private:
    std::string usage_;
};

// Bad input or data (exit 2): one sentence naming file, field and reason. The service layer
// throws the same type, so a command reports its errors and the service's alike.
using InputError = service::InputError;

struct ArgSpec {
    std::set<std::string> flags;   // e.g. {"--json"}
    std::set<std::string> options; // take a value, e.g. {"--family", "--host"}
};

class Args {
public:
    Args(const std::vector<std::string>& argv, const ArgSpec& spec);
    const std::vector<std::string>& positional() const { return positional_; }
    bool flag(const std::string& name) const { return flags_.count(name) != 0; }
    bool has(const std::string& name) const { return options_.count(name) != 0; }
    // Last value given for an option, or `fallback`.
    std::string value(const std::string& name, const std::string& fallback = "") const;
    std::vector<std::string> values(const std::string& name) const;
    // Integer option; UsageError naming the option when not an integer in [min, max].
    int int_value(const std::string& name, int fallback, int min, int max) const;

private:
    std::vector<std::string> positional_;
    std::set<std::string> flags_;
    std::map<std::string, std::vector<std::string>> options_;
};

} // namespace cp::cli
