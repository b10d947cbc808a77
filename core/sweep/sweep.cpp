// A sweep's folder and state, its shards' ledgers and the verdict per shard (sweep.h). What
// is Slurm's own (its script, its tools' output) is in slurm.cpp.
#include "core/sweep/sweep.h"

#include "core/common/error.h"
#include "core/common/json_read.h"
#include "core/common/vocabulary.h"
#include "core/ledger/ledger.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <utility>

namespace fs = std::filesystem;

namespace probaudit::sweep {

void checkShardable(const study::Study& study, const std::string& studyPath) {
    if (study.isEndpoint()) {
        throw Error(studyPath, "shards split an engine study's batches; an endpoint study's "
                               "requests share one server, record them in one run");
    }
    for (const HeadSpec& h : study.heads) {
        if (h.generation()) {
            throw Error(studyPath, "shards split decision heads' batches; head \"" + h.name +
                                       "\" is a generation head, whose serving runs depend on "
                                       "every request: record it in one run");
        }
    }
}

std::string Sweep::taskOf(int index) const {
    for (auto s = submissions.rbegin(); s != submissions.rend(); ++s) {
        for (int i : s->shards) {
            if (i == index) {
                return s->job + "_" + std::to_string(index);
            }
        }
    }
    return {};
}

namespace {

const char* kStateFile = "sweep.json";

nlohmann::json toJson(const Sweep& s) {
    nlohmann::json subs = nlohmann::json::array();
    for (const Submission& x : s.submissions) {
        subs.push_back({{"job", x.job}, {"shards", x.shards}, {"at", x.at}});
    }
    return {{"version", 1},
            {"scheduler", s.scheduler},
            {"study", s.study},
            {"probaudit", s.probaudit},
            {"shards", s.shards},
            {"slurm",
             {{"partition", s.slurm.partition},
              {"gres", s.slurm.gres},
              {"time", s.slurm.time},
              {"account", s.slurm.account},
              {"extra", s.slurm.extra}}},
            {"submissions", subs}};
}

Sweep fromJson(const nlohmann::json& j) {
    if (j.value("version", 0) != 1 || j.value("scheduler", "") != "slurm") {
        throw Error("not a sweep state of this version (version 1, scheduler slurm)");
    }
    Sweep s;
    s.study = j.at("study").get<std::string>();
    s.probaudit = j.at("probaudit").get<std::string>();
    s.shards = j.at("shards").get<int>();
    const auto& o = j.at("slurm");
    s.slurm = {o.at("partition"), o.at("gres"), o.at("time"), o.at("account"), o.at("extra")};
    for (const auto& x : j.at("submissions")) {
        Submission sub{x.at("job"), x.at("shards").get<std::vector<int>>(), x.at("at")};
        for (int i : sub.shards) {
            if (i < 1 || i > s.shards) {
                throw Error("submission " + sub.job + " names shard " + std::to_string(i) + " of " +
                            std::to_string(s.shards));
            }
        }
        s.submissions.push_back(std::move(sub));
    }
    if (s.shards < 1 || s.shards > 4096) {
        throw Error("shards must be 1..4096");
    }
    return s;
}

} // namespace

Sweep Sweep::load(const std::string& dir) {
    const std::string path = (fs::path(dir) / kStateFile).string();
    std::ifstream in(path);
    if (!in) {
        throw Error(path, "no sweep here (submit one with probaudit sweep STUDY --slurm "
                          "--shards N)");
    }
    try {
        return fromJson(nlohmann::json::parse(in));
    } catch (const std::exception& e) {
        throw Error(path, std::string("not a sweep state: ") + e.what());
    }
}

void Sweep::save(const std::string& dir) const {
    const fs::path path = fs::path(dir) / kStateFile;
    const fs::path tmp = fs::path(dir) / (std::string(kStateFile) + ".tmp");
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << toJson(*this).dump(2) << "\n";
        if (!out.flush()) {
            throw Error(tmp.string(), "could not be written");
        }
    }
    fs::rename(tmp, path);
}

std::string defaultSweepDir(const std::string& studyPath) {
    fs::path p = fs::absolute(studyPath);
    std::string stem = p.filename().string();
    for (const char* suffix : {".study.json", ".json"}) {
        const std::string s(suffix);
        if (stem.size() > s.size() && stem.compare(stem.size() - s.size(), s.size(), s) == 0) {
            stem.resize(stem.size() - s.size());
            break;
        }
    }
    return (p.parent_path() / (stem + ".sweep")).string();
}

std::string shardLedgerPath(const std::string& dir, int index) {
    return (fs::path(dir) / ("shard-" + std::to_string(index) + ".ledger")).string();
}

std::string shardLogPath(const std::string& dir, int index) {
    return (fs::path(dir) / "logs" / ("shard-" + std::to_string(index) + ".log")).string();
}

bool TaskState::live() const {
    static const std::set<std::string> live{
        "PENDING",  "CONFIGURING",  "RUNNING",     "COMPLETING", "SUSPENDED", "REQUEUED",
        "RESIZING", "REQUEUE_HOLD", "REQUEUE_FED", "SIGNALING",  "STAGE_OUT", "STOPPED"};
    return live.count(state) > 0;
}

ShardProgress readShard(const std::string& ledgerPath, const std::string& shardName,
                        int runsTotal) {
    ShardProgress p;
    p.runsTotal = runsTotal;
    if (!fs::exists(ledgerPath)) {
        return p;
    }
    p.exists = true;
    try {
        const ledger::Ledger l(ledgerPath, ledger::Ledger::Mode::Read);
        const std::string here = l.meta("shard");
        if (!here.empty() && here != shardName) {
            p.error = "holds shard " + here + ", not " + shardName;
            return p;
        }
        std::set<std::pair<std::string, std::string>> finished;
        for (const ledger::Run& r : l.runs()) {
            if (r.kind != RunKind::Study) {
                continue;
            }
            p.itemsDone += r.items_done;
            p.itemsTotal += r.items_total;
            if (r.status == ledger::RunStatus::Finished) {
                finished.insert({r.head, r.config_name});
            }
        }
        p.runsFinished = int(finished.size());
    } catch (const std::exception& e) {
        p.error = e.what();
    }
    return p;
}

const char* verdictName(Verdict v) {
    switch (v) {
    case Verdict::Queued:
        return "queued";
    case Verdict::Running:
        return "running";
    case Verdict::Complete:
        return "complete";
    case Verdict::Failed:
        return "failed";
    case Verdict::Unknown:
        return "unknown";
    }
    return "?";
}

std::vector<std::string> completeLedgers(const std::vector<ShardStatus>& shards,
                                         const std::string& dir) {
    std::vector<std::string> paths;
    std::string notDone;
    for (const ShardStatus& s : shards) {
        if (s.verdict != Verdict::Complete) {
            notDone += (notDone.empty() ? "" : ", ") + std::to_string(s.index) + " (" +
                       verdictName(s.verdict) + ")";
        }
        paths.push_back(shardLedgerPath(dir, s.index));
    }
    if (!notDone.empty()) {
        throw Error(dir, "not every shard is complete: shard " + notDone +
                             "; see --status, --resubmit-failed");
    }
    return paths;
}

} // namespace probaudit::sweep
