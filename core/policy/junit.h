#pragma once
// A gate's verdict as JUnit XML, the test-report format CI servers read (Jenkins, GitLab,
// GitHub's test reporters): one test suite per rule, one test case per check of a config; a
// failed check is a <failure> carrying the measured value and the limit, a check that could not
// be evaluated an <error>. Valid against the xunit plugin's junit-10.xsd (tests/fixtures/junit).
#include "core/policy/gate.h"

#include <string>

namespace probaudit::policy {

std::string junitXml(const GateResult& g);

} // namespace probaudit::policy
