#include "app/probaudit/localize_text.h"

#include <cstdio>

namespace probaudit::app {

// Rows: where Δp is complete; columns: the share each operator class's splice removes on
// average, and (in brackets) the items it is the cause of.
void printCauseTable(const analysis::Localization& l) {
    std::printf("\n| Δp complete by | items | A's state removes |");
    for (int k = 0; k < kOpClassCount; ++k) {
        std::printf(" %s |", nameString(static_cast<OpClass>(k)).c_str());
    }
    std::printf(" a set |\n|---|---|---|");
    for (int k = 0; k <= kOpClassCount; ++k) {
        std::printf("---|");
    }
    std::printf("\n");
    for (const auto& r : analysis::causeTable(l)) {
        std::printf("| %s | %lld | %.0f%% |", r.where.c_str(), static_cast<long long>(r.items),
                    100.0 * r.mean_removed);
        for (std::size_t k = 0; k < std::size_t(kOpClassCount); ++k) {
            std::printf(" %.0f%% (%lld) |", 100.0 * r.class_removed[k],
                        static_cast<long long>(r.class_items[k]));
        }
        std::printf(" (%lld) |\n", static_cast<long long>(r.set_items));
    }
    std::printf("\nEach class column: the mean share of Δp removed when B computes that operator "
                "class as A does (A's dtype, kernels and threads, on the item's own tokens); in "
                "brackets, the items whose cause it is (it removes %.0f%% of Δp). \"a set\": "
                "items that no class explains alone but a set of them does.\n",
                100.0 * l.threshold);
    std::int64_t explained = 0, differ = 0;
    for (const auto& c : l.items) {
        differ += c.status != analysis::CauseStatus::NoDifference;
        explained += c.explained();
    }
    std::printf("Explained by operator classes: %lld of the %lld items that differ.\n",
                static_cast<long long>(explained), static_cast<long long>(differ));
}

} // namespace probaudit::app
