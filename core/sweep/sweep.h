#pragma once
// A sweep (`probaudit sweep`): a study recorded as N shards (runner/study_session.h, `run
// --shard I/N`) by a cluster's own scheduler, then merged into one sealed ledger
// (ledger/merge.h). ProbAudit writes the scheduler's job file and reads back what happened;
// it never runs a shard itself.
//
// A sweep lives in a folder of its own (by default NAME.sweep beside the study):
//   sweep.json       what was submitted: the study, the shard count, the scheduler options and
//                    every submission (job id and the shards it ran), so --status and
//                    --resubmit-failed know which job ran which shard last
//   sweep.sbatch     the Slurm batch script (a job array, one task per shard)
//   shard-I.ledger   shard I's ledger, written by its task (resumed by a resubmitted task)
//   logs/shard-I.log its task's output
// Torch-free and Qt-free: the workbench reads sweeps too.
#include "core/study/study.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace probaudit::sweep {

// Refuses a study that shards cannot record: an endpoint study (one server serves every
// request), a generation head (its serving runs depend on every request).
void checkShardable(const study::Study& study, const std::string& studyPath);

// Options of the Slurm batch script; empty ones are left out.
struct SlurmOptions {
    std::string partition, gres, time, account;
    std::string extra; // further sbatch options, as one would type them ("--qos=high -c 4")
};

// One sbatch of the sweep's script: the job id and the shards (array tasks) it ran.
struct Submission {
    std::string job;
    std::vector<int> shards;
    std::string at; // UTC, ISO 8601
};

struct Sweep {
    std::string scheduler = "slurm";
    std::string study;     // absolute path of the study file
    std::string probaudit; // absolute path of the `probaudit` that every task runs
    int shards = 0;
    SlurmOptions slurm;
    std::vector<Submission> submissions;

    // The job and array task that ran shard `index` last ("12_3"), or "" when none did.
    std::string taskOf(int index) const;

    // Reads DIR/sweep.json; throws probaudit::Error naming the file and what is wrong.
    static Sweep load(const std::string& dir);
    // Writes DIR/sweep.json (a new file renamed over the old one).
    void save(const std::string& dir) const;
};

std::string defaultSweepDir(const std::string& studyPath); // STUDY_DIR/NAME.sweep
std::string shardLedgerPath(const std::string& dir, int index);
std::string shardLogPath(const std::string& dir, int index);

// The batch script: one array task per shard, each running
// `probaudit run STUDY --all --shard $SLURM_ARRAY_TASK_ID/N --ledger DIR/shard-$ID.ledger`
// in the study's folder. Throws probaudit::Error for a path or option that a #SBATCH line
// cannot carry (a line break; whitespace or quotes in a path).
std::string slurmScript(const Sweep& sweep, const std::string& dir);

// What the scheduler says about one array task: its state ("PENDING", "RUNNING",
// "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", ...), exit code ("0:0") and reason.
struct TaskState {
    std::string state, exitCode, reason;
    bool live() const; // queued or running: the scheduler still has work to do for it
};

// Parses the tools' output for job `job`, by array task index. Lines of other jobs, array
// ranges not yet split ("12_[4-6]") and junk are skipped; never throws.
// squeue -h -r -j JOB -o "%i|%T|%r"
std::map<int, TaskState> parseSqueue(const std::string& out, const std::string& job);
// sacct -n -P -X -j JOB -o JobID,State,ExitCode
std::map<int, TaskState> parseSacct(const std::string& out, const std::string& job);
// scontrol -o show job JOB (one line per task; kept by the controller for MinJobAge seconds)
std::map<int, TaskState> parseScontrol(const std::string& out, const std::string& job);

// How far a shard's ledger is.
struct ShardProgress {
    bool exists = false;
    std::string error;                          // the ledger cannot be read or is not this shard's
    int runsFinished = 0;                       // finished runs of the study's (head, config) pairs
    int runsTotal = 0;                          // the study's (head, config) pairs
    std::int64_t itemsDone = 0, itemsTotal = 0; // over the runs begun
    bool complete() const { return error.empty() && runsTotal > 0 && runsFinished == runsTotal; }
};
ShardProgress readShard(const std::string& ledgerPath, const std::string& shardName, int runsTotal);

// Unknown: the scheduler could not be asked (no Slurm tools here, no controller) and the
// shard's ledger is not complete.
enum class Verdict { Queued, Running, Complete, Failed, Unknown };
const char* verdictName(Verdict v);

struct ShardStatus {
    int index = 0;
    std::string task;    // "12_3", "" when never submitted
    TaskState scheduler; // empty state when no tool knows the task any more
    std::string source;  // which tool said so: squeue, sacct, scontrol, or ""
    ShardProgress progress;
    Verdict verdict = Verdict::Queued;
    std::string lastLog; // the last line of its task's log when it failed
};

// Each shard's state: the scheduler's view (squeue for the live tasks, then sacct, then
// scontrol for the ended ones) joined with its ledger. A shard is complete when its ledger
// holds every (head, config) run finished; failed when the scheduler has nothing left to do
// for it and it is not complete. When squeue cannot be run (or cannot reach the controller),
// throws probaudit::Error, or with `schedulerProblem` says why there and judges from the
// ledgers alone (complete, or unknown).
std::vector<ShardStatus> status(const Sweep& sweep, const std::string& dir,
                                std::string* schedulerProblem = nullptr);

// Writes the script and submits shards `shards` (all: 1..N) with sbatch; records the
// submission in sweep.json. Throws probaudit::Error with sbatch's own message when it refuses.
Submission submit(Sweep& sweep, const std::string& dir, const std::vector<int>& shards);

// The shards' ledgers when every shard is complete; otherwise throws probaudit::Error naming
// the shards that are not.
std::vector<std::string> completeLedgers(const std::vector<ShardStatus>& shards,
                                         const std::string& dir);

// A Kubernetes Indexed Job that records a study's shards (`probaudit sweep --k8s`): pod I
// (JOB_COMPLETION_INDEX, from 0) records shard I+1 of N into a ledger on a
// PersistentVolumeClaim, where a retried pod of the same index resumes it. ProbAudit writes the
// manifest and never talks to a cluster; `probaudit merge` joins the ledgers afterwards.
struct K8sOptions {
    std::string image;           // the container image, with probaudit in it
    std::string pvc;             // the PersistentVolumeClaim that holds the study and ledgers
    std::string mount = "/data"; // where the pods mount it
    std::string study;           // the study file as the pods see it
    std::string sweepDir;        // the shards' ledgers' folder as the pods see it
    std::string probaudit = "probaudit"; // the executable in the image
    int shards = 0;
    int gpus = 0;     // nvidia.com/gpu per pod
    int retries = 3;  // backoffLimitPerIndex: a failed pod is replaced this often per shard
    std::string name; // the Job's name (a DNS label)
};

// Fills what `o` leaves empty from the study's local path: the study at MOUNT/FILE, the
// ledgers in MOUNT/NAME.sweep, the Job named probaudit-NAME. Throws probaudit::Error for what
// a Job cannot carry (no image, no claim, a name that is no DNS label, a relative mount).
K8sOptions completeK8sOptions(K8sOptions o, const std::string& localStudy);
// The batch/v1 Job (completionMode Indexed, completions = parallelism = N, podReplacementPolicy
// Failed so that two pods never write one shard's ledger at once).
nlohmann::json k8sJob(const K8sOptions& o);

} // namespace probaudit::sweep
