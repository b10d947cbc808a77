#include "core/analysis/stats.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace probaudit::analysis {

double mcnemarExactP(std::int64_t b, std::int64_t c) {
    const std::int64_t n = b + c;
    if (n == 0) {
        return 1.0;
    }
    const std::int64_t k = std::min(b, c);
    // P(X <= k) for X ~ Bin(n, 1/2), summed in log space (n can be large).
    double logSum = -INFINITY;
    for (std::int64_t i = 0; i <= k; ++i) {
        const double logTerm = std::lgamma(double(n) + 1) - std::lgamma(double(i) + 1) -
                               std::lgamma(double(n - i) + 1) - double(n) * std::log(2.0);
        const double hi = std::max(logSum, logTerm);
        logSum = hi + std::log(std::exp(logSum - hi) + std::exp(logTerm - hi));
    }
    return std::min(1.0, 2.0 * std::exp(logSum));
}

Interval wilson(std::int64_t k, std::int64_t n) {
    if (n <= 0) {
        return {0, 0, 1};
    }
    const double z = 1.959963984540054;
    const double nn = double(n), p = double(k) / nn, z2 = z * z;
    const double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
    const double half = z * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
    // At k = 0 and k = n the bound is exactly 0 or 1 (the formula leaves rounding dust).
    return {p, k == 0 ? 0.0 : std::max(0.0, centre - half),
            k == n ? 1.0 : std::min(1.0, centre + half)};
}

double pairedMinimumDetectableDifference(std::int64_t discordant, std::int64_t n) {
    if (n <= 0) {
        return 1;
    }
    const double zAlpha = 1.959963984540054, zPower = 0.8416212335729143;
    const double d = discordant > 0 ? double(discordant) / double(n) : wilson(0, n).high;
    return std::min(1.0, (zAlpha + zPower) * std::sqrt(d / double(n)));
}

double quantile(std::vector<double> values, double q) {
    if (values.empty()) {
        return 0;
    }
    std::sort(values.begin(), values.end());
    const double pos = q * double(values.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const auto hi = std::min(values.size() - 1, lo + 1);
    return values[lo] + (values[hi] - values[lo]) * (pos - double(lo));
}

Interval pairedBootstrapDiff(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b,
                             int resamples, std::uint64_t seed) {
    if (a.size() != b.size()) {
        throw std::invalid_argument("paired bootstrap needs the same items on both sides");
    }
    Interval out;
    const std::size_t n = a.size();
    if (n == 0) {
        return out;
    }
    // Each item's difference is -1, 0 or +1, so a resample of n items with replacement is a
    // multinomial draw of how many +1 and -1 items it holds: the same distribution as drawing
    // item indices, in O(1) per resample instead of O(n).
    std::int64_t up = 0, down = 0;
    for (std::size_t i = 0; i < n; ++i) {
        up += b[i] && !a[i];
        down += a[i] && !b[i];
    }
    out.estimate = double(up - down) / double(n);
    std::mt19937_64 gen(seed);
    const double pUp = double(up) / double(n);
    const double pDownRest =
        up == std::int64_t(n) ? 0.0 : double(down) / double(std::int64_t(n) - up);
    std::vector<double> stats;
    stats.reserve(std::size_t(resamples));
    for (int r = 0; r < resamples; ++r) {
        const std::int64_t u = std::binomial_distribution<std::int64_t>(std::int64_t(n), pUp)(gen);
        const std::int64_t dn =
            std::binomial_distribution<std::int64_t>(std::int64_t(n) - u, pDownRest)(gen);
        stats.push_back(double(u - dn) / double(n));
    }
    out.low = quantile(stats, 0.025);
    out.high = quantile(stats, 0.975);
    return out;
}

int binOf(const std::vector<double>& edges, double x) {
    if (edges.size() < 2 || !(x >= edges.front()) || x > edges.back()) {
        return -1;
    }
    if (x == edges.back()) {
        return int(edges.size()) - 2;
    }
    return int(std::upper_bound(edges.begin(), edges.end(), x) - edges.begin()) - 1;
}

} // namespace probaudit::analysis
