#pragma once
// `probaudit gate`: the policy's verdict as a table, JSON or JUnit XML (core/policy).
#include <string>

namespace probaudit::app {

struct GateOptions {
    std::string ledger, study, junit;
    bool json = false;
};

int gate(const GateOptions& o);

} // namespace probaudit::app
