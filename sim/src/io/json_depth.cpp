#include "clusterplan/sim/io/json_depth.h"

#include <set>
#include <vector>

namespace cp::sim::io {

std::optional<std::string> json_nesting_problem(std::string_view text, int max_depth) {
    int depth = 0;
    bool in_string = false;
    bool escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth)
                return "nests deeper than " + std::to_string(max_depth) + " levels (at byte " +
                       std::to_string(i + 1) + ")";
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

namespace {

// One open array or object; an object remembers its keys and whether a key comes next.
struct Frame {
    bool object = false;
    bool expect_key = false;
    std::string key; // the member being read, for the dotted path of a message
    std::set<std::string, std::less<>> keys;
};

// A key quoted in a message is cut: the message stays one short line whatever the file holds.
std::string shown(std::string_view key) {
    constexpr std::size_t kShownChars = 60;
    return key.size() <= kShownChars ? std::string(key)
                                     : std::string(key.substr(0, kShownChars)) + "...";
}

std::string dotted_path(const std::vector<Frame>& frames, std::string_view key) {
    std::string path;
    for (std::size_t f = 0; f + 1 < frames.size(); ++f) {
        if (!frames[f].object) {
            path += "[]";
            continue;
        }
        if (!path.empty()) path += '.';
        path += shown(frames[f].key);
    }
    if (!path.empty()) path += '.';
    return path + shown(key);
}

} // namespace

std::optional<std::string> json_input_problem(std::string_view text, int max_depth) {
    if (const auto nul = text.find('\0'); nul != std::string_view::npos)
        return "holds a NUL byte (at byte " + std::to_string(nul + 1) +
               "), which JSON text never does";
    if (auto problem = json_nesting_problem(text, max_depth)) return problem;
    std::vector<Frame> frames; // bounded by max_depth, checked above
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            const std::size_t start = i + 1;
            bool escaped = false;
            for (++i; i < text.size(); ++i) {
                if (escaped)
                    escaped = false;
                else if (text[i] == '\\')
                    escaped = true;
                else if (text[i] == '"')
                    break;
            }
            if (frames.empty() || !frames.back().object || !frames.back().expect_key) continue;
            Frame& f = frames.back();
            const std::string_view key = text.substr(start, i - start);
            if (!f.keys.emplace(key).second)
                return "names " + dotted_path(frames, key) + " twice in one object (at byte " +
                       std::to_string(start) + "); give each field once";
            f.key = std::string(key);
            f.expect_key = false;
        } else if (c == '{' || c == '[') {
            frames.push_back(Frame{c == '{', c == '{', {}, {}});
        } else if ((c == '}' || c == ']') && !frames.empty()) {
            frames.pop_back();
        } else if (c == ',' && !frames.empty() && frames.back().object) {
            frames.back().expect_key = true;
        }
    }
    return std::nullopt;
}

} // namespace cp::sim::io
