// Streaming filter for the AWS bulk EC2 price-list CSV: keeps the metadata rows, the header
// and the records whose "Instance Type" is one the catalog knows, so a multi-gigabyte region
// file shrinks to what the importer reads. Records are CSV records (a quoted field may hold a
// line break), not lines.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace cp::catalog::refresh {

class PriceListFilter {
public:
    explicit PriceListFilter(std::set<std::string> instance_types)
        : types_(std::move(instance_types)) {}
    // Appends the kept records of `chunk` to `keep`; `last` flushes an unterminated final record.
    void feed(std::string_view chunk, bool last, std::string& keep);

private:
    void record(std::string_view rec, std::string& keep);

    std::set<std::string> types_;
    std::string pending_; // the record being assembled
    bool in_quotes_ = false;
    long type_column_ = -1; // index of "Instance Type" once the header is seen
};

} // namespace cp::catalog::refresh
