// probaudit sweep STUDY --slurm --shards N [--partition P --gres G --time T --account A
//   --extra "..."] [--dry-run] | --status | --resubmit-failed | --merge [-o OUT]
//   [--dir DIR] [--probaudit PATH]: a study's shards as a Slurm job array, its per-shard
//   state, the failed shards again, and the merge; or --k8s --shards N --image IMAGE --pvc
//   NAME [--gpu G --mount PATH --pod-study PATH --retries K -o FILE]: the same shards as a
//   Kubernetes Indexed Job's manifest (sweep/sweep.h).
#include "app/probaudit/command.h"
#include "app/probaudit/ledger_cmds.h"

#include "core/common/error.h"
#include "core/runner/study_session.h"
#include "core/sweep/sweep.h"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace probaudit::app {

namespace {

struct SweepArgs {
    std::string study, dir, probaudit, out, trust;
    bool slurm = false, dryRun = false, status = false, resubmit = false, merge = false;
    bool k8s = false;
    int shards = 0;
    sweep::SlurmOptions options;
    sweep::K8sOptions pods;
};

std::string shardList(const std::vector<int>& shards) {
    std::string s;
    for (int i : shards) {
        s += (s.empty() ? "" : ",") + std::to_string(i);
    }
    return s;
}

// The sweep in `dir`, which must be one of `study`.
sweep::Sweep loadFor(const SweepArgs& o, const std::string& dir) {
    sweep::Sweep s = sweep::Sweep::load(dir);
    if (fs::weakly_canonical(s.study) != fs::weakly_canonical(o.study)) {
        throw Error(dir, "holds a sweep of " + s.study + ", not of " + o.study);
    }
    return s;
}

int submitNew(const SweepArgs& o, const std::string& dir) {
    if (o.shards < 1) {
        throw Error("--slurm needs --shards N (1..4096): how many array tasks share the study");
    }
    sweep::checkShardable(study::Study::load(o.study), o.study);
    if (fs::exists(fs::path(dir) / "sweep.json")) {
        throw Error(dir, "a sweep of this study was submitted already: see --status, "
                         "--resubmit-failed and --merge, or remove the folder to start over");
    }
    sweep::Sweep s;
    s.study = fs::absolute(o.study).lexically_normal().string();
    s.probaudit = o.probaudit.empty() ? fs::read_symlink("/proc/self/exe").string()
                                      : fs::absolute(o.probaudit).string();
    s.shards = o.shards;
    s.slurm = o.options;
    if (o.dryRun) {
        std::cout << sweep::slurmScript(s, dir); // checks the paths and options; writes nothing
        return 0;
    }
    const bool created = !fs::exists(dir);
    try {
        std::vector<int> all;
        for (int i = 1; i <= s.shards; ++i) {
            all.push_back(i);
        }
        const sweep::Submission sub = sweep::submit(s, dir, all);
        std::cout << "submitted Slurm job " << sub.job << ": " << s.shards << " shards of "
                  << s.study << " (script " << dir << "/sweep.sbatch); follow it with "
                  << "probaudit sweep " << o.study << " --status\n";
    } catch (...) {
        if (created) { // a refused submission leaves no folder behind (what submit wrote)
            ::unlink((dir + "/sweep.sbatch").c_str());
            ::rmdir((dir + "/logs").c_str());
            ::rmdir(dir.c_str());
        }
        throw;
    }
    return 0;
}

std::string ledgerText(const sweep::ShardProgress& p) {
    if (!p.error.empty()) {
        return "unreadable: " + p.error;
    }
    if (!p.exists) {
        return "no ledger yet";
    }
    return std::to_string(p.runsFinished) + "/" + std::to_string(p.runsTotal) + " runs, " +
           std::to_string(p.itemsDone) + "/" + std::to_string(p.itemsTotal) + " items";
}

void printStatus(const sweep::Sweep& s, const std::vector<sweep::ShardStatus>& shards) {
    std::cout << "sweep of " << s.study << ": " << s.shards << " shards, Slurm job";
    for (const auto& sub : s.submissions) {
        std::cout << " " << sub.job << " (shards " << shardList(sub.shards) << ")";
    }
    std::cout << "\n"
              << std::left << std::setw(8) << "shard" << std::setw(10) << "task" << std::setw(26)
              << "scheduler" << std::setw(30) << "ledger"
              << "state\n";
    std::map<sweep::Verdict, int> count;
    for (const sweep::ShardStatus& x : shards) {
        ++count[x.verdict];
        const std::string sched =
            x.scheduler.state.empty() ? "(not known)" : x.scheduler.state + " (" + x.source + ")";
        std::cout << std::setw(8) << (std::to_string(x.index) + "/" + std::to_string(s.shards))
                  << std::setw(10) << (x.task.empty() ? "-" : x.task) << std::setw(26) << sched
                  << std::setw(30) << ledgerText(x.progress) << sweep::verdictName(x.verdict);
        if (x.verdict == sweep::Verdict::Failed && !x.lastLog.empty()) {
            std::cout << ": " << x.lastLog;
        }
        std::cout << "\n";
    }
    using V = sweep::Verdict;
    std::cout << count[V::Complete] << " complete, " << count[V::Running] << " running, "
              << count[V::Queued] << " queued, " << count[V::Failed] << " failed";
    if (count[V::Unknown] > 0) {
        std::cout << ", " << count[V::Unknown] << " unknown";
    }
    if (count[V::Failed] > 0) {
        std::cout << ": resubmit them with --resubmit-failed (they resume from their ledgers)";
    } else if (count[V::Complete] == s.shards) {
        std::cout << ": merge with --merge";
    }
    std::cout << "\n";
}

int resubmitFailed(const SweepArgs& o, const std::string& dir) {
    sweep::Sweep s = loadFor(o, dir);
    std::vector<int> failed;
    for (const auto& x : sweep::status(s, dir)) {
        if (x.verdict == sweep::Verdict::Failed) {
            failed.push_back(x.index);
        }
    }
    if (failed.empty()) {
        std::cout << "no shard has failed; nothing resubmitted\n";
        return 0;
    }
    const sweep::Submission sub = sweep::submit(s, dir, failed);
    std::cout << "resubmitted shards " << shardList(failed) << " as Slurm job " << sub.job
              << "; they resume from their ledgers\n";
    return 0;
}

int mergeSweep(const SweepArgs& o, const std::string& dir) {
    const sweep::Sweep s = loadFor(o, dir);
    std::string problem; // a merge needs the ledgers, not the scheduler
    const std::vector<std::string> ledgers =
        sweep::completeLedgers(sweep::status(s, dir, &problem), dir);
    const std::string out = o.out.empty() ? runner::defaultLedgerPath(s.study) : o.out;
    return mergeLedgers(ledgers, out, o.trust);
}

// The Indexed Job's manifest, on stdout or into -o FILE; nothing talks to a cluster.
int writeManifest(const SweepArgs& o) {
    sweep::checkShardable(study::Study::load(o.study), o.study);
    sweep::K8sOptions k = o.pods;
    k.shards = o.shards;
    k.sweepDir = o.dir;
    if (!o.probaudit.empty()) {
        k.probaudit = o.probaudit;
    }
    k = sweep::completeK8sOptions(k, o.study);
    const std::string text = sweep::k8sJob(k).dump(2) + "\n";
    if (o.out.empty()) {
        std::cout << text;
    } else {
        const std::string tmp = o.out + ".tmp";
        {
            std::ofstream f(tmp, std::ios::trunc);
            f << text;
            if (!f.flush()) {
                throw Error(o.out, "could not be written");
            }
        }
        fs::rename(tmp, o.out);
    }
    std::cerr << "Indexed Job " << k.name << ": " << k.shards << " pods, pod I records shard I+1 "
              << "into " << k.sweepDir << " on claim " << k.pvc << ". Start it with kubectl apply "
              << "-f " << (o.out.empty() ? "-" : o.out) << "; when it has completed, merge with "
              << "probaudit merge " << k.sweepDir << "/shard-*.ledger -o LEDGER\n";
    return 0;
}

int runSweep(const SweepArgs& o) {
    const int actions = int(o.slurm) + int(o.k8s) + int(o.status) + int(o.resubmit) + int(o.merge);
    if (actions != 1) {
        throw Error("sweep: choose one of --slurm (submit), --k8s (write a Job manifest), "
                    "--status, --resubmit-failed, --merge");
    }
    if (o.k8s) {
        return writeManifest(o);
    }
    const std::string dir = fs::absolute(o.dir.empty() ? sweep::defaultSweepDir(o.study) : o.dir)
                                .lexically_normal()
                                .string();
    if (o.slurm) {
        return submitNew(o, dir);
    }
    if (o.resubmit) {
        return resubmitFailed(o, dir);
    }
    if (o.merge) {
        return mergeSweep(o, dir);
    }
    const sweep::Sweep s = loadFor(o, dir);
    std::string problem;
    const auto shards = sweep::status(s, dir, &problem);
    printStatus(s, shards);
    if (!problem.empty()) {
        std::cout << "the scheduler could not be asked (" << problem
                  << "): states from the shards' ledgers alone\n";
    }
    return 0;
}

} // namespace

void addSweepCommand(CLI::App& cli, Action& chosen) {
    auto a = std::make_shared<SweepArgs>();
    CLI::App* sub = cli.add_subcommand(
        "sweep", "Record a study as N shards on a Slurm cluster (a job array), follow them, "
                 "resubmit the failed ones and merge them into one sealed ledger; or write a "
                 "Kubernetes Indexed Job that records them");
    sub->add_option("STUDY", a->study, "Study file (*.study.json)")->required();
    sub->add_flag("--slurm", a->slurm, "Write the batch script and submit it with sbatch");
    sub->add_option("--shards", a->shards, "How many shards (array tasks)")
        ->check(CLI::Range(1, 4096));
    sub->add_option("--partition", a->options.partition, "sbatch --partition");
    sub->add_option("--gres", a->options.gres, "sbatch --gres, e.g. gpu:1");
    sub->add_option("--time", a->options.time, "sbatch --time, e.g. 02:00:00");
    sub->add_option("--account", a->options.account, "sbatch --account");
    sub->add_option("--extra", a->options.extra,
                    "Further sbatch options, one #SBATCH line each (\"--qos=high -c 4\")");
    sub->add_flag("--k8s", a->k8s,
                  "Write a Kubernetes Indexed Job manifest (JSON, for kubectl apply -f): pod I "
                  "records shard I+1 into a ledger on --pvc; talks to no cluster");
    sub->add_option("--image", a->pods.image, "--k8s: the container image (with probaudit)");
    sub->add_option("--pvc", a->pods.pvc,
                    "--k8s: the PersistentVolumeClaim holding the study and the ledgers");
    sub->add_option("--mount", a->pods.mount, "--k8s: where the pods mount the claim")
        ->capture_default_str();
    sub->add_option("--pod-study", a->pods.study,
                    "--k8s: the study file as the pods see it (default: MOUNT/STUDY's file name)");
    sub->add_option("--gpu", a->pods.gpus, "--k8s: nvidia.com/gpu per pod")
        ->check(CLI::Range(0, 64));
    sub->add_option("--retries", a->pods.retries,
                    "--k8s: how often a failed pod of one shard is replaced (it resumes)")
        ->capture_default_str()
        ->check(CLI::Range(0, 100));
    sub->add_flag("--dry-run", a->dryRun, "Print the batch script; submit nothing, write nothing");
    sub->add_flag("--status", a->status,
                  "Each shard's state: the scheduler's (squeue, sacct, scontrol) and its ledger's");
    sub->add_flag("--resubmit-failed", a->resubmit,
                  "Submit the failed shards again; they resume from their ledgers");
    sub->add_flag("--merge", a->merge, "Merge the shards when all are complete");
    sub->add_option("--trust", a->trust,
                    "--merge: public key (KEY.pub) that must have signed every shard's head");
    sub->add_option("-o,--output", a->out,
                    "--merge: the merged ledger (default: the study's ledger; must not exist); "
                    "--k8s: the manifest file (default: stdout)");
    sub->add_option("--dir", a->dir,
                    "The sweep's folder (default: NAME.sweep beside the study; --k8s: in the "
                    "pods, MOUNT/NAME.sweep)");
    sub->add_option("--probaudit", a->probaudit,
                    "The probaudit the tasks run, as the nodes see it (default: this one; --k8s: "
                    "probaudit on the image's PATH)");
    onChosen(sub, chosen, a, [](const SweepArgs& o, const Invocation&) { return runSweep(o); });
}

} // namespace probaudit::app
