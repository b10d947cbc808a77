"""ProbAudit's transformers runner: Hugging Face transformers, in the Python environment a study
names, serving the runner protocol (docs/runner-protocol.md) on stdin/stdout.

Standard library + torch + transformers only. The C++ side plans the batches, decides, and
writes the ledger; this package loads the model, tokenizes, runs the batches it is sent and
returns what the ledger records (decision-class logits, per-layer hashes and vectors)."""

PROTOCOL = 3  # 3: the kernel trace spans a run (trace_start, trace_stop)
# 0.2: trace counts from raw events; 0.3: one trace a run (docs/runner-protocol.md)
VERSION = "0.3.0"
# The oldest versions this runner is written against (older ones lack dtype=, logits_to_keep,
# attn_implementation=...).
MIN_TORCH = (2, 1)
MIN_TRANSFORMERS = (4, 46)
