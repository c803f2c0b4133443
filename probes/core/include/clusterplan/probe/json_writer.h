// A minimal streaming JSON writer for the probe's output (output only, so the probe needs no JSON
// library). Non-finite numbers are written as null.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace cp::probe {

class JsonWriter {
public:
    JsonWriter& begin_object() { return open('{'); }
    JsonWriter& end_object() { return close('}'); }
    JsonWriter& begin_array() { return open('['); }
    JsonWriter& end_array() { return close(']'); }
    JsonWriter& key(const std::string& k) {
        comma();
        quote(k);
        out_ += ':';
        after_key_ = true;
        return *this;
    }
    JsonWriter& value(const std::string& s) {
        comma();
        quote(s);
        return *this;
    }
    JsonWriter& value(const char* s) { return value(std::string(s)); }
    JsonWriter& value(bool b) {
        comma();
        out_ += b ? "true" : "false";
        return *this;
    }
    JsonWriter& value(int v) {
        comma();
        out_ += std::to_string(v);
        return *this;
    }
    JsonWriter& value(long long v) {
        comma();
        out_ += std::to_string(v);
        return *this;
    }
    JsonWriter& value(unsigned long long v) {
        comma();
        out_ += std::to_string(v);
        return *this;
    }
    JsonWriter& value(double v) {
        comma();
        if (!std::isfinite(v)) {
            out_ += "null";
        } else {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.17g", v);
            out_ += buf;
        }
        return *this;
    }
    JsonWriter& null() {
        comma();
        out_ += "null";
        return *this;
    }
    template <class T> JsonWriter& field(const std::string& k, const T& v) {
        key(k);
        return value(v);
    }
    const std::string& str() const { return out_; }

private:
    JsonWriter& open(char c) {
        comma();
        out_ += c;
        first_.push_back(true);
        return *this;
    }
    JsonWriter& close(char c) {
        first_.pop_back();
        out_ += c;
        return *this;
    }
    void comma() {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (!first_.empty()) {
            if (!first_.back()) out_ += ',';
            first_.back() = false;
        }
    }
    void quote(const std::string& s) {
        out_ += '"';
        for (unsigned char c : s) {
            switch (c) {
            case '"':
                out_ += "\\\"";
                break;
            case '\\':
                out_ += "\\\\";
                break;
            case '\n':
                out_ += "\\n";
                break;
            case '\r':
                out_ += "\\r";
                break;
            case '\t':
                out_ += "\\t";
                break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out_ += buf;
                } else {
                    out_ += static_cast<char>(c);
                }
            }
        }
        out_ += '"';
    }
    std::string out_;
    std::vector<bool> first_;
    bool after_key_ = false;
};

} // namespace cp::probe
