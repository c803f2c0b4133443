#include "instance_option.h"

#include "cli.h"
#include "clusterplan/catalog/name_lookup.h"

namespace cp::cli {

std::string instance_option(const Args& args, const catalog::Catalog& db) {
    const std::string typed = args.value("--instance");
    if (typed.empty()) return {};
    const auto found = catalog::find_instance_type(db, typed); // any letter case
    if (!found)
        throw InputError("--instance: unknown instance type '" + typed + "'" +
                         catalog::did_you_mean(typed, catalog::instance_type_names(db)) +
                         " (see `clusterplan catalog list`)");
    return *found;
}

} // namespace cp::cli
