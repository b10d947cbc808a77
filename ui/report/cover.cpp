#include "ui/report/sections.h"

#include "bundle/lockfile.h"
#include "common/build_info.h"
#include "ui/models/pinstatus.h"

#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <map>

namespace probaudit::ui::reporting {

using nlohmann::json;

namespace {

QString envSummary(const json& e) {
    auto part = [&e](const char* key) {
        const auto it = e.find(key);
        return it != e.end() && it->is_object() ? *it : json::object();
    };
    const json torch = part("torch"), cpu = part("cpu"), threads = part("threads"),
               cuda = part("cuda"), engine = part("engine");
    QString gpu = QStringLiteral("none");
    if (cuda.contains("devices") && cuda["devices"].is_array() && !cuda["devices"].empty()) {
        gpu = QString::fromStdString(cuda["devices"][0].value("name", "GPU"));
    }
    return QStringLiteral("libtorch %1, CUDA build %2, GPU %3, CPU %4 (kernels %5), intra-op "
                          "threads %6, ProbAudit %7")
        .arg(esc(torch.value("version", "?")), esc(torch.value("cuda_build", "none")), esc(gpu),
             esc(cpu.value("model", "?")), esc(cpu.value("aten_capability", "?")))
        .arg(threads.value("intra_op", 0))
        .arg(esc(engine.value("version", "?") + " " + engine.value("commit", "").substr(0, 12)));
}

QString findLock(const analysis::Review& rv, const ReportOptions& o) {
    return !o.lockPath.isEmpty() ? o.lockPath : bundle::findLockFile(rv);
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
        h.p(QStringLiteral("Against the runtime lock %1:").arg(esc(lockPath)));
        h.table({QStringLiteral("environment"), QStringLiteral("status"),
                 QStringLiteral("differences that can move numbers")},
                pinRows);
    }
}

} // namespace

void cover(Html& h, const analysis::Review& rv, const ReportOptions& o) {
    const json model = rv.study.value("model", json::object());
    const json dataset = rv.study.value("dataset", json::object());
    QStringList files;
    for (const auto& f : dataset.value("path", json::array())) {
        files << esc(f.get<std::string>());
    }
    h.text += QStringLiteral("<h1>ProbAudit report: %1</h1>").arg(esc(rv.study.value("name", "")));
    if (rv.trust.state == ledger::Trust::State::Tampered) {
        h.text +=
            QStringLiteral(
                "<p style=\"background-color:#c62828; color:#ffffff; padding:8px\"><b>TAMPERED "
                "LEDGER</b>: %1. The figures in this report come from a ledger that was "
                "changed after it was sealed; do not sign them off.</p>")
                .arg(esc(rv.trust.problem));
    }
    h.p(QStringLiteral("Do the model's decisions and probabilities reproduce under every runtime "
                       "configuration of this study?"));
    h.table({QStringLiteral("what"), QStringLiteral("")},
            {{QStringLiteral("Study"),
              esc(rv.study.value("name", "")) +
                  (rv.study_path.empty() ? QString()
                                         : QStringLiteral(" (%1)").arg(esc(rv.study_path)))},
             {QStringLiteral("Ledger"), esc(rv.path)},
             {QStringLiteral("Ledger integrity"), esc(rv.trust.line())},
             {QStringLiteral("Chain head"), rv.trust.verify.head
                                                ? esc(rv.trust.verify.head->text())
                                                : QStringLiteral("none that verifies")},
             {QStringLiteral("Model"), esc(model.value("path", "")) + QStringLiteral(" (") +
                                           esc(model.value("format", "")) + QStringLiteral(")")},
             {QStringLiteral("Model files SHA-256"), esc(model.value("sha256", "not recorded"))},
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
    pinSection(h, rv, o, byEnv);
}

} // namespace probaudit::ui::reporting
