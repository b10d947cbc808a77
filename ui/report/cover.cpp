#include "ui/report/sections.h"

#include "core/analysis/conformance.h"
#include "core/analysis/variants.h"
#include "core/bundle/lockfile.h"
#include "core/common/build_info.h"
#include "core/common/env_facts.h"
#include "core/common/vocabulary.h"
#include "ui/models/pinstatus.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <map>

namespace probaudit::ui::reporting {

using nlohmann::json;

namespace {

std::string orUnknown(const std::string& s) {
    return s.empty() ? std::string("?") : s;
}

// A server's environment: where it is, what it serves and what it says and is said of it.
QString endpointSummary(const EnvFingerprint& f) {
    QStringList labels;
    for (const auto& [k, v] : f.labels) {
        labels << esc(k + ": " + v);
    }
    return QStringLiteral("server %1, model %2 (%3 API), server header %4, system_fingerprint %5, "
                          "declared: %6; ProbAudit %7")
        .arg(esc(f.endpoint.url.value_or("?")), esc(f.endpoint.model.value_or("?")),
             esc(f.endpoint.api.value_or("?")), esc(f.server.header.value_or("none")),
             esc(f.server.system_fingerprint.value_or("none")),
             labels.isEmpty() ? QStringLiteral("nothing") : labels.join(QStringLiteral("; ")),
             esc(f.client_probaudit.value_or("?")));
}

QString envSummary(const json& e) {
    const EnvFingerprint f = EnvFingerprint::read(e);
    if (f.kind == EnvKind::Endpoint) {
        return endpointSummary(f);
    }
    const QString gpu = f.cuda.gpus.empty()
                            ? QStringLiteral("none")
                            : QString::fromStdString(f.cuda.gpus.front().name.value_or("GPU"));
    return QStringLiteral("libtorch %1, CUDA build %2, GPU %3, CPU %4 (kernels %5), intra-op "
                          "threads %6, ProbAudit %7")
        .arg(esc(f.torch.version.value_or("?")), esc(f.torch.cuda_build.value_or("none")), esc(gpu),
             esc(f.cpu.model.value_or("?")), esc(f.cpu.aten_capability.value_or("?")))
        .arg(f.threads.intra_op.value_or(0))
        .arg(
            esc(f.engine.version.value_or("?") + " " + f.engine.commit.value_or("").substr(0, 12)));
}

// Endpoint runs: how the server really served them. A config may ask for N requests in flight
// while the server works on fewer (the second field report's sweep took 20 minutes serial and
// 23 batched): the requests actually in flight and the items per second say what happened.
void servingSection(Html& h, const analysis::Review& rv) {
    // Items per second against the reference run, when it sent one request at a time: the
    // speed-up the concurrency bought (a server that queues gives none, whatever is in flight).
    const analysis::ReviewRow* ref = rv.row(rv.reference_name);
    const bool serialRef = ref != nullptr && ref->serving &&
                           ref->config_json.value("concurrency", 1) == 1 &&
                           ref->serving->items_per_second > 0;
    std::vector<QStringList> rows;
    for (const auto& row : rv.rows) {
        if (!row.serving) {
            continue;
        }
        const analysis::RequestStats& s = *row.serving;
        rows.push_back({esc(row.config), QString::number(row.run->id),
                        QString::number(row.config_json.value("concurrency", 1)),
                        QString::number(s.achieved_concurrency, 'f', 2),
                        QString::number(s.items_per_second, 'f', 2),
                        serialRef
                            ? QStringLiteral("%1x").arg(
                                  s.items_per_second / ref->serving->items_per_second, 0, 'f', 2)
                            : QStringLiteral("–"),
                        QStringLiteral("%1 / %2")
                            .arg(s.latency_median, 0, 'f', 2)
                            .arg(s.latency_p99, 0, 'f', 2),
                        QString::number(s.retries), QString::number(s.failed)});
    }
    if (rows.empty()) {
        return;
    }
    h.h2(QStringLiteral("Serving"));
    h.p(QStringLiteral("Each endpoint run's requests as sent and answered: the concurrency its "
                       "config asked for; the requests in flight on average (sent and not yet "
                       "answered: every attempt's send-to-reply time over the run's time); items "
                       "per second, and against the reference run when it sent one request at a "
                       "time (a server that queues requests instead of batching them gives no "
                       "speed-up however many are in flight); the latency of a request in seconds "
                       "(median / p99); retries and failed items."));
    h.table({QStringLiteral("config"), QStringLiteral("run"), QStringLiteral("asked"),
             QStringLiteral("in flight"), QStringLiteral("items/s"),
             QStringLiteral("vs one at a time"), QStringLiteral("latency"),
             QStringLiteral("retries"), QStringLiteral("failed")},
            rows);
}

// A path as the cover shows it: relative to the study's folder (else the ledger's) unless the
// options ask for the machine's absolute form; a relative or empty path stays as it was written.
QString shownPath(const std::string& path, const analysis::Review& rv, const ReportOptions& o) {
    const QString p = QString::fromStdString(path);
    if (o.absolutePaths || p.isEmpty() || QDir::isRelativePath(p)) {
        return esc(path);
    }
    const std::string& anchor = rv.study_path.empty() ? rv.path : rv.study_path;
    const QDir base = QFileInfo(QString::fromStdString(anchor)).absoluteDir();
    return esc(base.relativeFilePath(p));
}

QString findLock(const analysis::Review& rv, const ReportOptions& o) {
    return !o.lockPath.isEmpty() ? o.lockPath : bundle::findLockFile(rv);
}

// A string field of a stored study's object, "" when it is not one (a ledger is outside input).
std::string textOf(const nlohmann::json& o, const char* key) {
    return o.is_object() && o.contains(key) && o[key].is_string() ? o[key].get<std::string>()
                                                                  : std::string();
}

// The runtime floor in one sentence: flips and Δp, and KL where it is measured.
QString floorSentence(const analysis::VariantTable& t) {
    const auto& f = t.floor;
    if (f.configs == 0) {
        return QStringLiteral("The runtime noise floor is not measured: no runtime config of the "
                              "reference variant besides the reference has a run.");
    }
    QString s =
        QStringLiteral("Runtime noise floor: the reference variant under %1 other runtime "
                       "config(s) flips at most %2 decision(s)%3, largest Δp %4 points")
            .arg(f.configs)
            .arg(f.max_flips)
            .arg(f.max_flips_config.empty() ? QString()
                                            : QStringLiteral(" (%1)").arg(esc(f.max_flips_config)),
                 esc(analysis::formatPoints(f.max_dp)));
    if (f.kl_mean) {
        s += QStringLiteral("; its largest mean KL over the vocabulary is %1 nats (%2)")
                 .arg(esc(analysis::formatNats(*f.kl_mean)), esc(f.kl_config));
    }
    return s + QStringLiteral(".");
}

// Each variant against the reference variant under the same runtime settings, as
// `probaudit summary --variants` prints it.
void variantsCompared(Html& h, const analysis::Review& rv) {
    analysis::VariantTable t = analysis::variantTable(rv);
    if (t.rows.empty()) {
        return;
    }
    analysis::addVocabularyKl(t, ledger::Ledger(rv.path, ledger::Ledger::Mode::Read));
    h.p(QStringLiteral("Each variant against the reference variant's config with the same "
                       "runtime settings. Churn: labelled items whose correctness changed either "
                       "way (Wilson 95%); net: the accuracy difference (paired bootstrap 95%); "
                       "KL: over the whole vocabulary at the decision position, where the head "
                       "records it. ") +
        floorSentence(t));
    const auto yesNo = [](bool measured, bool above) {
        return measured ? (above ? QStringLiteral("yes") : QStringLiteral("no"))
                        : QStringLiteral("not measured");
    };
    std::vector<QStringList> rows;
    for (const auto& v : t.rows) {
        rows.push_back(
            {esc(v.variant), esc(v.config + " vs " + v.baseline), QString::number(v.flips),
             v.labelled > 0 ? esc(analysis::formatShare(v.churn)) : QStringLiteral("n/a"),
             esc(analysis::formatNetPoints(v.net)), esc(analysis::formatPoints(v.max_dp)),
             yesNo(t.floor.configs > 0, v.above_floor),
             v.kl ? esc(analysis::formatNats(v.kl->mean)) : QStringLiteral("n/a"),
             v.kl ? esc(analysis::formatShare(v.kl->same_top_share)) : QStringLiteral("n/a"),
             v.kl ? yesNo(t.floor.kl_mean.has_value(), v.kl_above_floor) : QStringLiteral("n/a")});
    }
    h.table({QStringLiteral("variant"), QStringLiteral("config vs baseline"),
             QStringLiteral("flips"), QStringLiteral("churn"), QStringLiteral("net, points"),
             QStringLiteral("largest Δp"), QStringLiteral("above floor"),
             QStringLiteral("KL mean, nats"), QStringLiteral("same top token"),
             QStringLiteral("KL above floor")},
            rows);
}

// "Is the provider serving my model?": each server variant's config against the variant it
// claims to serve, as `probaudit summary --variants` prints it.
void serversJudged(Html& h, const analysis::Review& rv) {
    const std::vector<analysis::ServerConformance> servers = analysis::serverConformance(rv);
    if (servers.empty()) {
        return;
    }
    h.p(QStringLiteral("Each server against the local variant it claims to serve, under the same "
                       "engine settings, and against that variant's runtime noise floor (its "
                       "other runtime configs); closest: the local variants whose decisions the "
                       "server's are nearest."));
    std::vector<QStringList> rows;
    for (const auto& c : servers) {
        QStringList closest;
        for (const auto& v : c.closest) {
            closest << esc(v);
        }
        rows.push_back(
            {esc(c.variant), esc(c.config + " vs " + c.baseline), esc(c.serves),
             QString::number(c.flips), esc(analysis::formatPoints(c.max_dp)),
             c.floor_configs == 0 ? QStringLiteral("not measured")
                                  : QStringLiteral("%1, %2")
                                        .arg(c.floor_flips)
                                        .arg(esc(analysis::formatPoints(c.floor_dp))),
             closest.join(QStringLiteral(", ")),
             QStringLiteral("<b>%1</b>: %2")
                 .arg(esc(std::string(analysis::verdictName(c.verdict))), esc(c.finding))});
    }
    h.table({QStringLiteral("server"), QStringLiteral("config vs baseline"),
             QStringLiteral("claims to serve"), QStringLiteral("flips"),
             QStringLiteral("largest Δp"), QStringLiteral("floor: flips, Δp"),
             QStringLiteral("closest"), QStringLiteral("verdict")},
            rows);
}

// Where a variant is: a checkpoint's file, or a server's URL and model and what it claims.
QString variantLocation(const json& v, const analysis::Review& rv, const ReportOptions& o) {
    if (textOf(v, "format") == "endpoint") {
        const json server = v.value("server", json::object());
        return QStringLiteral("server %1, model %2; claims to serve %3")
            .arg(esc(textOf(server, "endpoint")), esc(textOf(server, "name")),
                 esc(textOf(v, "serves")));
    }
    return shownPath(textOf(v, "path"), rv, o) + QStringLiteral(" (") + esc(textOf(v, "format")) +
           QStringLiteral(")");
}

// A study with model variants ($.models): every variant's file and digest, and the variants
// compared.
void variantsSection(Html& h, const analysis::Review& rv, const ReportOptions& o) {
    const auto models = rv.study.find("models");
    if (models == rv.study.end() || !models->is_object()) {
        return;
    }
    const auto model = rv.study.find("model");
    const std::string reference = model != rv.study.end() ? textOf(*model, "variant") : "";
    h.h2(QStringLiteral("Model variants"));
    h.p(QStringLiteral("The study's configs run these builds of the model (a config's "
                       "\"model\"); the reference variant is the one the reference config "
                       "runs. <i>probaudit summary --variants</i> compares each with it under "
                       "the same runtime settings."));
    std::vector<QStringList> rows;
    for (const auto& [name, v] : models->items()) {
        const std::string digest = textOf(v, "sha256");
        const bool server = textOf(v, "format") == "endpoint";
        rows.push_back(
            {esc(name) + (name == reference ? QStringLiteral(" (reference)") : QString()),
             variantLocation(v, rv, o),
             server ? QStringLiteral("none (a server: its runs' environment names it)")
                    : esc(digest.empty() ? std::string("not recorded") : digest)});
    }
    h.table({QStringLiteral("variant"), QStringLiteral("file"), QStringLiteral("SHA-256")}, rows);
    variantsCompared(h, rv);
    serversJudged(h, rv);
}

// The pin status of every environment against the runtime lock, if one is found.
void pinSection(Html& h, const analysis::Review& rv, const ReportOptions& o,
                const std::map<std::string, std::vector<std::int64_t>>& byEnv) {
    h.h2(QStringLiteral("Pin status"));
    const QString lockPath = findLock(rv, o);
    QJsonObject lock;
    if (!lockPath.isEmpty()) {
        QFile f(lockPath);
        if (f.open(QIODevice::ReadOnly)) {
            lock = QJsonDocument::fromJson(f.readAll()).object();
        }
    }
    if (lock.isEmpty()) {
        h.p(QStringLiteral("Not pinned: no runtime lock was found beside the ledger or the study. "
                           "<i>probaudit pin</i> writes one from a verified run; "
                           "<i>probaudit check</i> then names every difference of a runtime."));
    } else {
        std::vector<QStringList> pinRows;
        for (const auto& [hash, ids] : byEnv) {
            const auto it = rv.environments.find(hash);
            if (it == rv.environments.end()) {
                continue;
            }
            const QJsonObject current =
                QJsonDocument::fromJson(QByteArray::fromStdString(it->second.dump())).object();
            const PinStatus st = pinStatus(lockPath, lock, current);
            pinRows.push_back(
                {esc(hash), esc(st.text), esc(st.differences.join(QStringLiteral("; ")))});
        }
        h.p(QStringLiteral("Against the runtime lock %1:")
                .arg(shownPath(lockPath.toStdString(), rv, o)));
        h.table({QStringLiteral("environment"), QStringLiteral("status"),
                 QStringLiteral("differences that can move numbers")},
                pinRows);
    }
}

} // namespace

void cover(Html& h, const analysis::Review& rv, const ReportOptions& o) {
    const analysis::StudyFacts::Model& model = rv.facts.model;
    QStringList files;
    for (const auto& f : rv.facts.dataset_paths) {
        files << shownPath(f, rv, o);
    }
    h.text += QStringLiteral("<h1>ProbAudit report: %1</h1>").arg(esc(rv.facts.name));
    if (rv.trust.state == ledger::Trust::State::Tampered) {
        h.text +=
            QStringLiteral(
                "<p style=\"background-color:#c62828; color:#ffffff; padding:8px\"><b>TAMPERED "
                "LEDGER</b>: %1. The figures in this report come from a ledger that was "
                "changed after it was sealed; do not sign them off.</p>")
                .arg(esc(rv.trust.problem));
    }
    verdict(h, rv);
    h.p(QStringLiteral("Do the model's decisions and probabilities reproduce under every runtime "
                       "configuration of this study?"));
    h.table({QStringLiteral("what"), QStringLiteral("")},
            {{QStringLiteral("Study"),
              esc(rv.facts.name) + (rv.study_path.empty() ? QString()
                                                          : QStringLiteral(" (%1)").arg(
                                                                shownPath(rv.study_path, rv, o)))},
             {QStringLiteral("Ledger"), shownPath(rv.path, rv, o)},
             {QStringLiteral("Ledger integrity"), esc(rv.trust.line())},
             {QStringLiteral("Chain head"), rv.trust.verify.head
                                                ? esc(rv.trust.verify.head->text())
                                                : QStringLiteral("none that verifies")},
             {rv.study.contains("models") ? QStringLiteral("Model (reference variant)")
                                          : QStringLiteral("Model"),
              model.served ? QStringLiteral("%1 served at %2 (%3 API)")
                                 .arg(esc(orUnknown(model.name)), esc(orUnknown(model.endpoint)),
                                      esc(orUnknown(model.api)))
                           : shownPath(model.path, rv, o) + QStringLiteral(" (") +
                                 esc(model.format) + QStringLiteral(")")},
             {QStringLiteral("Model files SHA-256"),
              model.served
                  ? QStringLiteral("not known: the server holds the weights (see its environment)")
                  : esc(model.sha256.empty() ? std::string("not recorded") : model.sha256)},
             {QStringLiteral("Dataset"), files.join(QStringLiteral("<br>"))},
             {QStringLiteral("Dataset SHA-256"), esc(rv.dataset_sha256)},
             {QStringLiteral("Items"), QString::number(rv.items.size())},
             {QStringLiteral("Head reviewed"), esc(rv.head)},
             {QStringLiteral("Reference config"), esc(rv.reference_name)},
             {QStringLiteral("Report date"),
              QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"))},
             {QStringLiteral("Written by"), QStringLiteral("ProbAudit %1 (commit %2)")
                                                .arg(QString::fromLatin1(engineVersion()),
                                                     QString::fromLatin1(gitCommit()).left(12))}});
    variantsSection(h, rv, o);
    h.h2(QStringLiteral("Environments of the runs"));
    std::map<std::string, std::vector<std::int64_t>> byEnv;
    for (const auto& r : rv.runs) {
        byEnv[r.env_hash].push_back(r.id);
    }
    std::vector<QStringList> rows;
    for (const auto& [hash, ids] : byEnv) {
        QStringList idText;
        for (auto id : ids) {
            idText << QString::number(id);
        }
        const auto it = rv.environments.find(hash);
        rows.push_back({esc(hash),
                        idText.size() > 12 ? QStringLiteral("%1 runs").arg(idText.size())
                                           : idText.join(QStringLiteral(", ")),
                        it != rv.environments.end() ? envSummary(it->second) : QString()});
    }
    h.table({QStringLiteral("environment"), QStringLiteral("runs"), QStringLiteral("fingerprint")},
            rows);
    servingSection(h, rv);
    pinSection(h, rv, o, byEnv);
}

} // namespace probaudit::ui::reporting
