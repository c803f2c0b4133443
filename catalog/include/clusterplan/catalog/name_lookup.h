// Instance type names as users type them. AWS spells types in lower case, but "P4d.24xlarge" is
// how blog posts and the AWS console headings write them: lookups ignore case, and a name that
// matches nothing gets the closest catalog names as a suggestion.
#pragma once

#include "clusterplan/catalog/catalog.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cp::catalog {

// The catalog's spelling of `typed` (compared without regard to ASCII case), or nullopt.
std::optional<std::string> find_instance_type(const Catalog& catalog, std::string_view typed);

// Every instance type in the catalog, sorted.
std::vector<std::string> instance_type_names(const Catalog& catalog);

// " (did you mean p4d.24xlarge?)" when some name in `known` is within a few edits of `typed`
// (up to three names, closest first); "" otherwise.
std::string did_you_mean(std::string_view typed, const std::vector<std::string>& known);

} // namespace cp::catalog
