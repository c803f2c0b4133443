#include "clusterplan/catalog/name_lookup.h"

#include "sqlite_util.h"

#include <algorithm>
#include <cctype>

namespace cp::catalog {
namespace {

char lower(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

bool same_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                              [](char x, char y) { return lower(x) == lower(y); });
}

// Levenshtein distance over lower-cased text, two rows of memory.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t substitute =
                prev[j - 1] + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, substitute});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

} // namespace

std::vector<std::string> instance_type_names(const Catalog& catalog) {
    std::vector<std::string> names;
    detail::Stmt s(catalog.handle(),
                   "SELECT instance_type FROM instance_types ORDER BY instance_type");
    while (s.step())
        names.push_back(s.get_text(0));
    return names;
}

std::optional<std::string> find_instance_type(const Catalog& catalog, std::string_view typed) {
    if (catalog.has_instance_type(typed)) return std::string(typed);
    for (const auto& name : instance_type_names(catalog))
        if (same_ignoring_case(name, typed)) return name;
    return std::nullopt;
}

std::string did_you_mean(std::string_view typed, const std::vector<std::string>& known) {
    // Long or binary input is not a typo of a type name; it is also kept out of the O(n·m) loop.
    if (typed.empty() || typed.size() > 64) return {};
    // A third of the name may be wrong ("p4d.24xlarg", "p4.24xlarge"), at least two characters.
    const std::size_t limit = std::max<std::size_t>(2, typed.size() / 3);
    std::vector<std::pair<std::size_t, std::string>> close;
    for (const auto& name : known) {
        const std::size_t d = edit_distance(typed, name);
        if (d <= limit) close.emplace_back(d, name);
    }
    if (close.empty()) return {};
    std::sort(close.begin(), close.end());
    std::string out = " (did you mean ";
    for (std::size_t i = 0; i < close.size() && i < 3; ++i)
        out += (i == 0                                            ? ""
                : i + 1 == std::min<std::size_t>(close.size(), 3) ? " or "
                                                                  : ", ") +
               close[i].second;
    return out + "?)";
}

} // namespace cp::catalog
