#include "app/probaudit/gate_cmd.h"

#include "core/common/error.h"
#include "core/common/protocol.h"
#include "core/ledger/ledger.h"
#include "core/policy/attestation.h"
#include "core/policy/gate.h"
#include "core/policy/junit.h"
#include "core/study/study.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

namespace probaudit::app {

namespace {

using policy::GateResult;
using policy::GateRow;

std::string intervalText(const GateRow& r) {
    if (!r.interval) {
        return "-";
    }
    char buf[64];
    const bool share =
        r.criterion == Criterion::MaxFlips || r.criterion == Criterion::MaxFlipRate ||
        r.criterion == Criterion::MinAgreement || r.criterion == Criterion::MinAnswerAgreement;
    if (share) {
        std::snprintf(buf, sizeof buf, "[%.4f, %.4f]", r.interval->low, r.interval->high);
    } else {
        std::snprintf(buf, sizeof buf, "[%.2f, %.2f]", r.interval->low, r.interval->high);
    }
    return buf;
}

void printTable(const GateResult& g, const std::vector<std::string>& itemIds) {
    std::vector<std::vector<std::string>> cells{{"RULE", "CHECK", "HEAD", "CONFIG", "AGAINST",
                                                 "MEASURED", "95% INTERVAL", "LIMIT", "RESULT"}};
    for (const GateRow& r : g.rows) {
        cells.push_back({r.rule, std::string(criterionName(r.criterion)), r.head, r.config,
                         r.against, r.measuredText(), intervalText(r), r.limitText(),
                         std::string(policy::outcomeName(r.outcome)) + (r.late ? " (late)" : "")});
    }
    std::vector<std::size_t> width(cells.front().size(), 0);
    for (const auto& row : cells) {
        for (std::size_t i = 0; i < row.size(); ++i) {
            width[i] = std::max(width[i], row[i].size());
        }
    }
    for (const auto& row : cells) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            line +=
                row[i] + std::string(i + 1 < row.size() ? width[i] - row[i].size() + 2 : 0, ' ');
        }
        std::printf("%s\n", line.c_str());
    }
    for (const GateRow& r : g.rows) {
        if (r.outcome == policy::Outcome::Pass) {
            continue;
        }
        std::string items;
        for (std::size_t i = 0; i < r.flagged.size() && i < 10; ++i) {
            const auto idx = std::size_t(r.flagged[i]);
            items += (i ? ", " : "") + (idx < itemIds.size() ? itemIds[idx] : std::to_string(idx));
        }
        if (r.flagged.size() > 10) {
            items += ", ... (" + std::to_string(r.flagged.size()) + " in all)";
        }
        std::printf("%s %s / %s / %s: %s%s\n", std::string(policy::outcomeName(r.outcome)).c_str(),
                    r.rule.c_str(), std::string(criterionName(r.criterion)).c_str(),
                    r.config.c_str(), r.detail.c_str(),
                    items.empty() ? "" : (" (items " + items + ")").c_str());
    }
}

} // namespace

std::string readTextFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error(path, "cannot open");
    }
    std::string text((std::istreambuf_iterator<char>(in)), {});
    if (text.size() > (std::size_t(64) << 20)) {
        throw Error(path, "is larger than 64 MiB: not a key or an attestation");
    }
    return text;
}

int verifyAttestation(const VerifyAttestationOptions& o) {
    const policy::AttestationCheck c = policy::verifyAttestation(
        readTextFile(o.attestation), readTextFile(o.trust), o.trust,
        o.ledger.empty() ? std::nullopt : std::optional<std::string>(o.ledger));
    const int exit = c.ok()        ? protocol::kExitOk
                     : c.malformed ? protocol::kExitError
                                   : protocol::kExitTampered;
    if (o.json) {
        std::cout << nlohmann::json{{"verified", c.ok()},
                                    {"problem", c.problem},
                                    {"result", c.result},
                                    {"statement", c.statement}}
                         .dump(2)
                  << "\n";
        return exit;
    }
    if (!c.ok()) {
        std::fprintf(stderr, "%s: %s\n", o.attestation.c_str(), c.problem.c_str());
        return exit;
    }
    std::printf("%s: verified, signed by %s: %s, %zu subjects%s\n", o.attestation.c_str(),
                o.trust.c_str(), c.result.c_str(), c.statement["subject"].size(),
                o.ledger.empty() ? "" : (", " + o.ledger + " is the ledger attested").c_str());
    return exit;
}

int gate(const GateOptions& o) {
    std::optional<Policy> override;
    if (!o.study.empty()) {
        const study::Study s = study::Study::load(o.study);
        if (s.policy.empty()) {
            throw Error(o.study, "has no policy ($.policy)");
        }
        override = s.policy;
    }
    const GateResult g = policy::gate(o.ledger, override);
    if (!g.tampered.empty()) {
        std::fprintf(stderr,
                     "%s: the ledger was changed after it was sealed (%s); nothing is "
                     "judged\n",
                     o.ledger.c_str(), g.tampered.c_str());
        return g.exitCode();
    }
    if (!o.junit.empty()) {
        writeFile(o.junit, policy::junitXml(g));
    }
    if (!o.attest.empty()) {
        writeFile(o.attest, policy::signAttestation(policy::attestationStatement(g, o.ledger),
                                                    readTextFile(o.key), o.key));
    }
    if (o.json) {
        std::cout << g.toJson().dump(2) << "\n";
        return g.exitCode();
    }
    std::vector<std::string> ids;
    for (const auto& item : ledger::Ledger(o.ledger, ledger::Ledger::Mode::Read).items()) {
        ids.push_back(item.id);
    }
    std::printf("%s: policy %s (%s), %s\n", o.ledger.c_str(), g.policy_sha256.substr(0, 12).c_str(),
                g.from_ledger ? "sealed in the ledger" : "from the study file",
                g.registration.c_str());
    printTable(g, ids);
    std::printf("verdict: %s (%d passed, %d failed, %d cannot be evaluated)\n",
                g.failed > 0    ? "FAIL"
                : g.unknown > 0 ? "INCOMPLETE"
                                : "PASS",
                g.passed, g.failed, g.unknown);
    return g.exitCode();
}

void writeFile(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".part-" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out.flush()) {
            std::filesystem::remove(tmp);
            throw Error(path, "cannot be written");
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp);
        throw Error(path, "cannot be written: " + ec.message());
    }
}

} // namespace probaudit::app
