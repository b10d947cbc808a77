#!/usr/bin/env python3
"""Golden values for core/analysis/stats from an independent implementation (scipy, numpy).

    .venv/bin/python tests/golden/make_stats_golden.py   -> tests/golden/stats.json

- McNemar's exact test: scipy.stats.binomtest(min(b, c), b + c, 0.5) two-sided p-values for a
  grid of discordant counts (tests compare to 1e-12 relative).
- Histogram counts: numpy.histogram of seeded random margins and probability gaps with the bin
  edges the engine uses (tests compare exactly).
- Quantiles: numpy.quantile (linear) of seeded random values (tests compare to 1e-12).
- Wilson 95% intervals of a proportion: scipy.stats.binomtest(k, n).proportion_ci(0.95,
  "wilson") for a grid of counts (tests compare to 1e-12).
"""

import json
import pathlib

import numpy as np
from scipy.stats import binomtest

OUT = pathlib.Path(__file__).resolve().parent / "stats.json"
MARGIN_EDGES = [0, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 1e38]
DP_EDGES = [1e-7, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100]


def main() -> None:
    mcnemar = []
    for b, c in [
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
        (2, 0),
        (3, 7),
        (7, 3),
        (10, 10),
        (5, 20),
        (0, 25),
        (12, 30),
        (40, 60),
        (100, 130),
        (250, 180),
        (1000, 1100),
        (3, 500),
    ]:
        mcnemar.append(
            {"b": b, "c": c, "p": binomtest(min(b, c), b + c, 0.5).pvalue if b + c else 1.0}
        )
    rng = np.random.default_rng(20151208)
    # Margins spread over many decades, with exact edge values mixed in.
    margins = np.concatenate(
        [10 ** rng.uniform(-6, 1.5, 2000), np.array(MARGIN_EDGES[:-1])]
    ).tolist()
    dps = np.concatenate([10 ** rng.uniform(-7, 2, 2000), np.array(DP_EDGES)]).tolist()
    values = rng.normal(size=1001).tolist()
    wilson = []
    for k, n in [
        (0, 1),
        (1, 1),
        (0, 3),
        (1, 3),
        (0, 20),
        (1, 20),
        (5, 20),
        (20, 20),
        (7, 200),
        (0, 1000),
        (3, 1000),
        (500, 1000),
        (999, 1000),
        (12, 9724),
    ]:
        ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        wilson.append({"k": k, "n": n, "low": float(ci.low), "high": float(ci.high)})
    golden = {
        "mcnemar": mcnemar,
        "wilson": wilson,
        "margin_edges": MARGIN_EDGES,
        "margins": margins,
        "margin_counts": np.histogram(margins, bins=MARGIN_EDGES)[0].tolist(),
        "dp_edges": DP_EDGES,
        "dps": dps,
        "dp_counts": np.histogram(dps, bins=DP_EDGES)[0].tolist(),
        "values": values,
        "quantiles": {
            str(q): float(np.quantile(values, q)) for q in (0, 0.025, 0.5, 0.9, 0.975, 0.99, 1)
        },
    }
    OUT.write_text(json.dumps(golden) + "\n")
    print(OUT, len(mcnemar), "McNemar cases")


if __name__ == "__main__":
    main()
