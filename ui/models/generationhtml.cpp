#include "ui/models/generationhtml.h"

#include "ui/models/colors.h"
#include "ui/models/format.h"

#include <QCoreApplication>

#include <algorithm>
#include <set>

namespace probaudit::ui {

namespace {

// The translation context of the generation view's shared pieces (kept as it always was).
class GenerationView {
    Q_DECLARE_TR_FUNCTIONS(GenerationView)
};

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// Text as HTML: escaped, line breaks kept, an empty text shown as such.
QString textHtml(const std::string& text) {
    QString h = qs(text).toHtmlEscaped();
    h.replace(QLatin1Char('\n'), QStringLiteral("↵<br>"));
    return h;
}

// Where two texts first differ, moved back to the start of a UTF-8 character.
std::size_t commonPrefix(const std::string& a, const std::string& b) {
    std::size_t p = 0;
    while (p < a.size() && p < b.size() && a[p] == b[p]) {
        ++p;
    }
    while (p > 0 && p < std::max(a.size(), b.size()) &&
           ((static_cast<unsigned char>(p < a.size() ? a[p] : b[p]) & 0xC0) == 0x80)) {
        --p;
    }
    return p;
}

} // namespace

QString outputsHtml(const analysis::GenerationRow& row, const ledger::GenerationRecord* a,
                    const ledger::GenerationRecord* b, const analysis::GenerationItemDiff* d) {
    if (a == nullptr || b == nullptr) {
        return GenerationView::tr("<p>This item has no output in one of the runs.</p>");
    }
    const std::size_t p = commonPrefix(a->text, b->text);
    const QString mark = tint(flipColor(), 0.35).name();
    auto cell = [&](const ledger::GenerationRecord& g) {
        QString h = textHtml(g.text.substr(0, p));
        if (p < g.text.size() || (d != nullptr && !d->identical)) {
            h += QStringLiteral("<span style=\"background-color:%1\">▸%2</span>")
                     .arg(mark, textHtml(g.text.substr(std::min(p, g.text.size()))));
        }
        return h;
    };
    auto head = [&](const std::string& config, std::int64_t run,
                    const ledger::GenerationRecord& g) {
        return GenerationView::tr(
                   "<b>%1</b> (run %2)<br><small>%3 tokens, ended by %4, arrived %5.</small>")
            .arg(qs(config).toHtmlEscaped())
            .arg(run)
            .arg(g.tokens.size())
            .arg(qs(g.finish))
            .arg(g.arrival + 1);
    };
    QString verdict;
    if (d == nullptr || d->identical) {
        verdict = GenerationView::tr("Byte-identical outputs.");
    } else {
        verdict = GenerationView::tr(
                      "The outputs diverge at generated token %1; the reference's top-2 logit gap "
                      "there was %2.")
                      .arg(d->first_divergence + 1)
                      .arg(formatGap(double(d->gap_at_divergence)));
    }
    return QStringLiteral("<p>%1</p><table width=\"100%\" cellspacing=\"0\" cellpadding=\"6\" "
                          "border=\"1\"><tr><td width=\"50%\" valign=\"top\">%2</td>"
                          "<td width=\"50%\" valign=\"top\">%3</td></tr><tr><td valign=\"top\">"
                          "<tt>%4</tt></td><td valign=\"top\"><tt>%5</tt></td></tr></table>")
        .arg(verdict, head(row.a, row.run_a, *a), head(row.b, row.run_b, *b), cell(*a), cell(*b));
}

QString recordsHtml(const analysis::GenerationRow& row, const std::vector<std::string>& a,
                    const std::vector<std::string>& b, const analysis::GenerationItemDiff* d) {
    const std::set<std::string> setA(a.begin(), a.end()), setB(b.begin(), b.end());
    auto list = [](const std::vector<std::string>& mine, const std::set<std::string>& other,
                   const QColor& only) {
        QString h;
        std::set<std::string> seen;
        for (const auto& r : mine) {
            if (!seen.insert(r).second) {
                continue;
            }
            const bool shared = other.count(r) > 0;
            h += shared ? QStringLiteral("%1<br>").arg(qs(r).toHtmlEscaped())
                        : QStringLiteral("<span style=\"background-color:%1\">%2 %3</span><br>")
                              .arg(only.name(), GenerationView::tr("only here:"),
                                   qs(r).toHtmlEscaped());
        }
        return h.isEmpty() ? GenerationView::tr("<i>no records</i>") : h;
    };
    QString summary;
    if (d != nullptr) {
        summary = GenerationView::tr("Record Jaccard %1 (%2 shared of %3)")
                      .arg(QString::number(d->jaccard, 'f', 3))
                      .arg(qulonglong(d->counts.intersection))
                      .arg(qulonglong(d->counts.union_size));
        if (row.cmp.has_answers) {
            summary += GenerationView::tr("; answers: \"%1\" and \"%2\"%3")
                           .arg(qs(d->answer_a).toHtmlEscaped(), qs(d->answer_b).toHtmlEscaped(),
                                d->answer_a == d->answer_b ? GenerationView::tr(", the same")
                                                           : GenerationView::tr(", different"));
        }
    }
    return QStringLiteral("<p>%1</p><table width=\"100%\" cellspacing=\"0\" cellpadding=\"6\" "
                          "border=\"1\"><tr><th>%2</th><th>%3</th></tr><tr><td valign=\"top\" "
                          "width=\"50%\">%4</td><td valign=\"top\" width=\"50%\">%5</td></tr>"
                          "</table>")
        .arg(summary, GenerationView::tr("Records of %1").arg(qs(row.a).toHtmlEscaped()),
             GenerationView::tr("Records of %1").arg(qs(row.b).toHtmlEscaped()),
             list(a, setB, tint(flipColor(), 0.35)), list(b, setA, tint(unchangedColor(), 0.35)));
}

} // namespace probaudit::ui
