"""The loader's start-up check against a ProbAudit runtime lock (`probaudit pin` writes one).

A model's own loader calls, at start::

    import probaudit_lock
    probaudit_lock.check("runtime.lock.json")               # warns on every difference
    probaudit_lock.check("runtime.lock.json", strict=True)  # raises instead

It computes the fingerprint of this Python environment as ProbAudit's transformers runner does
(torch and its CUDA build, cuDNN and cuBLAS, the kernel libraries present or absent, the
numerics-relevant environment variables, the CPU capability, the thread count), compares it with
the lock's, and names each difference that can move numbers with both values: the same
differences and the same verdict as `probaudit check` in the same environment. Set the lock's
thread count (torch.set_num_threads) before checking, as the runner does. Pure Python; torch and
transformers are imported only when check runs.
"""

from __future__ import annotations

import json
import warnings
from typing import Any, NamedTuple

from .diff import LockDifference, fingerprint_diff

__all__ = [
    "CheckResult",
    "LockDifference",
    "ProbauditLockError",
    "ProbauditLockWarning",
    "check",
    "load_lock",
]


class ProbauditLockWarning(UserWarning):
    """This environment differs from the runtime lock in a way that can move numbers."""


class ProbauditLockError(RuntimeError):
    """strict=True: this environment differs from the runtime lock; or the lock is unusable."""


class CheckResult(NamedTuple):
    differences: list[LockDifference]  # every difference, whether it can move numbers or not
    identical: bool  # no difference can move numbers (probaudit check's exit 0)

    @property
    def exit_code(self) -> int:
        """What `probaudit check LOCK` exits with for these differences: 0 or 3."""
        return 0 if self.identical else 3


def load_lock(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as f:
            lock = json.load(f)
    except (OSError, ValueError) as e:
        raise ProbauditLockError(f"{path}: cannot be read as a runtime lock: {e}") from e
    if not isinstance(lock, dict) or "probaudit_lock" not in lock:
        raise ProbauditLockError(f"{path}: not a runtime lock (no probaudit_lock field)")
    env = lock.get("environment")
    if not isinstance(env, dict):
        raise ProbauditLockError(f"{path}: the lock has no environment fingerprint")
    if env.get("kind") != "transformers":
        raise ProbauditLockError(
            f"{path}: this lock pins ProbAudit's own engine, not a Python environment; "
            "check it with `probaudit check`"
        )
    return lock


def _sentence(d: LockDifference) -> str:
    def text(v: Any) -> str:
        return "absent" if v is None else json.dumps(v) if not isinstance(v, str) else v

    return f"{d.path}: {text(d.pinned)} in the lock, {text(d.current)} here ({d.why})"


def check(lock_path: str, strict: bool = False) -> CheckResult:
    """Compares this environment with the lock; warns (ProbauditLockWarning) or, with strict,
    raises (ProbauditLockError) naming every difference that can move numbers."""
    from .fingerprint import collect

    lock = load_lock(lock_path)
    diffs = fingerprint_diff(lock["environment"], collect())
    moving = [d for d in diffs if d.moves_numerics]
    result = CheckResult(diffs, not moving)
    if moving:
        message = (
            f"{lock_path}: this environment differs from the pinned runtime in "
            f"{len(moving)} way(s) that can move numbers:\n  "
            + "\n  ".join(_sentence(d) for d in moving)
        )
        if strict:
            raise ProbauditLockError(message)
        warnings.warn(message, ProbauditLockWarning, stacklevel=2)
    return result
