#pragma once
// Which weights a ledger's runs were computed with, read from its stored study: the one model's
// format and SHA-256 ($.model), or each model variant's ($.models, by name). A study session,
// a bundle import and a merge all ask the same question: are these the same weights?
#include <nlohmann/json.hpp>

#include <string>

namespace probaudit::ledger {

// Why two stored studies' models are not the same weights, "" when they are: "one holds model
// variants ($.models) and the other one model", "the model's files differ", or "the files of
// model variant "X" differ". A moved file (another path, the same digest) is the same model;
// a variant only one side names is no difference.
std::string modelsDiffer(const nlohmann::json& theirs, const nlohmann::json& ours);

// `ours` with every model variant of `theirs` that it lacks: a ledger keeps the digest of every
// variant its runs were computed with.
nlohmann::json withVariantsOf(nlohmann::json ours, const nlohmann::json& theirs);

} // namespace probaudit::ledger
