// probaudit tokenize PATH (--text T | --text-file F) [--max-length N] [--no-special] [--json]
#include "app/probaudit/command.h"
#include "app/probaudit/inspect.h"

#include "core/common/error.h"
#include "core/tasks/inspect.h"

#include <iostream>

namespace probaudit::app {

namespace {
struct TokenizeArgs {
    std::string path, text, file;
    bool json = false;
    bool noSpecial = false;
    std::size_t maxLength = 0;
};
} // namespace

void addTokenizeCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<TokenizeArgs>();
    CLI::App* sub = cli.add_subcommand(
        "tokenize", "Print the token ids and pieces the model's tokenizer gives a text");
    sub->add_option("PATH", a->path, "Hugging Face model folder or .gguf file")->required();
    auto* textOpt = sub->add_option("--text", a->text, "Text to tokenize (UTF-8)");
    auto* fileOpt = sub->add_option("--text-file", a->file, "Read the text from a file (UTF-8)");
    textOpt->excludes(fileOpt);
    sub->add_flag("--no-special", a->noSpecial, "Do not add the template's special tokens");
    sub->add_option("--max-length", a->maxLength,
                    "Truncate to this many tokens, special tokens included (warns when it does)");
    sub->add_flag("--json", a->json, "Machine-readable JSON");
    onChosen(sub, chosen, a, [textOpt](const TokenizeArgs& o, const Invocation&) {
        std::string text = o.text;
        if (!o.file.empty()) {
            text = tasks::readUtf8File(o.file);
        } else if (textOpt->count() == 0) {
            throw Error("tokenize needs --text or --text-file");
        }
        const auto t = tasks::tokenizeText(o.path, text, !o.noSpecial, o.maxLength);
        if (t.at("truncated").get<bool>()) {
            std::cerr << "probaudit: warning: input truncated from "
                      << t.at("full_length").get<std::size_t>() << " to "
                      << t.at("count").get<std::size_t>() << " tokens\n";
        }
        std::cout << (o.json ? t.dump() + "\n" : formatTokens(t));
        return 0;
    });
}

} // namespace probaudit::app
