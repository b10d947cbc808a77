#include "ui/models/runsmodel.h"

#include "core/common/env_facts.h"
#include "core/common/vocabulary.h"
#include "ui/models/colors.h"

namespace probaudit::ui {

RunsModel::RunsModel(QObject* parent) : ReviewTableModel(NUM_COLUMNS, parent) {}

// The run's environment fingerprint, summarised.
QVariant RunsModel::environmentToolTip(const ledger::Run& r) const {
    const auto it = review()->environments.find(r.env_hash);
    if (it == review()->environments.end() || !it->second.is_object()) {
        return {};
    }
    const EnvFingerprint f = EnvFingerprint::read(it->second);
    const auto q = [](const std::optional<std::string>& s, const char* unknown) {
        return QString::fromStdString(s.value_or(unknown));
    };
    if (f.kind == EnvKind::Endpoint) { // a server's runtime: what it said and was declared
        QString text = tr("environment %1\nserver %2 (%3 API), model %4")
                           .arg(QString::fromStdString(r.env_hash), q(f.endpoint.url, "?"),
                                q(f.endpoint.api, "?"), q(f.endpoint.model, "?"));
        for (const auto& [key, value] :
             {std::pair{"header", f.server.header},
              std::pair{"system_fingerprint", f.server.system_fingerprint}}) {
            if (value) {
                text += QStringLiteral("\n%1: %2").arg(QString::fromLatin1(key), q(value, ""));
            }
        }
        for (const auto& [key, value] : f.labels) {
            text += QStringLiteral("\n%1: %2")
                        .arg(QString::fromStdString(key), QString::fromStdString(value));
        }
        return text;
    }
    return tr("environment %1\nlibtorch %2, CUDA build %3\nCPU %4, kernels %5\n"
              "intra-op threads %6\nProbAudit %7 (commit %8)")
        .arg(QString::fromStdString(r.env_hash), q(f.torch.version, "?"),
             q(f.torch.cuda_build, "none"), q(f.cpu.model, "?"), q(f.cpu.aten_capability, "?"),
             QString::number(f.threads.intra_op.value_or(0)), q(f.engine.version, "?"),
             QString::fromStdString(f.engine.commit.value_or("?").substr(0, 12)));
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
    case ModelColumn: {
        const auto v = review()->run_variants.find(r.id);
        return v == review()->run_variants.end() ? QVariant() : QString::fromStdString(v->second);
    }
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
    return {tr("Run"),         tr("Kind"),          tr("Config or probe"), tr("Model variant"),
            tr("Head"),        tr("Status"),        tr("Items"),           tr("Capture"),
            tr("Environment"), tr("Started (UTC)"), tr("Serving"),         tr("Seal")};
}

} // namespace probaudit::ui
