// Normal (non-error) output may quote names from files and the catalog: a scenario name, an OS
// column, a host or GPU name from a probe. Written raw, an escape sequence in one of them would
// drive the user's terminal (retitle it, hide text, fake a prompt). This stream buffer passes text
// through and writes every C0 control except newline and tab, DEL, and the UTF-8 encoded C1
// controls as "\u00XX" - the form JSON uses too, so `--json` output stays valid and decodes to the
// same text.
#pragma once

#include <ostream>
#include <streambuf>

namespace cp::cli {

class TerminalSafeBuf : public std::streambuf {
public:
    explicit TerminalSafeBuf(std::ostream& sink) : sink_(sink) {}
    ~TerminalSafeBuf() override;

protected:
    int_type overflow(int_type ch) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    void put(unsigned char c);
    void escape(unsigned code);

    std::ostream& sink_;
    bool pending_c2_ = false; // a 0xC2 lead byte whose continuation decides
};

} // namespace cp::cli
