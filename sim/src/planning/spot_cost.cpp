#include "clusterplan/sim/spot_cost.h"

#include "clusterplan/sim/purchase_costs.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace cp::sim {
namespace {

constexpr double kHoursPerMonth = 720.0;
// Midpoints of the Spot Advisor buckets (<5%, 5-10%, 10-15%, 15-20%, >20%); >20% taken as 25%.
constexpr double kBucketMonthlyShare[5] = {0.025, 0.075, 0.125, 0.175, 0.25};
// Below this useful-work fraction a spot job is reported as not feasible.
constexpr double kMinProgressFraction = 0.1;

} // namespace

double spot_interruptions_per_node_hour(int bucket) {
    if (bucket < 0 || bucket > 4) bucket = kConservativeSpotBucket;
    return -std::log(1.0 - kBucketMonthlyShare[bucket]) / kHoursPerMonth;
}

std::string spot_bucket_label(int bucket) {
    static const char* labels[5] = {"<5%", "5-10%", "10-15%", "15-20%", ">20%"};
    return bucket >= 0 && bucket <= 4 ? labels[bucket] : "unknown";
}

double training_samples(const Scenario& sc) {
    const TrainingSpec& t = sc.training;
    if (t.tokens > 0) return t.tokens / sc.workload.tokens_per_sample();
    if (t.samples > 0) return t.samples;
    if (t.examples > 0) {
        // Fine-tuning data: each example padded to the training sequence, or packed back to
        // back into full sequences (training.packing).
        const double passes = t.epochs > 0 ? t.epochs : 1.0;
        const double seq = sc.workload.tokens_per_sample();
        const double per_example = t.example_tokens > 0 ? t.example_tokens : seq;
        return t.packing ? std::ceil(t.examples * passes * per_example / seq) : t.examples * passes;
    }
    return t.epochs * t.dataset_samples;
}

SpotEstimate spot_estimate(const SpotSpec& spot, const NodeSpec& node, int nodes,
                           double work_time_h) {
    SpotEstimate e;
    e.priced = is_known(node.usd_per_node_hour_spot);
    e.cluster_rate_per_hour =
        nodes * spot_interruptions_per_node_hour(node.spot_interruption_bucket);
    e.mtbf_h = 1.0 / e.cluster_rate_per_hour;
    const double restart_h = spot.restart_s / 3600.0;
    const double checkpoint_h = spot.checkpoint_write_s / 3600.0;
    double useful_fraction = 0; // share of wall time that advances training
    double per_interruption_h = 0;
    if (spot.checkpoint_on_notice || checkpoint_h <= 0) {
        // The notice leaves time to write a checkpoint (a free one always fits): no periodic
        // checkpoints, nothing lost. Young/Daly with C = 0 would give a 0/0 useful fraction.
        e.checkpoint_interval_s = 0;
        per_interruption_h = restart_h + checkpoint_h;
        useful_fraction = 1.0;
    } else {
        // Young/Daly: interval sqrt(2·C·MTBF); no interval longer than the job itself.
        double interval_h = std::sqrt(2.0 * checkpoint_h * e.mtbf_h);
        interval_h = std::min(interval_h, std::max(work_time_h, 1e-9));
        e.checkpoint_interval_s = interval_h * 3600.0;
        per_interruption_h = restart_h + 0.5 * (interval_h + checkpoint_h); // restart + lost work
        useful_fraction = interval_h / (interval_h + checkpoint_h);
    }
    // Wall time T solves T = W/useful + rate·T·per_interruption.
    const double progress = 1.0 - e.cluster_rate_per_hour * per_interruption_h;
    e.feasible = progress > kMinProgressFraction && work_time_h > 0;
    if (!e.feasible) {
        e.wall_time_h = kUnknown;
        e.expected_interruptions = kUnknown;
        e.overhead_h = kUnknown;
        return e;
    }
    e.wall_time_h = work_time_h / useful_fraction / progress;
    e.expected_interruptions = e.cluster_rate_per_hour * e.wall_time_h;
    e.overhead_h = e.wall_time_h - work_time_h;
    // Nodes are billed while restarting and while redoing lost work.
    if (e.priced) e.cost_usd = nodes * node.usd_per_node_hour_spot * e.wall_time_h;
    return e;
}

JobEconomics job_economics(const Scenario& sc, const NodeSpec& node, int nodes,
                           double step_time_s) {
    JobEconomics j;
    j.samples_total = training_samples(sc);
    j.steps = std::ceil(j.samples_total / sc.parallel.global_batch);
    j.time_to_train_h = j.steps * step_time_s / 3600.0;
    if (is_known(node.usd_per_node_hour_on_demand))
        j.cost_usd = nodes * node.usd_per_node_hour_on_demand * j.time_to_train_h;
    j.spot = spot_estimate(sc.spot, node, nodes, j.time_to_train_h);
    j.committed = committed_costs(node.committed, nodes, j.time_to_train_h);
    j.storage = storage_cost(sc, j.time_to_train_h);
    return j;
}

HpoEstimate hpo_estimate(const TrainingSpec& t, int nodes, const JobEconomics& job) {
    HpoEstimate h;
    h.trials = t.trials;
    h.max_parallel_trials = std::min(t.max_parallel_trials, t.trials);
    h.waves = (h.trials + h.max_parallel_trials - 1) / h.max_parallel_trials;
    h.peak_nodes = nodes * h.max_parallel_trials;
    // Trials are independent jobs of equal length (SageMaker max_jobs / max_parallel_jobs).
    h.wall_time_h = h.waves * job.time_to_train_h;
    h.cost_usd = h.trials * job.cost_usd;
    if (job.spot.feasible) {
        h.spot_wall_time_h = h.waves * job.spot.wall_time_h;
        h.spot_cost_usd = h.trials * job.spot.cost_usd;
    }
    return h;
}

std::vector<std::string> cost_assumptions(const Scenario& sc, const NodeSpec& node) {
    std::vector<std::string> out;
    std::ostringstream s;
    s.precision(3);
    out.push_back(
        "cost = nodes × hourly price × wall time; no storage, data transfer or idle time");
    s << "spot interruption rate: Spot Advisor bucket "
      << spot_bucket_label(node.spot_interruption_bucket)
      << " read as its midpoint share of capacity reclaimed per 30 days (>20% as 25%), i.e. "
      << spot_interruptions_per_node_hour(node.spot_interruption_bucket) * 24.0 * 30.0
      << " expected interruptions per instance-month";
    if (node.spot_interruption_bucket < 0) s << " (bucket unknown: the worst bucket is assumed)";
    out.push_back(s.str());
    out.push_back(
        "a synchronous job stops when any node is reclaimed: cluster rate = nodes × instance rate");
    if (sc.spot.checkpoint_on_notice || sc.spot.checkpoint_write_s <= 0) {
        out.push_back(
            "a checkpoint is written inside the 2-minute notice, so no work is lost; each "
            "interruption costs checkpoint_write_s + restart_s");
    } else {
        out.push_back(
            "periodic checkpoints at the Young/Daly interval sqrt(2 × checkpoint_write_s × MTBF); "
            "each interruption costs restart_s plus half an interval of lost work (the "
            "2-minute notice is used to stop cleanly, not to checkpoint)");
    }
    out.push_back(
        node.spot_price_basis.empty()
            ? std::string(
                  "spot price: the current price in the catalog; spot prices change over time")
            : node.spot_price_basis);
    if (sc.training.trials > 1)
        out.push_back(
            "tuning job: " + std::to_string(sc.training.trials) + " trials of equal length, " +
            std::to_string(std::min(sc.training.max_parallel_trials, sc.training.trials)) +
            " at a time (SageMaker max_jobs / max_parallel_jobs)");
    return out;
}

} // namespace cp::sim
