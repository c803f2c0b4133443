#include "csv.h"

#include "clusterplan/sim/io/csv_cell.h"

namespace cp::catalog::detail {

CsvReader::CsvReader(std::string_view text) : text_(text) {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3; // UTF-8 byte-order mark
}

bool CsvReader::next(CsvRecord& rec) {
    const std::string_view text = text_;
    std::size_t& i = pos_;
    std::size_t& line = line_;
    while (i < text.size()) {
        rec.line = line;
        rec.fields.clear();
        std::string field;
        bool record_done = false;
        bool any_content = false;
        while (!record_done) {
            field.clear();
            if (i < text.size() && text[i] == '"') {
                any_content = true;
                const std::size_t quote_line = line;
                ++i;
                for (;;) {
                    if (i >= text.size())
                        throw CsvSyntaxError(quote_line, "a quoted field is never closed");
                    const char c = text[i++];
                    if (c == '"') {
                        if (i < text.size() && text[i] == '"') {
                            field += '"';
                            ++i;
                        } else {
                            break;
                        }
                    } else {
                        if (c == '\n') ++line;
                        field += c;
                    }
                }
                if (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
                    throw CsvSyntaxError(line, "text follows a closing quote");
            } else {
                const std::size_t start = i;
                while (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
                    ++i;
                field.assign(text.substr(start, i - start));
                if (!field.empty()) any_content = true;
            }
            rec.fields.push_back(field);
            if (i >= text.size()) {
                record_done = true;
            } else if (text[i] == ',') {
                ++i;
                any_content = true;
            } else {
                if (text[i] == '\r') ++i;
                if (i < text.size() && text[i] == '\n') ++i;
                ++line;
                record_done = true;
            }
        }
        if (any_content) return true;
    }
    return false;
}

std::vector<CsvRecord> parse_csv(std::string_view text) {
    std::vector<CsvRecord> records;
    CsvReader reader(text);
    CsvRecord rec;
    while (reader.next(rec))
        records.push_back(rec);
    return records;
}

std::string csv_escape(std::string_view field) {
    return sim::io::csv_cell(field);
}

} // namespace cp::catalog::detail
