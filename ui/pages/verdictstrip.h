#pragma once
// The policy's verdict on the review's ledger (core/policy/gate.h), as a strip under the title:
// PASS, FAIL or INCOMPLETE with the counts and when the policy was registered ("registered after
// runs 1–9" when it was written after them); each check that failed or could not be evaluated
// on the reviewed head is a link to its config and its items. Evaluated in the background: the
// window never waits for it. Hidden when the study has no policy.
#include "ui/models/reviewloader.h"

#include <QLabel>

#include <cstdint>
#include <memory>
#include <vector>

namespace probaudit::policy {
struct GateResult;
}

namespace probaudit::ui {

class VerdictStrip : public QLabel {
    Q_OBJECT
public:
    explicit VerdictStrip(QWidget* parent = nullptr);
    ~VerdictStrip() override;

    void setReview(const ReviewPtr& review);
    // The verdict shown, once evaluated (null before, and without a policy).
    const policy::GateResult* result() const { return m_result.get(); }

Q_SIGNALS:
    // A failed check clicked: its config (a dashboard row's name), the items behind it (sorted
    // indices) and a sentence for the items table's filter line.
    void checkClicked(const QString& config, const std::vector<std::int64_t>& items,
                      const QString& description);
    void evaluated(); // the verdict is shown (tests wait for it)

private:
    void show(const std::shared_ptr<const policy::GateResult>& result, const std::string& error);
    void onLink(const QString& link);

    ReviewPtr m_review;
    std::shared_ptr<const policy::GateResult> m_result;
    int m_generation = 0; // the review the running evaluation is for
};

} // namespace probaudit::ui
