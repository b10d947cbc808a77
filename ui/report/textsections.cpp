#include "ui/report/sections.h"

#include "ui/models/format.h"

#include "core/analysis/stats.h"
#include "core/common/axes.h"
#include "core/common/env_facts.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace probaudit::ui::reporting {

using nlohmann::json;

void definitions(Html& h) {
    h.h1(QStringLiteral("definitions"), QStringLiteral("Definitions"));
    const std::vector<std::pair<QString, QString>> terms = {
        {QStringLiteral("item"), QStringLiteral("one input: text, optional gold label, metadata.")},
        {QStringLiteral("decision head"),
         QStringLiteral("how the model turns an item into class probabilities: label tokens (an "
                        "LLM's next-token logits restricted to the label words, softmaxed), an "
                        "adapter (a linear head on a pooled hidden state), or a classifier inside "
                        "the checkpoint.")},
        {QStringLiteral("p"), QStringLiteral("the probability of the positive (or chosen) class.")},
        {QStringLiteral("Δp"), QStringLiteral("100 × |p_a − p_b|, in points (the largest over the "
                                              "classes).")},
        {QStringLiteral("decision"), QStringLiteral("the argmax class (or p ≥ threshold for a "
                                                    "binary head with a threshold).")},
        {QStringLiteral("flip"),
         QStringLiteral("the decision of an item differs between two runs.")},
        {QStringLiteral("agreement"), QStringLiteral("the share of items with the same decision in "
                                                     "two runs.")},
        {QStringLiteral("margin (logit gap)"),
         QStringLiteral("top-1 minus top-2 logit of the decision classes; items with a small "
                        "margin are near the boundary, where flips concentrate.")},
        {QStringLiteral("bit-identical"),
         QStringLiteral("every recorded float of an item (probabilities, logits, margin, layer "
                        "hashes) has the same bit pattern in both runs.")},
        {QStringLiteral("first divergent layer"),
         QStringLiteral("the first hidden state whose real-token (non-pad) values differ bitwise "
                        "between two runs; \"none (head only)\": the states match and only the "
                        "head's arithmetic moved.")},
        {QStringLiteral("ΔAcc and its interval"),
         QStringLiteral("accuracy of the config minus the reference's, with a paired bootstrap "
                        "95% interval over the items (10,000 resamples, seeded).")},
        {QStringLiteral("McNemar's exact test"),
         QStringLiteral("on the items only one of the two runs gets right: the chance of so "
                        "unbalanced a split if both runs were equally accurate.")},
        {QStringLiteral("three levels of reproduction"),
         QStringLiteral("accuracy (the interval of the difference contains 0), decisions (no "
                        "flips), probabilities (every item bit-identical).")},
        {QStringLiteral("runtime configuration (config)"),
         QStringLiteral("every setting that can change numerics without changing the model: "
                        "device, dtype, batch size, padding side and length, item order, "
                        "attention and kernel set, threads, deterministic algorithms, TF32, "
                        "cuDNN benchmark, CPU kernel capability.")},
        {QStringLiteral("environment fingerprint"),
         QStringLiteral("libtorch version and CUDA build, cuDNN/cuBLAS, GPU and driver, CPU model "
                        "and ISA, thread counts, numerics-relevant environment variables, kernel "
                        "libraries, ProbAudit version and commit.")},
        {QStringLiteral("pin / runtime lock"),
         QStringLiteral("a saved fingerprint plus the results it verified; a check names every "
                        "difference of a runtime that can move numbers.")},
        {QStringLiteral("kernel trace"),
         QStringLiteral("the operators and device kernels that actually ran, with counts.")},
        {QStringLiteral("noise floor"),
         QStringLiteral("the flips and Δp that runtime configuration alone causes; an A/B "
                        "difference means something only above it.")},
        {QStringLiteral("fragility forecast"),
         QStringLiteral("flips predicted from the reference margins and a probe sample before the "
                        "full run.")},
        {QStringLiteral("operator class"),
         QStringLiteral("one kind of operation of the forward pass: the embeddings, the norms, the "
                        "attention projections, the attention scores and softmax (with masking), "
                        "the attention output, the MLP, the residual adds, the head.")},
        {QStringLiteral("cause (counterfactual)"),
         QStringLiteral("the operator class that, computed in config B as the reference computes "
                        "it (its dtype, kernels, attention and threads, on the item alone) in "
                        "every layer, removes at least 95% of the item's Δp and gives back the "
                        "reference's decision; \"complete by\": the first hidden state whose "
                        "reference value, spliced into B, does the same.")},
        {QStringLiteral("records (generation)"),
         QStringLiteral("what a pipeline extracts from a generated text: one per non-empty line, "
                        "JSON objects, or a regex's named groups, normalised; the answer is a "
                        "reduction over them (the most frequent record, or their count).")},
        {QStringLiteral("record Jaccard"),
         QStringLiteral("records in both runs over records in either (distinct per item); pooled: "
                        "the sums over the items, so every (item, record) pair counts once.")},
        {QStringLiteral("concurrency, arrival order"),
         QStringLiteral("the serving simulation: at most C requests decode together, joining "
                        "the running batch as slots free up, in an order drawn from the arrival "
                        "seed; concurrency 1 is the serial reference.")},
        {QStringLiteral("divergence point, top-2 logit gap"),
         QStringLiteral("the first generated token where two outputs differ; the reference's "
                        "largest minus second-largest next-token logit there (how near a tie "
                        "the choice was).")},
    };
    std::vector<QStringList> rows;
    for (const auto& [t, d] : terms) {
        rows.push_back({QStringLiteral("<b>%1</b>").arg(esc(t)), esc(d)});
    }
    h.table({QStringLiteral("term"), QStringLiteral("meaning")}, rows);
}

namespace {

QString sampleSizeLimit(const analysis::Review& rv) {
    const std::size_t n = rv.items.size();
    std::size_t labelled = 0;
    for (const auto& it : rv.items) {
        labelled += it.label.has_value();
    }
    double widest = 0, detectable = 0;
    for (const auto& row : rv.rows) {
        if (row.cmp && !row.reference && row.cmp->accuracy_diff) {
            const auto& c = *row.cmp;
            widest = std::max(widest, c.accuracy_diff->high - c.accuracy_diff->low);
            detectable = std::max(detectable, analysis::pairedMinimumDetectableDifference(
                                                  c.only_a_correct + c.only_b_correct, c.labelled));
        }
    }
    QString text =
        QStringLiteral("<b>Sample size.</b> %1 items, %2 with a gold label. Where a config "
                       "flipped no decision, the flip rate on data like this may still be up "
                       "to %3 (the upper end of Wilson's 95% interval for 0 of %1, as the card "
                       "and <i>probaudit run</i> say it); rarer flips cannot be ruled out. The "
                       "widest accuracy-difference interval is %4 points wide.")
            .arg(n)
            .arg(labelled)
            .arg(n > 0 ? formatShare(analysis::wilson(0, std::int64_t(n)).high)
                       : QStringLiteral("–"))
            .arg(QString::number(100 * widest, 'f', 2));
    if (detectable > 0) {
        text += QStringLiteral(" An accuracy difference below %1 points could go unseen for some "
                               "config (the smallest this sample detects with 80% power, 5% "
                               "two-sided, from that config's disagreement with the reference; "
                               "with none observed, from its 95% bound).")
                    .arg(QString::number(100 * detectable, 'f', 1));
    }
    return text;
}

// Axes the study never varied ("" when it tried them all).
QString untriedLimit(const analysis::Review& rv) {
    const json configs = rv.study.value("configs", json::object());
    std::map<std::string, std::set<std::string>> seen;
    for (const auto& [name, c] : configs.items()) {
        for (const auto& [axis, v] : c.items()) {
            seen[axis].insert(v.is_string() ? v.get<std::string>() : v.dump());
        }
    }
    QStringList untried;
    for (const Axis& a : configAxes()) {
        if (!a.untried_in_report) {
            continue;
        }
        const std::string axis(a.name);
        for (const auto& v : axisValues(a)) {
            if (!seen[axis].count(v) &&
                !(axis == "device" && v == "cuda:0" && seen[axis].count("cuda:1"))) {
                untried << QStringLiteral("%1 = %2").arg(QString::fromStdString(axis),
                                                         QString::fromStdString(v));
            }
        }
    }
    if (seen["batch_size"].size() <= 1) {
        untried << QStringLiteral("any batch size but %1")
                       .arg(QString::fromStdString(*seen["batch_size"].begin()));
    }
    if (untried.isEmpty()) {
        return {};
    }
    return QStringLiteral("<b>Configurations not tried.</b> No config of this study used: "
                          "%1. Their effect is unknown.")
        .arg(esc(untried.join(QStringLiteral("; "))));
}

QString hardwareLimit(const analysis::Review& rv) {
    std::set<std::string> cpus, torches, gpus;
    for (const auto& [hash, e] : rv.environments) {
        const EnvFingerprint f = EnvFingerprint::read(e);
        if (f.kind == EnvKind::Endpoint) {
            continue; // a server's hardware is its own (the cover names the server)
        }
        cpus.insert(f.cpu.model.value_or("?") + " (" + f.cpu.aten_capability.value_or("?") + ")");
        torches.insert(f.torch.version.value_or("?") + " CUDA build " +
                       f.torch.cuda_build.value_or("none"));
        for (const auto& g : f.cuda.gpus) {
            gpus.insert(g.name.value_or("GPU"));
        }
    }
    auto join = [](const std::set<std::string>& s) {
        QStringList l;
        for (const auto& x : s) {
            l << QString::fromStdString(x);
        }
        return l.join(QStringLiteral(", "));
    };
    return QStringLiteral("<b>Hardware and builds covered.</b> CPU: %1. libtorch: %2. GPU: %3. "
                          "Other CPUs, GPU generations, drivers, CUDA and kernel-library builds "
                          "were not measured here; the field reports measured up to 14.4 points "
                          "of Δp between two CUDA builds of the same torch version.")
        .arg(esc(join(cpus)), esc(join(torches)),
             gpus.empty() ? QStringLiteral("none (no run used a GPU)") : esc(join(gpus)));
}

QString headsLimit(const analysis::Review& rv) {
    QStringList heads;
    for (const auto& x : rv.heads) {
        heads << QString::fromStdString(x);
    }
    return QStringLiteral("<b>Heads.</b> This report covers the head variant %1%2.")
        .arg(esc(rv.head))
        .arg(heads.size() > 1 ? QStringLiteral(" (the ledger also holds: %1)")
                                    .arg(esc(heads.join(QStringLiteral(", "))))
                              : QString());
}

QString dataLimit(const analysis::Review& rv) {
    const std::size_t n = rv.items.size();
    std::size_t nearCount = 0;
    if (rv.reference_run) {
        for (const auto& r : rv.data.at(rv.reference_run->id).records) {
            nearCount += std::abs(r.margin) < 0.1f;
        }
    }
    return QStringLiteral("<b>Data.</b> One dataset; %1 of its items have a reference margin "
                          "below 0.1 logits. Data with more near-ties would flip more decisions "
                          "under the same configs.")
        .arg(n > 0 ? formatShare(double(nearCount) / double(n)) : QStringLiteral("–"));
}

} // namespace

void limits(Html& h, const analysis::Review& rv) {
    h.h1(QStringLiteral("limits"), QStringLiteral("What this report cannot tell you"));
    std::int64_t maxFlips = 0;
    for (const auto& row : rv.rows) {
        if (row.cmp && !row.reference) {
            maxFlips = std::max(maxFlips, row.cmp->flips);
        }
    }
    QStringList out{sampleSizeLimit(rv)};
    if (const QString untried = untriedLimit(rv); !untried.isEmpty()) {
        out << untried;
    }
    out << hardwareLimit(rv) << headsLimit(rv) << dataLimit(rv);
    if (maxFlips == 0) {
        out << QStringLiteral("<b>No flips is not no risk.</b> Probabilities moved without "
                              "crossing the boundary on these items; items nearer the boundary "
                              "would cross it.");
    }
    for (const QString& o : out) {
        h.p(o);
    }
}

} // namespace probaudit::ui::reporting
