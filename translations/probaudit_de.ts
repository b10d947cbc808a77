<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>Charts</name>
    <message>
        <location filename="../ui/charts/charts.cpp" line="70"/>
        <location filename="../ui/charts/exactchart.cpp" line="96"/>
        <source>items</source>
        <translation>Items</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="151"/>
        <source>Δp per item (points), log bins</source>
        <translation>Δp pro Item (Punkte), logarithmische Bins</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="152"/>
        <source>no flip</source>
        <translation>nicht gekippt</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="153"/>
        <location filename="../ui/charts/charts.cpp" line="224"/>
        <location filename="../ui/charts/charts.cpp" line="309"/>
        <source>flipped</source>
        <translation>gekippt</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="210"/>
        <location filename="../ui/charts/charts.cpp" line="307"/>
        <source>Δp = 0</source>
        <translation>Δp = 0</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="211"/>
        <source>Δp in %1</source>
        <translation>Δp in %1</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="221"/>
        <source>Reference margin |logit gap|: the near-tie view</source>
        <translation>Referenzmarge |Logit-Abstand|: Ansicht der knappen Fälle</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="222"/>
        <source>bit-identical p</source>
        <translation>bitidentisches p</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="223"/>
        <source>p changed</source>
        <translation>p verändert</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="255"/>
        <source>|margin| in %1</source>
        <translation>|Marge| in %1</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="260"/>
        <source>, flipped</source>
        <translation>, gekippt</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="263"/>
        <source>, p changed</source>
        <translation>, p verändert</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="266"/>
        <source>, p unchanged</source>
        <translation>, p unverändert</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="277"/>
        <source>p (reference) against p (config)</source>
        <translation>p (Referenz) gegen p (Konfiguration)</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="302"/>
        <source>%1 (%2 of %3 drawn)</source>
        <translation>%1 (%2 von %3 gezeichnet)</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="308"/>
        <source>Δp &gt; 0</source>
        <translation>Δp &gt; 0</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="324"/>
        <source>p (reference)</source>
        <translation>p (Referenz)</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="325"/>
        <source>p (config)</source>
        <translation>p (Konfiguration)</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="80"/>
        <source>threshold</source>
        <translation>Schwelle</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="55"/>
        <source>%1 in [%2, %3): %4 items</source>
        <translation>%1 in [%2, %3): %4 Items</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="194"/>
        <source>Δp (points), bins from the value shown</source>
        <translation>Δp (Punkte), Klassen ab dem angezeigten Wert</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="246"/>
        <source>|margin| in the reference run (logits), bins from the value shown</source>
        <translation>|Marge| im Referenzlauf (Logits), Klassen ab dem angezeigten Wert</translation>
    </message>
    <message>
        <location filename="../ui/charts/neartiechart.cpp" line="77"/>
        <source>Flip rate by the reference&apos;s margin, with Wilson 95% intervals</source>
        <translation>Kipprate nach der Marge der Referenz, mit Wilson-95-%-Intervallen</translation>
    </message>
    <message>
        <location filename="../ui/charts/neartiechart.cpp" line="98"/>
        <source>|margin| in the reference run (logits), items per bin in brackets</source>
        <translation>|Marge| im Referenzlauf (Logits), Einträge je Klasse in Klammern</translation>
    </message>
    <message>
        <location filename="../ui/charts/neartiechart.cpp" line="101"/>
        <source>flip rate (%)</source>
        <translation>Kipprate (%)</translation>
    </message>
    <message>
        <location filename="../ui/charts/neartiechart.cpp" line="53"/>
        <source>%1 (%2 flips)</source>
        <translation>%1 (%2 gekippt)</translation>
    </message>
    <message>
        <location filename="../ui/charts/neartiechart.cpp" line="65"/>
        <source>%1 (no flip)</source>
        <translation>%1 (nicht gekippt)</translation>
    </message>
    <message>
        <location filename="../ui/charts/neartiechart.cpp" line="67"/>
        <source>%1 configs, no flip</source>
        <translation>%1 Konfigurationen, nicht gekippt</translation>
    </message>
    <message>
        <location filename="../ui/charts/exactchart.cpp" line="52"/>
        <source>Distance to exact |p − p_exact| (points): %1 closer on %2%, the reference on %3%</source>
        <translation>Abstand zum exakten Wert |p − p_exact| (Punkte): %1 näher bei %2 %, die Referenz bei %3 %</translation>
    </message>
    <message>
        <location filename="../ui/charts/exactchart.cpp" line="68"/>
        <source>%1 (reference)</source>
        <translation>%1 (Referenz)</translation>
    </message>
    <message>
        <location filename="../ui/charts/exactchart.cpp" line="87"/>
        <source>|p − p_exact| (points), bins from the value shown; float64 run: %1</source>
        <translation>|p − p_exact| (Punkte), Klassen ab dem gezeigten Wert; float64-Lauf: %1</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <location filename="../ui/models/format.cpp" line="66"/>
        <source>not captured</source>
        <translation>nicht erfasst</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="69"/>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="72"/>
        <location filename="../ui/models/format.cpp" line="100"/>
        <source>embeddings</source>
        <translation>Embeddings</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="74"/>
        <source>layer %1</source>
        <translation>Schicht %1</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="78"/>
        <source>accuracy %1; decisions %2; probabilities %3</source>
        <translation>Genauigkeit %1; Entscheidungen %2; Wahrscheinlichkeiten %3</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="79"/>
        <source>reproduces</source>
        <translation>reproduziert sich</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="80"/>
        <source>does NOT reproduce</source>
        <translation>reproduziert sich NICHT</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="81"/>
        <source>reproduce</source>
        <translation>reproduzieren sich</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="82"/>
        <source>do NOT reproduce</source>
        <translation>reproduzieren sich NICHT</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="83"/>
        <source>reproduce bit for bit</source>
        <translation>reproduzieren sich bitgenau</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="84"/>
        <source>do NOT reproduce bit for bit</source>
        <translation>reproduzieren sich NICHT bitgenau</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="102"/>
        <source>norms</source>
        <translation>Normen</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="104"/>
        <source>projections</source>
        <translation>Projektionen</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="106"/>
        <source>attention</source>
        <translation>Attention</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="108"/>
        <source>attention output</source>
        <translation>Attention-Ausgabe</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="110"/>
        <source>MLP</source>
        <translation>MLP</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="112"/>
        <source>residual adds</source>
        <translation>Residualsummen</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="116"/>
        <source>head</source>
        <translation>Kopf</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="121"/>
        <source>loader and repeatability</source>
        <translation>Loader und Wiederholbarkeit</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="124"/>
        <source>neighbour interference</source>
        <translation>Einfluss der Nachbarn</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="127"/>
        <source>shape</source>
        <translation>Form</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="130"/>
        <source>kernels and runtime</source>
        <translation>Kernel und Laufzeit</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="133"/>
        <source>model variant</source>
        <translation>Modellvariante</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="136"/>
        <source>cause</source>
        <translation>Ursache</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="139"/>
        <source>repeatability</source>
        <translation>Wiederholbarkeit</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="142"/>
        <source>serving</source>
        <translation>Bereitstellung</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="145"/>
        <source>runtime</source>
        <translation>Laufzeitumgebung</translation>
    </message>
</context>
<context>
    <name>GenerationView</name>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="31"/>
        <source>run to run</source>
        <translation>Lauf zu Lauf</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="34"/>
        <source>serving (concurrency)</source>
        <translation>Serving (Nebenläufigkeit)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="36"/>
        <source>configuration</source>
        <translation>Konfiguration</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="40"/>
        <source>%1, run twice</source>
        <translation>%1, zweimal ausgeführt</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="41"/>
        <source>%1 vs %2</source>
        <translation>%1 gegen %2</translation>
    </message>
    <message>
        <location filename="../ui/charts/gapchart.cpp" line="28"/>
        <source>Top-2 logit gap of the reference: where outputs diverge, and at every step</source>
        <translation>Top-2-Logit-Abstand der Referenz: wo die Ausgaben auseinandergehen und bei jedem Schritt</translation>
    </message>
    <message>
        <location filename="../ui/charts/gapchart.cpp" line="30"/>
        <source>at divergence points</source>
        <translation>an Divergenzstellen</translation>
    </message>
    <message>
        <location filename="../ui/charts/gapchart.cpp" line="31"/>
        <source>at every step</source>
        <translation>bei jedem Schritt</translation>
    </message>
    <message>
        <location filename="../ui/charts/gapchart.cpp" line="50"/>
        <source>at divergence points (%1)</source>
        <translation>an Divergenzstellen (%1)</translation>
    </message>
    <message>
        <location filename="../ui/charts/gapchart.cpp" line="51"/>
        <source>at every step (%1)</source>
        <translation>bei jedem Schritt (%1)</translation>
    </message>
    <message>
        <location filename="../ui/charts/gapchart.cpp" line="59"/>
        <source>top-2 logit gap, bins from the value shown</source>
        <translation>Top-2-Logit-Abstand, Klassen ab dem angezeigten Wert</translation>
    </message>
    <message>
        <location filename="../ui/charts/gapchart.cpp" line="66"/>
        <source>% of its set</source>
        <translation>% der jeweiligen Reihe</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="49"/>
        <source>&lt;p&gt;This item has no output in one of the runs.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Dieses Item hat in einem der Läufe keine Ausgabe.&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="63"/>
        <source>&lt;b&gt;%1&lt;/b&gt; (run %2)&lt;br&gt;&lt;small&gt;%3 tokens, ended by %4, arrived %5.&lt;/small&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (Lauf %2)&lt;br&gt;&lt;small&gt;%3 Tokens, beendet durch %4, als %5. eingetroffen.&lt;/small&gt;</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="73"/>
        <source>Byte-identical outputs.</source>
        <translation>Byteidentische Ausgaben.</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="75"/>
        <source>The outputs diverge at generated token %1; the reference&apos;s top-2 logit gap there was %2.</source>
        <translation>Die Ausgaben gehen beim %1. generierten Token auseinander; der Top-2-Logit-Abstand der Referenz betrug dort %2.</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="102"/>
        <source>only here:</source>
        <translation>nur hier:</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="105"/>
        <source>&lt;i&gt;no records&lt;/i&gt;</source>
        <translation>&lt;i&gt;keine Datensätze&lt;/i&gt;</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="109"/>
        <source>Record Jaccard %1 (%2 shared of %3)</source>
        <translation>Datensatz-Jaccard %1 (%2 von %3 gemeinsam)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="114"/>
        <source>; answers: &quot;%1&quot; and &quot;%2&quot;%3</source>
        <translation>; Antworten: &quot;%1&quot; und &quot;%2&quot;%3</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="116"/>
        <source>, the same</source>
        <translation>, gleich</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="117"/>
        <source>, different</source>
        <translation>, verschieden</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="124"/>
        <location filename="../ui/models/generationhtml.cpp" line="125"/>
        <source>Records of %1</source>
        <translation>Datensätze von %1</translation>
    </message>
</context>
<context>
    <name>PinStatus</name>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="18"/>
        <source>absent</source>
        <translation>fehlt</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="27"/>
        <source>Runtime: not pinned</source>
        <translation>Laufzeit: nicht fixiert</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="28"/>
        <source>No runtime lock is loaded. A pinned runtime lists every difference between this environment and the verified one.</source>
        <translation>Keine Laufzeitsperre geladen. Eine fixierte Laufzeit listet jeden Unterschied zwischen dieser Umgebung und der verifizierten auf.</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="37"/>
        <source>Runtime: pinned (%1), checking…</source>
        <translation>Laufzeit: fixiert (%1), wird geprüft …</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="38"/>
        <source>Waiting for the engine&apos;s environment fingerprint.</source>
        <translation>Warte auf den Umgebungs-Fingerabdruck der Engine.</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="57"/>
        <source>Runtime: matches the pin</source>
        <translation>Laufzeit: entspricht der Fixierung</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="60"/>
        <source>This environment is the one %1 verified.</source>
        <translation>Diese Umgebung ist genau die, die %1 verifiziert hat.</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="63"/>
        <source>This environment matches %1 in everything that can move numbers. Other differences:
%2</source>
        <translation>Diese Umgebung stimmt mit %1 in allem überein, was Zahlen verändern kann. Weitere Unterschiede:
%2</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="69"/>
        <source>Runtime: differs from the pin (%1)</source>
        <translation>Laufzeit: weicht von der Fixierung ab (%1)</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="72"/>
        <source>This environment differs from %1 in ways that can move numbers:
%2</source>
        <translation>Diese Umgebung weicht von %1 in Aspekten ab, die Zahlen verändern können:
%2</translation>
    </message>
</context>
<context>
    <name>ScreenshotTour</name>
    <message>
        <location filename="../ui/pages/screenshottour.cpp" line="93"/>
        <source>|margin| &lt; 1</source>
        <translation>|Marge| &lt; 1</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::AboutDialog</name>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="25"/>
        <source>libtorch %1</source>
        <translation>libtorch %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="26"/>
        <source>CPU-only build</source>
        <translation>reiner CPU-Build</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="27"/>
        <source>CUDA build %1</source>
        <translation>CUDA-Build %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="29"/>
        <source>no GPU</source>
        <translation>keine GPU</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pages/aboutdialog.cpp" line="29"/>
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n GPU</numerusform>
            <numerusform>%n GPUs</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="30"/>
        <source>CPU kernels %1</source>
        <translation>CPU-Kernel %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="37"/>
        <source>About ProbAudit</source>
        <translation>Über ProbAudit</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="61"/>
        <source>Engine: asking the engine for its fingerprint…</source>
        <translation>Engine: Fingerabdruck wird abgefragt …</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="66"/>
        <source>Engine: ProbAudit %1, %2</source>
        <translation>Engine: ProbAudit %1, %2</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="73"/>
        <source>Engine: not available (%1)</source>
        <translation>Engine: nicht verfügbar (%1)</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="86"/>
        <source>Audits whether a model&apos;s decisions and decision probabilities reproduce across runtime configurations.</source>
        <translation>Prüft, ob die Entscheidungen eines Modells und ihre Wahrscheinlichkeiten über Laufzeitkonfigurationen hinweg reproduzierbar sind.</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="89"/>
        <source>Workbench built from commit %1%2 with Qt %3.</source>
        <translation>Workbench gebaut aus Commit %1%2 mit Qt %3.</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="90"/>
        <source> (modified)</source>
        <translation> (geändert)</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="94"/>
        <source>Demo data: Sentiment Labelled Sentences (Kotzias et al., KDD 2015), CC BY 4.0.</source>
        <translation>Demodaten: Sentiment Labelled Sentences (Kotzias et al., KDD 2015), CC BY 4.0.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::CauseView</name>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="128"/>
        <source>Δp complete by</source>
        <translation>Δp vollständig bis</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="128"/>
        <source>Items</source>
        <translation>Items</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="129"/>
        <source>A&apos;s state</source>
        <translation>Zustand von A</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="133"/>
        <source>A set</source>
        <translation>Eine Menge</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="139"/>
        <source>The share of Δp removed when A&apos;s hidden state after this row&apos;s layer is spliced into B</source>
        <translation>Der Anteil von Δp, der verschwindet, wenn der verborgene Zustand von A nach der Schicht dieser Zeile in B eingesetzt wird</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="143"/>
        <source>The mean share of Δp removed when B computes this operator class as A does, in every layer; in brackets, the items it is the cause of</source>
        <translation>Der mittlere Anteil von Δp, der verschwindet, wenn B diese Operatorklasse in jeder Schicht wie A berechnet; in Klammern die Items, deren Ursache sie ist</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="148"/>
        <source>Items no class explains alone, but a set of classes computed as A together does</source>
        <translation>Items, die keine Klasse allein erklärt, wohl aber eine Menge von Klassen, gemeinsam wie A berechnet</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="185"/>
        <source>flip</source>
        <translation>gekippt</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="198"/>
        <source>Item</source>
        <translation>Item</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="198"/>
        <source>Δp (points)</source>
        <translation>Δp (Punkte)</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="198"/>
        <source>Flip</source>
        <translation>Gekippt</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="199"/>
        <source>Cause</source>
        <translation>Ursache</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="26"/>
        <source>The config whose difference from the reference is shown</source>
        <translation>Die Konfiguration, deren Unterschied zur Referenz gezeigt wird</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="46"/>
        <source>Config:</source>
        <translation>Konfiguration:</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="79"/>
        <source>No diagnosis is stored for this head yet. probaudit diagnose STUDY runs the ladder; its fifth rung, cause, localises each config that differs from the reference.</source>
        <translation>Für diesen Kopf ist noch keine Diagnose gespeichert. probaudit diagnose STUDY führt die Leiter aus; ihre fünfte Stufe, Ursache, lokalisiert jede Konfiguration, die von der Referenz abweicht.</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="82"/>
        <source>The stored diagnosis has no cause rung: no config differed from the reference, or it was made before the rung existed (diagnose again).</source>
        <translation>Die gespeicherte Diagnose hat keine Ursachen-Stufe: keine Konfiguration wich von der Referenz ab, oder sie entstand, bevor es die Stufe gab (erneut diagnostizieren).</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="86"/>
        <source>Why each config differs from the reference &quot;%1&quot;: B ran again with one operator class at a time computed as the reference computes it, in every layer, on its flips, then its largest Δp (up to %2 items). A cell is the mean share of Δp that class&apos;s splice removes over the row&apos;s items (darker: more), with the items it is the cause of; click a cell for its items, activate an item to inspect it.</source>
        <translation>Warum jede Konfiguration von der Referenz „%1“ abweicht: B lief erneut, jeweils mit einer Operatorklasse so berechnet, wie die Referenz sie berechnet, in jeder Schicht, auf seinen gekippten Items, dann seinen größten Δp (bis zu %2 Items). Eine Zelle ist der mittlere Anteil von Δp, den das Einsetzen dieser Klasse über die Items der Zeile entfernt (dunkler: mehr), mit den Items, deren Ursache sie ist; klicken Sie auf eine Zelle für ihre Items, aktivieren Sie ein Item, um es zu untersuchen.</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="116"/>
        <source>Not localised: %1.</source>
        <translation>Nicht lokalisiert: %1.</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="140"/>
        <source>Items complete by %1 whose cause is %2</source>
        <translation>Items, vollständig bis %1, deren Ursache %2 ist</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="143"/>
        <source>Items complete by %1 that a set of classes explains</source>
        <translation>Items, vollständig bis %1, die eine Menge von Klassen erklärt</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="144"/>
        <source>Items complete by %1</source>
        <translation>Items, vollständig bis %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pages/causeview.cpp" line="146"/>
        <source>%1: %n item(s)</source>
        <translation>
            <numerusform>%1: %n Item</numerusform>
            <numerusform>%1: %n Items</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>probaudit::ui::ConfigEditor</name>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="70"/>
        <source>Configs of %1</source>
        <translation>Konfigurationen von %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="86"/>
        <source>&amp;Add</source>
        <translation>&amp;Hinzufügen</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="87"/>
        <source>A new config: a copy of the selected one (or of the reference).</source>
        <translation>Eine neue Konfiguration: eine Kopie der ausgewählten (oder der Referenz).</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="88"/>
        <source>Re&amp;move</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="89"/>
        <source>Make &amp;Reference</source>
        <translation>Als &amp;Referenz festlegen</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="90"/>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="92"/>
        <source>Save and R&amp;un Selected</source>
        <translation>Speichern und Auswahl a&amp;usführen</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="94"/>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="104"/>
        <source>Double-click a cell to change it. Cells that differ from the reference are highlighted. Saving rewrites the study file (a copy of the original is kept as .bak; comments are not kept).</source>
        <translation>Doppelklicken Sie auf eine Zelle, um sie zu ändern. Zellen, die von der Referenz abweichen, sind hervorgehoben. Beim Speichern wird die Studiendatei neu geschrieben (eine Kopie des Originals bleibt als .bak erhalten; Kommentare gehen verloren).</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="153"/>
        <source>Select the configs to run (rows).</source>
        <translation>Wählen Sie die auszuführenden Konfigurationen aus (Zeilen).</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="178"/>
        <location filename="../ui/pages/configeditor.cpp" line="197"/>
        <source>%1 cannot be written.</source>
        <translation>%1 kann nicht geschrieben werden.</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="202"/>
        <source>Saved %1.</source>
        <translation>%1 gespeichert.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::ConfigMatrixModel</name>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="120"/>
        <source>%1 (reference)</source>
        <translation>%1 (Referenz)</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="130"/>
        <source>The reference: every other config is compared with it.</source>
        <translation>Die Referenz: Jede andere Konfiguration wird mit ihr verglichen.</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="131"/>
        <source>The same settings as the reference.</source>
        <translation>Dieselben Einstellungen wie die Referenz.</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="132"/>
        <source>Differs from the reference in: %1</source>
        <translation>Weicht von der Referenz ab in: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="161"/>
        <source>%1: %2 here, %3 in the reference</source>
        <translation>%1: %2 hier, %3 in der Referenz</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="182"/>
        <source>There is already a config named %1.</source>
        <translation>Es gibt bereits eine Konfiguration namens %1.</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="204"/>
        <source>%1 must be a whole number.</source>
        <translation>%1 muss eine ganze Zahl sein.</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="241"/>
        <source>Config</source>
        <translation>Konfig.</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="256"/>
        <location filename="../ui/models/configmatrixmodel.cpp" line="261"/>
        <source>config-%1</source>
        <translation>config-%1</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="273"/>
        <source>The reference config cannot be removed; make another config the reference first.</source>
        <translation>Die Referenzkonfiguration kann nicht entfernt werden; legen Sie zuerst eine andere Konfiguration als Referenz fest.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::DashboardModel</name>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="68"/>
        <source>Config %1 has no finished run for this head yet.</source>
        <translation>Konfiguration %1 hat für diesen Head noch keinen abgeschlossenen Lauf.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="72"/>
        <source>Accuracy of this config minus the reference&apos;s, in points, with a paired bootstrap 95% interval. McNemar&apos;s exact test on the %1 + %2 items that only one run gets right: p = %3.</source>
        <translation>Genauigkeit dieser Konfiguration minus die der Referenz, in Punkten, mit gepaartem Bootstrap-95-%-Intervall. Exakter McNemar-Test auf den %1 + %2 Items, die nur einer der beiden Läufe richtig entscheidet: p = %3.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="83"/>
        <source>Where the hidden states first differ: %1</source>
        <translation>Wo die verborgenen Zustände zuerst abweichen: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="96"/>
        <source>%1 (reference)</source>
        <translation>%1 (Referenz)</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="103"/>
        <source>nothing</source>
        <translation>nichts</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="109"/>
        <source>not run yet</source>
        <translation>noch nicht ausgeführt</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="163"/>
        <source>The runtime-configuration axes in which this config differs from the reference config.</source>
        <translation>Die Achsen der Laufzeitkonfiguration, in denen sich diese Konfiguration von der Referenzkonfiguration unterscheidet.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="166"/>
        <source>Share of items with the same decision as in the reference run.</source>
        <translation>Anteil der Items mit derselben Entscheidung wie im Referenzlauf.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="168"/>
        <source>Items whose decision differs from the reference run.</source>
        <translation>Items, deren Entscheidung vom Referenzlauf abweicht.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="170"/>
        <source>Largest Δp: 100 × |p(reference) − p(config)| over the items, in points.</source>
        <translation>Größtes Δp über die Items: 100 × |p(Referenz) − p(Konfiguration)|, in Punkten.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="172"/>
        <source>Share of items whose every recorded float and layer hash has the same bits as in the reference run.</source>
        <translation>Anteil der Items, bei denen jeder aufgezeichnete Float und jeder Schicht-Hash dieselben Bits hat wie im Referenzlauf.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="175"/>
        <source>The first divergent layer seen most often: the first layer whose hidden states differ bitwise from the reference run.</source>
        <translation>Die am häufigsten beobachtete erste abweichende Schicht: die erste Schicht, deren verborgene Zustände bitweise vom Referenzlauf abweichen.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="178"/>
        <source>The three levels of reproduction: accuracy (the interval of the difference contains 0), decisions (no flips), bits (every item bit-identical).</source>
        <translation>Die drei Reproduktionsebenen: Genauigkeit (das Intervall der Differenz enthält 0), Entscheidungen (keine gekippt), Bits (jedes Item bitidentisch).</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="148"/>
        <source>Config</source>
        <translation>Konfig.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="149"/>
        <source>Differs in</source>
        <translation>Abweichend in</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="150"/>
        <source>Accuracy</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="151"/>
        <source>ΔAcc (points) [95%]</source>
        <translation>ΔAcc (Punkte) [95%]</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="152"/>
        <source>Agreement</source>
        <translation>Übereinstimmung</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="153"/>
        <source>Flips</source>
        <translation>Gekippt</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="154"/>
        <source>Max Δp</source>
        <translation>Max. Δp</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="155"/>
        <source>Bit-identical</source>
        <translation>Bitidentisch</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="156"/>
        <source>First divergent layer</source>
        <translation>Erste abweichende Schicht</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="157"/>
        <source>Verdict</source>
        <translation>Urteil</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="136"/>
        <source>none (head only)</source>
        <translation>keine (nur Head)</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="59"/>
        <source>Config %1 as recorded in environment %2 (run %3%4), not in the reference run&apos;s environment; compared with the reference recorded here.</source>
        <translation>Konfiguration %1, aufgezeichnet in Umgebung %2 (Lauf %3%4), nicht in der Umgebung des Referenzlaufs; verglichen mit der hier aufgezeichneten Referenz.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::DiagnosisView</name>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="79"/>
        <source>What changed</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="79"/>
        <location filename="../ui/models/diagnosismodels.cpp" line="215"/>
        <source>Largest Δp</source>
        <translation>Größtes Δp</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="80"/>
        <source>First layer that differs</source>
        <translation>Erste abweichende Schicht</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="80"/>
        <source>Flipped</source>
        <translation>Gekippt</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="81"/>
        <source>Bit-identical</source>
        <translation>Bitidentisch</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="155"/>
        <source>Probe</source>
        <translation>Sonde</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="155"/>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="156"/>
        <source>Operator or kernel</source>
        <translation>Operator oder Kernel</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="156"/>
        <source>Count (A)</source>
        <translation>Anzahl (A)</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="157"/>
        <source>Count (B)</source>
        <translation>Anzahl (B)</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="213"/>
        <location filename="../ui/models/diagnosismodels.cpp" line="260"/>
        <source>Config</source>
        <translation>Konfig.</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="213"/>
        <source>Differs in</source>
        <translation>Abweichend in</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="214"/>
        <source>Suspects</source>
        <translation>Verdächtige</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="214"/>
        <source>Flips</source>
        <translation>Gekippt</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="215"/>
        <source>First layer</source>
        <translation>Erste Abweichung</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="260"/>
        <source>Predicted flips</source>
        <translation>Gekippt (Prognose)</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="261"/>
        <source>Observed flips</source>
        <translation>Gekippt (beobachtet)</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="262"/>
        <source>Probe sample</source>
        <translation>Sonden-Stichprobe</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="218"/>
        <source>Probes</source>
        <translation>Sonden</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="220"/>
        <source>Kernel trace: operators whose counts differ between a probe and its baseline</source>
        <translation>Kernel-Trace: Operatoren, deren Anzahl sich zwischen einer Sonde und ihrer Baseline unterscheidet</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="225"/>
        <source>The study&apos;s configs, explained by the suspects they differ in</source>
        <translation>Die Konfigurationen der Studie, erklärt durch die Verdächtigen, in denen sie abweichen</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="227"/>
        <source>Fragility forecast against the full runs</source>
        <translation>Fragilitätsprognose im Vergleich mit den vollständigen Läufen</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="244"/>
        <source>No diagnosis is stored for this head yet. Run it with:
  probaudit diagnose STUDY --ledger %1
It probes a seeded sample: the reference twice, neighbours changed, the batch shape, kernels and runtime, and explains every config.</source>
        <translation>Für diesen Head ist noch keine Diagnose gespeichert. Führen Sie sie aus mit:
  probaudit diagnose STUDY --ledger %1
Sie sondiert eine Stichprobe mit festem Seed: die Referenz zweimal, geänderte Nachbarn, die Batch-Form, Kernel und Laufzeit, und erklärt jede Konfiguration.</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="259"/>
        <source>Why do results differ from the reference config &quot;%1&quot;? Probes on a seeded sample of %2 items (seed %3, batch %4); every probe run is in the ledger.</source>
        <translation>Warum weichen die Ergebnisse von der Referenzkonfiguration &quot;%1&quot; ab? Sonden auf einer Stichprobe von %2 Items mit festem Seed (Seed %3, Batch %4); jeder Sondenlauf steht im Ledger.</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="139"/>
        <source>operator</source>
        <translation>Operator</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="140"/>
        <source>device kernel</source>
        <translation>Gerätekernel</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="126"/>
        <source>every probe</source>
        <translation>jede Sonde</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="128"/>
        <source>the same operators ran, the same number of times</source>
        <translation>dieselben Operatoren liefen, gleich oft</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="199"/>
        <location filename="../ui/models/diagnosismodels.cpp" line="243"/>
        <source>not run</source>
        <translation>nicht ausgeführt</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="253"/>
        <source>%1 items</source>
        <translation>%1 Items</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="261"/>
        <source>Error (predicted − observed)</source>
        <translation>Fehler (vorhergesagt − beobachtet)</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="255"/>
        <source>Why do results differ from the reference config &quot;%1&quot;? Read from the study&apos;s recorded runs over all %2 items; a server is not probed.</source>
        <translation>Warum weichen die Ergebnisse von der Referenzkonfiguration „%1“ ab? Aus den aufgezeichneten Läufen der Studie über alle %2 Items gelesen; ein Server wird nicht erprobt.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::EmptyStatePage</name>
    <message>
        <location filename="../ui/pages/emptystatepage.cpp" line="13"/>
        <source>No study is open</source>
        <translation>Keine Studie geöffnet</translation>
    </message>
    <message>
        <location filename="../ui/pages/emptystatepage.cpp" line="22"/>
        <source>ProbAudit checks whether the same input gets the same decision, with the same probability, under every runtime configuration: batch size, padding, dtype, kernels, threads and torch/CUDA builds.</source>
        <translation>ProbAudit prüft, ob dieselbe Eingabe unter jeder Laufzeitkonfiguration dieselbe Entscheidung mit derselben Wahrscheinlichkeit erhält: Batchgröße, Padding, Datentyp, Kernel, Threads sowie torch- und CUDA-Builds.</translation>
    </message>
    <message>
        <location filename="../ui/pages/emptystatepage.cpp" line="30"/>
        <source>Open a Study…</source>
        <translation>Studie öffnen …</translation>
    </message>
    <message>
        <location filename="../ui/pages/emptystatepage.cpp" line="32"/>
        <source>Open the Demo Study</source>
        <translation>Demostudie öffnen</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::EngineClient</name>
    <message>
        <location filename="../ui/pages/engineclient.cpp" line="40"/>
        <source>The engine was not found at %1.</source>
        <translation>Die Engine wurde unter %1 nicht gefunden.</translation>
    </message>
    <message>
        <location filename="../ui/pages/engineclient.cpp" line="55"/>
        <source>The engine stopped with exit code %1.</source>
        <translation>Die Engine wurde mit Exit-Code %1 beendet.</translation>
    </message>
    <message>
        <location filename="../ui/pages/engineclient.cpp" line="56"/>
        <source>The engine failed: %1</source>
        <translation>Die Engine ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/engineclient.cpp" line="63"/>
        <source>The engine&apos;s answer was not valid JSON (%1).</source>
        <translation>Die Antwort der Engine war kein gültiges JSON (%1).</translation>
    </message>
    <message>
        <location filename="../ui/pages/engineclient.cpp" line="76"/>
        <source>The engine could not be started: %1</source>
        <translation>Die Engine konnte nicht gestartet werden: %1</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::EngineDialog</name>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="21"/>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="23"/>
        <source>This computer</source>
        <translation>Dieser Computer</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="25"/>
        <source>Another host, over ssh (your keys and ssh configuration)</source>
        <translation>Ein anderer Rechner, über ssh (Ihre Schlüssel und ssh-Konfiguration)</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="32"/>
        <source>probaudit on that host&apos;s PATH</source>
        <translation>probaudit im PATH dieses Rechners</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="34"/>
        <source>your own (~/.ssh/config)</source>
        <translation>Ihre eigene (~/.ssh/config)</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="36"/>
        <location filename="../ui/pages/enginedialog.cpp" line="38"/>
        <source>studies have the same path on both</source>
        <translation>Studien haben auf beiden denselben Pfad</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="39"/>
        <source>Host:</source>
        <translation>Rechner:</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="40"/>
        <source>probaudit there:</source>
        <translation>probaudit dort:</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="41"/>
        <source>ssh configuration file:</source>
        <translation>ssh-Konfigurationsdatei:</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="42"/>
        <source>Studies here under:</source>
        <translation>Studien hier unter:</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="43"/>
        <source>are there under:</source>
        <translation>liegen dort unter:</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="45"/>
        <source>Studies, models and data are read on that host. Progress shows here as it happens; finished runs come back into the ledger open here. If the connection drops, run again: the run resumes.</source>
        <translation>Studien, Modelle und Daten werden auf diesem Rechner gelesen. Der Fortschritt erscheint hier, während er geschieht; abgeschlossene Läufe kommen in das hier geöffnete Ledger zurück. Bricht die Verbindung ab, starten Sie erneut: Der Lauf wird fortgesetzt.</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="51"/>
        <source>Check</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="100"/>
        <source>The host is an ssh:// address, such as ssh://user@gpu-host or ssh://gpu-host:2222.</source>
        <translation>Der Rechner ist eine ssh://-Adresse, etwa ssh://user@gpu-host oder ssh://gpu-host:2222.</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="104"/>
        <source>Give both folders, or neither (then studies have the same path on both).</source>
        <translation>Geben Sie beide Ordner an oder keinen (dann haben Studien auf beiden denselben Pfad).</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="127"/>
        <source>Asking the engine…</source>
        <translation>Frage die Engine …</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="149"/>
        <source>No engine answered: %1</source>
        <translation>Keine Engine hat geantwortet: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="160"/>
        <source>no GPU, CPU %1</source>
        <translation>keine GPU, CPU %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pages/enginedialog.cpp" line="161"/>
        <source>%n GPU(s): %1</source>
        <translation>
            <numerusform>%n GPU: %1</numerusform>
            <numerusform>%n GPUs: %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="163"/>
        <source>Reached probaudit %1 with torch %2 (CUDA build %3); %4.</source>
        <translation>probaudit %1 erreicht, mit torch %2 (CUDA-Build %3); %4.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::GenerationItemsModel</name>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="214"/>
        <source>The outputs agree on the first %1 generated tokens</source>
        <translation>Die Ausgaben stimmen in den ersten %1 generierten Tokens überein</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="224"/>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="224"/>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="253"/>
        <source>Item</source>
        <translation>Item</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="254"/>
        <source>Identical</source>
        <translation>Identisch</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="255"/>
        <source>Diverges at token</source>
        <translation>Divergenz bei Token</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="256"/>
        <source>Logit gap there</source>
        <translation>Logit-Abstand dort</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="257"/>
        <source>Record Jaccard</source>
        <translation>Datensatz-Jaccard</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="258"/>
        <source>Answer (reference side)</source>
        <translation>Antwort (Referenzseite)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="259"/>
        <source>Answer (other side)</source>
        <translation>Antwort (andere Seite)</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::GenerationPage</name>
    <message>
        <location filename="../ui/pages/generationpage.cpp" line="50"/>
        <source>&amp;Outputs</source>
        <translation>A&amp;usgaben</translation>
    </message>
    <message>
        <location filename="../ui/pages/generationpage.cpp" line="51"/>
        <source>Logit &amp;gaps</source>
        <translation>Lo&amp;git-Abstände</translation>
    </message>
    <message>
        <location filename="../ui/pages/generationpage.cpp" line="133"/>
        <source>%1 — %2 (generation head &quot;%3&quot;)</source>
        <translation>%1 — %2 (Generierungs-Head &quot;%3&quot;)</translation>
    </message>
    <message>
        <location filename="../ui/pages/generationpage.cpp" line="154"/>
        <source>%1: %2 of %3 outputs byte-identical, pooled record Jaccard %4%5. Fork points: %6 of them at a top-2 logit gap below 0.0001.</source>
        <translation>%1: %2 von %3 Ausgaben byteidentisch, gepoolter Datensatz-Jaccard %4%5. Verzweigungsstellen: %6 davon bei einem Top-2-Logit-Abstand unter 0.0001.</translation>
    </message>
    <message>
        <location filename="../ui/pages/generationpage.cpp" line="160"/>
        <source>, answers agree on %1 of %2</source>
        <translation>, Antworten stimmen bei %1 von %2 überein</translation>
    </message>
    <message>
        <location filename="../ui/pages/generationpage.cpp" line="167"/>
        <source>Nothing to compare yet: a generation study needs two finished runs (run the reference config and another, or one config twice).</source>
        <translation>Noch nichts zu vergleichen: Eine Generierungsstudie braucht zwei abgeschlossene Läufe (führen Sie die Referenzkonfiguration und eine weitere aus oder eine Konfiguration zweimal).</translation>
    </message>
    <message>
        <location filename="../ui/pages/generationpage.cpp" line="203"/>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: %2</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::GenerationTableModel</name>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="65"/>
        <source>Run %1 (%2) against run %3 (%4)</source>
        <translation>Lauf %1 (%2) gegen Lauf %3 (%4)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="89"/>
        <source>nothing</source>
        <translation>nichts</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="95"/>
        <source>%1 / %2 (%3)</source>
        <translation>%1 / %2 (%3)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="104"/>
        <source>no reduction</source>
        <translation>keine Reduktion</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="107"/>
        <location filename="../ui/models/generationmodels.cpp" line="111"/>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="156"/>
        <source>Outputs with exactly the same tokens in both runs</source>
        <translation>Ausgaben mit genau denselben Tokens in beiden Läufen</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="158"/>
        <source>Records shared by both runs over records in either, pooled over the items (1 = the same records)</source>
        <translation>Gemeinsame Datensätze beider Läufe im Verhältnis zu den Datensätzen in mindestens einem der Läufe, gepoolt über die Items (1 = dieselben Datensätze)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="161"/>
        <source>Items whose answer (the reduction over their records) is the same</source>
        <translation>Items, deren Antwort (die Reduktion über ihre Datensätze) gleich ist</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="163"/>
        <source>Distinct records per item, summed: reference side / other side</source>
        <translation>Verschiedene Datensätze je Item, summiert: Referenzseite / andere Seite</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="141"/>
        <source>Comparison</source>
        <translation>Vergleich</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="142"/>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="143"/>
        <source>Differs in</source>
        <translation>Abweichend in</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="144"/>
        <source>Byte-identical outputs</source>
        <translation>Byteidentische Ausgaben</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="145"/>
        <source>Record Jaccard (pooled)</source>
        <translation>Datensatz-Jaccard (gepoolt)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="146"/>
        <source>Answers agree</source>
        <translation>Antworten gleich</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="147"/>
        <source>Records</source>
        <translation>Datensätze</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="131"/>
        <source>%1 (%2–%3)</source>
        <translation>%1 (%2–%3)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="165"/>
        <source>Mean KL divergence per token position (nats), over the tokens both runs&apos; top-K lists hold, up to each output&apos;s first differing token</source>
        <translation>Mittlere KL-Divergenz je Token-Position (nats) über die Tokens, die beide Top-K-Listen enthalten, bis zum ersten abweichenden Token jeder Ausgabe</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="168"/>
        <source>Token positions whose most likely token is the same in both runs, with a 95% interval</source>
        <translation>Token-Positionen, deren wahrscheinlichstes Token in beiden Läufen gleich ist, mit 95-%-Intervall</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="171"/>
        <source>Root mean square of the change of the chosen token&apos;s probability, in points</source>
        <translation>Quadratisches Mittel der Änderung der Wahrscheinlichkeit des gewählten Tokens, in Punkten</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="148"/>
        <source>KL (mean)</source>
        <translation>KL (Mittel)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="149"/>
        <source>Same top token</source>
        <translation>Gleiches Top-Token</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="150"/>
        <source>RMS Δp</source>
        <translation>RMS Δp</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::HeatmapWidget</name>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="125"/>
        <source>embeddings</source>
        <translation>Embeddings</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="218"/>
        <source>%1, %2: %3 of the items differ bitwise (%4 of %5)</source>
        <translation>%1, %2: %3 der Items weichen bitweise ab (%4 von %5)</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="224"/>
        <source>relative L2 of the decision-token vector: median %1, max %2</source>
        <translation>relatives L2 des Entscheidungstoken-Vektors: Median %1, Max. %2</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="231"/>
        <source>first divergent layer of %1 items</source>
        <translation>erste abweichende Schicht von %1 Items</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="233"/>
        <source>Click to list these items.</source>
        <translation>Klicken, um diese Items aufzulisten.</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="244"/>
        <source>No per-layer records: run the study with capture &quot;hashes&quot; or &quot;vectors&quot;, and at least one config besides the reference.</source>
        <translation>Keine schichtweisen Aufzeichnungen: Führen Sie die Studie mit Erfassung &quot;hashes&quot; oder &quot;vectors&quot; und mindestens einer Konfiguration neben der Referenz aus.</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="252"/>
        <source>These runs were recorded with capture &quot;none&quot;: there are no per-layer hashes to compare.</source>
        <translation>Diese Läufe wurden mit Erfassung &quot;none&quot; aufgezeichnet: Es gibt keine schichtweisen Hashes zum Vergleichen.</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="268"/>
        <source>Share of items whose hidden states differ bitwise from the reference</source>
        <translation>Anteil der Items, deren verborgene Zustände bitweise von der Referenz abweichen</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="269"/>
        <source>Median relative L2 distance of the decision-token vector</source>
        <translation>Median des relativen L2-Abstands des Entscheidungstoken-Vektors</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="274"/>
        <source>emb</source>
        <translation>emb</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="332"/>
        <source>&gt; 0%</source>
        <translation>&gt; 0%</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="333"/>
        <source>100% of items</source>
        <translation>100% der Items</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="345"/>
        <source>bit-identical</source>
        <translation>bitidentisch</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="345"/>
        <source>identical</source>
        <translation>identisch</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="92"/>
        <source>%1 (flip)</source>
        <translation>%1 (gekippt)</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="206"/>
        <source>%1, %2: the hidden states differ bitwise from the reference</source>
        <translation>%1, %2: Die verborgenen Zustände weichen bitweise von der Referenz ab</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="207"/>
        <source>%1, %2: the same bits as the reference</source>
        <translation>%1, %2: dieselben Bits wie die Referenz</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="210"/>
        <source>Δp %1 points. Click to open the item.</source>
        <translation>Δp %1 Punkte. Klicken, um das Item zu öffnen.</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="264"/>
        <source>Layers whose hidden states differ bitwise from the reference, per item (the most moved first)</source>
        <translation>Schichten, deren verborgene Zustände bitweise von der Referenz abweichen, je Item (die am stärksten bewegten zuerst)</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="266"/>
        <source>Relative L2 distance of each item&apos;s decision vector</source>
        <translation>Relativer L2-Abstand des Entscheidungsvektors jedes Items</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="330"/>
        <source>differs</source>
        <translation>weicht ab</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::Inspector</name>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="122"/>
        <source>Config</source>
        <translation>Konfig.</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="122"/>
        <location filename="../ui/pages/inspector.cpp" line="245"/>
        <location filename="../ui/pages/inspector.cpp" line="263"/>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="123"/>
        <source>Δp</source>
        <translation>Δp</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="123"/>
        <source>Margin</source>
        <translation>Marge</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="124"/>
        <source>Decision</source>
        <translation>Entscheidung</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="117"/>
        <source>p under every config</source>
        <translation>p unter jeder Konfiguration</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="120"/>
        <source>Per-layer divergence from the reference</source>
        <translation>Abweichung von der Referenz je Schicht</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="123"/>
        <source>Layer hashes: equal (=) or different (≠)</source>
        <translation>Schicht-Hashes: gleich (=) oder verschieden (≠)</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="166"/>
        <source>Tokens not shown: %1</source>
        <translation>Tokens nicht angezeigt: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="199"/>
        <source>Tokens as the model read them: %1 (␣ marks a leading space).</source>
        <translation>Tokens, wie das Modell sie gelesen hat: %1 (␣ markiert ein führendes Leerzeichen).</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="201"/>
        <source>The run recorded %1 tokens (truncated to the model&apos;s length, or another tokenizer version).</source>
        <translation>Der Lauf hat %1 Tokens aufgezeichnet (auf die Modelllänge gekürzt oder eine andere Tokenizer-Version).</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="209"/>
        <source>No item selected</source>
        <translation>Kein Item ausgewählt</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="211"/>
        <source>Select an item in the items table, or click a point in the scatter plot.</source>
        <translation>Wählen Sie ein Item in der Item-Tabelle aus oder klicken Sie auf einen Punkt im Streudiagramm.</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="232"/>
        <source>Item %1 · label %2</source>
        <translation>Item %1 · Label %2</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="71"/>
        <source>%1 (ref.)</source>
        <translation>%1 (Ref.)</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="80"/>
        <source>%1 (flipped)</source>
        <translation>%1 (gekippt)</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="270"/>
        <source>threshold</source>
        <translation>Schwelle</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="354"/>
        <source>The decision-token vectors were not captured (capture &quot;vectors&quot; records them); the hashes below still show where the states differ.</source>
        <translation>Die Entscheidungstoken-Vektoren wurden nicht erfasst (Erfassung &quot;vectors&quot; zeichnet sie auf); die Hashes unten zeigen trotzdem, wo die Zustände abweichen.</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="193"/>
        <source>emb</source>
        <translation>emb</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="175"/>
        <source>%1, %2: the same bits as the reference</source>
        <translation>%1, %2: dieselben Bits wie die Referenz</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="174"/>
        <source>%1, %2: differs from the reference</source>
        <translation>%1, %2: weicht von der Referenz ab</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="124"/>
        <source>First layer</source>
        <translation>Erste Schicht</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="87"/>
        <source>none (head only)</source>
        <translation>keine (nur Head)</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="294"/>
        <source>hidden state (0 = embeddings); identical states drawn at 1e-12</source>
        <translation>verborgener Zustand (0 = Embeddings); identische Zustände bei 1e-12 gezeichnet</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="299"/>
        <source>relative L2 of the decision vector</source>
        <translation>relative L2 des Entscheidungsvektors</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="343"/>
        <source>Identical to the reference at every layer: %1</source>
        <translation>In jeder Schicht identisch mit der Referenz: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="348"/>
        <source>%1: the hidden states are bit-identical, yet the decision vector differs; the head&apos;s pooling (a mean over the real tokens, summed in another order when the row is padded differently) moved the numbers, not the layers.</source>
        <translation>%1: Die verborgenen Zustände sind bitidentisch, der Entscheidungsvektor aber nicht; das Pooling des Heads (ein Mittel über die echten Tokens, bei anderem Padding in anderer Reihenfolge summiert) hat die Zahlen bewegt, nicht die Schichten.</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="146"/>
        <source>Tokenized by the server (%1): its tokens are not known here.</source>
        <translation>Vom Server tokenisiert (%1): seine Tokens sind hier nicht bekannt.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::ItemsModel</name>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="343"/>
        <source>Logit gap (top-1 minus top-2 of the decision classes): %1 in the reference run, %2 under this config.</source>
        <translation>Logit-Abstand (Top-1 minus Top-2 der Entscheidungsklassen): %1 im Referenzlauf, %2 unter dieser Konfiguration.</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="348"/>
        <source>Decision %1 in the reference run, %2 under this config.</source>
        <translation>Entscheidung %1 im Referenzlauf, %2 unter dieser Konfiguration.</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="256"/>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="260"/>
        <source>identical</source>
        <translation>identisch</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="363"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="363"/>
        <source>Text</source>
        <translation>Text</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="370"/>
        <source>The gold label from the dataset.</source>
        <translation>Das Gold-Label aus dem Datensatz.</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="363"/>
        <source>Label</source>
        <translation>Label</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="372"/>
        <source>p in the reference run: the probability of the positive class (binary heads) or of the reference run&apos;s decision.</source>
        <translation>p im Referenzlauf: die Wahrscheinlichkeit der positiven Klasse (binäre Heads) oder der Entscheidung des Referenzlaufs.</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="363"/>
        <source>p (ref)</source>
        <translation>p (Ref.)</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="375"/>
        <source>p under the selected config.</source>
        <translation>p unter der gewählten Konfiguration.</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="363"/>
        <source>p (cfg)</source>
        <translation>p (Konfig.)</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="377"/>
        <source>Δp in points: 100 × |p(ref) − p(cfg)| (the largest over the classes).</source>
        <translation>Δp in Punkten: 100 × |p(Ref.) − p(Konfig.)| (das größte über die Klassen).</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="364"/>
        <source>Δp</source>
        <translation>Δp</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="379"/>
        <source>The reference run&apos;s logit gap: top-1 minus top-2 logit of the decision classes. Small margins are near the boundary (tinted).</source>
        <translation>Logit-Abstand des Referenzlaufs: Top-1- minus Top-2-Logit der Entscheidungsklassen. Kleine Margen liegen nahe der Entscheidungsgrenze (eingefärbt).</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="364"/>
        <source>Margin</source>
        <translation>Marge</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="382"/>
        <source>The decision differs between the two runs.</source>
        <translation>Die Entscheidung unterscheidet sich zwischen den beiden Läufen.</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="364"/>
        <source>Flip</source>
        <translation>Gekippt</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="384"/>
        <source>The first layer whose hidden states (real tokens only) differ bitwise from the reference run.</source>
        <translation>Die erste Schicht, deren verborgene Zustände (nur echte Tokens) bitweise vom Referenzlauf abweichen.</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="263"/>
        <source>none (head only)</source>
        <translation>keine (nur Head)</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="364"/>
        <source>First layer</source>
        <translation>Erste Schicht</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="281"/>
        <source>|p − p_exact| in points against the float64 run %1: %2 under this config, %3 in the reference run (%4).</source>
        <translation>|p − p_exact| in Punkten gegenüber dem float64-Lauf %1: %2 unter dieser Konfiguration, %3 im Referenzlauf (%4).</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="285"/>
        <source>this config is closer</source>
        <translation>diese Konfiguration ist näher</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="286"/>
        <source>the reference is closer</source>
        <translation>die Referenz ist näher</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="287"/>
        <source>as close</source>
        <translation>gleich nah</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="364"/>
        <source>To exact</source>
        <translation>Zu exakt</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="387"/>
        <source>Distance to exact: |p(cfg) − p_exact| in points, against the study&apos;s float64 run (the exact reference). Tinted where the config is closer than the reference run.</source>
        <translation>Abstand zum exakten Wert: |p(cfg) − p_exact| in Punkten, gegenüber dem float64-Lauf der Studie (der exakten Referenz). Eingefärbt, wo die Konfiguration näher liegt als der Referenzlauf.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::ItemsTable</name>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="53"/>
        <source>&amp;Flipped only</source>
        <translation>Nur ge&amp;kippte</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="55"/>
        <source>C&amp;hanged only</source>
        <translation>Nur geänder&amp;te</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="57"/>
        <source>Items that are not bit-identical to the reference run.</source>
        <translation>Items, die nicht bitidentisch zum Referenzlauf sind.</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="64"/>
        <source>any Δp</source>
        <translation>jedes Δp</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="65"/>
        <source>Δp &gt; </source>
        <translation>Δp &gt; </translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="66"/>
        <source>Only items whose Δp (points) is above this value.</source>
        <translation>Nur Items, deren Δp (Punkte) über diesem Wert liegt.</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="72"/>
        <source>any margin</source>
        <translation>jede Marge</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="73"/>
        <source>|margin| &lt; </source>
        <translation>|Marge| &lt; </translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="74"/>
        <source>Only items whose reference margin (logit gap) is below this value: the near-boundary items.</source>
        <translation>Nur Items, deren Referenzmarge (Logit-Abstand) unter diesem Wert liegt: die grenznahen Items.</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="80"/>
        <source>Search text or id</source>
        <translation>Text oder ID suchen</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="87"/>
        <source>A filter set from a chart or the heatmap; click to remove it.</source>
        <translation>Ein Filter aus einem Diagramm oder der Heatmap; zum Entfernen klicken.</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="36"/>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="161"/>
        <source>any label</source>
        <translation>jedes Label</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="165"/>
        <source>label: %1</source>
        <translation>Label: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="167"/>
        <source>unlabelled</source>
        <translation>ohne Label</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="194"/>
        <source>%1  ✕</source>
        <translation>%1  ✕</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="245"/>
        <source>%1 items</source>
        <translation>%1 Items</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="246"/>
        <source>%1 of %2 items</source>
        <translation>%1 von %2 Items</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::LadderChart</name>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="71"/>
        <location filename="../ui/pages/diagnosisview.cpp" line="78"/>
        <source>Suspect %1: %2</source>
        <translation>Verdächtiger %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="79"/>
        <source>not judged: the ladder stopped at &quot;%1&quot;</source>
        <translation>nicht bewertet: die Leiter hat bei &quot;%1&quot; angehalten</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="89"/>
        <source>Then: pin</source>
        <translation>Danach: fixieren</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="90"/>
        <source>Pin the runtime that reproduces the reference (probaudit pin), so that a different build or kernel library is reported before it moves a decision.</source>
        <translation>Fixieren Sie die Laufzeit, die die Referenz reproduziert (probaudit pin), damit ein anderer Build oder eine andere Kernel-Bibliothek gemeldet wird, bevor sie eine Entscheidung ändert.</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="141"/>
        <source>clean</source>
        <translation>sauber</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="144"/>
        <source>moves the numbers</source>
        <translation>ändert die Zahlen</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="147"/>
        <source>stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="149"/>
        <source>not judged</source>
        <translation>nicht bewertet</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="84"/>
        <source>Then: declare</source>
        <translation>Dann: deklarieren</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="85"/>
        <source>Declare the server&apos;s settings in the study ($.model.labels) and record the reference again after every change of the server, so that the change shows as a runtime step.</source>
        <translation>Deklarieren Sie die Einstellungen des Servers in der Studie ($.model.labels) und zeichnen Sie die Referenz nach jeder Änderung des Servers erneut auf, damit die Änderung als Laufzeitschritt erscheint.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::MainWindow</name>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="53"/>
        <source>ProbAudit Workbench</source>
        <translation>ProbAudit Workbench</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="102"/>
        <source>Engine: checking…</source>
        <translation>Engine: wird geprüft …</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="54"/>
        <location filename="../ui/pages/selfcheck.cpp" line="88"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="64"/>
        <source>&amp;Open Study or Ledger…</source>
        <translation>Studie oder Ledger ö&amp;ffnen …</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="67"/>
        <source>Open the &amp;Demo Study</source>
        <translation>&amp;Demostudie öffnen</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="86"/>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="90"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="46"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="47"/>
        <source>&amp;About ProbAudit</source>
        <translation>Ü&amp;ber ProbAudit</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="50"/>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="158"/>
        <source>Open Study or Ledger</source>
        <translation>Studie oder Ledger öffnen</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="159"/>
        <source>ProbAudit studies and ledgers (*.study.json *.ledger);;All files (*)</source>
        <translation>ProbAudit-Studien und -Ledger (*.study.json *.ledger);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="174"/>
        <source>Open Study</source>
        <translation>Studie öffnen</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="182"/>
        <source>%1 cannot be read.</source>
        <translation>%1 kann nicht gelesen werden.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="460"/>
        <source>Demo Study</source>
        <translation>Demostudie</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="533"/>
        <source>Engine: %1</source>
        <translation>Engine: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="542"/>
        <source>Engine: not available</source>
        <translation>Engine: nicht verfügbar</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="115"/>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="122"/>
        <source>Opening cancelled.</source>
        <translation>Öffnen abgebrochen.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="116"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="118"/>
        <source>&amp;Items</source>
        <translation>&amp;Items</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="119"/>
        <source>&amp;Charts</source>
        <translation>&amp;Diagramme</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="120"/>
        <source>&amp;Layers Heatmap</source>
        <translation>&amp;Schichten-Heatmap</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="121"/>
        <source>&amp;Diagnosis</source>
        <translation>Dia&amp;gnose</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="123"/>
        <source>&amp;Runs</source>
        <translation>&amp;Läufe</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="135"/>
        <source>&amp;Next Config</source>
        <translation>&amp;Nächste Konfiguration</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="137"/>
        <source>&amp;Previous Config</source>
        <translation>&amp;Vorherige Konfiguration</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="139"/>
        <source>Show &amp;Flipped Items Only</source>
        <translation>Nur ge&amp;kippte Items anzeigen</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="147"/>
        <source>&amp;Search Items…</source>
        <translation>Items s&amp;uchen …</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="175"/>
        <source>%1 has no ledger yet (%2). Run it first:
  probaudit run %1 --all</source>
        <translation>%1 hat noch kein Ledger (%2). Führen Sie die Studie zuerst aus:
  probaudit run %1 --all</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="181"/>
        <location filename="../ui/pages/mainwindow.cpp" line="291"/>
        <source>Open Ledger</source>
        <translation>Ledger öffnen</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="190"/>
        <source>Opening %1…</source>
        <translation>%1 wird geöffnet …</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="277"/>
        <source>%1 — ProbAudit Workbench</source>
        <translation>%1 — ProbAudit Workbench</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="461"/>
        <source>The demo ledger is made by ./scripts/demo (about two minutes): it trains the demo adapter, runs demo study A under seven configs and diagnoses it. Run it, then open the demo again.</source>
        <translation>Das Demo-Ledger wird von ./scripts/demo erzeugt (etwa zwei Minuten): Das Skript trainiert den Demo-Adapter, führt Demostudie A unter sieben Konfigurationen aus und diagnostiziert sie. Führen Sie es aus und öffnen Sie die Demo dann erneut.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="90"/>
        <source>Engine Runs</source>
        <translation>Engine-Läufe</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="96"/>
        <source>&amp;Study</source>
        <translation>&amp;Studie</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="97"/>
        <source>&amp;Run Configs…</source>
        <translation>Konfigurationen &amp;ausführen …</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="100"/>
        <source>&amp;Diagnose</source>
        <translation>&amp;Diagnose</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="103"/>
        <source>&amp;Edit Configs…</source>
        <translation>Konfigurationen &amp;bearbeiten …</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="106"/>
        <source>Load Runtime &amp;Lock…</source>
        <translation>Laufzeitsperre &amp;laden …</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="108"/>
        <source>&amp;Cancel Run</source>
        <translation>Lauf abbre&amp;chen</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="111"/>
        <source>Show Engine &amp;Runs Panel</source>
        <translation>&amp;Engine-Läufe anzeigen</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="122"/>
        <source>C&amp;ause</source>
        <translation>&amp;Ursache</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="124"/>
        <source>&amp;Variants</source>
        <translation>Vari&amp;anten</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="161"/>
        <source>&amp;Presentation Mode</source>
        <translation>&amp;Präsentationsmodus</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="168"/>
        <source>&amp;Theme</source>
        <translation>&amp;Farbschema</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="169"/>
        <source>Follow the &amp;System</source>
        <translation>&amp;System folgen</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="170"/>
        <source>&amp;Light</source>
        <translation>&amp;Hell</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="171"/>
        <source>&amp;Dark</source>
        <translation>&amp;Dunkel</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="183"/>
        <source>&amp;Language</source>
        <translation>Sp&amp;rache</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="189"/>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="190"/>
        <source>The workbench uses the new language from its next start.</source>
        <translation>Die Workbench verwendet die neue Sprache ab dem nächsten Start.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="307"/>
        <source>Where is the study file of this ledger?</source>
        <translation>Wo ist die Studiendatei dieses Ledgers?</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="308"/>
        <source>ProbAudit studies (*.study.json *.json)</source>
        <translation>ProbAudit-Studien (*.study.json *.json)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="345"/>
        <source>Edit Configs</source>
        <translation>Konfigurationen bearbeiten</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="327"/>
        <location filename="../ui/pages/mainwindow.cpp" line="345"/>
        <location filename="../ui/pages/mainwindow.cpp" line="386"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="239"/>
        <source>Open a study or ledger first.</source>
        <translation>Öffnen Sie zuerst eine Studie oder ein Ledger.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="327"/>
        <location filename="../ui/pages/mainwindow.cpp" line="331"/>
        <source>Diagnose</source>
        <translation>Diagnose</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="386"/>
        <location filename="../ui/pages/mainwindow.cpp" line="394"/>
        <source>Run Configs</source>
        <translation>Konfigurationen ausführen</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="401"/>
        <source>%1 (recorded in run %2)</source>
        <translation>%1 (aufgezeichnet in Lauf %2)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="410"/>
        <source>Configs already recorded in this environment are skipped by the engine; unfinished runs resume where they stopped.</source>
        <translation>Konfigurationen, die in dieser Umgebung bereits aufgezeichnet sind, überspringt die Engine; unvollständige Läufe werden dort fortgesetzt, wo sie angehalten haben.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="415"/>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="497"/>
        <source>%1 is not a runtime lock (made by probaudit pin).</source>
        <translation>%1 ist keine Laufzeitsperre (erstellt mit probaudit pin).</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="510"/>
        <source>Load Runtime Lock</source>
        <translation>Laufzeitsperre laden</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="511"/>
        <source>Runtime locks (*.lock.json);;All files (*)</source>
        <translation>Laufzeitsperren (*.lock.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="55"/>
        <source>&amp;New Study…</source>
        <translation>&amp;Neue Studie …</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="361"/>
        <location filename="../ui/pages/mainwindow.cpp" line="375"/>
        <source>New Study</source>
        <translation>Neue Studie</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="331"/>
        <location filename="../ui/pages/mainwindow.cpp" line="361"/>
        <source>Wait for the current run to end.</source>
        <translation>Warten Sie, bis der aktuelle Lauf beendet ist.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="71"/>
        <source>&amp;Export Report…</source>
        <translation>Bericht &amp;exportieren …</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="239"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="243"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="330"/>
        <source>Export Report</source>
        <translation>Bericht exportieren</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="244"/>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="333"/>
        <source>Report written to %1</source>
        <translation>Bericht geschrieben: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="74"/>
        <source>Export &amp;Items of This Comparison…</source>
        <translation>&amp;Items dieses Vergleichs exportieren …</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="254"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="385"/>
        <source>Export Items</source>
        <translation>Items exportieren</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="255"/>
        <source>CSV (*.csv);;JSON lines (*.jsonl)</source>
        <translation>CSV (*.csv);;JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="84"/>
        <source>Export &amp;Headline Table…</source>
        <translation>Übersichts&amp;tabelle exportieren …</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="305"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="406"/>
        <source>Export Headline</source>
        <translation>Übersicht exportieren</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="306"/>
        <source>Markdown (*.md);;CSV (*.csv)</source>
        <translation>Markdown (*.md);;CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="386"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="407"/>
        <source>%1 cannot be written.</source>
        <translation>%1 kann nicht geschrieben werden.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="389"/>
        <source>Items written to %1</source>
        <translation>Items geschrieben: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="410"/>
        <source>Headline written to %1</source>
        <translation>Übersicht geschrieben: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="78"/>
        <source>Export Audit &amp;Bundle…</source>
        <translation>Audit-&amp;Bündel exportieren …</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="266"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="360"/>
        <source>Export Audit Bundle</source>
        <translation>Audit-Bündel exportieren</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="267"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="275"/>
        <source>Audit bundles (*.zip)</source>
        <translation>Audit-Bündel (*.zip)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="363"/>
        <source>Audit bundle written to %1</source>
        <translation>Audit-Bündel geschrieben: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="81"/>
        <source>&amp;Import Audit Bundle…</source>
        <translation>Audit-Bündel &amp;importieren …</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="274"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="293"/>
        <source>Import Audit Bundle</source>
        <translation>Audit-Bündel importieren</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="284"/>
        <source>Import Into Ledger</source>
        <translation>In Ledger importieren</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="285"/>
        <source>Ledgers (*.ledger)</source>
        <translation>Ledger (*.ledger)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="297"/>
        <source>%1 runs imported, %2 already there</source>
        <translation>%1 Läufe importiert, %2 schon vorhanden</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="157"/>
        <source>Field Report &amp;Tables…</source>
        <translation>Tabellen der &amp;Feldberichte…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="206"/>
        <source>Ledger: TAMPERED</source>
        <translation>Ledger: MANIPULIERT</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="209"/>
        <source>Ledger: verified, signed by %1</source>
        <translation>Ledger: geprüft, signiert von %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="212"/>
        <source>Ledger: verified, unsigned</source>
        <translation>Ledger: geprüft, nicht signiert</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="221"/>
        <source>TAMPERED LEDGER: %1. The figures below come from a ledger that was changed after it was sealed; do not sign them off.</source>
        <translation>MANIPULIERTER LEDGER: %1. Die Zahlen unten stammen aus einem Ledger, der nach dem Versiegeln verändert wurde; zeichnen Sie sie nicht ab.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="229"/>
        <source>Ledger: verifying…</source>
        <translation>Ledger: wird geprüft…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="365"/>
        <source>%1, without the study file: %2</source>
        <translation>%1, ohne die Studiendatei: %2</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="40"/>
        <source>Se&amp;ttings</source>
        <translation>&amp;Einstellungen</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="41"/>
        <source>&amp;Engine…</source>
        <translation>&amp;Engine …</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::NewStudyDialog</name>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="122"/>
        <source>Browse…</source>
        <translation>Durchsuchen …</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="126"/>
        <source>Model folder</source>
        <translation>Modellordner</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="128"/>
        <source>GGUF model file</source>
        <translation>GGUF-Modelldatei</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="129"/>
        <source>GGUF (*.gguf)</source>
        <translation>GGUF (*.gguf)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="132"/>
        <source>Choose a file</source>
        <translation>Datei auswählen</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="159"/>
        <source>New Study</source>
        <translation>Neue Studie</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="163"/>
        <source>e.g. sentiment-minilm</source>
        <translation>z. B. sentiment-minilm</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="164"/>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="174"/>
        <source>&amp;Model:</source>
        <translation>&amp;Modell:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="175"/>
        <source>a Hugging Face folder or a GGUF file</source>
        <translation>ein Hugging-Face-Ordner oder eine GGUF-Datei</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="178"/>
        <source>&amp;Dataset:</source>
        <translation>&amp;Datensatz:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="179"/>
        <source>a JSONL or CSV file</source>
        <translation>eine JSONL- oder CSV-Datei</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="183"/>
        <source>text field</source>
        <translation>Textfeld</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="185"/>
        <source>label field</source>
        <translation>Label-Feld</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="189"/>
        <source>class names in order, e.g. negative, positive</source>
        <translation>Klassennamen in Reihenfolge, z. B. negative, positive</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="190"/>
        <source>&amp;Classes:</source>
        <translation>&amp;Klassen:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="192"/>
        <source>adapter (a linear head file)</source>
        <translation>Adapter (eine lineare Head-Datei)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="193"/>
        <source>label tokens (an LLM&apos;s next token)</source>
        <translation>Label-Tokens (nächstes Token eines LLM)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="194"/>
        <source>classifier (inside the checkpoint)</source>
        <translation>Klassifikator (im Checkpoint)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="195"/>
        <source>Decision &amp;head:</source>
        <translation>Entscheidungs-&amp;Head:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="196"/>
        <source>Adapter &amp;file:</source>
        <translation>Adapter-Da&amp;tei:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="198"/>
        <source>prompt with {text}; the classes are the label words</source>
        <translation>Prompt mit {text}; die Klassen sind die Label-Wörter</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="199"/>
        <source>&amp;Prompt:</source>
        <translation>&amp;Prompt:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="203"/>
        <source>Ca&amp;pture:</source>
        <translation>&amp;Erfassung:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="376"/>
        <source>reference: batch 1, no padding, float32, 1 thread</source>
        <translation>Referenz: Batch 1, kein Padding, float32, 1 Thread</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="205"/>
        <source>Configs:</source>
        <translation>Konfigurationen:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="206"/>
        <source>Save &amp;as:</source>
        <translation>Speichern &amp;unter:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="207"/>
        <source>NAME.study.json</source>
        <translation>NAME.study.json</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="213"/>
        <source>Create and Run</source>
        <translation>Erstellen und ausführen</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="224"/>
        <source>Problems:</source>
        <translation>Probleme:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="566"/>
        <source>%1, %2 layers, hidden %3</source>
        <translation>%1, %2 Schichten, Hidden-Größe %3</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="601"/>
        <source>%1 items, %2 with a label</source>
        <translation>%1 Items, %2 mit Label</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="624"/>
        <source>found</source>
        <translation>gefunden</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="626"/>
        <source>%1 cannot be read</source>
        <translation>%1 kann nicht gelesen werden</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="490"/>
        <source>The study needs a name.</source>
        <translation>Die Studie braucht einen Namen.</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="635"/>
        <source>Choose where to save the study file.</source>
        <translation>Wählen Sie, wo die Studiendatei gespeichert werden soll.</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="638"/>
        <source>%1 is not a writable folder</source>
        <translation>%1 ist kein beschreibbarer Ordner</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="643"/>
        <source>exists: it will be replaced</source>
        <translation>vorhanden: wird ersetzt</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="643"/>
        <source>new file</source>
        <translation>neue Datei</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="499"/>
        <source>None: the study is ready.</source>
        <translation>Keine: Die Studie ist bereit.</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="657"/>
        <source>%1 cannot be written.</source>
        <translation>%1 kann nicht geschrieben werden.</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="56"/>
        <source>batch 8, right padding</source>
        <translation>Batch 8, Padding rechts</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="58"/>
        <source>batch 8, left padding</source>
        <translation>Batch 8, Padding links</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="60"/>
        <source>padded to 128 tokens</source>
        <translation>auf 128 Tokens aufgefüllt</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="62"/>
        <source>2 threads</source>
        <translation>2 Threads</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="64"/>
        <source>bfloat16</source>
        <translation>bfloat16</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="66"/>
        <source>SDPA attention</source>
        <translation>SDPA-Attention</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="76"/>
        <source>the same again (repeat)</source>
        <translation>dasselbe noch einmal (repeat)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="78"/>
        <source>4 requests in flight</source>
        <translation>4 Anfragen gleichzeitig</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="81"/>
        <source>4 in flight, another arrival order</source>
        <translation>4 gleichzeitig, andere Ankunftsreihenfolge</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="83"/>
        <source>prefix cache warm</source>
        <translation>Präfix-Cache warm</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="169"/>
        <source>a model file (the built-in engine)</source>
        <translation>eine Modelldatei (die eingebaute Engine)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="172"/>
        <source>a server (OpenAI-compatible API)</source>
        <translation>ein Server (OpenAI-kompatible API)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="173"/>
        <source>Model &amp;source:</source>
        <translation>Modell&amp;quelle:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="335"/>
        <source>e.g. http://127.0.0.1:8000/v1</source>
        <translation>z. B. http://127.0.0.1:8000/v1</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="336"/>
        <source>Server &amp;URL:</source>
        <translation>Server-&amp;URL:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="338"/>
        <source>the model name the server serves</source>
        <translation>der Modellname, den der Server bereitstellt</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="339"/>
        <source>Model &amp;name:</source>
        <translation>Modell&amp;name:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="341"/>
        <source>completions</source>
        <translation>Completions</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="342"/>
        <source>chat completions</source>
        <translation>Chat-Completions</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="343"/>
        <source>&amp;API:</source>
        <translation>&amp;API:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="345"/>
        <source>environment variable holding the key, e.g. OPENAI_API_KEY</source>
        <translation>Umgebungsvariable mit dem Schlüssel, z. B. OPENAI_API_KEY</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="346"/>
        <source>&amp;Key variable:</source>
        <translation>&amp;Schlüsselvariable:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="347"/>
        <source>Test connection</source>
        <translation>Verbindung testen</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="372"/>
        <source>reference: one request at a time, cold cache</source>
        <translation>Referenz: eine Anfrage nach der anderen, kalter Cache</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="393"/>
        <source>Asking %1 for its models…</source>
        <translation>Frage %1 nach seinen Modellen …</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pages/newstudydialog.cpp" line="401"/>
        <source>The server lists %n model(s): %1.</source>
        <translation>
            <numerusform>Der Server nennt %n Modell: %1.</numerusform>
            <numerusform>Der Server nennt %n Modelle: %1.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="405"/>
        <source>It does not list %1.</source>
        <translation>%1 ist nicht darunter.</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="92"/>
        <source>a GGUF file; transformers dequantizes it at load</source>
        <translation>eine GGUF-Datei; transformers dequantisiert sie beim Laden</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="97"/>
        <source>%1: no config.json (not a Hugging Face folder)</source>
        <translation>%1: keine config.json (kein Hugging-Face-Ordner)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="104"/>
        <source>%1: config.json names no model_type</source>
        <translation>%1: config.json nennt keinen model_type</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="106"/>
        <source>%1, read by transformers in the environment</source>
        <translation>%1, von transformers in der Umgebung gelesen</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="170"/>
        <source>a model file, in a Python environment (transformers)</source>
        <translation>eine Modelldatei, in einer Python-Umgebung (transformers)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="248"/>
        <source>&amp;Python:</source>
        <translation>&amp;Python:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="251"/>
        <source>the interpreter of the environment, e.g. /opt/venv/bin/python</source>
        <translation>der Interpreter der Umgebung, z. B. /opt/venv/bin/python</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="253"/>
        <source>Check interpreter</source>
        <translation>Interpreter prüfen</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="266"/>
        <source>Starting the transformers runner in %1…</source>
        <translation>Starte den transformers-Runner in %1…</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="271"/>
        <source>No interpreter given.</source>
        <translation>Kein Interpreter angegeben.</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="275"/>
        <source>Python %1, torch %2, transformers %3</source>
        <translation>Python %1, torch %2, transformers %3</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="374"/>
        <source>reference: batch 1, no padding, float32, 1 thread, in the Python environment</source>
        <translation>Referenz: Batch 1, kein Padding, float32, 1 Thread, in der Python-Umgebung</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="69"/>
        <source>float64, the exact reference (which side is closer to exact)</source>
        <translation>float64, die exakte Referenz (welche Seite näher am exakten Wert liegt)</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::PresentationWindow</name>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="62"/>
        <source>ProbAudit — Presentation</source>
        <translation>ProbAudit — Präsentation</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="109"/>
        <source>Same model, same inputs: do the decisions reproduce?</source>
        <translation>Gleiches Modell, gleiche Eingaben: Sind die Entscheidungen reproduzierbar?</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="110"/>
        <source>%1 runtime configurations against the reference: %2 flipped decisions in total, probabilities moved by up to %3 points.</source>
        <translation>%1 Laufzeitkonfigurationen im Vergleich zur Referenz: insgesamt %2 gekippte Entscheidungen, Wahrscheinlichkeiten um bis zu %3 Punkte verschoben.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="130"/>
        <source>Where decisions move: near the boundary</source>
        <translation>Wo sich Entscheidungen ändern: nahe der Grenze</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="131"/>
        <source>Items by their margin in the reference run; under %1, %2 flipped and %3% kept every bit.</source>
        <translation>Items nach ihrer Marge im Referenzlauf; unter %1 sind %2 gekippt, und %3% behielten jedes Bit.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="183"/>
        <source>One input, two decisions</source>
        <translation>Eine Eingabe, zwei Entscheidungen</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="183"/>
        <source>One input, two probabilities</source>
        <translation>Eine Eingabe, zwei Wahrscheinlichkeiten</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="184"/>
        <source>The same text gets another decision under %1.</source>
        <translation>Derselbe Text erhält unter %1 eine andere Entscheidung.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="185"/>
        <source>The item whose probability moved most under %1.</source>
        <translation>Das Item, dessen Wahrscheinlichkeit sich unter %1 am stärksten verschoben hat.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="194"/>
        <source>Where the numbers part: layer by layer</source>
        <translation>Wo sich die Zahlen trennen: Schicht für Schicht</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="195"/>
        <source>Share of items whose hidden states differ from the reference, per config and layer.</source>
        <translation>Anteil der Items, deren verborgene Zustände von der Referenz abweichen, je Konfiguration und Schicht.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="211"/>
        <source>Why: the suspects, one by one</source>
        <translation>Warum: die Verdächtigen, einer nach dem anderen</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="213"/>
        <source>Each probe changes one thing and compares bit for bit.</source>
        <translation>Jede Sonde ändert genau eine Sache und vergleicht Bit für Bit.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="214"/>
        <source>No diagnosis is stored yet: run probaudit diagnose.</source>
        <translation>Noch keine Diagnose gespeichert: Führen Sie probaudit diagnose aus.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="306"/>
        <source>%1 / %2  ·  ← → to move  ·  Esc to leave</source>
        <translation>%1 / %2  ·  ← → zum Blättern  ·  Esc zum Beenden</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="155"/>
        <source>Do the flips sit at near ties?</source>
        <translation>Liegen die gekippten Entscheidungen bei Beinahe-Gleichständen?</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="156"/>
        <source>No config flipped a decision; the whiskers show the flip rate each margin bin still allows (Wilson 95%).</source>
        <translation>Keine Konfiguration hat eine Entscheidung gekippt; die Striche zeigen die Kipprate, die jede Margenklasse noch zulässt (Wilson 95 %).</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="158"/>
        <source>%1 flipped decisions over all configs, %2 of them where the reference&apos;s margin was below 1; whiskers: Wilson 95% intervals.</source>
        <translation>%1 gekippte Entscheidungen über alle Konfigurationen, %2 davon bei einer Referenzmarge unter 1; Striche: Wilson-95-%-Intervalle.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="229"/>
        <source>Same prompts, temperature 0: do the outputs reproduce?</source>
        <translation>Gleiche Prompts, Temperatur 0: Reproduzieren sich die Ausgaben?</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="230"/>
        <source>%1 prompts. Most telling: %2, %3 of %4 outputs byte-identical, pooled record Jaccard %5.</source>
        <translation>%1 Prompts. Am aussagekräftigsten: %2, %3 von %4 Ausgaben byte-identisch, gepoolter Datensatz-Jaccard %5.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="237"/>
        <source>Nothing to compare yet: a generation study needs two finished runs.</source>
        <translation>Noch nichts zu vergleichen: Eine Generierungsstudie braucht zwei abgeschlossene Läufe.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="242"/>
        <source>Every output is byte-identical: there is no diverging prompt.</source>
        <translation>Jede Ausgabe ist byte-identisch: Es gibt keinen abweichenden Prompt.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="258"/>
        <source>One prompt, two outputs</source>
        <translation>Ein Prompt, zwei Ausgaben</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="266"/>
        <source>Do outputs fork at near ties?</source>
        <translation>Verzweigen sich Ausgaben bei Beinahe-Gleichständen?</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="267"/>
        <source>The reference&apos;s top-2 logit gap where outputs first diverge, against its gaps at every step.</source>
        <translation>Der Top-2-Logit-Abstand der Referenz dort, wo sich die Ausgaben zuerst trennen, gegen ihre Abstände bei jedem Schritt.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="250"/>
        <source>Prompt %1 under %2: the outputs part at generated token %3, where the reference&apos;s top-2 logit gap was %4.</source>
        <translation>Prompt %1 unter %2: Die Ausgaben trennen sich beim erzeugten Token %3, wo der Top-2-Logit-Abstand der Referenz %4 betrug.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::ReviewPage</name>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="44"/>
        <source>accuracy</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="44"/>
        <source>decisions</source>
        <translation>Entscheidungen</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="44"/>
        <source>bits</source>
        <translation>Bits</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="106"/>
        <source>The head variant under review</source>
        <translation>Die geprüfte Head-Variante</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="188"/>
        <source>Share of items bitwise different</source>
        <translation>Anteil bitweise abweichender Items</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="189"/>
        <source>Relative L2 of the decision-token vector (median)</source>
        <translation>Relatives L2 des Entscheidungstoken-Vektors (Median)</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="198"/>
        <source>Colour:</source>
        <translation>Farbe:</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="124"/>
        <source>&amp;Items</source>
        <translation>&amp;Items</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="125"/>
        <source>C&amp;harts</source>
        <translation>Diag&amp;ramme</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="126"/>
        <source>&amp;Layers</source>
        <translation>S&amp;chichten</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="127"/>
        <source>Dia&amp;gnosis</source>
        <translation>Dia&amp;gnose</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="128"/>
        <source>&amp;Cause</source>
        <translation>&amp;Ursache</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="129"/>
        <source>R&amp;uns</source>
        <translation>&amp;Läufe</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="130"/>
        <source>Va&amp;riants</source>
        <translation>&amp;Varianten</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="154"/>
        <source>Head:</source>
        <translation>Head:</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="308"/>
        <source>%1 differs</source>
        <translation>%1 weicht ab</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="332"/>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="404"/>
        <source>Nothing to compare yet: the ledger has no finished run.</source>
        <translation>Noch nichts zu vergleichen: Das Ledger hat keinen abgeschlossenen Lauf.</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="408"/>
        <source>Config %1 has no finished run yet.</source>
        <translation>Konfiguration %1 hat noch keinen abgeschlossenen Lauf.</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="409"/>
        <source>The reference config %1 has no finished run, so nothing can be compared.</source>
        <translation>Die Referenzkonfiguration %1 hat keinen abgeschlossenen Lauf, daher kann nichts verglichen werden.</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="413"/>
        <source>Comparing the reference config &quot;%1&quot; (run %2) with &quot;%3&quot; (run %4): %5</source>
        <translation>Vergleich der Referenzkonfiguration &quot;%1&quot; (Lauf %2) mit &quot;%3&quot; (Lauf %4): %5</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="192"/>
        <source>Configs</source>
        <translation>Konfigurationen</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="193"/>
        <source>Items of the selected config (the 40 most moved)</source>
        <translation>Items der gewählten Konfiguration (die 40 am stärksten bewegten)</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="196"/>
        <source>Rows:</source>
        <translation>Zeilen:</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="252"/>
        <source>Sweep: the study&apos;s shards on the cluster</source>
        <translation>Sweep: die Shards der Studie auf dem Cluster</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="258"/>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::RunController</name>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="53"/>
        <source>A run is already in progress.</source>
        <translation>Es ist bereits ein Lauf im Gange.</translation>
    </message>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="60"/>
        <source>The engine was not found at %1.</source>
        <translation>Die Engine wurde unter %1 nicht gefunden.</translation>
    </message>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="79"/>
        <source>The engine could not be started: %1</source>
        <translation>Die Engine konnte nicht gestartet werden: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="142"/>
        <source>Every batch finished before it is kept in %1.</source>
        <translation>Jeder zuvor abgeschlossene Batch bleibt in %1 erhalten.</translation>
    </message>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="146"/>
        <source>The engine stopped unexpectedly (it crashed or was killed). %1</source>
        <translation>Die Engine wurde unerwartet beendet (Absturz oder von außen beendet). %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="154"/>
        <source>The run was cancelled. %1</source>
        <translation>Der Lauf wurde abgebrochen. %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="162"/>
        <source>exit code %1</source>
        <translation>Exit-Code %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="164"/>
        <source>The engine failed: %1. %2</source>
        <translation>Die Engine ist fehlgeschlagen: %1. %2</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::RunPanel</name>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="33"/>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="35"/>
        <source>Stop after the current batch; every finished batch stays in the ledger and the run can be resumed.</source>
        <translation>Nach dem aktuellen Batch anhalten; jeder abgeschlossene Batch bleibt im Ledger, und der Lauf kann fortgesetzt werden.</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="52"/>
        <source>Stopping after the current batch…</source>
        <translation>Wird nach dem aktuellen Batch angehalten …</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="60"/>
        <source>resumed at %1</source>
        <translation>fortgesetzt bei %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="60"/>
        <location filename="../ui/pages/runpanel.cpp" line="155"/>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="61"/>
        <source>Running %1 (run %2)…</source>
        <translation>%1 läuft (Lauf %2) …</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="68"/>
        <source>already recorded</source>
        <translation>bereits aufgezeichnet</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="77"/>
        <source>%1 items/s · ETA %2</source>
        <translation>%1 Items/s · Restzeit %2</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="93"/>
        <source>finished</source>
        <translation>abgeschlossen</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="119"/>
        <source>waiting</source>
        <translation>wartet</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="138"/>
        <source>Starting the engine…</source>
        <translation>Engine wird gestartet …</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="146"/>
        <source>All runs finished.</source>
        <translation>Alle Läufe abgeschlossen.</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="155"/>
        <source>resumed</source>
        <translation>fortgesetzt</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="156"/>
        <source>interrupted</source>
        <translation>unterbrochen</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="157"/>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="83"/>
        <source>%1 items/s · %2 requests in flight</source>
        <translation>%1 Items/s · %2 Anfragen gleichzeitig</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="86"/>
        <source>Measured from the requests&apos; send and reply times: the server may work on fewer requests at once than the config&apos;s concurrency asks for</source>
        <translation>Gemessen an den Sende- und Antwortzeiten der Anfragen: Der Server bearbeitet womöglich weniger Anfragen gleichzeitig, als die Nebenläufigkeit der Konfiguration verlangt</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::RunsModel</name>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="100"/>
        <source>records SHA-256 %1
chain SHA-256 %2</source>
        <translation>Datensätze SHA-256 %1
Kette SHA-256 %2</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="113"/>
        <source>probe</source>
        <translation>Sonde</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="113"/>
        <source>study</source>
        <translation>Studie</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="126"/>
        <source>finished</source>
        <translation>abgeschlossen</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="128"/>
        <source>interrupted</source>
        <translation>unterbrochen</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="130"/>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="132"/>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="132"/>
        <source>cut off (resumable)</source>
        <translation>abgebrochen (fortsetzbar)</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="136"/>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="146"/>
        <source>not sealed</source>
        <translation>nicht versiegelt</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="154"/>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="154"/>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="154"/>
        <source>Config or probe</source>
        <translation>Konfig. oder Sonde</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="154"/>
        <source>Model variant</source>
        <translation>Modellvariante</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="155"/>
        <source>Head</source>
        <translation>Head</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="155"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="155"/>
        <source>Items</source>
        <translation>Items</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="155"/>
        <source>Capture</source>
        <translation>Erfassung</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="156"/>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="156"/>
        <source>Started (UTC)</source>
        <translation>Gestartet (UTC)</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="156"/>
        <source>Seal</source>
        <translation>Siegel</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="38"/>
        <source>environment %1
libtorch %2, CUDA build %3
CPU %4, kernels %5
intra-op threads %6
ProbAudit %7 (commit %8)</source>
        <translation>Umgebung %1
libtorch %2, CUDA-Build %3
CPU %4, Kernel %5
Intra-op-Threads %6
ProbAudit %7 (Commit %8)</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="113"/>
        <source>imported</source>
        <translation>importiert</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="22"/>
        <source>environment %1
server %2 (%3 API), model %4</source>
        <translation>Umgebung %1
Server %2 (%3-API), Modell %4</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="54"/>
        <source>%1 items/s · %2 in flight</source>
        <translation>%1 Items/s · %2 gleichzeitig</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="58"/>
        <source>%1 items in %2 s over %3 session(s); requests in flight on average %4 (measured from send and reply times); latency median %5 s, p99 %6 s; %7 retries, %8 items failed</source>
        <translation>%1 Items in %2 s über %3 Sitzung(en); gleichzeitige Anfragen im Mittel %4 (gemessen an Sende- und Antwortzeiten); Latenz Median %5 s, p99 %6 s; %7 Wiederholungen, %8 Items fehlgeschlagen</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="156"/>
        <source>Serving</source>
        <translation>Bereitstellung</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::SeedTablesDialog</name>
    <message>
        <location filename="../ui/pages/seedtablesdialog.cpp" line="18"/>
        <source>Field Report Tables</source>
        <translation>Tabellen der Feldberichte</translation>
    </message>
    <message>
        <location filename="../ui/pages/seedtablesdialog.cpp" line="30"/>
        <source>&amp;Copy as Markdown</source>
        <translation>Als Markdown &amp;kopieren</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::SweepModel</name>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="82"/>
        <source>, %1 unknown</source>
        <translation>, %1 unbekannt</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="85"/>
        <source>; not merged yet</source>
        <translation>; noch nicht zusammengeführt</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="86"/>
        <source>; merged into %1</source>
        <translation>; zusammengeführt in %1</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="88"/>
        <source>The scheduler could not be asked (%1): states from the shards&apos; ledgers alone.</source>
        <translation>Der Scheduler konnte nicht gefragt werden (%1): Zustände allein aus den Ledgern der Shards.</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="100"/>
        <source>queued</source>
        <translation>wartend</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="102"/>
        <source>running</source>
        <translation>laufend</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="104"/>
        <source>complete</source>
        <translation>fertig</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="106"/>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="108"/>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="115"/>
        <source>unreadable: %1</source>
        <translation>unlesbar: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="118"/>
        <source>no ledger yet</source>
        <translation>noch kein Ledger</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="120"/>
        <source>%1/%2 runs, %3/%4 items</source>
        <translation>%1/%2 Läufe, %3/%4 Items</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="148"/>
        <source>The task&apos;s last words: %1</source>
        <translation>Die letzten Worte der Aufgabe: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="160"/>
        <source>not known</source>
        <translation>nicht bekannt</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="173"/>
        <source>Shard</source>
        <translation>Shard</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="173"/>
        <source>Slurm task</source>
        <translation>Slurm-Aufgabe</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="173"/>
        <source>Scheduler</source>
        <translation>Scheduler</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="173"/>
        <source>Its ledger</source>
        <translation>Sein Ledger</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="173"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="75"/>
        <source>%1 of %2 shards complete, %3 running, %4 queued, %5 failed</source>
        <translation>%1 von %2 Shards fertig, %3 laufend, %4 wartend, %5 fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::VariantsModel</name>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="34"/>
        <source>Runtime noise floor: not measured (no runtime config of &quot;%1&quot; besides the reference has a run).</source>
        <translation>Laufzeit-Rauschboden: nicht gemessen (außer der Referenz hat keine Laufzeit-Konfiguration von „%1“ einen Lauf).</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="37"/>
        <source>Runtime noise floor: the reference variant &quot;%1&quot; under %2 other runtime config(s) flips at most %3 decision(s), largest Δp %4 points.</source>
        <translation>Laufzeit-Rauschboden: die Referenzvariante „%1“ kippt unter %2 anderen Laufzeit-Konfiguration(en) höchstens %3 Entscheidung(en), größtes Δp %4 Punkte.</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="44"/>
        <source>Its largest mean KL over the vocabulary: %1 nats (%2).</source>
        <translation>Ihre größte mittlere KL über das Vokabular: %1 nats (%2).</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="48"/>
        <source>%1 has no run of the reference variant with the same runtime settings to compare it with.</source>
        <translation>Für %1 gibt es keinen Lauf der Referenzvariante mit denselben Laufzeit-Einstellungen zum Vergleich.</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="58"/>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="58"/>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="58"/>
        <source>not measured</source>
        <translation>nicht gemessen</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="70"/>
        <location filename="../ui/models/variantsmodel.cpp" line="72"/>
        <source>no labels</source>
        <translation>keine Labels</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="78"/>
        <source>not recorded</source>
        <translation>nicht aufgezeichnet</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="111"/>
        <source>Variant</source>
        <translation>Variante</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="111"/>
        <source>Config</source>
        <translation>Konfig.</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="111"/>
        <source>Against</source>
        <translation>Gegen</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="112"/>
        <source>Flips</source>
        <translation>Gekippt</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="112"/>
        <source>Churn (95%)</source>
        <translation>Churn (95 %)</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="112"/>
        <source>Net, points</source>
        <translation>Netto, Punkte</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="113"/>
        <source>Largest Δp</source>
        <translation>Größtes Δp</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="113"/>
        <source>Above the floor</source>
        <translation>Über dem Boden</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="113"/>
        <source>KL mean (nats)</source>
        <translation>KL-Mittel (nats)</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="114"/>
        <source>KL p99</source>
        <translation>KL p99</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="114"/>
        <source>Same top token</source>
        <translation>Gleiches Top-Token</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="114"/>
        <source>KL above the floor</source>
        <translation>KL über dem Boden</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="120"/>
        <source>The reference variant&apos;s config with the same runtime settings</source>
        <translation>Die Konfiguration der Referenzvariante mit denselben Laufzeit-Einstellungen</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="122"/>
        <source>Labelled items whose correctness changed either way (Wilson 95%)</source>
        <translation>Gelabelte Items, deren Richtigkeit sich in eine der beiden Richtungen änderte (Wilson 95 %)</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="124"/>
        <source>The accuracy difference, variant minus baseline (paired bootstrap 95%)</source>
        <translation>Der Genauigkeitsunterschied, Variante minus Basis (gepaarter Bootstrap 95 %)</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="126"/>
        <source>More flips than any runtime config of the reference variant, or as many and a larger Δp</source>
        <translation>Mehr gekippte Entscheidungen als jede Laufzeit-Konfiguration der Referenzvariante, oder gleich viele und ein größeres Δp</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="129"/>
        <source>KL(baseline || variant) over the whole vocabulary at the decision position, mean over items (heads that record their vocabulary)</source>
        <translation>KL(Basis || Variante) über das ganze Vokabular an der Entscheidungsposition, gemittelt über die Items (Heads, die ihr Vokabular aufzeichnen)</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="132"/>
        <source>Items whose most likely vocabulary token is the same (Wilson 95%)</source>
        <translation>Items, deren wahrscheinlichstes Vokabular-Token gleich bleibt (Wilson 95 %)</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="134"/>
        <source>A mean KL above every runtime config&apos;s</source>
        <translation>Eine mittlere KL über der jeder Laufzeit-Konfiguration</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::VerdictStrip</name>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="40"/>
        <source>Policy: evaluating…</source>
        <translation>Richtlinie: wird ausgewertet …</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="70"/>
        <source>Policy: cannot be evaluated: %1</source>
        <translation>Richtlinie: kann nicht ausgewertet werden: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="74"/>
        <source>Policy: &lt;b&gt;not judged&lt;/b&gt;: the ledger was changed after it was sealed (%1).</source>
        <translation>Richtlinie: &lt;b&gt;nicht beurteilt&lt;/b&gt;: das Ledger wurde nach dem Versiegeln verändert (%1).</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="80"/>
        <source>Policy verdict: &lt;b&gt;%1&lt;/b&gt; (%2 passed, %3 failed, %4 cannot be evaluated); policy %5.</source>
        <translation>Urteil der Richtlinie: &lt;b&gt;%1&lt;/b&gt; (%2 bestanden, %3 nicht bestanden, %4 nicht auswertbar); Richtlinie %5.</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="82"/>
        <source>FAIL</source>
        <translation>NICHT BESTANDEN</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="83"/>
        <source>INCOMPLETE</source>
        <translation>UNVOLLSTÄNDIG</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="84"/>
        <source>PASS</source>
        <translation>BESTANDEN</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="107"/>
        <source>Not passed: %1</source>
        <translation>Nicht bestanden: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="125"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
</TS>
