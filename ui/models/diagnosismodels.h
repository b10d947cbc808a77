#pragma once
// The diagnosis view's tables, from the typed diagnosis stored by `probaudit diagnose`
// (analysis::Diagnosis), one model each, the whole diagnosis swapped in by setReview():
//   ProbeTableModel:        the probe comparisons (what changed, largest Δp, first layer that
//                           differs, flipped and bit-identical items); moved rows tinted
//   KernelDiffModel:        operators and device kernels whose counts differ between a probe
//                           and its baseline (one row saying so when none do)
//   ConfigExplanationModel: the study's configs, the suspects they differ in, their full runs
//   ForecastModel:          the fragility forecast against the flips the full runs observed
#include "ui/models/reviewloader.h"
#include "ui/models/tablemodel.h"

#include <vector>

namespace probaudit::ui {

class ProbeTableModel : public ReviewTableModel {
    Q_OBJECT
public:
    enum Columns {
        WhatColumn,
        MaxDpColumn,
        FirstLayerColumn,
        FlippedColumn,
        BitIdenticalColumn,
        NUM_COLUMNS
    };
    enum Roles {
        SortRole = Qt::UserRole, // the number behind a cell
    };

    explicit ProbeTableModel(QObject* parent = nullptr);

private:
    int rows() const override;
    QVariant cellData(const QModelIndex& index, int role) const override;
    QStringList headerTitles() const override;
};

class KernelDiffModel : public ReviewTableModel {
    Q_OBJECT
public:
    enum Columns { ProbeColumn, KindColumn, NameColumn, CountAColumn, CountBColumn, NUM_COLUMNS };
    enum Roles {
        SortRole = Qt::UserRole, // counts as numbers
    };

    explicit KernelDiffModel(QObject* parent = nullptr);
    // Differences found (0: the table shows the one row that says none were).
    int differenceCount() const { return int(m_rows.size()); }

private:
    int rows() const override;
    QVariant cellData(const QModelIndex& index, int role) const override;
    QStringList headerTitles() const override;
    void reviewChanged() override;

    struct Row {
        QString probe;
        analysis::KernelDiff diff;
    };
    std::vector<Row> m_rows;
};

class ConfigExplanationModel : public ReviewTableModel {
    Q_OBJECT
public:
    enum Columns {
        ConfigColumn,
        DiffersColumn,
        SuspectsColumn,
        FlipsColumn,
        MaxDpColumn,
        FirstLayerColumn,
        NUM_COLUMNS
    };
    enum Roles {
        SortRole = Qt::UserRole, // the number behind a cell
    };

    explicit ConfigExplanationModel(QObject* parent = nullptr);

private:
    int rows() const override;
    QVariant cellData(const QModelIndex& index, int role) const override;
    QStringList headerTitles() const override;
};

class ForecastModel : public ReviewTableModel {
    Q_OBJECT
public:
    enum Columns {
        ConfigColumn,
        PredictedColumn,
        ObservedColumn,
        ErrorColumn, // predicted minus observed
        SampleColumn,
        NUM_COLUMNS
    };
    enum Roles {
        SortRole = Qt::UserRole, // the number behind a cell (-1: not run)
    };

    explicit ForecastModel(QObject* parent = nullptr);

private:
    int rows() const override;
    QVariant cellData(const QModelIndex& index, int role) const override;
    QStringList headerTitles() const override;
};

} // namespace probaudit::ui
