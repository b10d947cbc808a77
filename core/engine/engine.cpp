#include "core/engine/engine.h"

#include "core/common/error.h"
#include "core/engine/batch.h"
#include "core/engine/forward_ops.h"
#include "core/engine/model_loader.h"
#include "core/engine/weights.h"
#include "kernels/row_hash.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>
#if defined(PROBAUDIT_WITH_CUDA)
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <random>

namespace probaudit::engine {

Capture parseCapture(const std::string& s) {
    if (s == "none")
        return Capture::None;
    if (s == "hashes")
        return Capture::Hashes;
    if (s == "vectors")
        return Capture::Vectors;
    if (s == "full")
        return Capture::Full;
    throw Error("unknown capture level \"" + s + "\" (none, hashes, vectors, full)");
}

const char* captureName(Capture c) {
    switch (c) {
    case Capture::None:
        return "none";
    case Capture::Hashes:
        return "hashes";
    case Capture::Vectors:
        return "vectors";
    case Capture::Full:
        return "full";
    }
    return "?";
}

namespace {

at::ScalarType scalarType(Dtype dtype) {
    switch (dtype) {
    case Dtype::Float32:
        return at::kFloat;
    case Dtype::BFloat16:
        return at::kBFloat16;
    case Dtype::Float16:
        return at::kHalf;
    case Dtype::Float64:
        return at::kDouble;
    }
    throw Error("unknown dtype");
}

bool blank(const std::string& s) {
    return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}

} // namespace

std::vector<std::uint64_t> rowHashes(const Batch& b, const at::Tensor& hidden) {
    const at::Tensor h = hidden.contiguous();
    const std::int64_t rowBytes = h.size(2) * static_cast<std::int64_t>(h.element_size());
    std::vector<std::uint64_t> out(std::size_t(b.rows()));
#if defined(PROBAUDIT_WITH_CUDA)
    if (h.is_cuda()) {
        // On the device and the stream torch queued the hidden states on.
        const c10::cuda::CUDAGuard guard(h.device());
        void* stream = at::cuda::getCurrentCUDAStream(h.device().index()).stream();
        at::Tensor dev = at::empty({b.rows()}, h.options().dtype(at::kLong));
        const auto* base = static_cast<const unsigned char*>(h.data_ptr());
        for (std::int64_t r = 0; r < b.rows(); ++r) {
            kernels::RowHashParams p;
            p.data = base + (r * h.size(1) + b.start[std::size_t(r)]) * rowBytes;
            p.rows = 1;
            p.row_bytes = b.length[std::size_t(r)] * rowBytes; // the row's real tokens, contiguous
            p.row_stride_bytes = p.row_bytes;
            p.out = reinterpret_cast<std::uint64_t*>(dev.data_ptr<std::int64_t>()) + r;
            kernels::rowHashCuda(p, stream);
        }
        const at::Tensor host = dev.to(at::kCPU);
        std::memcpy(out.data(), host.data_ptr<std::int64_t>(), out.size() * sizeof(std::uint64_t));
        return out;
    }
#endif
    for (std::int64_t r = 0; r < b.rows(); ++r) {
        const auto* row = static_cast<const unsigned char*>(h[r].data_ptr());
        out[std::size_t(r)] = kernels::hashBytes(row + b.start[std::size_t(r)] * rowBytes,
                                                 std::size_t(b.length[std::size_t(r)] * rowBytes));
    }
    return out;
}

Engine::Engine(const std::string& modelPath, const HeadSpec& head)
    : m_ckpt(model::Checkpoint::open(modelPath)), m_tok(m_ckpt.loadTokenizer()), m_headSpec(head) {}

void Engine::applyProcessSettings(const RunConfig& c) {
    at::set_num_threads(static_cast<int>(c.threads));
    at::globalContext().setDeterministicAlgorithms(c.deterministic, false);
    at::globalContext().setAllowTF32CuBLAS(c.tf32);
    at::globalContext().setAllowTF32CuDNN(c.tf32);
    at::globalContext().setBenchmarkCuDNN(c.cudnn_benchmark);
}

void Engine::prepare(const RunConfig& c) {
    if (c.gemm == Gemm::Onednn && !at::hasMKLDNN()) {
        throw Error("gemm onednn: this torch build has no oneDNN (use gemm aten)");
    }
    applyProcessSettings(c);
    ensureModel(c);
}

void Engine::ensureModel(const RunConfig& c) {
    const std::string key = nameString(c.dtype) + "@" + c.device;
    if (m_model && m_loadedKey == key) {
        return;
    }
    m_model.reset();
    m_head.reset();
    LoadedWeights w = loadWeights(m_ckpt, scalarType(c.dtype));
    if (c.device != "cpu") {
        if (!at::hasCUDA()) {
            throw Error("device " + c.device + " requested but CUDA is not available");
        }
        const at::Device dev(c.device);
        for (auto& [name, t] : w.tensors) {
            t = t.to(dev);
        }
    }
    m_model = TransformerModel::create(m_ckpt.spec(), std::move(w));
    if (m_headSpec.kind != HeadKind::None && !m_headSpec.generation()) { // generation needs none
        m_head = Head::create(m_headSpec, *m_model, m_tok, m_ckpt);
    }
    releaseFreedHeap(); // the loader's staging copies and any model loaded before
    m_loadedKey = key;
}

namespace {

// The weights' layout a config's passes use (TransformerModel::useLayoutFor).
bool packedLayout(const RunConfig& c) {
    return c.gemm == Gemm::Onednn && c.kernels != Kernels::BatchInvariant;
}

} // namespace

OtherSide Engine::otherSide(const RunConfig& other, const RunConfig& pass) {
    const std::string key = nameString(other.dtype) + "@" + other.device;
    if (key == m_loadedKey && packedLayout(other) == packedLayout(pass)) {
        return {m_model.get(), m_head.get()};
    }
    const std::string otherKey = key + (packedLayout(other) ? "#packed" : "");
    if (!m_otherModel || m_otherKey != otherKey) {
        m_otherHead.reset();
        m_otherModel.reset();
        LoadedWeights w = loadWeights(m_ckpt, scalarType(other.dtype));
        if (other.device != "cpu") {
            const at::Device dev(other.device);
            for (auto& [name, t] : w.tensors) {
                t = t.to(dev);
            }
        }
        m_otherModel = TransformerModel::create(m_ckpt.spec(), std::move(w));
        m_otherHead = Head::create(m_headSpec, *m_otherModel, m_tok, m_ckpt);
        m_otherKey = otherKey;
    }
    return {m_otherModel.get(), m_otherHead.get()};
}

tokenizer::Encoding Engine::encode(const Item& item, std::int64_t maxLength) const {
    if (blank(item.text)) {
        throw Error("item " + item.id + ": empty text");
    }
    const std::string prompt = m_headSpec.prompt(item.text);
    const std::int64_t limit = maxLength > 0 ? std::min(maxLength, m_ckpt.spec().max_positions)
                                             : m_ckpt.spec().max_positions;
    try {
        return m_tok.encode(prompt, true, static_cast<std::size_t>(limit));
    } catch (const Error& e) {
        throw Error("item " + item.id + ": " + e.what());
    }
}

RunPlan Engine::plan(const std::vector<std::int64_t>& lengths, const RunConfig& c) {
    std::vector<std::size_t> order(lengths.size());
    std::iota(order.begin(), order.end(), 0);
    if (c.order == ItemOrder::Shuffled) {
        order = seededOrder(lengths.size(), c.order_seed);
    } else if (c.order == ItemOrder::NeighboursShuffled) {
        order = neighboursShuffled(lengths.size(), static_cast<std::size_t>(c.batch_size),
                                   c.order_seed);
    } else if (c.order == ItemOrder::ByLength) {
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return lengths[a] < lengths[b]; });
    }
    RunPlan p;
    for (std::size_t i = 0; i < order.size(); i += static_cast<std::size_t>(c.batch_size)) {
        const std::size_t end = std::min(order.size(), i + static_cast<std::size_t>(c.batch_size));
        p.batches.emplace_back(order.begin() + std::ptrdiff_t(i),
                               order.begin() + std::ptrdiff_t(end));
    }
    return p;
}

std::vector<ItemRecord> Engine::run(const std::vector<Item>& items, const RunConfig& c,
                                    Capture capture, const RunProgress& progress,
                                    const BatchSink& sink, const std::vector<bool>& skip) {
    std::vector<tokenizer::Encoding> enc;
    for (const Item& item : items) {
        enc.push_back(encode(item, c.max_length));
    }
    return run(enc, c, capture, progress, sink, skip);
}

namespace {

// Items a run reports: all but those `skip` marks as recorded in an earlier attempt.
std::size_t countReported(std::size_t n, const std::vector<bool>& skip) {
    std::size_t total = 0;
    for (std::size_t i = 0; i < n; ++i) {
        total += (skip.empty() || !skip[i]) ? 1 : 0;
    }
    return total;
}

std::vector<std::int64_t> encodingLengths(const std::vector<tokenizer::Encoding>& enc) {
    std::vector<std::int64_t> allLengths;
    for (const auto& e : enc) {
        allLengths.push_back(static_cast<std::int64_t>(e.ids.size()));
    }
    return allLengths;
}

// The padded batch of some rows, its kernels marked, moved to a CUDA device.
Batch deviceBatch(const std::vector<std::vector<std::int32_t>>& rows, const RunConfig& c,
                  std::int32_t padId, const at::Device& device) {
    Batch b = makeBatch(rows, c.padding_side, c.pad_to, c.pad_to_n, padId);
    markKernels(b, c);
    if (device.is_cuda()) {
        b.input_ids = b.input_ids.to(device);
        b.attention_mask = b.attention_mask.to(device);
        b.position_ids = b.position_ids.to(device);
    }
    return b;
}

// The forward pass's hidden-state callback that fills each row's per-layer capture (hashes,
// decision vectors, full states) of the batch `b`.
std::function<void(int, const at::Tensor&)> hiddenCapture(const Batch& b, Capture capture,
                                                          const Head& head,
                                                          std::vector<ItemRecord>& batchRecords) {
    return [&b, capture, &head, &batchRecords](int, const at::Tensor& h) {
        // On the GPU the hashes are computed where the states live; the states come to the
        // host only for `full` capture.
        const std::vector<std::uint64_t> hashes = rowHashes(b, h);
        const at::Tensor hc = capture == Capture::Full ? h.to(at::kCPU) : at::Tensor();
        at::Tensor vectors;
        if (capture != Capture::Hashes) {
            vectors = head.decisionVector(b, h).to(at::kCPU);
            if (vectors.scalar_type() != at::kFloat) { // a float64 run's, rounded as recorded
                vectors = vectors.to(at::kFloat);      // (and no op more in a float32 trace)
            }
            vectors = vectors.contiguous();
        }
        for (std::int64_t r = 0; r < b.rows(); ++r) {
            auto& rec = batchRecords[std::size_t(r)];
            rec.layer_hashes.push_back(hashes[std::size_t(r)]);
            if (capture != Capture::Hashes) {
                const float* v = vectors[r].data_ptr<float>();
                rec.layer_vectors.emplace_back(v, v + vectors.size(1));
            }
            if (capture == Capture::Full) {
                rec.layer_full.push_back(
                    hc[r]
                        .narrow(0, b.start[std::size_t(r)], b.length[std::size_t(r)])
                        .to(at::kFloat)
                        .clone());
            }
        }
    };
}

// One batch of a decision run: forward pass, head and a record for every row (items skipped
// in this attempt included: their neighbours must see the same batch).
std::vector<ItemRecord> runBatch(const TransformerModel& model, const Head& head,
                                 const std::vector<tokenizer::Encoding>& enc,
                                 const std::vector<std::size_t>& members, std::size_t bi,
                                 const RunConfig& c, Capture capture, std::int32_t padId,
                                 const at::Device& device, const Counterfactual* cf,
                                 const OtherSide& other) {
    std::vector<std::vector<std::int32_t>> rows;
    for (std::size_t i : members) {
        rows.push_back(enc[i].ids);
    }
    const auto t0 = std::chrono::steady_clock::now();
    Batch b = deviceBatch(rows, c, padId, device);
    std::vector<ItemRecord> batchRecords(members.size());
    ForwardOptions opt;
    opt.attention = c.attention;
    if (capture != Capture::None) {
        opt.onHidden = hiddenCapture(b, capture, head, batchRecords);
    }
    opt.splice = batchSplice(b, members, cf);
    opt.onOp = batchOpHook(b, members, cf, other);
    const ForwardResult out = model.forward(b, opt);
    at::Tensor logits = head.logits(model, b, out);
    if (opt.onOp) {
        logits =
            detail::offer(opt, model.hiddenCount(), OpClass::Head, 0, {out.last_hidden}, logits,
                          [&model, &head, other](const TransformerModel& m, const Batch& one,
                                                 Attention, const std::vector<at::Tensor>& in) {
                              const Head& h = &m == &model ? head : *other.head;
                              return h.logits(m, one, ForwardResult{in[0], m.pooler(one, in[0])});
                          });
    }
    logits = logits.to(at::kCPU);
    // A counterfactual run (a splice) keeps the label logits only: its vocabulary would mix runs.
    const at::Tensor vocabulary =
        cf != nullptr ? at::Tensor() : head.vocabularyLogProbs(model, b, out);
    const at::Tensor vocabularyCpu =
        vocabulary.defined() ? vocabulary.to(at::kCPU).contiguous() : at::Tensor();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (std::size_t r = 0; r < members.size(); ++r) {
        ItemRecord& rec = batchRecords[r];
        const std::size_t i = members[r];
        rec.item = i;
        rec.tokens = static_cast<std::int64_t>(enc[i].ids.size());
        rec.truncated = enc[i].truncated;
        rec.head = head.decide(logits[std::int64_t(r)]);
        if (vocabularyCpu.defined()) {
            const float* p = vocabularyCpu[std::int64_t(r)].data_ptr<float>();
            rec.vocabulary.assign(p, p + vocabularyCpu.size(1));
        }
        rec.batch = static_cast<std::int64_t>(bi);
        rec.row = static_cast<std::int64_t>(r);
        rec.padded_length = b.input_ids.size(1);
        rec.batch_seconds = seconds;
    }
    return batchRecords;
}

} // namespace

std::vector<ItemRecord> Engine::run(const std::vector<tokenizer::Encoding>& enc, const RunConfig& c,
                                    Capture capture, const RunProgress& progress,
                                    const BatchSink& sink, const std::vector<bool>& skip) {
    prepare(c);
    if (!m_head) {
        throw Error("this engine has no decision head (it was made for generation)");
    }
    if (c.concurrency != 1) {
        throw Error("concurrency applies to generation (the serving simulation); a decision run "
                    "batches by batch_size");
    }
    c10::InferenceMode guard;
    const std::size_t total = countReported(enc.size(), skip);
    // The plan is made over all items, so a resumed run batches exactly as the first attempt.
    RunPlan plan;
    if (m_counterfactual != nullptr && !m_counterfactual->batches.empty()) {
        plan.batches = m_counterfactual->batches; // a counterfactual replays given batches
    } else {
        plan = Engine::plan(encodingLengths(enc), c);
    }

    const OtherSide other = m_counterfactual != nullptr && m_counterfactual->asOther
                                ? otherSide(m_counterfactual->other, c)
                                : OtherSide{};
    const std::int32_t padId =
        m_ckpt.spec().pad_token_id >= 0 ? static_cast<std::int32_t>(m_ckpt.spec().pad_token_id) : 0;
    const at::Device device = c.device == "cpu" ? at::Device(at::kCPU) : at::Device(c.device);
    std::vector<ItemRecord> records(enc.size());
    std::vector<bool> have(enc.size(), false);
    std::size_t done = 0;
    m_cancelled = false;
    m_trace = KernelTrace();
    m_trace.start(device.is_cuda() && m_deviceKernelTrace);
    try {
        for (std::size_t bi = 0; bi < plan.batches.size(); ++bi) {
            const auto& members = plan.batches[bi];
            if (!skip.empty() && std::all_of(members.begin(), members.end(),
                                             [&](std::size_t i) { return skip[i]; })) {
                continue;
            }
            std::vector<ItemRecord> batchRecords =
                runBatch(*m_model, *m_head, enc, members, bi, c, capture, padId, device,
                         m_counterfactual, other);
            // Items already recorded in an interrupted attempt ride along for the arithmetic
            // (their neighbours must see the same batch) but are not reported again.
            std::vector<ItemRecord> fresh;
            for (auto& rec : batchRecords) {
                if (skip.empty() || !skip[rec.item]) {
                    fresh.push_back(rec);
                }
            }
            if (sink) {
                sink(fresh);
            }
            for (auto& rec : fresh) {
                have[rec.item] = true;
                records[rec.item] = std::move(rec);
                ++done;
            }
            m_trace.checkpoint();
            if (progress && !progress(done, total)) {
                m_cancelled = true;
                break;
            }
        }
    } catch (...) {
        m_trace.stop();
        throw;
    }
    m_trace.stop();
    std::vector<ItemRecord> out;
    for (std::size_t i = 0; i < enc.size(); ++i) {
        if (have[i]) {
            out.push_back(std::move(records[i]));
        }
    }
    return out;
}

} // namespace probaudit::engine
