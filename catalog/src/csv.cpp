#include "csv.h"

namespace cp::catalog::detail {

std::vector<CsvRecord> parse_csv(std::string_view text) {
    std::vector<CsvRecord> records;
    std::size_t i = 0, line = 1;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;  // UTF-8 byte-order mark
    while (i < text.size()) {
        CsvRecord rec;
        rec.line = line;
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
                while (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
                    field += text[i++];
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
        if (any_content) records.push_back(std::move(rec));
    }
    return records;
}

std::string csv_escape(std::string_view field) {
    if (field.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(field);
    std::string out = "\"";
    for (char c : field) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
    return out;
}

} // namespace cp::catalog::detail
