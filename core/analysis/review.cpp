#include "analysis/review.h"

#include "common/error.h"

#include <algorithm>

namespace probaudit::analysis {

using nlohmann::json;

const ReviewRow* Review::row(const std::string& config) const {
    for (const auto& r : rows) {
        if (r.config == config) {
            return &r;
        }
    }
    return nullptr;
}

const ledger::Record* Review::record(std::int64_t run, std::int64_t item) const {
    const auto it = data.find(run);
    if (it == data.end()) {
        return nullptr;
    }
    const auto& recs = it->second.records;
    const auto pos =
        std::lower_bound(recs.begin(), recs.end(), item,
                         [](const ledger::Record& r, std::int64_t i) { return r.item < i; });
    return pos != recs.end() && pos->item == item ? &*pos : nullptr;
}

int modalFirstLayer(const Comparison& c) {
    if (c.layers.empty()) {
        return -2;
    }
    int best = -1;
    std::int64_t bestCount = 0;
    for (std::size_t l = 0; l < c.first_divergent.size(); ++l) {
        if (c.first_divergent[l] > bestCount) {
            best = int(l);
            bestCount = c.first_divergent[l];
        }
    }
    return best;
}

Review loadReview(const std::string& ledgerPath, const std::string& headName,
                  const ReviewProgress& progress) {
    auto report = [&](float f) {
        if (progress && !progress(f)) {
            throw Error(ledgerPath, "opening was cancelled");
        }
    };
    Review rv;
    rv.path = ledgerPath;
    const ledger::Ledger led(ledgerPath, ledger::Ledger::Mode::Read);
    if (!led.hasStudy()) {
        throw Error(ledgerPath, "the ledger holds no study yet (nothing has been run into it)");
    }
    rv.study = led.study();
    rv.study_path = led.meta("study_path");
    rv.dataset_sha256 = led.datasetSha256();
    rv.reference_name = rv.study.value("reference", "");
    rv.runs = led.runs();
    for (const auto& r : rv.runs) {
        if (!rv.environments.count(r.env_hash)) {
            rv.environments[r.env_hash] = led.environment(r.env_hash);
        }
    }
    for (const auto& r : rv.runs) {
        if (r.kind == "study" && r.status == ledger::RunStatus::Finished &&
            std::find(rv.heads.begin(), rv.heads.end(), r.head) == rv.heads.end()) {
            rv.heads.push_back(r.head);
        }
    }
    rv.head = headName;
    if (rv.head.empty() && !rv.heads.empty()) {
        rv.head = rv.heads.front();
    }
    if (!headName.empty() &&
        std::find(rv.heads.begin(), rv.heads.end(), headName) == rv.heads.end()) {
        throw Error(ledgerPath, "no finished run of head \"" + headName + "\"");
    }
    rv.items = led.items();
    rv.diagnosis = led.latestDiagnosis(rv.head);
    report(0.05f);

    auto latest = [&](const std::string& config) -> std::optional<ledger::Run> {
        std::optional<ledger::Run> found;
        for (const auto& r : rv.runs) {
            if (r.kind == "study" && r.head == rv.head && r.config_name == config &&
                r.status == ledger::RunStatus::Finished) {
                found = r;
            }
        }
        return found;
    };
    json configs = rv.study.value("configs", json::object());
    std::vector<std::string> dropped; // run, then removed from the study
    for (const auto& r : rv.runs) {
        if (r.kind == "study" && r.head == rv.head && !configs.contains(r.config_name)) {
            configs[r.config_name] = led.config(r.config_hash);
            dropped.push_back(r.config_name);
        }
    }
    const json refJson = configs.value(rv.reference_name, json::object());
    std::vector<std::string> names;
    if (configs.contains(rv.reference_name)) {
        names.push_back(rv.reference_name);
    }
    for (const auto& [name, cfg] : configs.items()) {
        if (name != rv.reference_name &&
            std::find(dropped.begin(), dropped.end(), name) == dropped.end()) {
            names.push_back(name);
        }
    }
    for (const auto& name : dropped) {
        if (std::find(names.begin(), names.end(), name) == names.end()) {
            names.push_back(name);
        }
    }
    rv.reference_run = latest(rv.reference_name);
    std::size_t done = 0;
    for (const auto& name : names) {
        ReviewRow row;
        row.config = name;
        row.config_json = configs.at(name);
        row.reference = name == rv.reference_name;
        for (const auto& [axis, value] : row.config_json.items()) {
            if (!refJson.contains(axis) || refJson.at(axis) != value) {
                row.differs_in.push_back(axis);
            }
        }
        row.run = latest(name);
        if (row.run) {
            rv.data.emplace(row.run->id, RunData{*row.run, led.records(row.run->id, true)});
        }
        if (row.run && rv.reference_run) {
            row.cmp = compare(rv.data.at(rv.reference_run->id), rv.data.at(row.run->id), rv.items);
            row.modal_first_layer = modalFirstLayer(*row.cmp);
        }
        rv.rows.push_back(std::move(row));
        report(0.05f + 0.95f * float(++done) / float(names.size()));
    }
    return rv;
}

} // namespace probaudit::analysis
