#include "core/ledger/merge.h"

#include "core/common/error.h"
#include "core/common/utc_now.h"
#include "core/ledger/ledger.h"
#include "core/ledger/policy_record.h"
#include "core/ledger/signing.h"
#include "core/ledger/trust.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <unistd.h>

namespace probaudit::ledger {

using nlohmann::json;

namespace {

struct ShardLedger {
    std::string path;
    std::unique_ptr<Ledger> led;
    int index = 0, count = 0;
    std::map<std::string, Run> runs; // finished study runs by key
};

// What makes two shards' runs parts of one run: head, config and capture.
std::string runKey(const Run& r) {
    return r.head_json.dump() + "\n" + r.config_hash + "\n" + r.capture;
}

std::string what(const Run& r) {
    return "head " + r.head + ", config " + r.config_name;
}

void readPlace(ShardLedger& s) {
    const std::string place = s.led->meta("shard");
    const auto slash = place.find('/');
    try {
        s.index = std::stoi(place.substr(0, slash));
        s.count = std::stoi(place.substr(slash + 1));
    } catch (const std::exception&) {
        s.count = 0;
    }
    if (place.empty() || slash == std::string::npos || s.count < 1 || s.index < 1 ||
        s.index > s.count) {
        throw Error(s.path, "is not a shard's ledger (it names no shard I/N; `probaudit run "
                            "--shard I/N` records one)");
    }
}

// Intact (its chain and every signature it carries), signed by the trusted key when one is
// given, finished, and one run per key.
void readRuns(ShardLedger& s, const std::string& trustedPublicPem) {
    const Trust t = assessTrust(*s.led, trustedPublicPem);
    if (t.state == Trust::State::Tampered) {
        throw Error(s.path, "shard " + s.led->meta("shard") + " does not verify: " + t.problem);
    }
    if (!trustedPublicPem.empty() && !t.trusted) {
        throw Error(s.path, "shard " + s.led->meta("shard") + " is not trusted: " + t.problem +
                                "; sign it with `probaudit sign` where it was recorded");
    }
    for (const Run& r : s.led->runs()) {
        if (r.kind != RunKind::Study) {
            continue; // a probe is not part of the study's runs
        }
        if (r.status != RunStatus::Finished) {
            throw Error(s.path, "shard " + s.led->meta("shard") + " has an unfinished run (run " +
                                    std::to_string(r.id) + ", " + what(r) +
                                    "): resume it with `probaudit run --shard " +
                                    s.led->meta("shard") + "` before merging");
        }
        if (!s.runs.emplace(runKey(r), r).second) {
            throw Error(s.path, "shard " + s.led->meta("shard") + " records " + what(r) +
                                    " twice; a merged run has one record per item");
        }
    }
}

// Every I of one N exactly once; the same study, dataset and items as the first.
void checkSet(const std::vector<ShardLedger>& all) {
    const ShardLedger& first = all.front();
    std::map<int, const ShardLedger*> seen;
    for (const ShardLedger& s : all) {
        if (s.count != first.count) {
            throw Error(s.path, "is shard " + s.led->meta("shard") + ", " + first.path +
                                    " is shard " + first.led->meta("shard") +
                                    ": shards of one sweep share N");
        }
        if (const auto [it, fresh] = seen.emplace(s.index, &s); !fresh) {
            throw Error(s.path, "is shard " + s.led->meta("shard") + " again (so is " +
                                    it->second->path + ")");
        }
        if (s.led->study() != first.led->study()) {
            throw Error(s.path, "shard " + s.led->meta("shard") + " is of another study than " +
                                    first.path + " (its study, model or configs differ)");
        }
        if (s.led->datasetSha256() != first.led->datasetSha256() ||
            s.led->itemCount() != first.led->itemCount()) {
            throw Error(s.path, "shard " + s.led->meta("shard") + " has other items than " +
                                    first.path + " (the dataset differs)");
        }
    }
    for (int i = 1; i <= first.count; ++i) {
        if (seen.count(i) == 0) {
            throw Error("shard " + std::to_string(i) + "/" + std::to_string(first.count) +
                        " is missing: give every shard's ledger");
        }
    }
}

// The same runs everywhere, in one environment, and every item of each in exactly one shard.
void checkRuns(const std::vector<ShardLedger>& all, std::size_t items) {
    const ShardLedger& first = all.front();
    for (const ShardLedger& s : all) {
        for (const auto& [key, r] : s.runs) {
            const auto other = first.runs.find(key);
            if (other == first.runs.end()) {
                throw Error(s.path, "shard " + s.led->meta("shard") + " records " + what(r) +
                                        ", which " + first.path + " does not");
            }
            if (other->second.env_hash != r.env_hash) {
                throw Error(s.path, "shard " + s.led->meta("shard") + " recorded " + what(r) +
                                        " in environment " + r.env_hash + ", " + first.path +
                                        " in " + other->second.env_hash +
                                        ": a merged run has one environment");
            }
        }
        if (s.runs.size() != first.runs.size()) {
            throw Error(s.path, "shard " + s.led->meta("shard") + " records " +
                                    std::to_string(s.runs.size()) + " runs, " + first.path + " " +
                                    std::to_string(first.runs.size()));
        }
    }
    for (const auto& [key, r] : first.runs) {
        std::vector<const ShardLedger*> owner(items, nullptr);
        for (const ShardLedger& s : all) {
            for (std::int64_t i : s.led->recordedItems(s.runs.at(key).id)) {
                if (owner.at(std::size_t(i)) != nullptr) {
                    throw Error(s.path, "shard " + s.led->meta("shard") + " records item " +
                                            std::to_string(i) + " of " + what(r) + ", which " +
                                            owner[std::size_t(i)]->path + " records too");
                }
                owner[std::size_t(i)] = &s;
            }
        }
        const auto gap = std::find(owner.begin(), owner.end(), nullptr);
        if (gap != owner.end()) {
            throw Error("item " + std::to_string(gap - owner.begin()) + " of " + what(r) +
                        " is in no shard: the shards were not made from one split");
        }
    }
}

// A merged run was recorded before the merged study's policy when every shard's part was
// recorded before that same policy (policy_record.h).
void registerMergedPolicy(Ledger& out, const std::vector<ShardLedger>& all,
                          const std::vector<std::pair<std::int64_t, std::string>>& order) {
    const std::string sha = studyPolicySha256(out.study());
    if (sha.empty()) {
        return;
    }
    PolicyRegistration reg{sha, {}, utcNow()};
    const std::vector<Run> merged = out.runs(); // in the order written
    for (std::size_t i = 0; i < order.size() && i < merged.size(); ++i) {
        bool before = true;
        for (const ShardLedger& s : all) {
            const auto r = policyRegistration(*s.led);
            const std::int64_t part = s.runs.at(order[i].second).id;
            before =
                before && r && r->sha256 == sha &&
                std::find(r->after_runs.begin(), r->after_runs.end(), part) == r->after_runs.end();
        }
        if (!before) {
            reg.after_runs.push_back(merged[i].id);
        }
    }
    recordPolicyRegistration(out, reg);
}

// One merged run: the shards' records in item order, sealed in `out`.
void writeRun(Ledger& out, const std::vector<ShardLedger>& all, const std::string& key) {
    const ShardLedger& first = all.front();
    const Run& r = first.runs.at(key);
    out.putConfig(r.config_hash, r.config_name, first.led->config(r.config_hash));
    if (out.putEnvironment(first.led->environment(r.env_hash)) != r.env_hash) {
        throw Error(first.path, "the environment of " + what(r) + " does not hash to its hash");
    }
    std::string started = r.started, finished = r.finished;
    json trace;
    std::vector<Record> records;
    std::vector<RequestRecord> exchanges; // a server's run: its exchanges, from the shard that sent
    std::int64_t total = 0;
    for (const ShardLedger& s : all) {
        const Run& part = s.runs.at(key);
        started = std::min(started, part.started);
        finished = std::max(finished, part.finished);
        if (trace.is_null() && !part.kernel_trace.is_null() && !part.kernel_trace.empty()) {
            trace = part.kernel_trace;
        }
        total += part.items_total;
        for (Record& rec : s.led->records(part.id, true, true)) {
            records.push_back(std::move(rec));
        }
        for (RequestRecord& x : s.led->requests(part.id)) {
            exchanges.push_back(std::move(x));
        }
    }
    std::sort(records.begin(), records.end(),
              [](const Record& a, const Record& b) { return a.item < b.item; });
    const std::int64_t id = out.beginRun(r.head, r.head_json, r.config_name, r.config_hash,
                                         r.env_hash, r.capture, total, RunKind::Study, "", started);
    for (std::size_t k = 0; k < records.size(); k += 256) {
        out.appendBatch(id, std::vector<Record>(records.begin() + std::ptrdiff_t(k),
                                                records.begin() + std::ptrdiff_t(std::min(
                                                                      k + 256, records.size()))));
    }
    if (!exchanges.empty()) {
        std::sort(exchanges.begin(), exchanges.end(),
                  [](const RequestRecord& a, const RequestRecord& b) { return a.item < b.item; });
        out.appendEndpointItems(id, {}, {}, exchanges);
    }
    out.setKernelTrace(id, trace);
    out.finishRun(id, finished);
}

} // namespace

MergeResult mergeShards(const std::vector<std::string>& shards, const std::string& out,
                        const std::string& trustedPublicPem) {
    const std::string signer =
        trustedPublicPem.empty() ? std::string() : keyFingerprint(trustedPublicPem, "--trust");
    if (shards.empty()) {
        throw Error("no shard ledgers to merge");
    }
    if (std::filesystem::exists(out)) {
        throw Error(out, "exists already; a merge writes a new ledger");
    }
    std::vector<ShardLedger> all;
    for (const std::string& path : shards) {
        if (!std::filesystem::exists(path)) {
            throw Error(path, "no such ledger");
        }
        ShardLedger s;
        s.path = path;
        s.led = std::make_unique<Ledger>(path, Ledger::Mode::Read);
        readPlace(s);
        readRuns(s, trustedPublicPem);
        all.push_back(std::move(s));
    }
    checkSet(all);
    const std::size_t items = std::size_t(all.front().led->itemCount());
    checkRuns(all, items);
    std::sort(all.begin(), all.end(),
              [](const ShardLedger& a, const ShardLedger& b) { return a.index < b.index; });

    // Written under another name, renamed when sealed: a refusal or a crash leaves no `out`.
    const std::string tmp = out + ".merging-" + std::to_string(::getpid());
    std::vector<std::pair<std::int64_t, std::string>> order; // shard 1's run order
    for (const auto& [key, r] : all.front().runs) {
        order.emplace_back(r.id, key);
    }
    std::sort(order.begin(), order.end());
    {
        Ledger led(tmp, Ledger::Mode::Write);
        try {
            const Ledger& first = *all.front().led;
            led.initStudy(first.study(), first.datasetSha256(), first.items());
            for (const char* key : {"study_path", "study_sha256"}) {
                led.setMeta(key, first.meta(key));
            }
            led.setMeta("merged_from",
                        std::to_string(all.size()) + " shards, " +
                            (signer.empty() ? std::string("signatures not checked against a key")
                                            : "each signed by " + signer));
            for (const auto& [id, key] : order) {
                writeRun(led, all, key);
            }
            registerMergedPolicy(led, all, order);
        } catch (...) {
            led.discardCreated();
            throw;
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, out, ec);
    if (ec) {
        std::filesystem::remove(tmp);
        throw Error(out, "cannot write the merged ledger: " + ec.message());
    }
    return {all.size(), order.size(), items, signer};
}

} // namespace probaudit::ledger
