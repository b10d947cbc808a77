"""The protocol's hidden states, whatever the architecture: index 0 is the embeddings (the input
of the first layer), index i the output of layer i, the last one the model's final hidden state
(after its final norm), num_hidden_layers + 1 in all, as the engine records them and as
probaudit names them ("embeddings", "layer i").

Most transformers models return output_hidden_states in that order. Some do not: Mamba-family
models return the output of each layer and then the final norm, with no embeddings entry, so
their index 0 is layer 1. The layout is found once per model by a probe forward with a hook on
the first layer (never assumed from the architecture's name), and a model whose hidden states
are neither is refused rather than named wrongly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

STANDARD = "standard"  # (embeddings, layer 1, ..., layer N-1, final)
NO_EMBEDDINGS = "no-embeddings"  # (layer 1, ..., layer N, final): the embeddings added by a hook


class LayoutError(Exception):
    pass


def layer_list(model: Any, layers: int) -> torch.nn.ModuleList | None:
    """The model's stack of `layers` blocks: the first module list of that length."""
    for module in model.modules():
        if isinstance(module, torch.nn.ModuleList) and len(module) == layers:
            return module
    return None


class FirstLayerInput:
    """Keeps the input of the first layer (the embeddings) of each forward while it is open."""

    def __init__(self, first: torch.nn.Module) -> None:
        self.first, self.value, self.handle = first, None, None

    def __enter__(self) -> FirstLayerInput:
        def keep(_module: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
            self.value = args[0] if args else kwargs.get("hidden_states")

        self.handle = self.first.register_forward_pre_hook(keep, with_kwargs=True)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.handle is not None:
            self.handle.remove()


def probe(model: Any, run: Callable[[], Any], layers: int) -> str:
    """The layout of `model`'s hidden states, from one forward (`run`, output_hidden_states on)."""
    stack = layer_list(model, layers)
    if stack is None:
        raise LayoutError(f"no stack of {layers} layers was found in the model")
    with FirstLayerInput(stack[0]) as first, torch.inference_mode():
        hidden = run().hidden_states
    if hidden is None or len(hidden) != layers + 1:
        n = "none" if hidden is None else len(hidden)
        raise LayoutError(f"the model returns {n} hidden states for {layers} layers")
    if first.value is not None and torch.equal(hidden[0], first.value):
        return STANDARD
    # Layer 1's output is the second layer's input.
    with FirstLayerInput(stack[1] if layers > 1 else stack[0]) as second, torch.inference_mode():
        run()
    if layers > 1 and second.value is not None and torch.equal(hidden[0], second.value):
        return NO_EMBEDDINGS
    raise LayoutError("its first hidden state is neither the embeddings nor the first layer's")


def protocol_states(
    layout: str, hidden: tuple[torch.Tensor, ...], embeddings: torch.Tensor | None
) -> tuple[torch.Tensor, ...]:
    """The model's hidden states in the protocol's order."""
    if layout == STANDARD:
        return hidden
    assert embeddings is not None
    return (embeddings, *hidden[:-2], hidden[-1])
