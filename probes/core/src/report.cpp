#include "clusterplan/probe/report.h"

#include <cerrno>
#include <unistd.h>

namespace cp::probe {

SectionOutcome& RunReport::at(const std::string& section) {
    for (auto& s : sections_)
        if (s.name == section) return s;
    sections_.push_back({section, "ok", {}, ""});
    return sections_.back();
}

void RunReport::ran(const std::string& section) {
    at(section);
}

void RunReport::fail(const std::string& section, const std::string& message) {
    SectionOutcome& s = at(section);
    s.status = "failed";
    s.errors.push_back(message);
}

void RunReport::skip(const std::string& section, const std::string& reason) {
    SectionOutcome& s = at(section);
    if (s.status == "ok") s.status = "skipped";
    s.note = reason;
}

std::vector<std::string> RunReport::errors() const {
    std::vector<std::string> out;
    for (const auto& s : sections_)
        for (const auto& e : s.errors)
            out.push_back(s.name + ": " + e);
    return out;
}

std::string RunReport::status() const {
    int failed = 0, ran = 0;
    for (const auto& s : sections_) {
        if (s.status == "skipped") continue;
        ++ran;
        failed += s.status == "failed";
    }
    if (failed == 0) return "ok";
    return failed == ran ? "failed" : "partial";
}

int RunReport::exit_code() const {
    return status() == "ok" ? kExitOk : kExitSectionFailed;
}

void RunReport::write(JsonWriter& w) const {
    w.field("status", status());
    w.key("sections").begin_array();
    for (const auto& s : sections_) {
        w.begin_object().field("name", s.name).field("status", s.status);
        if (!s.note.empty()) w.field("note", s.note);
        w.key("errors").begin_array();
        for (const auto& e : s.errors)
            w.value(e);
        w.end_array().end_object();
    }
    w.end_array();
    w.key("errors").begin_array();
    for (const auto& e : errors())
        w.value(e);
    w.end_array();
}

std::string framed_document(const std::string& json) {
    return std::string(kDocumentBegin) + "\n" + json + "\n" + std::string(kDocumentEnd) + "\n";
}

MarkedDocuments extract_marked_documents(std::string_view text) {
    MarkedDocuments out;
    auto line_at = [&](std::size_t pos, std::string_view marker) {
        if (pos != 0 && text[pos - 1] != '\n') return false;
        if (text.compare(pos, marker.size(), marker) != 0) return false;
        const std::size_t end = pos + marker.size();
        return end == text.size() || text[end] == '\n' || text[end] == '\r';
    };
    std::size_t pos = 0;
    for (;;) {
        std::size_t begin = text.find(kDocumentBegin, pos);
        while (begin != std::string_view::npos && !line_at(begin, kDocumentBegin))
            begin = text.find(kDocumentBegin, begin + 1);
        if (begin == std::string_view::npos) break;
        const std::size_t body = text.find('\n', begin);
        if (body == std::string_view::npos) {
            out.truncated = true;
            break;
        }
        std::size_t end = text.find(kDocumentEnd, body);
        while (end != std::string_view::npos && !line_at(end, kDocumentEnd))
            end = text.find(kDocumentEnd, end + 1);
        if (end == std::string_view::npos) {
            out.truncated = true;
            break;
        }
        std::string_view doc = text.substr(body + 1, end - body - 1);
        while (!doc.empty() && (doc.back() == '\n' || doc.back() == '\r'))
            doc.remove_suffix(1);
        out.documents.emplace_back(doc);
        pos = end + kDocumentEnd.size();
    }
    return out;
}

void write_stdout(const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(1, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return; // stdout closed: nobody is reading
        done += static_cast<std::size_t>(n);
    }
}

} // namespace cp::probe
