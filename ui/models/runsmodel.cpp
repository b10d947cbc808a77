#include "ui/models/runsmodel.h"

#include "common/vocabulary.h"
#include "ui/models/colors.h"

namespace probaudit::ui {

RunsModel::RunsModel(QObject* parent) : ReviewTableModel(NUM_COLUMNS, parent) {}

// The run's environment fingerprint, summarised.
QVariant RunsModel::environmentToolTip(const ledger::Run& r) const {
    const auto it = review()->environments.find(r.env_hash);
    if (it == review()->environments.end() || !it->second.is_object()) {
        return {};
    }
    const nlohmann::json& e = it->second;
    auto part = [&e](const char* key) {
        const auto value = e.find(key);
        return value != e.end() && value->is_object() ? *value : nlohmann::json::object();
    };
    if (envKind(e) == EnvKind::Endpoint) { // a server's runtime: what it said and was declared
        const nlohmann::json endpoint = part("endpoint"), server = part("server"),
                             labels = part("labels");
        QString text = tr("environment %1\nserver %2 (%3 API), model %4")
                           .arg(QString::fromStdString(r.env_hash),
                                QString::fromStdString(endpoint.value("url", "?")),
                                QString::fromStdString(endpoint.value("api", "?")),
                                QString::fromStdString(endpoint.value("model", "?")));
        for (const char* key : {"header", "system_fingerprint"}) {
            if (server.contains(key) && server[key].is_string()) {
                text += QStringLiteral("\n%1: %2")
                            .arg(QString::fromLatin1(key),
                                 QString::fromStdString(server[key].get<std::string>()));
            }
        }
        for (const auto& [key, value] : labels.items()) {
            text += QStringLiteral("\n%1: %2")
                        .arg(QString::fromStdString(key),
                             QString::fromStdString(value.is_string() ? value.get<std::string>()
                                                                      : value.dump()));
        }
        return text;
    }
    const nlohmann::json torch = part("torch"), cpu = part("cpu"), threads = part("threads"),
                         engine = part("engine");
    return tr("environment %1\nlibtorch %2, CUDA build %3\nCPU %4, kernels %5\n"
              "intra-op threads %6\nProbAudit %7 (commit %8)")
        .arg(QString::fromStdString(r.env_hash),
             QString::fromStdString(torch.value("version", "?")),
             QString::fromStdString(torch.value("cuda_build", "none")),
             QString::fromStdString(cpu.value("model", "?")),
             QString::fromStdString(cpu.value("aten_capability", "?")),
             QString::number(threads.value("intra_op", 0)),
             QString::fromStdString(engine.value("version", "?")),
             QString::fromStdString(engine.value("commit", "?").substr(0, 12)));
}

// An endpoint run's serving as its exchanges recorded it; nothing for engine runs.
QVariant RunsModel::servingText(const ledger::Run& r, bool toolTip) const {
    const auto it = review()->serving.find(r.id);
    if (it == review()->serving.end() || !it->second.available()) {
        return {};
    }
    const analysis::RequestStats& s = it->second;
    if (!toolTip) {
        return tr("%1 items/s · %2 in flight")
            .arg(s.items_per_second, 0, 'f', 2)
            .arg(s.achieved_concurrency, 0, 'f', 2);
    }
    return tr("%1 items in %2 s over %3 session(s); requests in flight on average %4 (measured "
              "from send and reply times); latency median %5 s, p99 %6 s; %7 retries, %8 items "
              "failed")
        .arg(s.items)
        .arg(s.seconds, 0, 'f', 1)
        .arg(s.sessions)
        .arg(s.achieved_concurrency, 0, 'f', 2)
        .arg(s.latency_median, 0, 'f', 3)
        .arg(s.latency_p99, 0, 'f', 3)
        .arg(s.retries)
        .arg(s.failed);
}

QVariant RunsModel::cellData(const QModelIndex& index, int role) const {
    const ledger::Run& r = review()->runs[std::size_t(index.row())];
    if (role == RunIdRole) {
        return qlonglong(r.id);
    }
    if (role == Qt::BackgroundRole && index.column() == StatusColumn) {
        switch (r.status) {
        case ledger::RunStatus::Finished:
            return {};
        case ledger::RunStatus::Failed:
            return tint(flipColor(), 0.25);
        default:
            return tint(changedColor(), 0.2);
        }
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == StatusColumn && !r.message.empty()) {
            return QString::fromStdString(r.message);
        }
        if (index.column() == KindColumn && r.imported()) {
            return QString::fromStdString(r.label); // "imported from audit.zip"
        }
        if (index.column() == EnvironmentColumn) {
            return environmentToolTip(r);
        }
        if (index.column() == ServingColumn) {
            return servingText(r, true);
        }
        if (index.column() == SealColumn && !r.chain_sha256.empty()) {
            return tr("records SHA-256 %1\nchain SHA-256 %2")
                .arg(QString::fromStdString(r.records_sha256),
                     QString::fromStdString(r.chain_sha256));
        }
        return {};
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
    case IdColumn:
        return qlonglong(r.id);
    case KindColumn:
        return r.kind == RunKind::Probe ? tr("probe") : r.imported() ? tr("imported") : tr("study");
    case ConfigColumn:
        return r.kind == RunKind::Probe && !r.label.empty() ? QString::fromStdString(r.label)
                                                            : QString::fromStdString(r.config_name);
    case HeadColumn:
        return QString::fromStdString(r.head);
    case StatusColumn:
        switch (r.status) {
        case ledger::RunStatus::Finished:
            return tr("finished");
        case ledger::RunStatus::Interrupted:
            return tr("interrupted");
        case ledger::RunStatus::Failed:
            return tr("failed");
        case ledger::RunStatus::Running:
            return r.writer_alive ? tr("running") : tr("cut off (resumable)");
        }
        return {};
    case ItemsColumn:
        return tr("%1 / %2").arg(r.items_done).arg(r.items_total);
    case CaptureColumn:
        return QString::fromStdString(r.capture);
    case EnvironmentColumn:
        return QString::fromStdString(r.env_hash.substr(0, 12));
    case StartedColumn:
        return QString::fromStdString(r.started);
    case ServingColumn:
        return servingText(r, false);
    case SealColumn:
        return r.chain_sha256.empty() ? tr("not sealed")
                                      : QString::fromStdString(r.chain_sha256.substr(0, 12));
    default:
        return {};
    }
}

QStringList RunsModel::headerTitles() const {
    return {tr("Run"),   tr("Kind"),    tr("Config or probe"), tr("Head"),          tr("Status"),
            tr("Items"), tr("Capture"), tr("Environment"),     tr("Started (UTC)"), tr("Serving"),
            tr("Seal")};
}

} // namespace probaudit::ui
