#include "serving/serving_queue.h"

#include "clusterplan/sim/hardware.h"

#include <algorithm>
#include <cmath>

namespace cp::sim {

double md1_wait_s(double rho, double service_s, double quantile) {
    if (rho <= 0) return 0;
    const double mean = rho / (2.0 * (1.0 - rho)) * service_s;
    if (!is_known(quantile)) return mean;
    if (rho <= 1.0 - quantile) return 0;
    return mean / rho * std::log(rho / (1.0 - quantile));
}

double slots_wait_s(double rate, double stay_s, int slots, double quantile) {
    const double c = std::max(1, slots);
    const double offered = std::min(rate * stay_s, 0.999 * c);
    if (offered <= 0) return 0;
    double erlang_b = 1.0;
    for (int k = 1; k <= slots; ++k)
        erlang_b = offered * erlang_b / (k + offered * erlang_b);
    const double p_wait = c * erlang_b / (c - offered * (1.0 - erlang_b));
    const double drain_per_s = (c - offered) / stay_s; // slots freed per second beyond arrivals
    if (!is_known(quantile)) return 0.5 * p_wait / drain_per_s;
    if (p_wait <= 1.0 - quantile) return 0;
    return 0.5 * std::log(p_wait / (1.0 - quantile)) / drain_per_s;
}

double finite_slot_wait_s(double n, int slots, double mu, double rate, double quantile) {
    const double per_request_s = std::max(0.0, 1.0 / mu - 1.0 / rate);
    const double head_start = 0.5 * std::max(1, slots);
    if (is_known(quantile)) return std::max(0.0, quantile * n - head_start) * per_request_s;
    if (n <= head_start) return 0;
    return (n - head_start) * (n - head_start) / (2.0 * n) * per_request_s;
}

double prefill_queue_s(double prompts_per_s, double marginal_s, double quantile) {
    if (!(prompts_per_s > 0) || !(marginal_s > 0)) return 0;
    return md1_wait_s(std::min(0.95, prompts_per_s * marginal_s), marginal_s, quantile);
}

} // namespace cp::sim
