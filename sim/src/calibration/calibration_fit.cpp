#include "clusterplan/sim/calibration_fit.h"

#include "clusterplan/sim/calibration_samples.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace cp::sim {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Running sums for the weighted normal equations of min Σ(α·u + x·v − 1)², u = 1/t, v = S/t.
// S and t are scaled to O(1) first so the 2×2 system stays well conditioned.
struct Sums {
    double uu = 0, uv = 0, vv = 0, u = 0, v = 0;
    void add(double s, double t) {
        const double uu_ = 1.0 / t, vv_ = s / t;
        uu += uu_ * uu_;
        uv += uu_ * vv_;
        vv += vv_ * vv_;
        u += uu_;
        v += vv_;
    }
};

// Returns (alpha, x = 1/beta) in scaled units, with α ≥ 0 and x ≥ 0.
std::pair<double, double> solve(const Sums& s) {
    Eigen::Matrix2d a;
    a << s.uu, s.uv, s.uv, s.vv;
    const Eigen::Vector2d b(s.u, s.v);
    double alpha = -1, x = -1;
    Eigen::FullPivLU<Eigen::Matrix2d> lu(a);
    if (lu.isInvertible()) {
        const Eigen::Vector2d sol = lu.solve(b);
        alpha = sol(0);
        x = sol(1);
    }
    if (alpha >= 0 && x >= 0) return {alpha, x};
    // Boundary solutions of the constrained problem: the better of pure-bandwidth and
    // pure-latency (the objective is convex, so one of them is optimal).
    const double x_only = s.vv > 0 ? s.v / s.vv : 0;
    const double a_only = s.uu > 0 ? s.u / s.uu : 0;
    // Σ(x·v − 1)² and Σ(α·u − 1)² without their common constant term.
    const double cost_x = s.vv * x_only * x_only - 2 * x_only * s.v;
    const double cost_a = s.uu * a_only * a_only - 2 * a_only * s.u;
    return cost_x <= cost_a ? std::pair{0.0, x_only} : std::pair{a_only, 0.0};
}

constexpr double kMaxMessageBytes = 1125899906842624.0; // 2^50 bytes

struct Scale {
    double bytes = 1, time = 1;
};

AlphaBetaSegment to_segment(std::pair<double, double> sol, const Scale& sc) {
    AlphaBetaSegment seg;
    seg.alpha_s = sol.first * sc.time;
    // x is scaled-time per scaled-byte; β = bytes per second. x = 0 means no bandwidth term.
    seg.beta_bytes_per_s = sol.second > 0 ? sc.bytes / (sol.second * sc.time) : 0;
    return seg;
}

double seg_time(const AlphaBetaSegment& s, double bytes) {
    return s.alpha_s + (s.beta_bytes_per_s > 0 ? bytes / s.beta_bytes_per_s : 0.0);
}

Scale scale_of(const std::vector<FitPoint>& pts) {
    Scale sc{0, 0};
    for (const auto& p : pts) {
        sc.bytes = std::max(sc.bytes, p.bytes);
        sc.time = std::max(sc.time, p.time_s);
    }
    if (!(sc.bytes > 0)) sc.bytes = 1;
    if (!(sc.time > 0)) sc.time = 1;
    return sc;
}

// Fits points[first, last] and returns the segment and its worst relative error.
std::pair<AlphaBetaSegment, double> fit_range(const std::vector<FitPoint>& pts, std::size_t first,
                                              std::size_t last, const Sums& sums, const Scale& sc) {
    AlphaBetaSegment seg = to_segment(solve(sums), sc);
    double worst = 0;
    for (std::size_t i = first; i <= last; ++i)
        worst =
            std::max(worst, std::abs(seg_time(seg, pts[i].bytes) - pts[i].time_s) / pts[i].time_s);
    return {seg, worst};
}

std::vector<AlphaBetaSegment> greedy_segments(const std::vector<FitPoint>& pts, const Scale& sc,
                                              double tol) {
    std::vector<AlphaBetaSegment> out;
    std::size_t start = 0;
    while (start < pts.size()) {
        Sums sums;
        sums.add(pts[start].bytes / sc.bytes, pts[start].time_s / sc.time);
        AlphaBetaSegment best = fit_range(pts, start, start, sums, sc).first;
        std::size_t end = start;
        for (std::size_t j = start + 1; j < pts.size(); ++j) {
            Sums trial = sums;
            trial.add(pts[j].bytes / sc.bytes, pts[j].time_s / sc.time);
            auto [seg, worst] = fit_range(pts, start, j, trial, sc);
            if (worst > tol) break;
            sums = trial;
            best = seg;
            end = j;
        }
        best.min_bytes = out.empty() ? 0.0 : pts[start].bytes;
        if (!out.empty()) out.back().max_bytes = pts[start].bytes;
        best.max_bytes = kInf;
        out.push_back(best);
        start = end + 1;
    }
    return out;
}

} // namespace

AlphaBetaSegment fit_alpha_beta(const std::vector<FitPoint>& points) {
    AlphaBetaSegment seg;
    if (points.empty()) return seg;
    const Scale sc = scale_of(points);
    Sums sums;
    for (const auto& p : points)
        sums.add(p.bytes / sc.bytes, p.time_s / sc.time);
    seg = to_segment(solve(sums), sc);
    seg.min_bytes = 0;
    seg.max_bytes = kInf;
    return seg;
}

std::vector<AlphaBetaSegment> fit_piecewise(std::vector<FitPoint> points,
                                            const FitOptions& options) {
    points.erase(
        std::remove_if(points.begin(), points.end(),
                       [](const FitPoint& p) { return !(p.time_s > 0) || !(p.bytes >= 0); }),
        points.end());
    if (points.empty()) return {};
    std::sort(points.begin(), points.end(),
              [](const FitPoint& a, const FitPoint& b) { return a.bytes < b.bytes; });
    const Scale sc = scale_of(points);
    double tol = options.max_rel_error;
    auto segs = greedy_segments(points, sc, tol);
    // Too many regimes means noise, not physics: relax the tolerance until the count is sane.
    for (int round = 0; round < 20 && static_cast<int>(segs.size()) > options.max_segments;
         ++round) {
        tol *= 1.25;
        segs = greedy_segments(points, sc, tol);
    }
    // Extrapolation beyond the table uses the last regime's bandwidth, so it must have one even
    // when its samples alone looked latency-bound (flat times at the largest sizes).
    AlphaBetaSegment& last = segs.back();
    if (!(last.beta_bytes_per_s > 0)) {
        const FitPoint& p = points.back();
        // The bandwidth term may add at most 1 % at the largest measured size.
        last.beta_bytes_per_s = p.bytes / std::max(p.time_s - last.alpha_s, 0.01 * p.time_s);
    }
    return segs;
}

CollectiveFit fit_collective(const CollectiveTable& table, const FitOptions& options) {
    CollectiveFit fit;
    fit.collective = table.collective;
    fit.ranks = table.ranks;
    fit.nodes = table.nodes;
    std::vector<FitPoint> pts;
    for (const auto& s : table.samples) {
        // No collective moves a petabyte in one message; a larger size is a corrupt row (its
        // bandwidth would overflow to infinity and the profile could not be stored).
        if (!(s.bytes <= kMaxMessageBytes))
            throw CalibrationInputError("message size " + std::to_string(s.bytes) +
                                        " bytes is beyond any collective (at most 2^50)");
        const bool use_in_place = !(s.time_us > 0) && s.in_place_time_us > 0;
        const double t_us = use_in_place ? s.in_place_time_us : s.time_us;
        const double busbw = use_in_place ? s.in_place_busbw_gbytes_per_s : s.busbw_gbytes_per_s;
        if (!(t_us > 0)) continue;
        pts.push_back({s.bytes, t_us * 1e-6});
        fit.raw.push_back({s.bytes, t_us * 1e-6, busbw});
    }
    fit.segments = fit_piecewise(pts, options);
    return fit;
}

double segments_time_s(const std::vector<AlphaBetaSegment>& segments, double bytes) {
    if (segments.empty()) return std::nan("");
    for (const auto& s : segments) {
        if (bytes >= s.min_bytes && bytes < s.max_bytes) return seg_time(s, bytes);
    }
    return seg_time(bytes < segments.front().min_bytes ? segments.front() : segments.back(), bytes);
}

double collective_time_s(const CollectiveFit& fit, double bytes) {
    const auto& raw = fit.raw;
    if (!raw.empty() && bytes >= raw.front().bytes && bytes <= raw.back().bytes) {
        auto hi =
            std::lower_bound(raw.begin(), raw.end(), bytes,
                             [](const CollectiveRawPoint& p, double b) { return p.bytes < b; });
        if (hi->bytes == bytes || hi == raw.begin()) return hi->time_s;
        auto lo = hi - 1;
        if (lo->bytes > 0) {
            const double f = std::log(bytes / lo->bytes) / std::log(hi->bytes / lo->bytes);
            return std::exp(std::log(lo->time_s) +
                            f * (std::log(hi->time_s) - std::log(lo->time_s)));
        }
        const double f = (bytes - lo->bytes) / (hi->bytes - lo->bytes);
        return lo->time_s + f * (hi->time_s - lo->time_s);
    }
    if (fit.segments.empty() && !raw.empty()) {
        // No fit: scale the nearest measured point by bandwidth (beyond) or hold it (below).
        if (bytes > raw.back().bytes) return raw.back().time_s * bytes / raw.back().bytes;
        return raw.front().time_s;
    }
    return segments_time_s(fit.segments, bytes);
}

FitErrorStats fit_error(const CollectiveFit& fit, double min_bytes) {
    FitErrorStats st;
    double sum = 0;
    for (const auto& p : fit.raw) {
        if (p.bytes < min_bytes) continue;
        const double e = std::abs(segments_time_s(fit.segments, p.bytes) - p.time_s) / p.time_s;
        sum += e;
        if (e > st.max_rel_error) {
            st.max_rel_error = e;
            st.worst_bytes = p.bytes;
        }
        ++st.count;
    }
    st.mean_rel_error = st.count ? sum / st.count : 0;
    return st;
}

} // namespace cp::sim
