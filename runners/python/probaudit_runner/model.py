"""A model loaded with transformers, its tokenizer and a decision head, as the engine defines
them (core/engine/heads.h): label_tokens, adapter, classifier. Batches are laid out as the
engine lays them out (core/engine/batch.h): pads masked out as keys, positions counting real
tokens only, pad positions at 0."""

from __future__ import annotations

import base64
import inspect
import os
from typing import TYPE_CHECKING, Any

import torch

from . import hidden_layout
from .rowhash import hash_batch

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerBase

ATTENTION = {"math": "eager", "sdpa": "sdpa", "flash_attention_2": "flash_attention_2"}
DTYPES = {
    "float32": torch.float32,
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "float64": torch.float64,
}


class RunnerError(Exception):
    """Bad input: one sentence for the user."""


def b64floats(t: torch.Tensor) -> str:
    return base64.b64encode(
        t.detach().to("cpu", torch.float32).contiguous().numpy().tobytes()
    ).decode()


def b64rows(t: torch.Tensor) -> list[str]:
    """b64floats of each row of t (one copy to the CPU for all of them)."""
    a = t.detach().to("cpu", torch.float32).contiguous().numpy()
    return [base64.b64encode(row.tobytes()).decode() for row in a]


def _auto_class(kind: str) -> type:
    import transformers as tf

    return {
        "label_tokens": tf.AutoModelForCausalLM,
        "generation": tf.AutoModelForCausalLM,
        "classifier": tf.AutoModelForSequenceClassification,
    }.get(kind, tf.AutoModel)


def _source(path: str) -> tuple[str, dict[str, str]]:
    """(folder, extra from_pretrained arguments) of a model folder or GGUF file."""
    if not os.path.exists(path):
        raise RunnerError(f"{path}: no such model file or folder")
    if not os.access(path, os.R_OK):
        raise RunnerError(f"{path}: not readable")
    if path.endswith(".gguf"):
        return os.path.dirname(path) or ".", {"gguf_file": os.path.basename(path)}
    if not os.path.isfile(os.path.join(path, "config.json")):
        raise RunnerError(f"{path}: not a Hugging Face model folder (no config.json)")
    return path, {}


def load_tokenizer(path: str) -> PreTrainedTokenizerBase:
    from transformers import AutoTokenizer

    folder, extra = _source(path)
    try:
        return AutoTokenizer.from_pretrained(folder, local_files_only=True, **extra)
    except Exception as e:  # transformers raises many kinds
        raise RunnerError(f"{path}: transformers could not load its tokenizer: {_line(e)}") from e


def _line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


def _check_architecture(folder: str, extra: dict[str, str], path: str) -> None:
    if extra:
        return
    import json

    import transformers
    from transformers import CONFIG_MAPPING

    try:
        with open(os.path.join(folder, "config.json"), encoding="utf-8") as f:
            cfg = json.load(f)
    except (OSError, ValueError) as e:
        raise RunnerError(f"{path}/config.json: not readable JSON ({_line(e)})") from e
    mt = cfg.get("model_type") if isinstance(cfg, dict) else None
    if not mt:
        raise RunnerError(f"{path}/config.json: no model_type")
    if mt not in CONFIG_MAPPING:
        raise RunnerError(
            f'{path}: the architecture "{mt}" is not known to transformers '
            f"{transformers.__version__} in this environment"
        )


class LoadedModel:
    def __init__(
        self, path: str, head: dict[str, Any], dtype: str, device: str, attention: str
    ) -> None:
        self.path, self.head = path, head
        self.kind = head["kind"]
        if self.kind not in ("label_tokens", "adapter", "classifier", "generation"):
            raise RunnerError(f'the transformers runner has no "{self.kind}" head')
        if attention not in ATTENTION:
            raise RunnerError(
                f'attention "{attention}" is not one the transformers runner has '
                f"(math, sdpa, flash_attention_2)"
            )
        folder, extra = _source(path)
        _check_architecture(folder, extra, path)
        self.tok = load_tokenizer(path)
        try:
            self.model = (
                _auto_class(self.kind)
                .from_pretrained(
                    folder,
                    local_files_only=True,
                    dtype=DTYPES[dtype],
                    attn_implementation=ATTENTION[attention],
                    **extra,
                )
                .to(device)
                .eval()
            )
        except (ValueError, KeyError, OSError, ImportError, RuntimeError) as e:
            raise RunnerError(f"{path}: transformers could not load it: {_line(e)}") from e
        self.device = device
        cfg = self.model.config
        self.pad_id = (
            cfg.pad_token_id
            if cfg.pad_token_id is not None
            else (
                self.tok.pad_token_id
                if self.tok.pad_token_id is not None
                else (self.tok.eos_token_id if self.tok.eos_token_id is not None else 0)
            )
        )
        if isinstance(self.pad_id, list):
            self.pad_id = self.pad_id[0]
        self.max_positions = getattr(cfg, "max_position_embeddings", None) or 1 << 30
        sig = inspect.signature(self.model.forward).parameters
        self.takes_positions = "position_ids" in sig
        self.takes_keep = "logits_to_keep" in sig
        # The KV cache's argument: "cache" in transformers 5.x, "past_key_values" before.
        self.cache_arg = "cache" if "cache" in sig else "past_key_values"
        # The type of the head's steps: float32, float64 in a float64 run (as the engine does,
        # core/engine/weights.h atLeastFloat32). The protocol carries float32 values.
        self.wide = torch.float64 if dtype == "float64" else torch.float32
        self.labels = list(head.get("labels") or [])
        self.layout: str | None = None  # of the hidden states (hidden_layout.py)
        self.layout_error = ""
        self.layer_stack: torch.nn.Module | None = None  # its first layer
        self._init_head()
        if self.kind != "generation":
            self._probe_layout()

    # -- heads ------------------------------------------------------------------------------
    def _init_head(self) -> None:
        if self.kind == "generation":
            return
        if self.kind == "label_tokens":
            self.label_ids = []
            for word in self.labels:
                ids = self.tok(word, add_special_tokens=False)["input_ids"]
                if len(ids) != 1:
                    raise RunnerError(
                        f'label word "{word}" is {len(ids)} tokens; a label must be '
                        "exactly one token"
                    )
                self.label_ids.append(ids[0])
        elif self.kind == "classifier":
            n = self.model.config.num_labels
            if not self.labels:
                id2label = self.model.config.id2label or {}
                self.labels = [str(id2label.get(c, c)) for c in range(n)]
        else:
            self._init_adapter()

    def _init_adapter(self) -> None:
        import json

        from safetensors import safe_open

        p = self.head.get("path", "")
        try:
            with safe_open(p, "pt") as f:
                meta = f.metadata() or {}
                self.w = f.get_tensor("weight").to(self.device, self.wide)
                self.b = f.get_tensor("bias").to(self.device, self.wide)
        except Exception as e:
            raise RunnerError(f"{p}: not a readable adapter ({_line(e)})") from e
        H = self.model.config.hidden_size
        if self.w.dim() != 2 or self.w.shape[1] != H:
            raise RunnerError(
                f"{p}: adapter weight is {list(self.w.shape)} but the model's hidden size is {H}"
            )
        self.pooling = self.head.get("pooling") or meta.get("pooling", "")
        if self.pooling not in ("cls", "mean", "last"):
            raise RunnerError(f'{p}: no pooling given (head "pooling" or file metadata)')
        learned = meta.get("template", "{text}")
        if learned != self.head.get("template", "{text}"):
            raise RunnerError(f'{p}: the adapter learned on the prompt template "{learned}"')
        self.normalize = bool(self.head.get("normalize")) or meta.get("normalize") == "true"
        if not self.labels and "labels" in meta:
            self.labels = json.loads(meta["labels"])
        if not self.labels:
            self.labels = [str(c) for c in range(self.w.shape[0])]

    def eos_ids(self) -> set[int]:
        for source in (self.model.config, getattr(self.model, "generation_config", None)):
            eos = getattr(source, "eos_token_id", None) if source is not None else None
            if eos is not None:
                return set(eos if isinstance(eos, (list, tuple)) else [eos])
        return set()

    def prompt(self, text: str) -> str:
        if self.kind == "classifier":
            return text
        return self.head.get("template", "{text}").replace("{text}", text, 1)

    # -- tokens -----------------------------------------------------------------------------
    def tokenize(self, texts: list[str], max_length: int) -> list[dict[str, Any]]:
        limit = min(max_length, self.max_positions) if max_length > 0 else self.max_positions
        out = []
        for t in texts:
            full = self.tok(self.prompt(t))["input_ids"]
            out.append({"ids": full[:limit], "truncated": len(full) > limit})
        return out

    # -- a batch ----------------------------------------------------------------------------
    def batch(
        self, rows: list[list[int]], padding_side: str, pad_to: str, pad_to_n: int
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, list[int]]:
        longest = max(len(r) for r in rows)
        L = longest
        if pad_to == "multiple":
            L = -(-longest // pad_to_n) * pad_to_n
        elif pad_to == "fixed":
            if longest > pad_to_n:
                raise RunnerError(
                    f"an item of {longest} tokens does not fit pad_to fixed {pad_to_n}"
                )
            L = pad_to_n
        start = [L - len(row) if padding_side == "left" else 0 for row in rows]
        # Laid out in Python lists, then one tensor each (a tensor op per row costs more).
        ids = torch.tensor(
            [
                [self.pad_id] * s + list(row) + [self.pad_id] * (L - s - len(row))
                for s, row in zip(start, rows)
            ],
            dtype=torch.long,
        )
        mask = torch.tensor(
            [[0] * s + [1] * len(row) + [0] * (L - s - len(row)) for s, row in zip(start, rows)],
            dtype=torch.long,
        )
        pos = (mask.cumsum(1) - 1).clamp_min(0) * mask
        return ids.to(self.device), mask.to(self.device), pos.to(self.device), start

    def forward(
        self, rows: list[list[int]], padding_side: str, pad_to: str, pad_to_n: int, capture: str
    ) -> list[dict[str, Any]]:
        """Decision-class logits and capture of each row: [{"logits", "hashes", "vectors"}]."""
        ids, mask, pos, start = self.batch(rows, padding_side, pad_to, pad_to_n)
        lengths = [len(r) for r in rows]
        last = torch.tensor([s + n - 1 for s, n in zip(start, lengths)], device=ids.device)
        kw = {"input_ids": ids, "attention_mask": mask, "output_hidden_states": capture != "none"}
        if self.takes_positions:
            kw["position_ids"] = pos
        keep = None
        if self.kind == "label_tokens" and self.takes_keep:
            keep = torch.unique(last)
            kw["logits_to_keep"] = keep
        layout = self._hidden_layout() if capture != "none" else hidden_layout.STANDARD
        first = hidden_layout.FirstLayerInput(self.layer_stack) if self.layer_stack else None
        with torch.inference_mode():
            if layout == hidden_layout.NO_EMBEDDINGS and first is not None:
                with first:
                    out = self.model(**kw)
            else:
                out = self.model(**kw)
            logits = self._logits(out, mask, start, last, keep)
            records = [{"logits": b} for b in b64rows(logits)]
            if capture != "none":
                hidden = hidden_layout.protocol_states(
                    layout, out.hidden_states, first.value if first else None
                )
                self._capture(hidden, mask, start, lengths, last, capture, records)
        return records

    def _probe_layout(self) -> None:
        """Finds the order of the model's hidden states (hidden_layout.py) when it is loaded,
        outside any kernel trace; a model whose order is unknown is refused at its first
        capture, not at load."""
        layers = int(getattr(self.model.config, "num_hidden_layers", 0) or 0)
        vocab = int(getattr(self.model.config, "vocab_size", 0) or 0) or 1
        ids = (torch.arange(4, device=self.device) % vocab)[None]
        try:
            self.layout = hidden_layout.probe(
                self.model, lambda: self.model(input_ids=ids, output_hidden_states=True), layers
            )
        except Exception as e:  # noqa: BLE001 - any failure only means: no capture
            self.layout_error = _line(e)
            return
        stack = hidden_layout.layer_list(self.model, layers)
        self.layer_stack = stack[0] if stack is not None else None

    def _hidden_layout(self) -> str:
        """The order of the model's hidden states, as probed at load."""
        if self.layout is None:
            raise RunnerError(
                f"{self.path}: its hidden states cannot be told apart by layer "
                f'({self.layout_error}); record it with capture "none"'
            )
        return self.layout

    def _rows(self, h: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
        return h[torch.arange(h.shape[0], device=h.device), index]

    def _pooled(
        self, h: torch.Tensor, mask: torch.Tensor, start: list[int], last: torch.Tensor
    ) -> torch.Tensor:
        if self.kind == "adapter" and self.pooling == "mean":
            m = mask.to(self.wide).unsqueeze(-1)
            return (h.to(self.wide) * m).sum(1) / m.sum(1).clamp_min(1e-9)
        cls = (
            self.kind == "adapter"
            and self.pooling == "cls"
            or (self.kind == "classifier" and self.model.config.model_type == "bert")
        )
        idx = torch.tensor(start, device=h.device) if cls else last
        return self._rows(h, idx).to(self.wide)

    def _logits(
        self,
        out: Any,
        mask: torch.Tensor,
        start: list[int],
        last: torch.Tensor,
        keep: torch.Tensor | None,
    ) -> torch.Tensor:
        if self.kind == "label_tokens":
            lg = out.logits
            if keep is not None:
                lg = lg[torch.arange(lg.shape[0], device=lg.device), torch.searchsorted(keep, last)]
            else:
                lg = self._rows(lg, last)
            return lg[:, self.label_ids].to(self.wide)
        if self.kind == "classifier":
            return out.logits.to(self.wide)
        pooled = self._pooled(out.last_hidden_state, mask, start, last)
        if self.normalize:
            pooled = pooled / pooled.norm(2, -1, keepdim=True).clamp_min(1e-12)
        return torch.nn.functional.linear(pooled, self.w, self.b)

    def _capture(
        self,
        hidden: tuple[torch.Tensor, ...],
        mask: torch.Tensor,
        start: list[int],
        lengths: list[int],
        last: torch.Tensor,
        capture: str,
        records: list[dict[str, Any]],
    ) -> None:
        hashes = hash_batch(hidden, start, lengths, torch.get_num_threads())
        vectors = None
        if capture in ("vectors", "full"):  # per layer over the whole batch, as the engine does
            vectors = torch.stack([self._pooled(h, mask, start, last) for h in hidden], 1)
        vectors = b64rows(vectors.flatten(1)) if vectors is not None else None
        for r, (s, n) in enumerate(zip(start, lengths)):
            records[r]["hashes"] = [f"{h:016x}" for h in hashes[r]]
            if vectors is not None:
                records[r]["vectors"] = vectors[r]
            if capture == "full":
                records[r]["full"] = b64floats(torch.stack([h[r, s : s + n] for h in hidden]))


class Generation:
    """Greedy generation as the engine's static batches do it (core/engine/generate.h): prompts
    left padded to the longest, one token per step for every row (finished rows ride along),
    ending at the model's EOS ids, a stop string, or max_new_tokens. Each step records the chosen
    token, its float32 logit, the gap between the two largest logits, the rows in the forward
    pass and, when asked, the K most likely tokens with their log-probabilities."""

    def __init__(
        self,
        model: LoadedModel,
        max_new_tokens: int,
        stop: list[str],
        stop_at_eos: bool,
        top_logprobs: int,
    ) -> None:
        self.m = model
        self.max_new = max_new_tokens
        self.stop = [s for s in stop if s]
        self.eos = model.eos_ids() if stop_at_eos else set()
        self.k = top_logprobs

    def run(self, prompts: list[str]) -> list[dict[str, Any]]:
        m = self.m
        rows = []
        for i, p in enumerate(prompts):
            ids = m.tok(p)["input_ids"][: m.max_positions]
            if not ids:
                raise RunnerError(f"prompt {i} has no tokens")
            rows.append(ids)
        ids, mask, pos, _ = m.batch(rows, "left", "longest", 0)
        gens = [{"prompt_tokens": len(r), "steps": [], "text": "", "finish": ""} for r in rows]
        done = [False] * len(rows)
        nxt = [len(r) for r in rows]
        kw = {"logits_to_keep": 1} if m.takes_keep else {}
        with torch.inference_mode():
            out = m.model(
                input_ids=ids, attention_mask=mask, position_ids=pos, use_cache=True, **kw
            )
            while not self._step(out.logits[:, -1], gens, done):
                tokens = torch.tensor(
                    [
                        [m.pad_id if done[r] else gens[r]["steps"][-1]["token"]]
                        for r in range(len(rows))
                    ],
                    device=ids.device,
                )
                p = torch.tensor([[n] for n in nxt], device=ids.device)
                nxt = [n + 1 for n in nxt]
                mask = torch.cat([mask, torch.ones_like(mask[:, :1])], 1)
                cache = getattr(out, m.cache_arg)
                out = m.model(
                    input_ids=tokens,
                    attention_mask=mask,
                    position_ids=p,
                    use_cache=True,
                    **{m.cache_arg: cache},
                    **kw,
                )
        return gens

    def _step(self, logits: torch.Tensor, gens: list[dict[str, Any]], done: list[bool]) -> bool:
        lf = logits.to("cpu", torch.float32)
        best = lf.argmax(-1)
        top = lf.topk(min(2, lf.shape[1]), -1).values
        if self.k > 0:
            lp = torch.log_softmax(lf, -1).topk(min(self.k, lf.shape[1]), -1)
        for r, g in enumerate(gens):
            if done[r]:
                continue
            tok = int(best[r])
            st = {
                "token": tok,
                "logit": b64floats(lf[r, tok : tok + 1]),
                "gap": b64floats((top[r, 0] - top[r, 1]).reshape(1))
                if top.shape[1] > 1
                else b64floats(torch.zeros(1)),
                "batch": lf.shape[0],
            }
            if self.k > 0:
                st["top_tokens"] = lp.indices[r].tolist()
                st["top_logprobs"] = b64floats(lp.values[r])
            g["steps"].append(st)
            ids = [s["token"] for s in g["steps"]]
            if tok in self.eos:
                g["text"] = self.m.tok.decode(ids[:-1])
                g["finish"], done[r] = "eos", True
                continue
            g["text"] = self.m.tok.decode(ids)
            for s in self.stop:
                at = g["text"].find(s)
                if at >= 0:
                    g["text"], g["finish"], done[r] = g["text"][:at], "stop", True
                    break
            if not done[r] and len(g["steps"]) >= self.max_new:
                g["finish"], done[r] = "length", True
        return all(done)
