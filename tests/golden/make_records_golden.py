#!/usr/bin/env python3
"""An independent Python computation of records, Jaccard (per item and pooled) and answer
agreement, for tests/test_records.cpp (core/analysis/records.h must agree exactly).

    python3 tests/golden/make_records_golden.py
"""

import json
import pathlib
import re
from typing import Any

GOLDEN = pathlib.Path(__file__).resolve().parent

SPECS = [
    {"mode": "lines"},
    {"mode": "lines", "lowercase": True, "reduction": "most_frequent"},
    {"mode": "lines", "strip_bullets": False, "reduction": "count"},
    {"mode": "json", "reduction": "count"},
    {
        "mode": "regex",
        "pattern": r"(?P<name>[A-Z][a-z]+) \((?P<role>[a-z ]+)\)",
        "reduction": "most_frequent",
    },
]

# Pairs of outputs (reference, other) as two runs of a generation would give them.
PAIRS = [
    ("great\nslow\n- rude\n", "great\n1. slow\n\nexpensive"),
    ("  Great  food \n* GREAT food\nrude", "great food\n2) rude\n• rude"),
    ("", ""),
    ("only here", ""),
    ('{"b": 1, "a": "x"}\nnot json\n{"a": "y"}', '{"a": "x", "b": 1}\n[1, 2]'),
    ('[{"k": "v"}, {"k": "w"}, 3]', '{"k": "v"}'),
    ("Alice (chef) met Bob (head waiter) and Alice (chef).", "Alice (chef) and Carol (owner)"),
    ("1.5 stars\n-dash\n10) ten", "1.5 stars\n- dash\nten"),
]

WS = re.compile(r"[ \t\n\r\f\v]+")


def normalise(s: str, lower: bool) -> str:
    s = WS.sub(" ", s).strip(" ")
    return "".join(chr(ord(c) + 32) if lower and "A" <= c <= "Z" else c for c in s)


def strip_bullet(line: str) -> str:
    rest = line.lstrip(" \t\n\r\f\v")
    for b in ("- ", "* ", "\u2022 "):
        if rest.startswith(b):
            return rest[len(b) :]
    m = re.match(r"([0-9]+)[.)] (.*)", rest, re.S)
    if m and len(m.group(2)) > 0:
        return m.group(2)
    return rest


def records(text: str, spec: dict[str, Any]) -> list[str]:
    lower = spec.get("lowercase", False)
    mode = spec.get("mode", "lines")
    if mode == "regex":
        rx = re.compile(spec["pattern"])
        names = sorted(rx.groupindex.items(), key=lambda kv: kv[1])
        return [
            "; ".join(f"{n}={normalise(m.group(n) or '', lower)}" for n, _ in names)
            for m in rx.finditer(text)
        ]
    if mode == "json":
        try:
            whole = json.loads(text)
            if isinstance(whole, list):
                return [
                    normalise(
                        json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False),
                        lower,
                    )
                    for v in whole
                    if isinstance(v, dict)
                ]
        except ValueError:
            pass
        out = []
        for line in text.split("\n"):
            try:
                v = json.loads(line)
            except ValueError:
                continue
            if isinstance(v, dict):
                out.append(
                    normalise(
                        json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False),
                        lower,
                    )
                )
        return out
    out = []
    for line in text.split("\n"):
        r = normalise(strip_bullet(line) if spec.get("strip_bullets", True) else line, lower)
        if r:
            out.append(r)
    return out


def answer(recs: list[str], reduction: str) -> str:
    if reduction == "count":
        return str(len(set(recs)))
    if reduction == "most_frequent":
        if not recs:
            return ""
        counts = {}
        for r in recs:
            counts[r] = counts.get(r, 0) + 1
        most = max(counts.values())
        return min(r.encode() for r, k in counts.items() if k == most).decode()
    return ""


def main() -> None:
    out = []
    for spec in SPECS:
        items, inter, union, agree = [], 0, 0, 0
        for a, b in PAIRS:
            ra, rb = records(a, spec), records(b, spec)
            sa, sb = set(ra), set(rb)
            i, u = len(sa & sb), len(sa | sb)
            inter, union = inter + i, union + u
            aa, ab = answer(ra, spec.get("reduction", "")), answer(rb, spec.get("reduction", ""))
            agree += aa == ab
            items.append(
                {
                    "a": a,
                    "b": b,
                    "records_a": ra,
                    "records_b": rb,
                    "jaccard": 1.0 if u == 0 else i / u,
                    "answer_a": aa,
                    "answer_b": ab,
                }
            )
        out.append(
            {
                "spec": spec,
                "items": items,
                "pooled_jaccard": 1.0 if union == 0 else inter / union,
                "answer_agreement": agree / len(PAIRS),
            }
        )
    (GOLDEN / "records.json").write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    for o in out:
        print(o["spec"], round(o["pooled_jaccard"], 4), o["answer_agreement"])


if __name__ == "__main__":
    main()
