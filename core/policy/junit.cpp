#include "core/policy/junit.h"

#include <map>
#include <vector>

namespace probaudit::policy {

namespace {

// Text for an attribute or element: the five markup characters escaped, and the control
// characters XML 1.0 cannot carry at all (a name from a study file may hold them) dropped.
std::string escape(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            if (u >= 0x20 || c == '\t' || c == '\n' || c == '\r') {
                out += c;
            }
        }
    }
    return out;
}

std::string caseName(const GateRow& r) {
    std::string name = std::string(criterionName(r.criterion)) + ": " +
                       (r.config.empty() ? std::string("(no config)") : r.config);
    if (!r.against.empty()) {
        name += " vs " + r.against;
    }
    return name + " [head " + r.head + "]";
}

void testCase(std::string& xml, const std::string& rule, const GateRow& r) {
    xml += "    <testcase name=\"" + escape(caseName(r)) + "\" classname=\"probaudit.gate." +
           escape(rule) + "\" time=\"0\"";
    const std::string message = "measured " + r.measuredText() + ", limit " + r.limitText() +
                                (r.late ? " (policy registered after this run)" : "");
    if (r.outcome == Outcome::Pass) {
        xml += "/>\n";
        return;
    }
    xml += ">\n";
    if (r.outcome == Outcome::Fail) {
        xml += "      <failure type=\"policy\" message=\"" + escape(message) + "\">" +
               escape(r.detail) + "</failure>\n";
    } else {
        xml += "      <error type=\"cannot be evaluated\" message=\"" + escape(r.detail) + "\">" +
               escape(r.detail) + "</error>\n";
    }
    xml += "    </testcase>\n";
}

} // namespace

std::string junitXml(const GateResult& g) {
    std::vector<std::string> order; // rules in the policy's order
    std::map<std::string, std::vector<const GateRow*>> byRule;
    for (const PolicyRule& rule : g.policy.rules) {
        order.push_back(rule.name);
    }
    for (const GateRow& r : g.rows) {
        byRule[r.rule].push_back(&r);
    }
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    xml += "<testsuites name=\"probaudit gate\" tests=\"" + std::to_string(g.rows.size()) +
           "\" failures=\"" + std::to_string(g.failed) + "\" errors=\"" +
           std::to_string(g.unknown) + "\" time=\"0\">\n";
    for (const std::string& rule : order) {
        const auto& rows = byRule[rule];
        int failures = 0, errors = 0;
        for (const GateRow* r : rows) {
            failures += r->outcome == Outcome::Fail ? 1 : 0;
            errors += r->outcome == Outcome::Unknown ? 1 : 0;
        }
        xml += "  <testsuite name=\"" + escape(rule) + "\" tests=\"" + std::to_string(rows.size()) +
               "\" failures=\"" + std::to_string(failures) + "\" errors=\"" +
               std::to_string(errors) + "\" skipped=\"0\" time=\"0\">\n";
        xml += "    <properties>\n";
        xml += "      <property name=\"ledger\" value=\"" + escape(g.ledger) + "\"/>\n";
        xml +=
            "      <property name=\"policy_sha256\" value=\"" + escape(g.policy_sha256) + "\"/>\n";
        xml += "      <property name=\"registration\" value=\"" + escape(g.registration) + "\"/>\n";
        xml += "    </properties>\n";
        for (const GateRow* r : rows) {
            testCase(xml, rule, *r);
        }
        xml += "  </testsuite>\n";
    }
    xml += "</testsuites>\n";
    return xml;
}

} // namespace probaudit::policy
