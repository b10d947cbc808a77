#include "core/engine/counterfactual.h"

#include "core/common/error.h"
#include "core/engine/heads.h"

#include <ATen/Parallel.h>

namespace probaudit::engine {

namespace {

HiddenTap& hiddenTap() {
    static HiddenTap tap;
    return tap;
}

OpTap& opTap() {
    static OpTap tap;
    return tap;
}

// Runs with a config's thread count and gives the pass's back.
class ThreadsAs {
public:
    explicit ThreadsAs(std::int64_t threads) : m_before(at::get_num_threads()) {
        if (threads != m_before) {
            at::set_num_threads(static_cast<int>(threads));
        }
    }
    ~ThreadsAs() {
        if (at::get_num_threads() != m_before) {
            at::set_num_threads(m_before);
        }
    }
    ThreadsAs(const ThreadsAs&) = delete;
    ThreadsAs& operator=(const ThreadsAs&) = delete;

private:
    int m_before;
};

// Row r of the batch alone: its real tokens, unpadded, marked with `config`'s kernels.
Batch rowAlone(const Batch& b, std::int64_t r, const RunConfig& config) {
    const auto start = b.start[std::size_t(r)];
    const auto len = b.length[std::size_t(r)];
    Batch one;
    one.input_ids = b.input_ids[r].narrow(0, start, len).unsqueeze(0);
    one.attention_mask = at::ones_like(one.input_ids);
    one.position_ids = b.position_ids[r].narrow(0, start, len).unsqueeze(0);
    one.start = {0};
    one.length = {len};
    markKernels(one, config);
    return one;
}

// The call's operation for row r computed by `other` as `config` does it, in `dtype`.
at::Tensor rowAsOther(const OpCall& call, const Batch& b, std::int64_t r, const RunConfig& config,
                      const OtherSide& other, at::ScalarType dtype) {
    const Batch one = rowAlone(b, r, config);
    const auto start = b.start[std::size_t(r)];
    const auto len = b.length[std::size_t(r)];
    const at::ScalarType theirs = other.model->dtype();
    std::vector<at::Tensor> in;
    for (const at::Tensor& t : call.inputs) {
        const at::Tensor row = t[r].narrow(0, start, len).unsqueeze(0);
        in.push_back(row.scalar_type() == theirs ? row.clone() : row.to(theirs));
    }
    other.model->useLayoutFor(one);
    const ThreadsAs threads(config.threads);
    return call.compute(*other.model, one, config.attention, in).to(dtype);
}

} // namespace

void setHiddenTap(HiddenTap tap) {
    hiddenTap() = std::move(tap);
}

void setOpTap(OpTap tap) {
    opTap() = std::move(tap);
}

std::function<at::Tensor(int, const at::Tensor&)>
batchSplice(const Batch& b, const std::vector<std::size_t>& members, const Counterfactual* cf) {
    const HiddenTap& tap = hiddenTap();
    if (!tap && cf == nullptr) {
        return {};
    }
    return [&b, &members, cf, &tap](int index, const at::Tensor& h) -> at::Tensor {
        at::Tensor cur = h;
        if (tap) {
            if (at::Tensor t = tap(b, index, cur); t.defined()) {
                cur = t;
            }
        }
        at::Tensor out;
        for (std::size_t r = 0; cf != nullptr && r < members.size(); ++r) {
            const auto row = std::int64_t(r);
            const at::Tensor real = cur[row].narrow(0, b.start[r], b.length[r]);
            if (cf->observe) {
                cf->observe(members[r], index, real);
            }
            const at::Tensor other = cf->replace ? cf->replace(members[r], index) : at::Tensor();
            if (other.defined() && !other.sizes().equals(real.sizes())) {
                throw Error("a spliced state of " + std::to_string(other.size(0)) +
                            " tokens for a row of " + std::to_string(real.size(0)));
            }
            if (other.defined()) {
                if (!out.defined()) {
                    out = cur.clone();
                }
                out[row].narrow(0, b.start[r], b.length[r]).copy_(other);
            }
        }
        return out.defined() ? out : (cur.is_same(h) ? at::Tensor() : cur);
    };
}

std::function<at::Tensor(const OpCall&, const at::Tensor&)>
batchOpHook(const Batch& b, const std::vector<std::size_t>& members, const Counterfactual* cf,
            const OtherSide& other) {
    const OpTap& tap = opTap();
    std::vector<std::uint32_t> classes; // per row: the classes computed as the other config
    std::uint32_t any = 0;
    for (std::size_t r = 0; cf != nullptr && cf->asOther && r < members.size(); ++r) {
        classes.push_back(cf->asOther(members[r]));
        any |= classes.back();
    }
    if (!tap && any == 0) {
        return {};
    }
    if (any != 0 && (other.model == nullptr || other.head == nullptr)) {
        throw Error("an operator-class splice without the model that computes as the other config");
    }
    return [&b, cf, &tap, classes, any, other](const OpCall& call,
                                               const at::Tensor& out) -> at::Tensor {
        at::Tensor cur = out;
        if (tap) {
            if (at::Tensor t = tap(b, call, cur); t.defined()) {
                cur = t;
            }
        }
        const std::uint32_t bit = opClassBit(call.cls);
        at::Tensor result;
        for (std::size_t r = 0; (any & bit) != 0 && r < classes.size(); ++r) {
            if ((classes[r] & bit) == 0) {
                continue;
            }
            const auto row = std::int64_t(r);
            const at::Tensor mine = rowAsOther(call, b, row, cf->other, other, cur.scalar_type());
            if (!result.defined()) {
                result = cur.clone();
            }
            if (call.cls == OpClass::Head) {
                result[row].copy_(mine[0]);
                continue;
            }
            at::Tensor target = result[row].narrow(0, b.start[r], b.length[r]);
            if (mine[0].numel() != target.numel()) {
                throw Error("an operation computed as the other config gave another shape");
            }
            target.copy_(mine[0].reshape(target.sizes()));
        }
        return result.defined() ? result : (cur.is_same(out) ? at::Tensor() : cur);
    };
}

} // namespace probaudit::engine
