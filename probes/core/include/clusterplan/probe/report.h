// A probe run's outcome per section and how it reaches the document, the exit status and
// whoever reads stdout: every failure stays attached to its section, and the document is framed
// by marker lines so banners or NCCL debug output around it cannot be mistaken for it.
#pragma once

#include "clusterplan/probe/json_writer.h"

#include <string>
#include <string_view>
#include <vector>

namespace cp::probe {

// Exit statuses of clusterplan-probe.
inline constexpr int kExitOk = 0;
inline constexpr int kExitUsage = 1;
inline constexpr int kExitNoGpu = 2;         // no usable GPU/driver, or no document at all
inline constexpr int kExitSectionFailed = 3; // document written, some section failed

struct SectionOutcome {
    std::string name;          // info, nccl, gemm, membw, pcie, p2p
    std::string status = "ok"; // ok, failed, skipped
    std::vector<std::string> errors;
    std::string note; // why skipped
};

class RunReport {
public:
    void ran(const std::string& section);
    void fail(const std::string& section, const std::string& message);
    void skip(const std::string& section, const std::string& reason);
    const std::vector<SectionOutcome>& sections() const { return sections_; }
    // "section: message" for every failure, in order.
    std::vector<std::string> errors() const;
    // ok (nothing failed), partial (some sections failed), failed (every section run failed).
    std::string status() const;
    int exit_code() const;
    // Writes "status", "sections" and "errors" into the open top-level object.
    void write(JsonWriter& w) const;

private:
    SectionOutcome& at(const std::string& section);
    std::vector<SectionOutcome> sections_;
};

// Marker lines around each document on stdout.
inline constexpr std::string_view kDocumentBegin = "----- BEGIN CLUSTERPLAN PROBE DOCUMENT -----";
inline constexpr std::string_view kDocumentEnd = "----- END CLUSTERPLAN PROBE DOCUMENT -----";
std::string framed_document(const std::string& json);

struct MarkedDocuments {
    std::vector<std::string> documents; // text between each begin/end pair
    bool truncated = false;             // a begin marker without its end (output cut short)
};
// Finds every framed document in `text` (markers must start a line; '\r' tolerated).
MarkedDocuments extract_marked_documents(std::string_view text);

// Writes `text` to stdout in as few write(2) calls as the pipe allows: documents of up to
// PIPE_BUF bytes from ranks sharing a launcher's pipe then never interleave.
void write_stdout(const std::string& text);

} // namespace cp::probe
