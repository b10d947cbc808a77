#include "app/probaudit/ledger_cmds.h"

#include "core/common/error.h"
#include "core/common/vocabulary.h"
#include "core/ledger/ledger.h"
#include "core/process/child_process.h"

#include <nlohmann/json.hpp>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace probaudit::app {

using nlohmann::json;
using namespace nlohmann::literals;
using ledger::Ledger;

namespace {

std::string statusText(const ledger::Run& r) {
    if (r.status == ledger::RunStatus::Running && !r.writer_alive) {
        return "unfinished"; // its process is gone: the next `run` resumes it
    }
    return ledger::statusName(r.status);
}

// Shortest decimal that reads back as the same float (what the record holds, exactly).
std::string exactFloat(float v) {
    char buf[32];
    for (int precision = 6; precision <= 9; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, static_cast<double>(v));
        if (std::strtof(buf, nullptr) == v) {
            break;
        }
    }
    return buf;
}

std::string hex64(std::uint64_t v) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
    return buf;
}

std::string csvQuote(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) {
        return s;
    }
    std::string o = "\"";
    for (char c : s) {
        o += c;
        if (c == '"') {
            o += '"';
        }
    }
    return o + "\"";
}

std::string joined(const std::vector<float>& v) {
    std::string o;
    for (float x : v) {
        o += (o.empty() ? "" : " ") + exactFloat(x);
    }
    return o;
}

} // namespace

int listRuns(const std::string& path, bool asJson) {
    const Ledger led(path, Ledger::Mode::Read);
    const auto runs = led.runs();
    if (asJson) {
        json out = json::array();
        for (const auto& r : runs) {
            out.push_back(
                {{"run", r.id},
                 {"kind", r.kind},
                 {"label", r.label},
                 {"head", r.head},
                 {"config", r.config_name},
                 {"config_hash", r.config_hash},
                 {"config_json", led.config(r.config_hash)},
                 {"model", led.config(r.config_hash).value("model", "")},
                 {"environment", r.env_hash},
                 {"capability",
                  led.environment(r.env_hash).value("/cpu/aten_capability"_json_pointer, "")},
                 {"capture", r.capture},
                 {"status", statusText(r)},
                 {"items_done", r.items_done},
                 {"items_total", r.items_total},
                 {"started", r.started},
                 {"finished", r.finished},
                 {"message", r.message},
                 {"records_sha256", r.records_sha256},
                 {"numerics_sha256", r.numerics_sha256}});
        }
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    std::printf("%-4s %-14s %-16s %-16s %-16s %-8s %-11s %13s  %s\n", "run", "head", "config",
                "config hash", "environment", "capture", "status", "items", "started");
    for (const auto& r : runs) {
        char items[40];
        std::snprintf(items, sizeof items, "%lld/%lld", static_cast<long long>(r.items_done),
                      static_cast<long long>(r.items_total));
        std::printf("%-4lld %-14s %-16s %-16s %-16s %-8s %-11s %13s  %s\n",
                    static_cast<long long>(r.id), r.head.c_str(), r.config_name.c_str(),
                    r.config_hash.c_str(), r.env_hash.c_str(), r.capture.c_str(),
                    statusText(r).c_str(), items, r.started.c_str());
        if (r.kind != RunKind::Study) {
            std::printf("     %s: %s\n", nameString(r.kind).c_str(), r.label.c_str());
        }
        if (const std::string variant = led.config(r.config_hash).value("model", "");
            !variant.empty()) {
            std::printf("     model variant: %s\n", variant.c_str());
        }
        if (!r.message.empty()) {
            std::printf("     %s\n", r.message.c_str());
        }
    }
    if (runs.empty()) {
        std::printf("(no runs yet)\n");
    }
    return 0;
}

int exportRun(const std::string& path, long long runId, const std::string& format,
              const std::string& output) {
    if (format != "csv" && format != "jsonl") {
        throw Error("--format must be csv or jsonl");
    }
    const Ledger led(path, Ledger::Mode::Read);
    const ledger::Run run = led.run(runId);
    const auto items = led.items();
    const auto records = led.records(runId, true);
    std::ofstream file;
    if (!output.empty()) {
        file.open(output);
        if (!file) {
            throw Error(output, "cannot write");
        }
    }
    std::ostream& out = output.empty() ? std::cout : file;
    if (format == "csv") {
        out << "run,item,id,label,tokens,truncated,decision,margin,nonfinite,probs,logits,batch,"
               "row,padded_length,"
               "batch_seconds,layer_hashes\n";
    }
    for (const auto& r : records) {
        const auto& it = items.at(std::size_t(r.item));
        std::string hashes;
        json hashList = json::array();
        for (auto h : r.layer_hashes) {
            hashes += (hashes.empty() ? "" : " ") + hex64(h);
            hashList.push_back(hex64(h));
        }
        if (format == "csv") {
            out << run.id << ',' << r.item << ',' << csvQuote(it.id) << ','
                << (it.label ? std::to_string(*it.label) : std::string()) << ',' << r.tokens << ','
                << int(r.truncated) << ',' << r.decision << ',' << exactFloat(r.margin) << ','
                << int(r.nonfinite) << ',' << joined(r.probs) << ',' << joined(r.logits) << ','
                << r.batch << ',' << r.row << ',' << r.padded_length << ',' << r.batch_seconds
                << ',' << hashes << '\n';
        } else {
            json j{{"run", run.id},
                   {"item", r.item},
                   {"id", it.id},
                   {"label", it.label ? json(*it.label) : json()},
                   {"tokens", r.tokens},
                   {"truncated", r.truncated},
                   {"decision", r.decision},
                   {"margin", r.margin},
                   {"nonfinite", r.nonfinite},
                   {"probs", r.probs},
                   {"logits", r.logits},
                   {"batch", r.batch},
                   {"row", r.row},
                   {"padded_length", r.padded_length},
                   {"batch_seconds", r.batch_seconds},
                   {"layer_hashes", hashList}};
            if (!r.layer_vectors.empty()) {
                j["hidden"] = r.hidden;
                j["layer_vectors"] = r.layer_vectors;
            }
            out << j.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
        }
    }
    return 0;
}

int migrateLedger(const std::string& path) {
    if (!std::filesystem::exists(path)) {
        throw Error(path, "no such ledger");
    }
    const Ledger led(path, Ledger::Mode::Write); // opening for writing migrates
    std::cout << path << ": schema version " << led.schemaVersion() << "\n";
    return 0;
}

int runSibling(const std::string& name, const std::vector<std::string>& args, bool quiet) {
    const std::string exe = runner::siblingPath(name);
    if (!std::filesystem::exists(exe)) {
        throw Error(exe, "not found: this ProbAudit was built without the GUI "
                         "(PROBAUDIT_BUILD_GUI=OFF), which the report writer needs");
    }
    std::fflush(stdout); // nothing of ours may come out after the child's lines
    const runner::ChildExit end =
        runner::Child::start(exe, exe, args, {},
                             quiet ? runner::Stdout::Discard : runner::Stdout::Inherit)
            .wait();
    if (end.signal != 0) {
        throw Error(exe, "was killed by signal " + std::to_string(end.signal));
    }
    return end.code;
}

} // namespace probaudit::app
