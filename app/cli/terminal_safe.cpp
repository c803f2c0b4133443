#include "terminal_safe.h"

#include <cstdio>

namespace cp::cli {

TerminalSafeBuf::~TerminalSafeBuf() {
    if (pending_c2_) sink_.put(static_cast<char>(0xC2));
}

void TerminalSafeBuf::escape(unsigned code) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\u%04x", code);
    sink_ << buf;
}

void TerminalSafeBuf::put(unsigned char c) {
    if (pending_c2_) {
        pending_c2_ = false;
        if (c >= 0x80 && c <= 0x9F) { // U+0080..U+009F: C1 controls (CSI is U+009B)
            escape(c);
            return;
        }
        sink_.put(static_cast<char>(0xC2));
    }
    if (c == 0xC2) {
        pending_c2_ = true;
    } else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
        escape(c);
    } else {
        sink_.put(static_cast<char>(c));
    }
}

TerminalSafeBuf::int_type TerminalSafeBuf::overflow(int_type ch) {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    put(static_cast<unsigned char>(traits_type::to_char_type(ch)));
    return ch;
}

std::streamsize TerminalSafeBuf::xsputn(const char* s, std::streamsize n) {
    for (std::streamsize i = 0; i < n; ++i)
        put(static_cast<unsigned char>(s[i]));
    return n;
}

int TerminalSafeBuf::sync() {
    sink_.flush();
    return 0;
}

} // namespace cp::cli
