#include "app/probaudit/diagnose_cmd.h"

#include "app/probaudit/events.h"
#include "app/probaudit/localize_text.h"

#include "core/common/protocol.h"
#include "core/common/vocabulary.h"

#include <cstdio>
#include <iostream>

namespace probaudit::app {

using nlohmann::json;

namespace {

// Probe runs are short: one line each on stderr ("probe 3: neighbours: shuffle 1 ... 4.4 s"),
// warnings and errors as they come; no per-run progress bars.
class ProbeEvents : public runner::Events {
public:
    void emit(const json& event) override {
        const RunEvent e = RunEvent::read(event);
        if (e.kind == EventKind::Started) {
            std::fprintf(stderr, "probe %lld: %s ...", static_cast<long long>(e.run.value_or(0)),
                         e.labelOrConfig().c_str());
        } else if (e.kind == EventKind::RunFinished) {
            std::fprintf(stderr, " %.1f s\n", e.seconds);
        } else if (e.kind == EventKind::Warning || e.kind == EventKind::Error) {
            std::fprintf(stderr, "%s: %s\n", nameString(e.kind).c_str(), e.message.c_str());
        }
    }
};

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& a : v) {
        out += (out.empty() ? "" : ", ") + a;
    }
    return out;
}

void printLadder(const analysis::Diagnosis& d) {
    std::printf("\nDiagnosis of study \"%s\", head \"%s\": why do results differ from the "
                "reference config \"%s\"?\n",
                d.study.c_str(), d.head.c_str(), d.reference.c_str());
    if (d.recorded_only) {
        std::printf("From the study's recorded runs over all %lld items (a server is not "
                    "probed).\n\n",
                    static_cast<long long>(d.sample));
    } else {
        std::printf("Probes on a seeded sample of %lld items (seed %llu); every probe run is in "
                    "the ledger.\n\n",
                    static_cast<long long>(d.sample), static_cast<unsigned long long>(d.seed));
    }
    int k = 1;
    for (const auto& st : d.ladder) {
        std::printf("%d. %s\n   %s\n   -> %s\n", k++, st.step.c_str(), st.finding.c_str(),
                    st.verdict.c_str());
    }
    if (d.stopped_at) {
        std::printf("\nStopped at \"%s\": the later steps cannot be judged until this is fixed.\n",
                    d.stopped_at->c_str());
    }
    // A server's runs capture no layers: no layer column for them.
    const bool layers = !d.recorded_only;
    std::printf("\n| what changed | largest probability gap (points) | %sflipped decisions | "
                "bit-identical |\n|---|---|%s---|---|\n",
                layers ? "first layer that differs | " : "", layers ? "---|" : "");
    for (const auto& r : d.table) {
        std::printf("| %s | %s | %s%lld / %lld | %lld / %lld |\n", r.what.c_str(),
                    analysis::formatPoints(r.max_dp).c_str(),
                    layers ? (r.first_layer + " | ").c_str() : "", static_cast<long long>(r.flips),
                    static_cast<long long>(r.items),
                    static_cast<long long>(std::llround(r.bit_identical * double(r.items))),
                    static_cast<long long>(r.items));
    }
}

void printConfigs(const analysis::Diagnosis& d, const std::string& study, std::size_t items) {
    if (!d.reference_run) {
        std::printf("\nNo finished run of the reference config over all items yet: `probaudit "
                    "run %s --all` records the study, then diagnose explains each config.\n",
                    study.c_str());
        return;
    }
    if (d.configs.empty()) {
        return;
    }
    const bool probed = !d.recorded_only; // layers and a forecast exist for probed runs only
    std::printf("\nThe study's configs against the reference (run %lld, all %zu items):\n\n"
                "| config | differs in | suspect | flips | largest gap (points) |%s\n"
                "|---|---|---|---|---|%s\n",
                static_cast<long long>(*d.reference_run), items,
                probed ? " first layer | forecast flips |" : "", probed ? "---|---|" : "");
    for (const auto& c : d.configs) {
        std::string predicted = "-";
        if (const auto* f = d.forecastOf(c.config)) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.1f", f->predicted_flips);
            predicted = buf;
        }
        std::printf("| %s | %s | %s |", c.config.c_str(), joined(c.differs_in).c_str(),
                    joined(c.suspects).c_str());
        if (c.result) {
            std::printf(" %lld | %s |", static_cast<long long>(c.result->flips),
                        analysis::formatPoints(c.result->max_dp).c_str());
        } else {
            std::printf(" not run yet | |");
        }
        if (probed) {
            std::printf(" %s | %s |", c.result ? c.result->first_layer.c_str() : "",
                        predicted.c_str());
        }
        std::printf("\n");
    }
    for (const auto& c : d.configs) {
        if (!c.environment.empty()) {
            std::printf("\n%s runs in another environment than the reference (A: the reference's, "
                        "B: its own):\n",
                        c.config.c_str());
            for (const auto& line : c.environment) {
                std::printf("- %s\n", line.c_str());
            }
        }
    }
}

// The "cause" rung per config: what explains it, the table of entering layers and classes, and
// the cause line of each flipped item (of the largest Δp where none flipped).
void printCauses(const analysis::Diagnosis& d, const std::string& study) {
    if (d.causes.empty()) {
        return;
    }
    std::printf("\nWhy each config differs from \"%s\": B computing one operator class as the "
                "reference (A) does, in every layer, on the item's own tokens (its flips, then "
                "its largest Δp, up to %lld items; every pass is a probe run in the ledger).\n",
                d.reference.c_str(),
                static_cast<long long>(d.cause_sample > 0 ? d.cause_sample : d.sample));
    for (const auto& c : d.causes) {
        std::printf("\n### %s\n", c.config.c_str());
        if (!c.localization) {
            std::printf("Not localised: %s.\n", c.not_localised.c_str());
            continue;
        }
        const analysis::Localization& l = *c.localization;
        std::printf("%s.\n", analysis::causeSummary(l).c_str());
        printCauseTable(l);
        const analysis::ItemCause* largest = nullptr;
        bool anyFlip = false;
        for (const auto& item : l.items) {
            anyFlip = anyFlip || item.flip();
            if (item.status != analysis::CauseStatus::NoDifference &&
                (largest == nullptr || item.dp() > largest->dp())) {
                largest = &item;
            }
        }
        std::printf("\n");
        for (const auto& item : l.items) {
            if (anyFlip ? item.flip() : &item == largest) {
                std::printf("- %s\n", analysis::causeLine(item, l).c_str());
            }
        }
        std::printf("Every item's splices: `probaudit diagnose %s --json` (\"causes\"), or "
                    "`probaudit localize %s --b %s` to run them again.\n",
                    study.c_str(), study.c_str(), c.config.c_str());
    }
}

} // namespace

namespace {
// The ladder here or on the engine's host; 0 with `d` filled, or the exit code.
int diagnoseHereOrThere(const runner::DiagnoseOptions& o, const EngineArgs& engine,
                        runner::Events& sink, const std::atomic<bool>& stop,
                        analysis::Diagnosis& d) {
    if (engine.remoteEngine()) {
        return runner::diagnoseRemote(o, engine.target(), sink, stop, d);
    }
    d = runner::diagnose(o, sink, stop);
    return protocol::kExitOk;
}
} // namespace

int diagnoseCommand(const runner::DiagnoseOptions& o, bool asJson, const std::string& events,
                    const EngineArgs& engine, const std::atomic<bool>& stop) {
    ProbeEvents probeLines;
    const std::unique_ptr<runner::Events> jsonLines = events.empty() ? nullptr : makeEvents(events);
    runner::Events& sink = jsonLines ? *jsonLines : probeLines;
    const std::string ledgerPath = engine.remoteEngine()
                                       ? runner::localLedgerPath(o.run.ledger, o.run.study)
                                   : o.run.ledger.empty() ? runner::defaultLedgerPath(o.run.study)
                                                          : o.run.ledger;
    try {
        analysis::Diagnosis d;
        if (const int exit = diagnoseHereOrThere(o, engine, sink, stop, d);
            exit != protocol::kExitOk) {
            return exit; // the remote command's error event said why
        }
        if (jsonLines) {
            sink.emit(
                {{"event", protocol::event::kDone}, {"ledger", ledgerPath}, {"head", d.head}});
            return snapshotAfter(engine, ledgerPath, protocol::kExitOk, sink);
        }
        if (asJson) {
            std::cout << d.toJson().dump(2) << "\n";
            return protocol::kExitOk;
        }
        printLadder(d);
        const ledger::Ledger led(ledgerPath, ledger::Ledger::Mode::Read);
        printConfigs(d, o.run.study, led.items().size());
        printCauses(d, o.run.study);
        return protocol::kExitOk;
    } catch (const std::exception& e) {
        if (jsonLines) {
            sink.emit({{"event", protocol::event::kError}, {"message", e.what()}});
        } else {
            std::cerr << "probaudit: error: " << e.what() << "\n";
        }
        return stop ? protocol::kExitInterrupted : protocol::kExitError;
    }
}

} // namespace probaudit::app
