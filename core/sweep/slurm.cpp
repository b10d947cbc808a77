// Slurm's part of a sweep (sweep.h): the batch script, sbatch, and what squeue, sacct and
// scontrol say about the array tasks. The tools are the cluster's own, found on PATH and run
// with this process's environment (SLURM_CONF included).
#include "core/sweep/sweep.h"

#include "core/common/error.h"
#include "core/common/utc_now.h"
#include "core/process/child_process.h"

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace probaudit::sweep {

namespace {

// A path a #SBATCH line and a double-quoted shell word both carry as it is.
void checkPlainPath(const std::string& what, const std::string& path) {
    for (const char c : path) {
        if (std::string(" \t\n\r\"'\\$`%").find(c) != std::string::npos) {
            throw Error(path, what + " must not contain whitespace, quotes, '\\', '$', '`' or "
                                     "'%' (a Slurm batch script carries it as it is)");
        }
    }
}

// A path that goes into a job script inside a quoted shell word and a comment: any character
// is safe quoted, but a line break (or another control character) would end the comment line
// and make the rest of the name a command of its own.
void checkOneLine(const std::string& what, const std::string& path) {
    for (const char c : path) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            throw Error(what + " has a line break or another control character in its name; a "
                               "Slurm batch script cannot carry it (rename the file)");
        }
    }
}

std::string shellQuote(const std::string& s) {
    std::string q = "'";
    for (const char c : s) {
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return q + "'";
}

// "--qos=high -c 4" -> {"--qos=high", "-c 4"}: one #SBATCH line per option.
std::vector<std::string> extraLines(const std::string& extra) {
    if (extra.find_first_of("\n\r") != std::string::npos) {
        throw Error("--extra must be one line of sbatch options");
    }
    std::vector<std::string> lines;
    std::istringstream words(extra);
    std::string w;
    while (words >> w) {
        if (w[0] == '-' || lines.empty()) {
            lines.push_back(w);
        } else {
            lines.back() += " " + w;
        }
    }
    return lines;
}

std::string jobName(const std::string& studyPath) {
    std::string name = "probaudit-" + fs::path(defaultSweepDir(studyPath)).stem().string();
    for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') {
            c = '_';
        }
    }
    return name;
}

struct ToolResult {
    int exit = 0;
    std::string output; // standard output and error together
};

ToolResult runTool(const std::string& tool, const std::vector<std::string>& args) {
    runner::Child child = runner::Child::start(
        runner::executableOnPath(tool, ": run the sweep where the Slurm tools are (a login node), "
                                       "or see the script with --dry-run"),
        tool, args, {}, runner::Stdout::CaptureWithStderr);
    ToolResult r;
    child.readLines([&](const std::string& line) { r.output += line; });
    r.exit = child.wait().exitCode();
    return r;
}

std::string firstLine(const std::string& text) {
    std::string line = text.substr(0, text.find('\n'));
    return line.empty() ? "(no output)" : line;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string field;
    std::istringstream in(s);
    while (std::getline(in, field, sep)) {
        out.push_back(field);
    }
    return out;
}

// "12_3" of job "12" -> 3; anything else (another job, "12_[4-6]") -> 0.
int taskIndex(const std::string& id, const std::string& job) {
    const std::string prefix = job + "_";
    if (id.rfind(prefix, 0) != 0 || id.size() == prefix.size()) {
        return 0;
    }
    const std::string rest = id.substr(prefix.size());
    if (rest.find_first_not_of("0123456789") != std::string::npos || rest.size() > 6) {
        return 0;
    }
    return std::stoi(rest);
}

} // namespace

std::string slurmScript(const Sweep& sweep, const std::string& dir) {
    const std::string studyDir = fs::path(sweep.study).parent_path().string();
    checkOneLine("the study file", sweep.study);
    checkOneLine("the probaudit executable", sweep.probaudit);
    checkPlainPath("the sweep folder", dir);
    checkPlainPath("the study's folder", studyDir);
    const std::string n = std::to_string(sweep.shards);
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "# ProbAudit sweep: " << n << " shards of " << sweep.study
      << ", one array task each (written by probaudit sweep; merge with --merge)\n"
      << "#SBATCH --job-name=" << jobName(sweep.study) << "\n"
      << "#SBATCH --array=1-" << n << "\n"
      << "#SBATCH --output=" << dir << "/logs/shard-%a.log\n"
      << "#SBATCH --chdir=" << studyDir << "\n";
    const std::pair<const char*, const std::string*> options[] = {
        {"partition", &sweep.slurm.partition},
        {"gres", &sweep.slurm.gres},
        {"time", &sweep.slurm.time},
        {"account", &sweep.slurm.account}};
    for (const auto& [name, value] : options) {
        if (value->find_first_of(" \t\n\r") != std::string::npos) {
            throw Error(std::string("--") + name + " " + *value + ": must be one word");
        }
        if (!value->empty()) {
            s << "#SBATCH --" << name << "=" << *value << "\n";
        }
    }
    for (const std::string& line : extraLines(sweep.slurm.extra)) {
        s << "#SBATCH " << line << "\n";
    }
    s << "set -eu\n"
      << "exec " << shellQuote(sweep.probaudit) << " run " << shellQuote(sweep.study)
      << " --all --shard \"$SLURM_ARRAY_TASK_ID/" << n << "\" --ledger \"" << dir
      << "/shard-$SLURM_ARRAY_TASK_ID.ledger\"\n";
    return s.str();
}

std::map<int, TaskState> parseSqueue(const std::string& out, const std::string& job) {
    std::map<int, TaskState> tasks;
    for (const std::string& line : split(out, '\n')) {
        const auto f = split(line, '|');
        if (f.size() >= 3) {
            if (const int i = taskIndex(f[0], job); i > 0) {
                tasks[i] = {f[1], "", f[2]};
            }
        }
    }
    return tasks;
}

std::map<int, TaskState> parseSacct(const std::string& out, const std::string& job) {
    std::map<int, TaskState> tasks;
    for (const std::string& line : split(out, '\n')) {
        const auto f = split(line, '|');
        if (f.size() >= 3) {
            if (const int i = taskIndex(f[0], job); i > 0) {
                // "CANCELLED by 0": the state is the first word
                tasks[i] = {f[1].substr(0, f[1].find(' ')), f[2], ""};
            }
        }
    }
    return tasks;
}

std::map<int, TaskState> parseScontrol(const std::string& out, const std::string& job) {
    std::map<int, TaskState> tasks;
    for (const std::string& line : split(out, '\n')) {
        std::map<std::string, std::string> kv;
        for (const std::string& word : split(line, ' ')) {
            if (const auto eq = word.find('='); eq != std::string::npos) {
                kv.emplace(word.substr(0, eq), word.substr(eq + 1));
            }
        }
        if (kv["ArrayJobId"] != job) {
            continue;
        }
        if (const int i = taskIndex(job + "_" + kv["ArrayTaskId"], job); i > 0) {
            tasks[i] = {kv["JobState"], kv["ExitCode"], kv["Reason"]};
        }
    }
    return tasks;
}

namespace {

// The scheduler's view of job `job`'s tasks: squeue for the live ones, then sacct, then
// scontrol for those that ended (sacct needs an accounting database; scontrol remembers a
// task for MinJobAge seconds).
std::map<int, std::pair<TaskState, std::string>> schedulerView(const std::string& job) {
    std::map<int, std::pair<TaskState, std::string>> view;
    const ToolResult q = runTool("squeue", {"-h", "-r", "-j", job, "-o", "%i|%T|%r"});
    if (q.exit == 0) {
        for (auto& [i, t] : parseSqueue(q.output, job)) {
            view[i] = {t, "squeue"};
        }
    } else if (q.output.find("Invalid job id") == std::string::npos) {
        const std::string why = firstLine(q.output);
        throw Error(why.rfind("squeue", 0) == 0 ? why : "squeue: " + why);
    }
    const ToolResult a =
        runTool("sacct", {"-n", "-P", "-X", "-j", job, "-o", "JobID,State,ExitCode"});
    if (a.exit == 0) {
        for (auto& [i, t] : parseSacct(a.output, job)) {
            view.emplace(i, std::make_pair(t, "sacct"));
        }
    }
    const ToolResult c = runTool("scontrol", {"-o", "show", "job", job});
    if (c.exit == 0) {
        for (auto& [i, t] : parseScontrol(c.output, job)) {
            view.emplace(i, std::make_pair(t, "scontrol"));
        }
    }
    return view;
}

std::string lastLine(const std::string& path) {
    std::ifstream in(path);
    std::string line, last;
    while (std::getline(in, line)) {
        if (!line.empty()) {
            last = line;
        }
    }
    return last;
}

Verdict verdictOf(const ShardStatus& s, bool schedulerAsked) {
    if (!s.task.empty() && s.scheduler.live()) {
        return s.scheduler.state == "PENDING" ? Verdict::Queued : Verdict::Running;
    }
    if (s.progress.complete()) {
        return Verdict::Complete;
    }
    return schedulerAsked ? Verdict::Failed : Verdict::Unknown;
}

} // namespace

std::vector<ShardStatus> status(const Sweep& sweep, const std::string& dir,
                                std::string* schedulerProblem) {
    const study::Study study = study::Study::load(sweep.study);
    bool asked = true;
    const int runsTotal = int(study.heads.size() * study.configs.size());
    std::map<std::string, std::map<int, std::pair<TaskState, std::string>>> views;
    std::vector<ShardStatus> out;
    for (int i = 1; i <= sweep.shards; ++i) {
        ShardStatus s;
        s.index = i;
        s.task = sweep.taskOf(i);
        if (!s.task.empty()) {
            const std::string job = s.task.substr(0, s.task.find('_'));
            if (views.count(job) == 0 && asked) {
                try {
                    views[job] = schedulerView(job);
                } catch (const Error& e) {
                    if (schedulerProblem == nullptr) {
                        throw;
                    }
                    *schedulerProblem = e.what();
                    asked = false;
                }
            }
            if (auto it = views[job].find(i); it != views[job].end()) {
                s.scheduler = it->second.first;
                s.source = it->second.second;
            }
        }
        const std::string name = std::to_string(i) + "/" + std::to_string(sweep.shards);
        s.progress = readShard(shardLedgerPath(dir, i), name, runsTotal);
        s.verdict = verdictOf(s, asked);
        if (s.verdict == Verdict::Failed) {
            s.lastLog = lastLine(shardLogPath(dir, i));
        }
        out.push_back(std::move(s));
    }
    return out;
}

Submission submit(Sweep& sweep, const std::string& dir, const std::vector<int>& shards) {
    fs::create_directories(fs::path(dir) / "logs");
    const std::string script = (fs::path(dir) / "sweep.sbatch").string();
    {
        std::ofstream f(script, std::ios::trunc);
        f << slurmScript(sweep, dir);
        if (!f.flush()) {
            throw Error(script, "could not be written");
        }
    }
    std::vector<std::string> args{"--parsable"};
    if (int(shards.size()) != sweep.shards) {
        std::string list;
        for (int i : shards) {
            list += (list.empty() ? "" : ",") + std::to_string(i);
        }
        args.push_back("--array=" + list); // overrides the script's 1-N
    }
    args.push_back(script);
    const ToolResult r = runTool("sbatch", args);
    const std::string id = r.output.substr(0, r.output.find_first_of(";\n"));
    if (r.exit != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
        throw Error("sbatch refused the sweep: " + firstLine(r.output));
    }
    Submission sub{id, shards, utcNow()};
    sweep.submissions.push_back(sub);
    sweep.save(dir);
    return sub;
}

} // namespace probaudit::sweep
