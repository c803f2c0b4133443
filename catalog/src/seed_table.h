// A bundled seed CSV (catalog/data) read by column name, so reordering the file's columns
// cannot silently shift values; private to the catalog library.
#pragma once

#include "clusterplan/catalog/errors.h"
#include "csv.h"
#include "text_util.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cp::catalog::detail {

// Column lookup by header name, so reordering the CSV does not silently shift values.
class Table {
public:
    Table(std::string_view name, std::string_view text) : name_(name) {
        try {
            rows_ = parse_csv(text);
        } catch (const CsvSyntaxError& e) {
            throw CatalogError("the bundled " + name_ + " is malformed at line " +
                               std::to_string(e.line()) + ": " + e.what() + ".");
        }
        if (rows_.empty()) throw CatalogError("the bundled " + name_ + " is empty.");
        for (std::size_t i = 0; i < rows_[0].fields.size(); ++i)
            columns_[rows_[0].fields[i]] = i;
    }
    std::size_t size() const { return rows_.size() - 1; }
    const std::string& cell(std::size_t row, const std::string& column) const {
        const auto it = columns_.find(column);
        if (it == columns_.end())
            throw CatalogError("the bundled " + name_ + " has no column '" + column + "'.");
        const auto& fields = rows_[row + 1].fields;
        static const std::string empty;
        return it->second < fields.size() ? fields[it->second] : empty;
    }
    std::optional<double> number(std::size_t row, const std::string& column) const {
        const std::string& text = cell(row, column);
        if (trim(text).empty()) return std::nullopt;
        auto v = parse_number(text);
        if (!v)
            throw CatalogError("the bundled " + name_ + " line " +
                               std::to_string(rows_[row + 1].line) + " field '" + column +
                               "' is not a number.");
        return v;
    }

private:
    std::string name_;
    std::vector<CsvRecord> rows_;
    std::map<std::string, std::size_t> columns_;
};

// Volta (V100) and Turing (T4) tensor cores do FP16 but not BF16; BF16 arrived with Ampere
// (NVIDIA A100 Tensor Core GPU Architecture whitepaper). The seed's fp16_bf16 column holds the
// FP16 figure for them, so BF16 stays unknown/unsupported.
inline bool lacks_bf16(const std::string& id) {
    return id == "T4" || id == "V100-16GB" || id == "V100-32GB";
}

// Gaudi1 has no fp16 data type (Habana SynapseAI graph compiler HAL: its supported types are
// int8/16/32, fp32 and bf16), although the seed column is "fp16_bf16".
inline bool lacks_fp16(const std::string& id) {
    return id == "Gaudi1";
}

} // namespace cp::catalog::detail
