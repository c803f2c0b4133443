#include "price_list_filter.h"

#include <vector>

namespace cp::catalog::refresh {
namespace {

// Field `index` of one CSV record (quotes removed, "" unescaped); empty when absent.
std::string field(std::string_view rec, long index) {
    long col = 0;
    std::string value;
    bool quoted = false;
    for (std::size_t i = 0; i < rec.size(); ++i) {
        const char c = rec[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < rec.size() && rec[i + 1] == '"') {
                    if (col == index) value += '"';
                    ++i;
                } else {
                    quoted = false;
                }
            } else if (col == index) {
                value += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            if (col == index) return value;
            ++col;
        } else if (c != '\r' && c != '\n' && col == index) {
            value += c;
        }
    }
    return col == index ? value : std::string();
}

} // namespace

void PriceListFilter::record(std::string_view rec, std::string& keep) {
    if (type_column_ < 0) {
        // Metadata rows and the header pass through; the header names the column to test.
        keep.append(rec);
        if (field(rec, 0) == "SKU")
            for (long i = 0;; ++i) {
                const std::string name = field(rec, i);
                if (name == "Instance Type") {
                    type_column_ = i;
                    break;
                }
                if (name.empty() && i > 200) {
                    type_column_ =
                        1 << 20; // no such column: keep nothing more; the importer reports it
                    break;
                }
            }
        return;
    }
    if (types_.count(field(rec, type_column_))) keep.append(rec);
}

void PriceListFilter::feed(std::string_view chunk, bool last, std::string& keep) {
    std::size_t start = 0;
    for (std::size_t i = 0; i < chunk.size(); ++i) {
        const char c = chunk[i];
        if (c == '"') in_quotes_ = !in_quotes_; // "" toggles twice: parity is what matters
        if (c == '\n' && !in_quotes_) {
            pending_.append(chunk.substr(start, i + 1 - start));
            record(pending_, keep);
            pending_.clear();
            start = i + 1;
        }
    }
    pending_.append(chunk.substr(start));
    if (last && !pending_.empty()) {
        record(pending_, keep);
        pending_.clear();
    }
}

} // namespace cp::catalog::refresh
