#include "core/tasks/train_adapter.h"

#include "core/common/error.h"
#include "core/common/file_digest.h"
#include "core/engine/engine.h"
#include "core/engine/weights.h"
#include "core/model/safetensors.h"
#include "core/study/dataset.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>

namespace probaudit::tasks {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string stem(const std::string& path) {
    const std::string ext = ".safetensors";
    return path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0
               ? path.substr(0, path.size() - ext.size())
               : path;
}

// Expected calibration error over `bins` equal-width confidence bins.
double calibrationError(const at::Tensor& probs, const at::Tensor& y, int bins = 10) {
    const auto [conf, pred] = probs.max(1);
    const auto correct = pred.eq(y).to(at::kDouble);
    double ece = 0;
    const double n = double(probs.size(0));
    for (int b = 0; b < bins; ++b) {
        const at::Tensor in = conf.gt(double(b) / bins).logical_and(conf.le(double(b + 1) / bins));
        const double count = in.sum().item<double>();
        if (count > 0) {
            const double acc = correct.masked_select(in).mean().item<double>();
            const double c = conf.masked_select(in).to(at::kDouble).mean().item<double>();
            ece += count / n * std::abs(acc - c);
        }
    }
    return ece;
}

// What the adapter file says about how it was learned; the engine reads pooling, normalize,
// labels and the template back (an adapter on the bare text names no template, as before).
std::map<std::string, std::string> fileMetadata(const TrainOptions& o,
                                                std::map<std::string, std::string> more) {
    more["pooling"] = o.pooling;
    if (o.templateText != "{text}") {
        more["template"] = o.templateText;
    }
    return more;
}

std::vector<engine::Item> labelledItems(const TrainOptions& o, std::string* dataSha) {
    study::DatasetSpec spec;
    spec.paths = o.data;
    spec.labels = o.labels;
    const study::Dataset data = study::loadDataset(spec, false);
    std::vector<engine::Item> items;
    for (const auto& d : data.items) {
        if (!d.label) {
            throw Error(o.data.front(), "line " + std::to_string(d.line) +
                                            ": training needs a label on every item");
        }
        items.push_back({d.id, d.text, d.label});
    }
    *dataSha = data.sha256;
    return items;
}

// The adapter's own pooling of the last hidden state, as the engine computes it at run time
// (capture "vectors" of an engine whose adapter is a zero placeholder), cached beside the
// adapter under a key of model, data, pooling and batch. `cached`: read from the cache.
at::Tensor pooledFeatures(const TrainOptions& o, const std::vector<engine::Item>& items,
                          std::int64_t H, const std::map<std::string, std::string>& key,
                          const TrainProgress& progress, bool* cached) {
    const std::string base = stem(o.output);
    const std::string cachePath = base + ".features.safetensors";
    const std::int64_t C = std::int64_t(o.labels.size());
    *cached = false;
    if (fs::exists(cachePath)) {
        const model::SafetensorsCheckpoint cache(cachePath);
        if (cache.files().front()->metadata() == key) {
            *cached = true;
            return engine::loadTensor(cache, "features", at::kFloat);
        }
    }
    const std::string placeholder = base + ".placeholder.safetensors";
    model::writeSafetensorsF32(placeholder,
                               {{"weight", {{C, H}, std::vector<float>(std::size_t(C * H), 0.f)}},
                                {"bias", {{C}, std::vector<float>(std::size_t(C), 0.f)}}},
                               fileMetadata(o, {}));
    HeadSpec head;
    head.kind = HeadKind::Adapter;
    head.name = "features";
    head.adapter_path = placeholder;
    head.pooling = o.pooling;
    head.template_text = o.templateText;
    head.labels = o.labels;
    RunConfig cfg;
    cfg.batch_size = o.batch;
    cfg.threads = at::get_num_threads();
    std::vector<engine::ItemRecord> recs;
    try {
        engine::Engine eng(o.model, head);
        if (progress) {
            progress("extracting pooled features of " + std::to_string(items.size()) + " items...");
        }
        recs = eng.run(items, cfg, engine::Capture::Vectors);
    } catch (...) {
        fs::remove(placeholder);
        throw;
    }
    fs::remove(placeholder);
    std::vector<float> values;
    values.reserve(items.size() * std::size_t(H));
    for (const auto& r : recs) {
        const auto& last = r.layer_vectors.back(); // the last hidden state, pooled
        values.insert(values.end(), last.begin(), last.end());
    }
    model::writeSafetensorsF32(cachePath, {{"features", {{std::int64_t(items.size()), H}, values}}},
                               key);
    return at::from_blob(values.data(), {std::int64_t(items.size()), H}, at::kFloat).clone();
}

struct Split {
    at::Tensor Xtr, Ytr, Xva, Yva;
    std::int64_t nVal = 0;
};

// Seeded split.
Split split(const at::Tensor& X, const at::Tensor& Y, const TrainOptions& o) {
    const std::size_t n = std::size_t(X.size(0));
    std::vector<std::int64_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 gen(o.seed);
    for (std::size_t i = order.size(); i > 1; --i) {
        std::swap(order[i - 1], order[std::size_t(gen() % i)]);
    }
    Split sp;
    sp.nVal = static_cast<std::int64_t>(std::llround(o.validation * double(n)));
    const at::Tensor valIdx =
        at::tensor(std::vector<std::int64_t>(order.begin(), order.begin() + sp.nVal), at::kLong);
    const at::Tensor trIdx =
        at::tensor(std::vector<std::int64_t>(order.begin() + sp.nVal, order.end()), at::kLong);
    sp.Xtr = X.index_select(0, trIdx);
    sp.Ytr = Y.index_select(0, trIdx);
    sp.Xva = X.index_select(0, valIdx);
    sp.Yva = Y.index_select(0, valIdx);
    return sp;
}

struct Fit {
    at::Tensor W, b; // the best epoch's
    double loss = INFINITY;
    int bestEpoch = 0, epochs = 0;
};

// Full-batch Adam on cross-entropy + l2 |W|^2, gradients written out (no autograd), one
// thread: the same numbers on every machine with this libtorch. Early stopping on the
// validation loss (the training loss without a validation share).
Fit fitSoftmax(const Split& sp, const TrainOptions& o, std::int64_t C, std::int64_t H) {
    at::set_num_threads(1);
    c10::InferenceMode guard;
    at::Tensor W = at::zeros({C, H}, at::kFloat), b = at::zeros({C}, at::kFloat);
    at::Tensor mW = at::zeros_like(W), vW = at::zeros_like(W), mb = at::zeros_like(b),
               vb = at::zeros_like(b);
    const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    const at::Tensor onehot = at::one_hot(sp.Ytr, C).to(at::kFloat);
    auto loss = [&](const at::Tensor& Xs, const at::Tensor& Ys) {
        return at::cross_entropy_loss(at::linear(Xs, W, b), Ys).item<double>();
    };
    Fit fit{W.clone(), b.clone()};
    int epoch = 0;
    for (epoch = 1; epoch <= o.maxEpochs; ++epoch) {
        const at::Tensor p = at::softmax(at::linear(sp.Xtr, W, b), 1);
        const at::Tensor G = (p - onehot) / double(sp.Xtr.size(0));
        const at::Tensor gW = G.t().mm(sp.Xtr) + 2 * o.l2 * W;
        const at::Tensor gb = G.sum(0);
        mW = beta1 * mW + (1 - beta1) * gW;
        vW = beta2 * vW + (1 - beta2) * gW * gW;
        mb = beta1 * mb + (1 - beta1) * gb;
        vb = beta2 * vb + (1 - beta2) * gb * gb;
        const double c1 = 1 - std::pow(beta1, epoch), c2 = 1 - std::pow(beta2, epoch);
        W = W - o.lr * (mW / c1) / ((vW / c2).sqrt() + eps);
        b = b - o.lr * (mb / c1) / ((vb / c2).sqrt() + eps);
        const double vl = sp.nVal > 0 ? loss(sp.Xva, sp.Yva) : loss(sp.Xtr, sp.Ytr);
        if (vl < fit.loss - 1e-7) {
            fit.loss = vl;
            fit.W = W.clone();
            fit.b = b.clone();
            fit.bestEpoch = epoch;
        } else if (epoch - fit.bestEpoch >= o.patience) {
            break;
        }
    }
    fit.epochs = std::min(epoch, o.maxEpochs);
    return fit;
}

double accuracy(const Fit& fit, const at::Tensor& Xs, const at::Tensor& Ys) {
    return Xs.size(0) == 0 ? 0.0
                           : at::linear(Xs, fit.W, fit.b)
                                 .argmax(1)
                                 .eq(Ys)
                                 .to(at::kDouble)
                                 .mean()
                                 .item<double>();
}

// Everything a training computes, before anything is written.
struct Training {
    std::size_t items = 0;
    std::string modelSha, dataSha;
    Split sp;
    Fit fit;
    double trainAcc = 0, valAcc = 0, ece = 0;
    bool cached = false;
};

Training train(const TrainOptions& o, const TrainProgress& progress, std::int64_t C,
               std::int64_t* H) {
    Training t;
    const std::vector<engine::Item> items = labelledItems(o, &t.dataSha);
    t.items = items.size();
    const model::Checkpoint ckpt = model::Checkpoint::open(o.model);
    t.modelSha = modelDigest(ckpt.files()); // as the ledger records it
    *H = ckpt.spec().hidden_size;
    const std::map<std::string, std::string> key{{"model_sha256", t.modelSha},
                                                 {"data_sha256", t.dataSha},
                                                 {"pooling", o.pooling},
                                                 {"template", o.templateText},
                                                 {"batch", std::to_string(o.batch)},
                                                 {"items", std::to_string(items.size())}};
    at::Tensor X = pooledFeatures(o, items, *H, key, progress, &t.cached);
    if (o.normalize) {
        X = X / X.norm(2, {-1}, true).clamp_min(1e-12);
    }
    std::vector<std::int64_t> labels;
    for (const auto& it : items) {
        labels.push_back(*it.label);
    }
    t.sp = split(X, at::tensor(labels, at::kLong), o);
    t.fit = fitSoftmax(t.sp, o, C, *H);
    t.trainAcc = accuracy(t.fit, t.sp.Xtr, t.sp.Ytr);
    t.valAcc = accuracy(t.fit, t.sp.Xva, t.sp.Yva);
    t.ece = t.sp.nVal > 0
                ? calibrationError(at::softmax(at::linear(t.sp.Xva, t.fit.W, t.fit.b), 1), t.sp.Yva)
                : 0.0;
    return t;
}

// The adapter file: weight [C, H], bias [C], and how it was learned in its metadata.
void writeAdapter(const TrainOptions& o, const Fit& fit, std::int64_t C, std::int64_t H) {
    const at::Tensor Wc = fit.W.contiguous(), bc = fit.b.contiguous();
    model::writeSafetensorsF32(
        o.output,
        {{"weight",
          {{C, H}, std::vector<float>(Wc.data_ptr<float>(), Wc.data_ptr<float>() + Wc.numel())}},
         {"bias",
          {{C}, std::vector<float>(bc.data_ptr<float>(), bc.data_ptr<float>() + bc.numel())}}},
        fileMetadata(o, {{"normalize", o.normalize ? "true" : "false"},
                         {"labels", json(o.labels).dump()},
                         {"trained_by", "probaudit train-adapter"}}));
}

json trainingCard(const TrainOptions& o, const Training& t, double seconds) {
    return json{{"adapter", o.output},
                {"model", o.model},
                {"model_sha256", t.modelSha},
                {"data", o.data},
                {"data_sha256", t.dataSha},
                {"items", t.items},
                {"train_items", t.sp.Xtr.size(0)},
                {"validation_items", t.sp.nVal},
                {"labels", o.labels},
                {"pooling", o.pooling},
                {"template", o.templateText},
                {"normalize", o.normalize},
                {"seed", o.seed},
                {"l2", o.l2},
                {"learning_rate", o.lr},
                {"epochs_run", t.fit.epochs},
                {"best_epoch", t.fit.bestEpoch},
                {"validation_loss", t.fit.loss},
                {"train_accuracy", t.trainAcc},
                {"validation_accuracy", t.valAcc},
                {"validation_calibration_error", t.ece},
                {"features_cached", t.cached},
                {"seconds", seconds}};
}

} // namespace

TrainResult trainAdapter(const TrainOptions& o, const TrainProgress& progress) {
    if (o.output.empty()) {
        throw Error("train-adapter needs -o ADAPTER.safetensors");
    }
    const auto t0 = std::chrono::steady_clock::now();
    const std::int64_t C = std::int64_t(o.labels.size());
    std::int64_t H = 0;
    const Training t = train(o, progress, C, &H);
    writeAdapter(o, t.fit, C, H);
    const json card = trainingCard(
        o, t, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    std::ofstream(stem(o.output) + ".card.json") << card.dump(2) << "\n";
    return TrainResult{o.output, t.sp.Xtr.size(0), t.sp.nVal, t.fit.bestEpoch, t.valAcc,
                       t.ece,    t.cached};
}

} // namespace probaudit::tasks
