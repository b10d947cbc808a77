// libFuzzer with a structured mutator: tokenizer.json documents seeded with real ones are
// changed where crafted files attack, not byte by byte: a token id (added tokens, the
// vocabulary, the post-processor's special tokens) set to a negative, huge, fractional,
// 32-bit-wrapping or non-number value; a node wrapped in deep nesting; a node replaced by one of
// another type; a string made very long; a key removed. A quarter of the mutations stay
// libFuzzer's own byte-level ones. The loaded tokenizer must then encode texts or refuse with
// probaudit::Error, never crash, hang or throw anything else.
#include "core/common/json_read.h"
#include "tokenizer_input.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using nlohmann::json;

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max);

namespace {

void collect(json& node, std::vector<json*>& all) {
    all.push_back(&node);
    if (node.is_structured()) {
        for (auto& child : node) {
            collect(child, all);
        }
    }
}

// Every place a token id lives in a tokenizer.json.
void idSlots(json& doc, std::vector<json*>& slots) {
    if (auto it = doc.find("added_tokens"); it != doc.end() && it->is_array()) {
        for (auto& t : *it) {
            if (t.is_object() && t.contains("id")) {
                slots.push_back(&t["id"]);
            }
        }
    }
    if (auto m = doc.find("model"); m != doc.end() && m->is_object()) {
        if (auto v = m->find("vocab"); v != m->end()) {
            for (auto& entry : *v) {
                if (entry.is_number()) {
                    slots.push_back(&entry); // BPE/WordPiece: token -> id
                } else if (entry.is_array() && entry.size() == 2) {
                    slots.push_back(&entry[1]); // Unigram: [token, score]
                }
            }
        }
    }
    if (auto p = doc.find("post_processor"); p != doc.end() && p->is_object()) {
        if (auto s = p->find("special_tokens"); s != p->end() && s->is_object()) {
            for (auto& tok : *s) {
                if (tok.is_object() && tok.contains("ids") && tok["ids"].is_array()) {
                    for (auto& id : tok["ids"]) {
                        slots.push_back(&id);
                    }
                }
            }
        }
        for (const char* key : {"cls", "sep"}) { // Bert/RobertaProcessing: [token, id]
            if (auto c = p->find(key); c != p->end() && c->is_array() && c->size() == 2) {
                slots.push_back(&(*c)[1]);
            }
        }
    }
}

json badId(std::mt19937& rng) {
    static const std::vector<json> values{json(-1),
                                          json(0),
                                          json(1),
                                          json((1 << 22) - 1),
                                          json(1 << 22),
                                          json(2147483647),
                                          json(2147483648LL),
                                          json(4294967297LL),
                                          json(INT64_MAX),
                                          json(INT64_MIN),
                                          json(2.5),
                                          json("3"),
                                          json(nullptr),
                                          json(1e300),
                                          json::array({1}),
                                          json(UINT64_MAX)};
    return values[rng() % values.size()];
}

json deep(json inner, unsigned levels, bool objects) {
    for (unsigned i = 0; i < levels; ++i) {
        inner = objects ? json{{"k", std::move(inner)}} : json::array({std::move(inner)});
    }
    return inner;
}

void mutate(json& doc, std::mt19937& rng) {
    std::vector<json*> all;
    collect(doc, all);
    json& node = *all[rng() % all.size()];
    switch (rng() % 5) {
    case 0: {
        std::vector<json*> slots;
        idSlots(doc, slots);
        if (!slots.empty()) {
            *slots[rng() % slots.size()] = badId(rng);
        }
        break;
    }
    case 1: // deeper than the parser allows, or just below it
        node = deep(node, 1 + rng() % 160, rng() % 2 == 0);
        break;
    case 2: {
        static const std::vector<json> others{json(nullptr), json(true), json(-7),
                                              json(0.5),     json(""),   json::array(),
                                              json::object()};
        node = others[rng() % others.size()];
        break;
    }
    case 3:
        if (node.is_string()) {
            node = std::string(std::size_t(1) << (8 + rng() % 12), "aé▁Ġ"[rng() % 4]);
        } else if (node.is_number_integer()) {
            node = std::int64_t(1) << (rng() % 63);
        }
        break;
    default:
        if (node.is_object() && !node.empty()) {
            auto it = node.begin();
            std::advance(it, long(rng() % node.size()));
            node.erase(it);
        } else if (node.is_array() && !node.empty()) {
            node.erase(node.begin() + long(rng() % node.size()));
        }
        break;
    }
}

} // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t maxSize, unsigned int seed) {
    std::mt19937 rng(seed);
    auto doc = probaudit::tryParseJson(std::string_view(reinterpret_cast<char*>(data), size));
    if (!doc || rng() % 4 == 0) {
        return LLVMFuzzerMutate(data, size, maxSize);
    }
    mutate(*doc, rng);
    const std::string out = doc->dump(-1, ' ', false, json::error_handler_t::replace);
    if (out.size() > maxSize) {
        return LLVMFuzzerMutate(data, size, maxSize);
    }
    std::memcpy(data, out.data(), out.size());
    return out.size();
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    probaudit::fuzz::loadAndEncode(data, size);
    return 0;
}
