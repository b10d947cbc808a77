#pragma once
// Two generation outputs and their record sets as HTML, for the generation page and the
// report: where the outputs part, with the reference's top-2 logit gap there; which records
// only one side has.
#include "core/analysis/review.h"

#include <QString>

#include <string>
#include <vector>

namespace probaudit::ui {

// HTML of two outputs side by side (a table of two cells): the common beginning plain, the
// rest of each highlighted from the first differing character, with the step and gap there.
QString outputsHtml(const analysis::GenerationRow& row, const ledger::GenerationRecord* a,
                    const ledger::GenerationRecord* b, const analysis::GenerationItemDiff* d);
// HTML of the two record sets: records only one side has are highlighted.
QString recordsHtml(const analysis::GenerationRow& row, const std::vector<std::string>& a,
                    const std::vector<std::string>& b, const analysis::GenerationItemDiff* d);

} // namespace probaudit::ui
