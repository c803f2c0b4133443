#include "clusterplan/sim/probe_acceptance.h"

namespace cp::sim {

void check_probe_acceptable(const ProbeDocument& doc, const std::string& source,
                            const ProbeAcceptance& acceptance) {
    if (!acceptance.instance_type.empty() && !doc.instance_type.empty() &&
        acceptance.instance_type != doc.instance_type)
        throw CalibrationInputError(source + ": --instance " + acceptance.instance_type +
                                    " but the probe ran on a " + doc.instance_type +
                                    " (host DMI product name); figures of one instance type must "
                                    "not calibrate another");
    if (doc.errors.empty() || acceptance.allow_failed_sections) return;
    std::string sections;
    for (const auto& s : doc.failed_sections)
        sections += (sections.empty() ? "" : ", ") + s;
    throw CalibrationInputError(
        source + ": the probe reported " + std::to_string(doc.errors.size()) + " error(s)" +
        (sections.empty() ? std::string() : " in " + sections) + " (first: " + doc.errors.front() +
        "); nothing was stored (pass --allow-partial to store the sections that worked, with "
        "the errors recorded in the profile)");
}

} // namespace cp::sim
