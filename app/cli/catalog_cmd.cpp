// `clusterplan catalog list|show|import|export|rebuild|refresh` (contract in DESIGN.md).
#include "args.h"
#include "catalog_format.h"
#include "catalog_refresh_cmd.h"
#include "cli.h"
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/catalog/importers.h"
#include "clusterplan/catalog/name_lookup.h"
#include "clusterplan/catalog/rebuild_check.h"
#include "clusterplan/sim/io/output_file.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <ostream>

namespace cp::cli {

namespace {

using nlohmann::json;
namespace cat = cp::catalog;

const char* const kCatalogUsage =
    "usage: clusterplan catalog list [--family F] [--region R] [--json]\n"
    "       clusterplan catalog show TYPE [--region R] [--history] [--json]\n"
    "       clusterplan catalog import FILE [--format aws-spot-history|spot-advisor|skypilot|"
    "aws-price-list|csv|aws-spot-feed|capacity-blocks] [--as-of YYYY-MM-DD]\n"
    "       clusterplan catalog export FILE\n"
    "       clusterplan catalog rebuild [--force]   (move a damaged database aside, recreate it;\n"
    "                                 --force: also a healthy one holding imports or "
    "calibrations)\n"
    "       clusterplan catalog refresh [--region R ...] [--base-url URL] [--timeout S] "
    "[--no-aws-cli]\n"
    "Files are read up to 64 MiB (--format aws-price-list: 1 GiB); export writes CSV only.\n";

// Opens the user's catalog; a damaged file is bad data (exit 2) with the way out named.
cat::Catalog open_catalog() {
    try {
        return cat::Catalog::open_default();
    } catch (const cat::CorruptDatabaseError& e) {
        throw InputError(std::string(e.what()).substr(0, std::string(e.what()).size() - 1) +
                         "; run `clusterplan catalog rebuild` to move it aside and start again "
                         "from the bundled snapshot.");
    }
}

std::string network_text(const cat::InstanceInfo& i) {
    std::string s = i.network_is_up_to ? "up to " : "";
    s += fmt_num(i.network_gbps);
    if (i.network_is_up_to && i.network_baseline_gbps)
        s += " (" + fmt_num(i.network_baseline_gbps) + ")";
    return s;
}

std::optional<double> finite(double v) {
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

const char* link_name(cp::sim::IntraNodeLink link) {
    switch (link) {
    case cp::sim::IntraNodeLink::none:
        return "none";
    case cp::sim::IntraNodeLink::nvswitch:
        return "NVSwitch";
    case cp::sim::IntraNodeLink::nvlink:
        return "NVLink";
    case cp::sim::IntraNodeLink::pcie:
        return "PCIe";
    case cp::sim::IntraNodeLink::neuronlink:
        return "NeuronLink";
    case cp::sim::IntraNodeLink::rocem:
        return "RoCE";
    }
    return "none";
}

std::string lower(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string yes_no(const std::optional<bool>& v) {
    return v ? (*v ? "yes" : "no") : kDash;
}

std::string spot_range(const cat::InstanceInfo& i) {
    if (!i.spot_usd_per_hour_min) return kDash;
    if (*i.spot_usd_per_hour_min == i.spot_usd_per_hour_max.value_or(*i.spot_usd_per_hour_min))
        return fmt_usd(i.spot_usd_per_hour_min);
    return fmt_usd(i.spot_usd_per_hour_min) + "-" + fmt_num(i.spot_usd_per_hour_max);
}

int cmd_list(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, {{"--json"}, {"--family", "--region"}});
    if (!args.positional().empty())
        throw UsageError("catalog list takes no positional arguments", kCatalogUsage);
    const auto catalog = open_catalog();
    cat::InstanceFilter filter;
    filter.family = args.value("--family");
    if (args.has("--region")) {
        filter.region = args.value("--region");
        filter.require_price_in_region = true;
    }
    const auto rows = catalog.instances(filter);
    if (!filter.family.empty() && rows.empty()) {
        bool known = false;
        for (const auto& f : catalog.families())
            known = known || lower(f) == lower(filter.family);
        if (!known)
            throw InputError("--family '" + filter.family + "' is not a family in the catalog.");
    }
    const auto price_regions = catalog.price_regions();
    const bool region_unpriced =
        args.has("--region") &&
        std::find(price_regions.begin(), price_regions.end(), filter.region) == price_regions.end();
    if (args.flag("--json")) {
        // A plain array, as always (scripts parse it); an unpriced region is simply empty.
        json out = json::array();
        for (const auto& i : rows) {
            json j = instance_json(i);
            const auto spot = catalog.spot_price_summary(i.instance_type, filter.region);
            j["spot_usd_per_hour"] = spot.known ? json(spot.usd_per_hour) : json(nullptr);
            j["spot_price_basis"] = spot.known ? json(spot.basis) : json(nullptr);
            const auto acc =
                i.accelerator.empty() ? std::nullopt : catalog.accelerator(i.accelerator);
            j["accelerator_estimates"] = acc ? json(acc->estimated_fields) : json::array();
            out.push_back(std::move(j));
        }
        io.out << out.dump(2) << "\n";
        return kOk;
    }
    std::vector<std::vector<std::string>> table;
    bool any_estimate = false;
    for (const auto& i : rows) {
        // "*": some figure of the accelerator is a published estimate (catalog show says which).
        const auto acc = i.accelerator.empty() ? std::nullopt : catalog.accelerator(i.accelerator);
        const bool estimate = acc && !acc->estimated_fields.empty();
        any_estimate = any_estimate || estimate;
        const auto spot = catalog.spot_price_summary(i.instance_type, filter.region);
        table.push_back(
            {i.instance_type, i.accelerator.empty() ? kDash : i.accelerator + (estimate ? "*" : ""),
             std::to_string(i.accelerator_count), i.vcpus ? std::to_string(*i.vcpus) : kDash,
             fmt_num(i.memory_gib), network_text(i), yes_no(i.efa),
             i.intra_node_interconnect.empty() ? kDash : i.intra_node_interconnect,
             fmt_usd(i.on_demand_usd_per_hour),
             spot.known ? fmt_usd(spot.usd_per_hour) : std::string(kDash), spot_range(i),
             i.interruption_bucket ? cat::interruption_label(*i.interruption_bucket) : kDash,
             i.price_as_of.empty() ? kDash : i.price_as_of, fmt_age(i.price_age_days)});
    }
    io.out << render_table({"TYPE", "ACCEL", "N", "vCPU", "MEM GiB", "NET Gbps", "EFA",
                            "INTRA-NODE", "ON-DEMAND $/h", "SPOT $/h", "SPOT RANGE", "INTERRUPT",
                            "PRICE DATE", "AGE"},
                           table);
    io.out
        << rows.size() << " instance types, prices in " << filter.region
        << ("; unknown values shown as " + std::string(kDash))
        << "; SPOT is the median of the last 30 days in the typical zone, RANGE over all zones\n";
    if (any_estimate)
        io.out
            << "* the accelerator has published estimates among its figures, not datasheet values "
               "(`clusterplan catalog show TYPE` marks them)\n";
    if (region_unpriced) {
        // Not an error (an empty listing is a true answer), but most likely a typo: say where
        // prices are.
        std::string known;
        for (const auto& r : price_regions)
            known += (known.empty() ? "" : ", ") + r;
        io.err << "note: the catalog has no prices in region '" << filter.region
               << "'; regions with prices: " << (known.empty() ? std::string("none") : known)
               << "\n";
    }
    return kOk;
}

void print_accelerator(const cat::AcceleratorInfo& a, std::ostream& out) {
    // A published estimate (no datasheet figure) carries "(est.)" wherever it is shown.
    auto v = [&](const std::optional<double>& x, const char* field) {
        return fmt_num(x) + (x && a.is_estimated(field) ? " (est.)" : "");
    };
    out << "accelerator  " << a.id << " (" << a.name << "), "
        << (a.vendor.empty() ? kDash : a.vendor) << ", " << (a.is_gpu ? "GPU" : "not a GPU")
        << (a.inference_only ? ", inference only: training jobs do not run on it" : "") << "\n"
        << "  memory     " << v(a.memory_gib, "memory_gib") << " GiB "
        << (a.memory_type.empty() ? "" : a.memory_type + " ") << "at "
        << v(a.hbm_gbytes_per_s, "hbm_gbytes_per_s") << " GB/s\n"
        << "  dense peak TFLOP/s  fp32 " << v(a.fp32_tflops, "fp32_tflops") << ", tf32 "
        << v(a.tf32_tflops, "tf32_tflops") << ", fp16 " << v(a.fp16_tflops, "fp16_tflops")
        << ", bf16 " << v(a.bf16_tflops, "bf16_tflops") << ", fp8 " << v(a.fp8_tflops, "fp8_tflops")
        << "; int8 TOP/s " << v(a.int8_tops, "int8_tops") << "\n"
        << "  link       " << (a.intra_node_link.empty() ? kDash : a.intra_node_link) << ", "
        << fmt_num(a.link_gbytes_per_s) << " GB/s per device (as published); host "
        << (a.host_link.empty() ? kDash : a.host_link) << "\n"
        << "  source     " << (a.source.empty() ? kDash : a.source) << "\n";
    if (!a.estimated_fields.empty())
        out << "  estimate   figures marked (est.) are published estimates, not datasheet values: "
            << a.estimate_source << "\n";
}

int cmd_show(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, {{"--json", "--history"}, {"--region"}});
    if (args.positional().size() != 1)
        throw UsageError("catalog show needs exactly one instance type", kCatalogUsage);
    const auto catalog = open_catalog();
    const std::string typed = args.positional()[0];
    const auto found = cat::find_instance_type(catalog, typed); // any letter case
    if (!found)
        throw InputError("'" + typed + "' is not an instance type in the catalog" +
                         cat::did_you_mean(typed, cat::instance_type_names(catalog)) +
                         "; see `clusterplan catalog list`.");
    const std::string& type = *found;
    const std::string region = args.value("--region", cat::kDefaultRegion);
    const auto inst = catalog.instance(type, region);
    if (!inst)
        throw InputError("'" + type +
                         "' is not an instance type in the catalog; see "
                         "`clusterplan catalog list`.");
    const auto acc = catalog.accelerator(inst->accelerator);
    const auto prices = catalog.prices(type, !args.flag("--history"));
    const auto advisor = catalog.spot_advisor(type);
    if (args.flag("--json")) {
        json out{{"instance", instance_json(*inst)},
                 {"accelerator", acc ? accelerator_json(*acc) : json(nullptr)},
                 {"prices", json::array()},
                 {"spot_advisor", json::array()}};
        for (const auto& p : prices)
            out["prices"].push_back(price_json(p));
        for (const auto& r : advisor)
            out["spot_advisor"].push_back(advisor_json(r));
        io.out << out.dump(2) << "\n";
        return kOk;
    }
    const auto& i = *inst;
    io.out << i.instance_type << " (" << i.family << ")\n"
           << "  vCPUs      " << (i.vcpus ? std::to_string(*i.vcpus) : kDash) << ", memory "
           << fmt_num(i.memory_gib) << " GiB\n"
           << "  devices    " << i.accelerator_count << " x "
           << (i.accelerator.empty() ? kDash : i.accelerator) << ", "
           << fmt_num(i.accelerator_memory_gib_each) << " GiB each\n"
           << "  network    " << network_text(i) << " Gbps, baseline "
           << fmt_num(i.network_baseline_gbps) << " Gbps, EFA " << yes_no(i.efa) << "\n"
           << "  intra-node "
           << (i.intra_node_interconnect.empty() ? kDash : i.intra_node_interconnect) << ", "
           << fmt_num(i.interconnect_gbytes_per_s_per_accel) << " GB/s per device\n"
           << "  " << i.region << "    on-demand " << fmt_usd(i.on_demand_usd_per_hour)
           << "/h, spot " << spot_range(i) << "/h, interruption "
           << (i.interruption_bucket ? cat::interruption_label(*i.interruption_bucket) : kDash)
           << ", price date " << (i.price_as_of.empty() ? kDash : i.price_as_of) << " (age "
           << fmt_age(i.price_age_days) << ")\n";
    if (const auto node = catalog.node_spec(type, region)) {
        // What the simulator will use, after its conventions (one direction, sustained rate).
        io.out << "  simulator  intra-node " << link_name(node->intra_link) << " "
               << fmt_num(finite(node->intra_node_gbytes_per_s), 2)
               << " GB/s per device per direction, inter-node "
               << fmt_num(finite(node->inter_node_gbps)) << " Gbps sustained\n";
    }
    if (acc) print_accelerator(*acc, io.out);
    io.out << (args.flag("--history") ? "prices (all stored):\n" : "prices (current per zone):\n");
    if (prices.empty()) {
        io.out << "  " << kDash << " none stored\n";
    } else {
        std::vector<std::vector<std::string>> table;
        for (const auto& p : prices)
            table.push_back({p.region, p.zone.empty() ? kDash : p.zone, p.kind,
                             fmt_usd(p.usd_per_hour), p.as_of, fmt_age(p.age_days), p.source,
                             p.note});
        io.out << render_table({"REGION", "ZONE", "KIND", "$/h", "AS OF", "AGE", "SOURCE", "NOTE"},
                               table);
    }
    if (!advisor.empty()) {
        io.out << "spot advisor:\n";
        std::vector<std::vector<std::string>> table;
        for (const auto& r : advisor)
            table.push_back({r.region, r.os, r.interruption_label,
                             r.savings_pct ? fmt_num(r.savings_pct, 0) + "%" : kDash, r.as_of,
                             r.source});
        io.out << render_table({"REGION", "OS", "INTERRUPT", "SAVINGS", "AS OF", "SOURCE"}, table);
    }
    return kOk;
}

int cmd_import(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, {{}, {"--format", "--as-of"}});
    if (args.positional().size() != 1)
        throw UsageError("catalog import needs exactly one FILE", kCatalogUsage);
    cat::ImportOptions options;
    if (args.has("--format")) {
        options.format = cat::parse_format(args.value("--format"));
        if (!options.format)
            throw UsageError("--format '" + args.value("--format") +
                             "' is not one of aws-spot-history, spot-advisor, skypilot, "
                             "aws-price-list, csv, aws-spot-feed, capacity-blocks");
    }
    options.as_of = args.value("--as-of");
    auto catalog = open_catalog();
    const auto report = cat::import_file(catalog, args.positional()[0], options);
    io.out << args.positional()[0] << ": " << report.summary() << "\n";
    return kOk;
}

// An export must never replace a database: the live catalog (or its journal files), reached
// directly or through a link, or any other SQLite file (a backup set aside by `rebuild`).
void refuse_database_target(const std::filesystem::path& target,
                            const std::filesystem::path& database) {
    std::error_code ec;
    if (!std::filesystem::exists(target, ec)) return;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        std::filesystem::path part = database;
        part += suffix;
        if (std::filesystem::equivalent(target, part, ec))
            throw InputError("catalog export " + target.string() +
                             ": that is the live catalog database; export to a new .csv file");
    }
    if (std::filesystem::is_regular_file(target, ec)) {
        std::ifstream in(target, std::ios::binary);
        std::string head(16, '\0');
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        if (in && head == std::string("SQLite format 3\0", 16))
            throw InputError(
                "catalog export " + target.string() +
                ": that file is an SQLite database, not an export; choose another name");
    }
}

int cmd_export(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, {{}, {}});
    if (args.positional().size() != 1)
        throw UsageError("catalog export needs exactly one FILE", kCatalogUsage);
    const std::filesystem::path target = args.positional()[0];
    // The export is always CSV: a .json or .sqlite name would promise another format.
    if (lower(target.extension().string()) != ".csv")
        throw InputError("catalog export " + target.string() +
                         ": the export is CSV (the format `catalog import --format csv` reads); "
                         "name the file *.csv");
    const auto catalog = open_catalog();
    refuse_database_target(target, catalog.path());
    sim::io::check_output_target(target);
    cat::export_csv(catalog, target);
    io.out << "exported prices and Spot Advisor data to " << args.positional()[0] << "\n";
    return kOk;
}

int cmd_rebuild(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, {{"--force"}, {}});
    if (!args.positional().empty()) throw UsageError("catalog rebuild takes no arguments");
    const auto path = cat::default_database_path();
    // A healthy catalog with the user's own data is only set aside on request.
    if (const std::string kept = cat::rows_beyond_snapshot(path);
        !kept.empty() && !args.flag("--force"))
        throw InputError(
            "the catalog " + path.string() +
            " is healthy and holds data the bundled snapshot does not (" + kept +
            "); `catalog rebuild --force` sets it aside as a backup and starts afresh");
    const auto backup = cat::Catalog::rebuild_from_snapshot(path);
    if (backup.empty())
        io.out << "created " << path.string() << " from the bundled snapshot\n";
    else
        io.out << "moved " << path.string() << " to " << backup.string()
               << " and recreated it from the bundled snapshot\n";
    return kOk;
}

} // namespace

int cmd_catalog(const std::vector<std::string>& args, Io& io) {
    const bool help = std::find(args.begin(), args.end(), "--help") != args.end() ||
                      std::find(args.begin(), args.end(), "-h") != args.end();
    if (args.empty() || help) {
        (help ? io.out : io.err) << kCatalogUsage;
        return help ? kOk : kUsage;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    try {
        if (args[0] == "list") return cmd_list(rest, io);
        if (args[0] == "show") return cmd_show(rest, io);
        if (args[0] == "import") return cmd_import(rest, io);
        if (args[0] == "export") return cmd_export(rest, io);
        if (args[0] == "rebuild") return cmd_rebuild(rest, io);
        if (args[0] == "refresh") return cmd_catalog_refresh(rest, io);
    } catch (const cat::ImportError& e) {
        throw InputError(e.what());
    }
    throw UsageError("unknown catalog subcommand '" + args[0] + "'", kCatalogUsage);
}

} // namespace cp::cli
