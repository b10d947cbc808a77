#pragma once
// The model card's reproducibility section (`probaudit card`): what a releaser pastes into a
// model card, from a sealed ledger. The verified runtime (the reference run's environment:
// torch and its CUDA build, kernel libraries, CPU or GPU), the supported path (the reference
// config), a table with numbers for every other recorded runtime (largest Δp, flips with the
// flip rate's 95% interval, agreement, bit-identical share), what the sample cannot show (its
// size and the flip-rate bound), the policy's verdict when the study has one (with its
// registration), and the ledger's digest and chain head so a reader can check it. As Markdown,
// JSON, or a Hugging Face model-index YAML block.
#include <nlohmann/json.hpp>

#include <string>

namespace probaudit::policy {

// Throws probaudit::Error naming the ledger when it cannot be read, has no finished reference
// run, or was changed after it was sealed (a card is never made from a tampered ledger).
// `lockPath` (a runtime lock, `probaudit pin`): the verified runtime is the pinned one, and the
// card names the lock; "" = the reference run's environment.
nlohmann::json cardData(const std::string& ledgerPath, const std::string& head = std::string(),
                        const std::string& lockPath = std::string());
std::string cardMarkdown(const nlohmann::json& card);
std::string cardModelIndexYaml(const nlohmann::json& card);

} // namespace probaudit::policy
