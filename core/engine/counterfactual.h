#pragma once
// Counterfactual passes (localize, runner/localize.h): a decision pass in which chosen items'
// hidden states continue from another pass's (a layer splice), or in which one operator class
// of chosen items is computed as another config computes it (an operator-class splice). Also
// the test seams that plant a cause (a perturbed hidden state or operation) in a pass. Nothing
// here runs in a pass without a counterfactual or a seam.
#include "core/common/run_config.h"
#include "core/engine/batch.h"
#include "core/engine/transformer.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace probaudit::engine {

class Head;

// A counterfactual pass. Items are indices into the run's encodings; states are a row's real
// tokens [T, H]. None is called for a run without one (Engine::setCounterfactual).
struct Counterfactual {
    // The batches to compute (indices into the run's encodings, each batch in row order), so a
    // pass replays the batches a study run had; empty: the config's own plan.
    std::vector<std::vector<std::size_t>> batches;
    // Every row's state as this pass computed it, before any replacement.
    std::function<void(std::size_t item, int index, const at::Tensor& state)> observe;
    // The state to continue from after hidden-state `index`, or undefined for the computed one
    // (converted to the pass's dtype and device; padding positions stay as computed).
    std::function<at::Tensor(std::size_t item, int index)> replace;
    // Operator-class splice: in an item's row, every operation of the classes `asOther` gives
    // for the item (opClassBit) is computed as `other` computes it (its dtype, weight layout,
    // kernels, attention and threads) on the row's real tokens alone (unbatched, unpadded), from
    // this pass's inputs; padding positions and the other operations and rows stay as this pass
    // computes them.
    std::function<std::uint32_t(std::size_t item)> asOther;
    RunConfig other;
};

constexpr std::uint32_t opClassBit(OpClass c) {
    return std::uint32_t(1) << static_cast<unsigned>(c);
}

// What computes operations as Counterfactual::other does (Engine::otherSide).
struct OtherSide {
    const TransformerModel* model = nullptr;
    const Head* head = nullptr;
};

// Test seams, called in every decision pass before any counterfactual: with each batch's hidden
// state after `index`, and with each operation's output (OpCall); a defined result replaces it
// (tests/test_localize.cpp plants causes through them). Nothing in the product sets them.
using HiddenTap = std::function<at::Tensor(const Batch& batch, int index, const at::Tensor& h)>;
void setHiddenTap(HiddenTap tap);
using OpTap =
    std::function<at::Tensor(const Batch& batch, const OpCall& call, const at::Tensor& out)>;
void setOpTap(OpTap tap);

// The forward pass's splice for a batch whose rows are the items `members`: the hidden tap,
// then the counterfactual's observation and replacement of each row's real tokens. Empty when
// there is neither.
std::function<at::Tensor(int, const at::Tensor&)>
batchSplice(const Batch& b, const std::vector<std::size_t>& members, const Counterfactual* cf);

// The forward pass's operation hook for the batch: the op tap, then the operator-class splice
// (computed by `other`). Empty when there is neither.
std::function<at::Tensor(const OpCall&, const at::Tensor&)>
batchOpHook(const Batch& b, const std::vector<std::size_t>& members, const Counterfactual* cf,
            const OtherSide& other);

} // namespace probaudit::engine
