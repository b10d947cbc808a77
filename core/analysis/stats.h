#pragma once
// Statistics for comparing two runs (DESIGN.md, Analyses). Deterministic: the bootstrap takes
// a seed, so a comparison gives the same interval on every machine.
#include <cstdint>
#include <vector>

namespace probaudit::analysis {

// McNemar's exact test: two-sided p-value of b versus c discordant pairs under H0 (each
// discordant pair equally likely either way): min(1, 2 * P(X <= min(b, c))), X ~ Bin(b + c, 1/2).
double mcnemarExactP(std::int64_t b, std::int64_t c);

struct Interval {
    double estimate = 0, low = 0, high = 0;
};

// Paired bootstrap of the accuracy difference (mean(b) - mean(a)) over items: `resamples`
// resamples of the items with replacement (drawn as multinomial counts from mt19937_64 seeded
// with `seed`), percentile 95% interval (2.5th and 97.5th percentiles, linear interpolation).
Interval pairedBootstrapDiff(const std::vector<std::uint8_t>& correctA,
                             const std::vector<std::uint8_t>& correctB, int resamples,
                             std::uint64_t seed);

// Wilson score interval of a proportion k / n at 95% (z = 1.959964): the estimate k / n and
// (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n). n = 0 gives [0, 1] around 0. Unlike the
// normal approximation it stays inside [0, 1] and is informative at k = 0 (0 of 20: <= 16.1%).
Interval wilson(std::int64_t k, std::int64_t n);

// The smallest accuracy difference (a share, b - a) a paired comparison of n items would detect
// with 80% power in a two-sided test at 5% (McNemar's, normal approximation):
// (z_0.975 + z_0.8) * sqrt(d / n), d the share of items whose correctness differs between the two
// runs. With no disagreement seen, d is its Wilson 95% upper bound, never 0: "no difference in
// 64 items" is never read as "no difference". n = 0 gives 1.
double pairedMinimumDetectableDifference(std::int64_t discordant, std::int64_t n);

// Quantile q in [0, 1] of `values` with linear interpolation between order statistics
// (numpy's default "linear" method). `values` need not be sorted.
double quantile(std::vector<double> values, double q);

// Index of the bin of `x` for bin edges e0 < e1 < ... < en: bin i holds e[i] <= x < e[i+1],
// the last bin also holds x == en; -1 outside. (numpy.histogram's convention.)
int binOf(const std::vector<double>& edges, double x);

} // namespace probaudit::analysis
