#include "core/policy/gate.h"

#include "core/analysis/review.h"
#include "core/common/error.h"
#include "core/common/protocol.h"
#include "core/common/vocabulary.h"
#include "core/ledger/policy_record.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>

namespace probaudit::policy {

using analysis::Comparison;
using analysis::Review;
using analysis::ReviewRow;
using nlohmann::json;

namespace {

std::string number(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

bool isCount(Criterion c) {
    return c == Criterion::MaxFlips;
}
bool isPoints(Criterion c) {
    return c == Criterion::MaxDpPoints || c == Criterion::AccuracyMarginPoints;
}

void pass(GateRow& row, bool ok, const std::string& failure) {
    row.outcome = ok ? Outcome::Pass : Outcome::Fail;
    if (!ok) {
        row.detail = failure;
    }
}

void unknown(GateRow& row, const std::string& why) {
    row.outcome = Outcome::Unknown;
    row.detail = why;
}

} // namespace

// A decision head's check on a comparison of the rule's config (B) against its comparison
// config (A).
void judgeRecords(GateRow& row, const Comparison& c) {
    row.items = c.items;
    if (c.items == 0) {
        return unknown(row, "no item is recorded in both runs");
    }
    const bool decisions =
        row.criterion != Criterion::MaxDpPoints && row.criterion != Criterion::BitIdentical;
    if (decisions && c.undecided > 0) {
        return unknown(row, std::to_string(c.undecided) +
                                " items have no decision in one of the runs (a failed request or "
                                "non-finite logits)");
    }
    const double limit = row.limit;
    switch (row.criterion) {
    case Criterion::MaxFlips:
        row.measured = double(c.flips);
        row.interval = analysis::wilson(c.flips, c.items);
        return pass(row, double(c.flips) <= limit,
                    std::to_string(c.flips) + " of " + std::to_string(c.items) +
                        " decisions flipped");
    case Criterion::MaxFlipRate: {
        const auto iv = analysis::wilson(c.flips, c.items);
        row.measured = iv.high;
        row.interval = iv;
        return pass(row, iv.high <= limit,
                    "the flip rate's 95% interval reaches " + number(100 * iv.high, 2) + "%");
    }
    case Criterion::MinAgreement:
        row.measured = c.agreement;
        row.interval = analysis::wilson(c.items - c.flips, c.items);
        return pass(row, c.agreement >= limit,
                    "agreement " + number(c.agreement, 4) + " is below the limit");
    case Criterion::MaxDpPoints:
        if (c.inexact > 0) {
            return unknown(row, "Δp is not known for " + std::to_string(c.inexact) +
                                    " items (a label the server did not list)");
        }
        row.measured = c.max_dp;
        return pass(row, c.max_dp <= limit, "the largest Δp is " + number(c.max_dp, 3) + " points");
    case Criterion::BitIdentical:
        row.measured = c.bit_identical_share;
        return pass(row, c.bit_identical_share >= 1,
                    number(100 * (1 - c.bit_identical_share), 1) + "% of the items differ in bits");
    case Criterion::AccuracyMarginPoints: {
        if (!c.accuracy_diff) {
            return unknown(row, "the items have no labels, so accuracy cannot be compared");
        }
        const auto& d = *c.accuracy_diff;
        row.measured = 100 * d.estimate;
        row.interval = analysis::Interval{100 * d.estimate, 100 * d.low, 100 * d.high};
        return pass(row, 100 * d.low >= -limit && 100 * d.high <= limit,
                    "the accuracy difference's 95% interval [" + number(100 * d.low, 2) + ", " +
                        number(100 * d.high, 2) + "] points leaves ±" + number(limit, 2));
    }
    default:
        return unknown(row, "applies to generation heads only");
    }
}

namespace {

void flagItems(GateRow& row, const Comparison& c) {
    if (row.outcome != Outcome::Fail) {
        return;
    }
    for (const auto& d : c.diffs) {
        const bool hit = row.criterion == Criterion::MaxDpPoints    ? d.exact() && d.dp > row.limit
                         : row.criterion == Criterion::BitIdentical ? !d.bit_identical
                                                                    : d.flip;
        if (hit) {
            row.flagged.push_back(d.item);
        }
    }
}

void judgeGeneration(GateRow& row, const analysis::GenerationComparison& g,
                     const std::optional<analysis::TokenMetrics>& tokens) {
    row.items = std::int64_t(g.items.size());
    if (g.items.empty()) {
        return unknown(row, "no item is recorded in both runs");
    }
    switch (row.criterion) {
    case Criterion::BitIdentical:
        row.measured = g.identicalShare();
        return pass(row, g.identical == g.items.size(),
                    std::to_string(g.items.size() - g.identical) + " of " +
                        std::to_string(g.items.size()) + " outputs differ");
    case Criterion::MinJaccard:
        row.measured = g.pooled_jaccard;
        return pass(row, g.pooled_jaccard >= row.limit,
                    "the records' pooled Jaccard index is " + number(g.pooled_jaccard, 4));
    case Criterion::MinAnswerAgreement:
        if (!g.has_answers) {
            return unknown(row, "the head's records have no answer reduction");
        }
        row.measured = g.answerAgreement();
        row.interval = analysis::wilson(std::int64_t(g.answers_agree), row.items);
        return pass(row, g.answerAgreement() >= row.limit,
                    "answers agree on " + number(g.answerAgreement(), 4) + " of the items");
    case Criterion::MaxKl:
        if (!tokens) {
            return unknown(row, "the runs have no per-token log-probabilities to compare");
        }
        row.measured = tokens->kl_max;
        if (tokens->no_overlap > 0) {
            return pass(row, false,
                        std::to_string(tokens->no_overlap) +
                            " positions' top-K lists share no token (KL beyond any limit)");
        }
        return pass(row, tokens->kl_max <= row.limit,
                    "the largest KL divergence is " + number(tokens->kl_max, 6) + " nats");
    default:
        return unknown(row, "applies to decision heads only");
    }
}

struct Reviews {
    std::string path;
    std::map<std::string, std::unique_ptr<Review>> byHead;
    std::vector<std::string> recorded; // heads with a finished run
    const Review* of(const std::string& head) {
        if (std::find(recorded.begin(), recorded.end(), head) == recorded.end()) {
            return nullptr;
        }
        auto& slot = byHead[head];
        if (!slot) {
            slot = std::make_unique<Review>(analysis::loadReview(path, head, {}, false));
        }
        return slot.get();
    }
};

bool selects(const PolicyRule& r, const ReviewRow& row, const std::vector<std::string>& classes) {
    if (r.all_configs ||
        std::find(r.configs.begin(), r.configs.end(), row.config_name) != r.configs.end()) {
        return true;
    }
    return std::any_of(r.classes.begin(), r.classes.end(), [&](const std::string& c) {
        return std::find(classes.begin(), classes.end(), c) != classes.end();
    });
}

// One row per check of the rule for `row` of the review, compared against `base`.
void judgeRow(const PolicyRule& rule, const Review& rv, const ReviewRow& base, const ReviewRow& row,
              std::vector<GateRow>& out) {
    const bool generation = rv.generation;
    for (const PolicyCheck& check : rule.checks) {
        if (!criterionApplies(check.criterion, generation)) {
            continue;
        }
        GateRow g;
        g.rule = rule.name;
        g.criterion = check.criterion;
        g.head = rv.head;
        g.config = row.config;
        g.against = base.config;
        g.limit = check.limit;
        if (!base.run || !row.run) {
            const ReviewRow& missing = !base.run ? base : row;
            unknown(g, "\"" + missing.config + "\" has no finished run");
            out.push_back(std::move(g));
            continue;
        }
        g.run = row.run->id;
        g.against_run = base.run->id;
        if (generation) {
            const auto found = std::find_if(
                rv.generation_rows.begin(), rv.generation_rows.end(),
                [&](const auto& x) { return x.run_a == g.against_run && x.run_b == g.run; });
            if (found != rv.generation_rows.end()) {
                judgeGeneration(g, found->cmp, found->tokens);
            } else {
                judgeGeneration(g,
                                analysis::compareGenerations(rv.outputs(g.against_run),
                                                             rv.outputs(g.run), rv.records),
                                std::nullopt);
            }
        } else if (base.reference && row.cmp) {
            judgeRecords(g, *row.cmp);
            flagItems(g, *row.cmp);
        } else {
            const Comparison c =
                analysis::compare(rv.data.at(g.against_run), rv.data.at(g.run), rv.items);
            judgeRecords(g, c);
            flagItems(g, c);
        }
        out.push_back(std::move(g));
    }
}

void judgeRule(const PolicyRule& rule, const std::vector<std::string>& heads, Reviews& reviews,
               std::vector<GateRow>& out) {
    for (const std::string& head : heads) {
        const Review* rv = reviews.of(head);
        if (rv == nullptr) {
            GateRow g;
            g.rule = rule.name;
            g.head = head;
            g.criterion = rule.checks.empty() ? Criterion::MaxFlips : rule.checks.front().criterion;
            g.limit = rule.checks.empty() ? 0 : rule.checks.front().limit;
            unknown(g, "the head \"" + head + "\" has no finished run");
            out.push_back(std::move(g));
            continue;
        }
        const std::string baseName = rule.against.empty() ? rv->reference_name : rule.against;
        const ReviewRow* base = rv->row(baseName);
        const std::size_t before = out.size();
        for (const ReviewRow& row : rv->rows) {
            if (base == nullptr || &row == base) {
                continue;
            }
            std::vector<std::string> axes =
                analysis::differingAxes(base->config_json, row.config_json);
            if (row.machine != base->machine && !row.machine.empty() && !base->machine.empty()) {
                axes.push_back("environment");
            }
            if (selects(rule, row, classesOf(axes))) {
                judgeRow(rule, *rv, *base, row, out);
            }
        }
        if (out.size() == before) {
            GateRow g;
            g.rule = rule.name;
            g.head = head;
            g.against = baseName;
            g.criterion = rule.checks.front().criterion;
            g.limit = rule.checks.front().limit;
            unknown(g, base == nullptr ? "\"" + baseName + "\" is not a config of the study"
                                       : "the rule selects no config of the study");
            out.push_back(std::move(g));
        }
    }
}

// The heads a rule judges: the one it names, else every head of the study a check applies to.
std::vector<std::string> headsOf(const PolicyRule& rule, const json& study) {
    if (!rule.head.empty()) {
        return {rule.head};
    }
    std::vector<std::string> out;
    const json heads =
        study.contains("heads") && study["heads"].is_object() ? study["heads"] : json::object();
    for (const auto& [name, h] : heads.items()) {
        const bool generation =
            h.is_object() && h.contains("kind") && h["kind"].is_string() &&
            fromName<HeadKind>(h["kind"].get<std::string>()) == HeadKind::Generation;
        if (std::any_of(rule.checks.begin(), rule.checks.end(), [&](const PolicyCheck& c) {
                return criterionApplies(c.criterion, generation);
            })) {
            out.push_back(name);
        }
    }
    return out;
}

} // namespace

std::string_view outcomeName(Outcome o) {
    switch (o) {
    case Outcome::Pass:
        return "PASS";
    case Outcome::Fail:
        return "FAIL";
    default:
        return "UNKNOWN";
    }
}

std::string GateRow::measuredText() const {
    if (!measured) {
        return "-";
    }
    if (isCount(criterion)) {
        return number(*measured, 0) + " of " + std::to_string(items);
    }
    if (isPoints(criterion)) {
        return number(*measured, 3) + " points";
    }
    if (criterion == Criterion::MaxKl) {
        return number(*measured, 6) + " nats";
    }
    return number(*measured, 4);
}

std::string GateRow::limitText() const {
    switch (criterion) {
    case Criterion::BitIdentical:
        return "every item";
    case Criterion::AccuracyMarginPoints:
        return "inside ±" + number(limit, 2) + " points";
    case Criterion::MinAgreement:
    case Criterion::MinJaccard:
    case Criterion::MinAnswerAgreement:
        return ">= " + number(limit, 4);
    case Criterion::MaxFlips:
        return "<= " + number(limit, 0);
    case Criterion::MaxFlipRate:
        return "<= " + number(limit, 4) + " (95% upper)";
    default:
        return "<= " + number(limit, isPoints(criterion) ? 3 : 6);
    }
}

int GateResult::exitCode() const {
    if (!tampered.empty()) {
        return protocol::kExitTampered;
    }
    return failed > 0    ? protocol::kExitRuleFailed
           : unknown > 0 ? protocol::kExitRuleUnknown
                         : protocol::kExitOk;
}

json GateResult::toJson() const {
    json rowsJson = json::array();
    for (const GateRow& r : rows) {
        json j{{"rule", r.rule},       {"criterion", criterionName(r.criterion)},
               {"head", r.head},       {"config", r.config},
               {"against", r.against}, {"limit", r.limit},
               {"items", r.items},     {"outcome", outcomeName(r.outcome)},
               {"detail", r.detail},   {"late", r.late}};
        j["measured"] = r.measured ? json(*r.measured) : json();
        if (r.interval) {
            j["interval"] = {r.interval->low, r.interval->high};
        }
        if (r.run != 0) {
            j["run"] = r.run;
            j["against_run"] = r.against_run;
        }
        j["flagged_items"] = r.flagged;
        rowsJson.push_back(std::move(j));
    }
    return {{"ledger", ledger},
            {"tampered", tampered},
            {"policy", policy.toJson()},
            {"policy_sha256", policy_sha256},
            {"policy_from", from_ledger ? "ledger" : "study file"},
            {"registration", registration},
            {"late_runs", late_runs},
            {"passed", passed},
            {"failed", failed},
            {"unknown", unknown},
            {"exit", exitCode()},
            {"rows", rowsJson}};
}

namespace {

// When the policy was registered relative to the runs judged; marks the rows on late runs.
void judgeRegistration(GateResult& g, const ledger::Ledger& led) {
    const auto reg = ledger::policyRegistration(led);
    std::vector<std::int64_t> judged;
    for (const GateRow& r : g.rows) {
        for (std::int64_t id : {r.run, r.against_run}) {
            if (id != 0) {
                judged.push_back(id);
            }
        }
    }
    const bool registered = g.from_ledger && reg && reg->sha256 == g.policy_sha256;
    for (std::int64_t id : judged) {
        if (!registered || std::find(reg->after_runs.begin(), reg->after_runs.end(), id) !=
                               reg->after_runs.end()) {
            g.late_runs.push_back(id);
        }
    }
    std::sort(g.late_runs.begin(), g.late_runs.end());
    g.late_runs.erase(std::unique(g.late_runs.begin(), g.late_runs.end()), g.late_runs.end());
    for (GateRow& r : g.rows) {
        r.late = std::binary_search(g.late_runs.begin(), g.late_runs.end(), r.run) ||
                 std::binary_search(g.late_runs.begin(), g.late_runs.end(), r.against_run);
    }
    if (!g.from_ledger) {
        g.registration = "not the ledger's policy (read from a study file): written after runs " +
                         runRanges(g.late_runs);
    } else if (!reg || reg->sha256 != g.policy_sha256) {
        g.registration = "its registration is not recorded in the ledger: taken as written after "
                         "runs " +
                         runRanges(g.late_runs);
    } else if (g.late_runs.empty()) {
        g.registration = "registered before every run judged";
    } else {
        g.registration = "registered after runs " + runRanges(g.late_runs);
    }
}

} // namespace

GateResult gate(const std::string& ledgerPath, const std::optional<Policy>& override) {
    const ledger::Ledger led(ledgerPath, ledger::Ledger::Mode::Read);
    if (!led.hasStudy()) {
        throw Error(ledgerPath, "holds no study");
    }
    const json study = led.study();
    GateResult g;
    g.ledger = ledgerPath;
    if (override) {
        g.policy = *override;
        // The same policy as the ledger's study holds is the ledger's, registered with it.
        g.from_ledger =
            study.contains("policy") && override->sha256() == ledger::studyPolicySha256(study);
    } else if (!study.contains("policy")) {
        throw Error(ledgerPath, "its study has no policy (write one into the study file's "
                                "\"policy\", or give --study)");
    } else {
        std::vector<std::string> errors;
        g.policy = Policy::fromJson(study["policy"], "$.policy", errors);
        if (!errors.empty()) {
            throw Error(ledgerPath, "its study's policy cannot be read: " + errors.front());
        }
    }
    g.policy_sha256 = g.from_ledger ? ledger::studyPolicySha256(study) : g.policy.sha256();
    if (const auto v = led.verify(); !v.ok) {
        g.tampered = v.problem;
        return g;
    }
    Reviews reviews;
    reviews.path = ledgerPath;
    auto first = std::make_unique<Review>(analysis::loadReview(ledgerPath, {}, {}, false));
    reviews.recorded = first->heads;
    const std::string firstHead = first->head;
    reviews.byHead[firstHead] = std::move(first);
    for (const PolicyRule& rule : g.policy.rules) {
        const std::size_t before = g.rows.size();
        judgeRule(rule, headsOf(rule, study), reviews, g.rows);
        if (g.rows.size() == before) { // never a silent pass: a rule judged nowhere is unknown
            GateRow none;
            none.rule = rule.name;
            none.criterion = rule.checks.front().criterion;
            none.limit = rule.checks.front().limit;
            unknown(none, "no head of the study is one the rule's checks apply to");
            g.rows.push_back(std::move(none));
        }
    }
    for (const GateRow& r : g.rows) {
        (r.outcome == Outcome::Pass   ? g.passed
         : r.outcome == Outcome::Fail ? g.failed
                                      : g.unknown)++;
    }
    judgeRegistration(g, led);
    return g;
}

} // namespace probaudit::policy
