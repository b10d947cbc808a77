// probaudit card LEDGER [-o FILE] [--head H] [--lock FILE] [--format md|json|yaml]: the model
// card's reproducibility section, from a sealed ledger (core/policy/card.h).
#include "app/probaudit/command.h"

#include "core/common/error.h"
#include "core/policy/card.h"

#include <cstdio>
#include <fstream>
#include <iostream>

namespace probaudit::app {

namespace {
struct CardArgs {
    std::string ledger, out, head, lock, format = "md";
};

int card(const CardArgs& o) {
    const nlohmann::json data = policy::cardData(o.ledger, o.head, o.lock);
    const std::string text = o.format == "json"   ? data.dump(2) + "\n"
                             : o.format == "yaml" ? policy::cardModelIndexYaml(data)
                                                  : policy::cardMarkdown(data);
    if (o.out.empty()) {
        std::cout << text;
        return 0;
    }
    std::ofstream f(o.out, std::ios::binary | std::ios::trunc);
    f << text;
    if (!f.flush()) {
        throw Error(o.out, "cannot be written");
    }
    std::fprintf(stderr, "%s: written\n", o.out.c_str());
    return 0;
}
} // namespace

void addCardCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<CardArgs>();
    CLI::App* sub = cli.add_subcommand(
        "card", "The model card's reproducibility section: the verified runtime, the supported "
                "path, every other recorded runtime with numbers, the sample's limits, the "
                "policy's verdict and the ledger's digest");
    sub->add_option("LEDGER", a->ledger, "Ledger file")->required();
    sub->add_option("-o,--output", a->out, "Write to FILE (default: standard output)");
    sub->add_option("--head", a->head, "Head variant (default: the first recorded)");
    sub->add_option("--lock", a->lock,
                    "A runtime lock (probaudit pin): the verified runtime is the pinned one "
                    "(default: the reference run's environment)");
    sub->add_option("--format", a->format,
                    "md (Markdown, default), json, or yaml (a Hugging Face model-index block)")
        ->check(CLI::IsMember({"md", "json", "yaml"}));
    onChosen(sub, chosen, a, [](const CardArgs& o, const Invocation&) { return card(o); });
}

} // namespace probaudit::app
