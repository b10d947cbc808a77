// The policy's verdict, which the report opens with when the study has a policy
// (core/policy/gate.h): the result, when the policy was registered relative to the runs, and
// every check that did not pass with its measured value and limit.
#include "core/policy/gate.h"
#include "ui/report/sections.h"

namespace probaudit::ui::reporting {

void verdict(Html& h, const analysis::Review& rv) {
    if (!rv.study.contains("policy")) {
        return;
    }
    policy::GateResult g;
    try {
        g = policy::gate(rv.path);
    } catch (const std::exception& e) {
        h.p(QStringLiteral("<b>Policy verdict</b>: cannot be evaluated (%1).")
                .arg(esc(std::string(e.what()))));
        return;
    }
    if (!g.tampered.empty()) {
        h.p(QStringLiteral("<b>Policy verdict</b>: not judged: the ledger was changed after it "
                           "was sealed (%1).")
                .arg(esc(g.tampered)));
        return;
    }
    const char* result = g.failed > 0 ? "FAIL" : g.unknown > 0 ? "INCOMPLETE" : "PASS";
    const char* colour = g.failed > 0 ? "#c62828" : g.unknown > 0 ? "#ef6c00" : "#2e7d32";
    h.text +=
        QStringLiteral("<p style=\"background-color:%1; color:#ffffff; padding:8px\">"
                       "<b>Policy verdict: %2</b> (%3 checks passed, %4 failed, %5 could "
                       "not be evaluated; <i>probaudit gate</i> exits %6). The policy (SHA-256 "
                       "%7…) was %8.</p>")
            .arg(QLatin1String(colour), QLatin1String(result))
            .arg(g.passed)
            .arg(g.failed)
            .arg(g.unknown)
            .arg(g.exitCode())
            .arg(esc(g.policy_sha256.substr(0, 12)), esc(g.registration));
    std::vector<QStringList> rows;
    std::vector<QString> tints;
    for (const policy::GateRow& r : g.rows) {
        if (r.outcome == policy::Outcome::Pass) {
            continue;
        }
        rows.push_back({esc(r.rule), esc(std::string(criterionName(r.criterion))), esc(r.head),
                        esc(r.config), esc(r.measuredText()), esc(r.limitText()),
                        esc(std::string(policy::outcomeName(r.outcome))) +
                            (r.late ? QStringLiteral(" (late)") : QString()),
                        esc(r.detail)});
        tints.push_back(r.outcome == policy::Outcome::Fail ? QStringLiteral("#ffebee")
                                                           : QStringLiteral("#fff3e0"));
    }
    if (!rows.empty()) {
        h.table({QStringLiteral("rule"), QStringLiteral("check"), QStringLiteral("head"),
                 QStringLiteral("config"), QStringLiteral("measured"), QStringLiteral("limit"),
                 QStringLiteral("result"), QStringLiteral("why")},
                rows, tints);
    }
}

} // namespace probaudit::ui::reporting
