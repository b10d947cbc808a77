#include "ui/models/format.h"

#include "core/analysis/review.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace probaudit::ui {

namespace {
QString signedNumber(double v, int decimals) {
    const QString s = QString::number(std::abs(v), 'f', decimals);
    // U+2212 MINUS SIGN: the same width as the plus sign in tables.
    return (v < 0 ? QStringLiteral("\u2212") : QStringLiteral("+")) + s;
}
} // namespace

QString formatPoints(double points) {
    if (std::isnan(points)) {
        return QStringLiteral("\u2013"); // not known (a label a server did not list)
    }
    if (points == 0) {
        return QStringLiteral("0");
    }
    if (std::abs(points) < 1e-3) {
        return QString::number(points, 'e', 2);
    }
    return QString::number(points, 'g', 3);
}

QString formatShare(double share) {
    if (share == 1) {
        return QStringLiteral("100%");
    }
    if (share == 0) {
        return QStringLiteral("0%");
    }
    const double pct = 100 * share;
    if (pct >= 99.95) {
        return QStringLiteral("> 99.9%");
    }
    if (pct < 0.05) {
        return QStringLiteral("< 0.1%");
    }
    return QString::number(pct, 'f', 1) + QStringLiteral("%");
}

QString formatProbability(double p) {
    return QString::number(p, 'f', 4);
}

QString formatMargin(double margin) {
    return QString::number(margin, 'g', 4);
}

QString formatInterval(double estimate, double low, double high) {
    return QStringLiteral("%1 [%2, %3]")
        .arg(signedNumber(100 * estimate, 2), signedNumber(100 * low, 2),
             signedNumber(100 * high, 2));
}

QString formatLayer(int layer) {
    if (layer == -2) {
        return QCoreApplication::translate("Format", "not captured");
    }
    if (layer < 0) {
        return QCoreApplication::translate("Format", "none");
    }
    if (layer == 0) {
        return QCoreApplication::translate("Format", "embeddings");
    }
    return QCoreApplication::translate("Format", "layer %1").arg(layer);
}

QString formatVerdict(bool accuracy, bool decisions, bool probabilities) {
    return QCoreApplication::translate("Format", "accuracy %1; decisions %2; probabilities %3")
        .arg(accuracy ? QCoreApplication::translate("Format", "reproduces")
                      : QCoreApplication::translate("Format", "does NOT reproduce"),
             decisions ? QCoreApplication::translate("Format", "reproduce")
                       : QCoreApplication::translate("Format", "do NOT reproduce"),
             probabilities ? QCoreApplication::translate("Format", "reproduce bit for bit")
                           : QCoreApplication::translate("Format", "do NOT reproduce bit for bit"));
}

QString heatColour(double share) {
    const double s = std::clamp(share, 0.0, 1.0);
    // White (255, 255, 255) to (232, 116, 59).
    const auto mix = [s](int to) { return int(std::lround(255.0 + (to - 255.0) * s)); };
    return QStringLiteral("#%1%2%3")
        .arg(mix(232), 2, 16, QLatin1Char('0'))
        .arg(mix(116), 2, 16, QLatin1Char('0'))
        .arg(mix(59), 2, 16, QLatin1Char('0'));
}

QString formatOpClass(OpClass cls) {
    switch (cls) {
    case OpClass::Embeddings:
        return QCoreApplication::translate("Format", "embeddings");
    case OpClass::Norms:
        return QCoreApplication::translate("Format", "norms");
    case OpClass::Projections:
        return QCoreApplication::translate("Format", "projections");
    case OpClass::Attention:
        return QCoreApplication::translate("Format", "attention");
    case OpClass::AttentionOutput:
        return QCoreApplication::translate("Format", "attention output");
    case OpClass::Mlp:
        return QCoreApplication::translate("Format", "MLP");
    case OpClass::Residual:
        return QCoreApplication::translate("Format", "residual adds");
    case OpClass::Head:
        break;
    }
    return QCoreApplication::translate("Format", "head");
}

QString formatLadderStep(const QString& step) {
    if (step == QLatin1String("loader and repeatability")) {
        return QCoreApplication::translate("Format", "loader and repeatability");
    }
    if (step == QLatin1String("neighbour interference")) {
        return QCoreApplication::translate("Format", "neighbour interference");
    }
    if (step == QLatin1String("shape")) {
        return QCoreApplication::translate("Format", "shape");
    }
    if (step == QLatin1String("kernels and runtime")) {
        return QCoreApplication::translate("Format", "kernels and runtime");
    }
    if (step == QLatin1String("model variant")) {
        return QCoreApplication::translate("Format", "model variant");
    }
    if (step == QLatin1String("cause")) {
        return QCoreApplication::translate("Format", "cause");
    }
    if (step == QLatin1String("repeatability")) {
        return QCoreApplication::translate("Format", "repeatability");
    }
    if (step == QLatin1String("serving")) {
        return QCoreApplication::translate("Format", "serving");
    }
    if (step == QLatin1String("runtime")) {
        return QCoreApplication::translate("Format", "runtime");
    }
    return step;
}

QString formatAccuracy(const std::optional<double>& accuracy) {
    return accuracy ? QString::number(*accuracy, 'f', 4) : QStringLiteral("\u2013");
}

QString formatGap(double gap) {
    return QString::number(gap, 'g', 3);
}

QStringList classNames(const analysis::Review& review) {
    QStringList out;
    for (const auto& l : review.facts.labels) {
        out << QString::fromStdString(l);
    }
    return out;
}

QString formatClass(const QStringList& names, std::optional<int> k) {
    if (!k) {
        return QStringLiteral("\u2013");
    }
    return *k >= 0 && *k < names.size() ? names[*k] : QString::number(*k);
}

} // namespace probaudit::ui
