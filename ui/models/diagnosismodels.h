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

#include <QAbstractTableModel>

#include <vector>

namespace probaudit::ui {

class ProbeTableModel : public QAbstractTableModel {
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
    void setReview(const ReviewPtr& review);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    ReviewPtr m_review;
};

class KernelDiffModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { ProbeColumn, KindColumn, NameColumn, CountAColumn, CountBColumn, NUM_COLUMNS };
    enum Roles {
        SortRole = Qt::UserRole, // counts as numbers
    };

    explicit KernelDiffModel(QObject* parent = nullptr);
    void setReview(const ReviewPtr& review);
    // Differences found (0: the table shows the one row that says none were).
    int differenceCount() const { return int(m_rows.size()); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString probe;
        analysis::KernelDiff diff;
    };
    ReviewPtr m_review;
    std::vector<Row> m_rows;
};

class ConfigExplanationModel : public QAbstractTableModel {
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
    void setReview(const ReviewPtr& review);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    ReviewPtr m_review;
};

class ForecastModel : public QAbstractTableModel {
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
    void setReview(const ReviewPtr& review);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    ReviewPtr m_review;
};

} // namespace probaudit::ui
