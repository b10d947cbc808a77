#pragma once
// Counterfactual localisation's result (`probaudit localize`, runner/localize.h): for a pair of
// configs A and B and a sample of items, where in the forward pass the difference between them
// arises. A layer splice feeds A's hidden state after index k (0 = embeddings, i = after layer
// i; for the llama family the last index is after the final norm) to B's remaining layers. The
// difference is complete by the smallest k whose splice removes at least the threshold share of
// the item's Δp (and, for a flip, gives back A's decision), found by bisection: B's layers after
// it add less than the rest; the share at k - 1 says how much layer k itself adds (a planted
// cause in layer k: all of it). The reverse splice feeds B's state after that index to A's
// remaining layers (how much of Δp B's state there already carries). Its JSON form is what the
// ledger stores and `localize --json` prints. Pure data and rules: no engine here.
#include "core/common/vocabulary.h"

#include <nlohmann/json.hpp>

#include <array>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace probaudit::analysis {

// One evaluated splice: A's state after `index` in B's pass.
struct SplicePoint {
    int index = 0;
    double removed = 0; // share of Δp removed: 1 - (p' - p_A) / (p_B - p_A)
    int decision = -1;  // B's decision with the splice
};

// One operator-class splice: B's pass with every operation of `cls` computed as A computes it
// (A's dtype, weight layout, kernels, attention and threads, on the item's own tokens: unbatched
// and unpadded), the rest as B.
struct ClassSplice {
    OpClass cls = OpClass::Embeddings;
    double removed = 0; // share of Δp removed
    int decision = -1;  // B's decision with the splice
    double p = 0;       // B's p with the splice
};

enum class CauseStatus {
    Localised,    // an index whose splice removes the share
    InTheHead,    // no hidden state's splice removes it: the difference is in the head
    NoDifference, // A and B agree on the item in the localisation's own passes
};
std::string causeStatusName(CauseStatus s);
CauseStatus causeStatusFromName(const std::string& name); // throws probaudit::Error

struct ItemCause {
    std::int64_t item = 0; // ledger item index
    std::string id;
    double study_dp = 0; // Δp (points) between the study's recorded runs of A and B
    bool study_flip = false;
    double p_a = 0, p_b = 0; // in the localisation's baseline passes (p as compare defines it)
    int decision_a = -1, decision_b = -1;
    CauseStatus status = CauseStatus::NoDifference;
    int complete_by = -1;      // hidden-state index (Localised)
    double removed = 0;        // share removed by A's state after `complete_by`
    double removed_before = 0; // by A's state after complete_by - 1 (0 when complete_by is 0)
    double reproduced = 0;     // reverse: share of Δp B's state after `complete_by` gives A
    int reverse_decision = -1; // A's decision with B's state after `complete_by`
    std::vector<SplicePoint> evaluated; // in bisection order
    std::vector<ClassSplice> classes;   // one per operator class, in OpClass order
    // The class whose splice removes the most (ties: the first); explains() says whether it
    // removes the threshold share (and, for a flip, gives back A's decision). None without
    // class splices.
    std::optional<OpClass> cause_class;
    double cause_removed = 0;
    bool cause_explains = false;
    // Where no class explains it alone: the set of classes computed as A together (empty: none
    // tried), the share that pass removes, B's decision with it, and whether that explains it.
    std::vector<OpClass> cause_set;
    double set_removed = 0;
    int set_decision = -1;
    bool set_explains = false;

    // Some splice of classes (one, or the set) explains the item's difference.
    bool explained() const { return cause_explains || set_explains; }

    double dp() const; // points, |p_b - p_a|
    bool flip() const { return decision_a != decision_b; }
};

struct Localization {
    std::string study, head, config_a, config_b;
    int layers = 0;          // L: hidden-state indices 0..L
    bool final_norm = false; // index L is after the final norm (llama family), not layer L
    double threshold = 0.95;
    bool reverse = false;                  // the reverse splice ran (reproduced, reverse_decision)
    std::int64_t probe_a = 0, probe_b = 0; // baseline probe runs
    std::vector<std::int64_t> probes;      // every pass's probe run, in order
    int passes = 0;                        // forward passes over the sample (baselines included)
    double seconds = 0;                    // the passes' wall time
    double baseline_b_seconds = 0;         // B's baseline pass alone
    // Sample items whose baseline pass gave the study run's probabilities bit for bit (the
    // passes replay the batches the study runs had).
    std::int64_t replayed_a = 0, replayed_b = 0;
    std::vector<ItemCause> items;

    nlohmann::json toJson() const;
    // Throws probaudit::Error naming what is missing or of the wrong type.
    static Localization fromJson(const nlohmann::json& j);
    // The most passes a pair costs: the two baselines, the bisection over L + 2 outcomes
    // (indices 0..L and "in the head"), one splice per operator class, one of a set of classes,
    // and with `reverse` the reverse splice. Without it, 2 + ⌈log2(L + 2)⌉ + classes + 1: at
    // most ⌈log2 L⌉ + classes + 2 beyond the baselines.
    static int passBudget(int layers, bool reverse = false);
};

// "the attention projections", "the MLP", ...: an operator class in a sentence.
std::string opClassTitle(OpClass c);

// "the embeddings", "layer 3", "layer 30 (with the final norm)" (the llama family's last index:
// its last layer's output is reported after the final norm), for a hidden index.
std::string hiddenName(int index, int layers, bool finalNorm);

// Sets the item's cause class from its class splices.
void chooseCause(ItemCause& c, double threshold);
// The set of classes to splice together where no class explains the item alone. Each class's
// contribution is the signed share of Δp its single splice takes away, (p_B - p') / (p_B - p_A)
// (two plants that push p opposite ways: one above 1, one below 0); classes join by the size
// of their contribution until the contributions add up to within 1 - threshold of all of Δp, or
// every class that moves p has joined. At least two; empty where one class explains it or fewer
// than two move p. Where p cannot measure Δp, the classes whose splice gives A's decision.
std::vector<OpClass> classSetToTry(const ItemCause& c, double threshold);

// One line per item: "complete by layer 3: A's state after it removes 98% of Δp (after layer 2:
// 4%); cause: the MLP computed as A removes 97% of Δp (next: the norms, 3%)".
std::string causeLine(const ItemCause& c, const Localization& l);

// Items per index their difference is complete by (Localised) and the mean share removed there; the
// head and the items without a difference as their own rows. Per operator class: the mean share
// its splice removes over the row's items, and how many of them it is the cause of.
struct CauseRow {
    std::string where;
    int index = -1; // hidden index; layers + 1: the head; -1: no difference
    std::int64_t items = 0;
    double mean_removed = 0;
    std::array<double, kOpClassCount> class_removed{};
    std::array<std::int64_t, kOpClassCount> class_items{};
    std::int64_t set_items = 0; // explained by a set of classes together
};
std::vector<CauseRow> causeTable(const Localization& l);
// The CauseRow::index of the row an item is counted in.
int causeRowIndex(const ItemCause& c, const Localization& l);

// The localisation in one phrase, as the diagnosis ladder's "cause" rung writes it per config:
// "26 of 32 items that differ explained: the attention scores and softmax 20, the MLP 4, a set
// of classes 2" (the classes by the items they explain, most first).
std::string causeSummary(const Localization& l);

} // namespace probaudit::analysis
