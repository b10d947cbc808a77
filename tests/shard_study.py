"""A small sharded study for the Python tests of sweeps and remote runs (as tests/shard_study.h
for the C++ ones): 37 items of different lengths, tiny-bert with a mean-pooled adapter, three
configs whose batches depend on the order of all items; and a ledger's numerics per config."""

import json
import pathlib
import sqlite3

FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"


def write_study(folder: pathlib.Path, name: str = "s") -> pathlib.Path:
    folder.mkdir(parents=True, exist_ok=True)
    words = ["good", "bad", "food", "service", "slow", "great", "never", "again"]
    with open(folder / "data.jsonl", "w") as f:
        for i in range(37):
            text = " ".join(words[(i + w * 3) % 8] for w in range((i * 5) % 11 + 1)) + f" {i}"
            f.write(json.dumps({"id": f"item-{i}", "text": text, "label": i % 2}) + "\n")
    head = {"kind": "adapter", "path": str(FIXTURES / "adapters" / "tiny-bert-mean.safetensors")}
    study = {
        "name": name,
        "model": {"path": str(FIXTURES / "tiny-bert")},
        "heads": {"mean": head},
        "dataset": {"path": "data.jsonl"},
        "capture": "hashes",
        "configs": {
            "ref": {"batch_size": 1},
            "b4": {"batch_size": 4, "order": "shuffled", "order_seed": 5},
            "b8": {"batch_size": 8, "order": "by_length"},
        },
        "reference": "ref",
    }
    path = folder / f"{name}.study.json"
    path.write_text(json.dumps(study))
    return path


def numerics(ledger: str | pathlib.Path) -> dict[str, str]:
    """Per config, the finished run's numerics digest (equal for bit-identical runs)."""
    with sqlite3.connect(f"file:{ledger}?mode=ro", uri=True) as db:
        return dict(
            db.execute("select config_name, numerics_sha256 from runs where status = 'finished'")
        )
