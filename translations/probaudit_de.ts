<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="de_DE">
<context>
    <name>probaudit::ui::AboutDialog</name>
    <message>
        <source>libtorch %1</source>
        <translation>libtorch %1</translation>
    </message>
    <message>
        <source>CPU-only build</source>
        <translation>reiner CPU-Build</translation>
    </message>
    <message>
        <source>CUDA build %1</source>
        <translation>CUDA-Build %1</translation>
    </message>
    <message>
        <source>no GPU</source>
        <translation>keine GPU</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n GPU</numerusform><numerusform>%n GPUs</numerusform></translation>
    </message>
    <message>
        <source>CPU kernels %1</source>
        <translation>CPU-Kernel %1</translation>
    </message>
    <message>
        <source>About ProbAudit</source>
        <translation>Über ProbAudit</translation>
    </message>
    <message>
        <source>Engine: asking the engine for its fingerprint…</source>
        <translation>Engine: Fingerabdruck wird abgefragt …</translation>
    </message>
    <message>
        <source>Engine: ProbAudit %1, %2</source>
        <translation>Engine: ProbAudit %1, %2</translation>
    </message>
    <message>
        <source>Engine: not available (%1)</source>
        <translation>Engine: nicht verfügbar (%1)</translation>
    </message>
    <message>
        <source>Audits whether a model's decisions and decision probabilities reproduce across runtime configurations.</source>
        <translation>Prüft, ob die Entscheidungen eines Modells und ihre Wahrscheinlichkeiten über Laufzeitkonfigurationen hinweg reproduzierbar sind.</translation>
    </message>
    <message>
        <source>Workbench built from commit %1%2 with Qt %3.</source>
        <translation>Workbench gebaut aus Commit %1%2 mit Qt %3.</translation>
    </message>
    <message>
        <source> (modified)</source>
        <translation> (geändert)</translation>
    </message>
    <message>
        <source>Demo data: Sentiment Labelled Sentences (Kotzias et al., KDD 2015), CC BY 4.0.</source>
        <translation>Demodaten: Sentiment Labelled Sentences (Kotzias et al., KDD 2015), CC BY 4.0.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::EmptyStatePage</name>
    <message>
        <source>No study is open</source>
        <translation>Keine Studie geöffnet</translation>
    </message>
    <message>
        <source>ProbAudit checks whether the same input gets the same decision, with the same probability, under every runtime configuration: batch size, padding, dtype, kernels, threads and torch/CUDA builds.</source>
        <translation>ProbAudit prüft, ob dieselbe Eingabe unter jeder Laufzeitkonfiguration dieselbe Entscheidung mit derselben Wahrscheinlichkeit erhält: Batchgröße, Padding, Datentyp, Kernel, Threads sowie torch- und CUDA-Builds.</translation>
    </message>
    <message>
        <source>Open a Study…</source>
        <translation>Studie öffnen …</translation>
    </message>
    <message>
        <source>Open the Demo Study</source>
        <translation>Demostudie öffnen</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::EngineClient</name>
    <message>
        <source>The engine was not found at %1.</source>
        <translation>Die Engine wurde unter %1 nicht gefunden.</translation>
    </message>
    <message>
        <source>The engine stopped with exit code %1.</source>
        <translation>Die Engine wurde mit Exit-Code %1 beendet.</translation>
    </message>
    <message>
        <source>The engine failed: %1</source>
        <translation>Die Engine ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The engine's answer was not valid JSON (%1).</source>
        <translation>Die Antwort der Engine war kein gültiges JSON (%1).</translation>
    </message>
    <message>
        <source>The engine could not be started: %1</source>
        <translation>Die Engine konnte nicht gestartet werden: %1</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::MainWindow</name>
    <message>
        <source>ProbAudit Workbench</source>
        <translation>ProbAudit Workbench</translation>
    </message>
    <message>
        <source>Engine: checking…</source>
        <translation>Engine: wird geprüft …</translation>
    </message>
    <message>
        <source>Runtime: not pinned</source>
        <translation>Laufzeit: nicht fixiert</translation>
    </message>
    <message>
        <source>No runtime lock is loaded. A pinned runtime lists every difference between this environment and the verified one.</source>
        <translation>Keine Laufzeitsperre geladen. Eine fixierte Laufzeit listet jeden Unterschied zwischen dieser Umgebung und der verifizierten auf.</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open Study or Ledger…</source>
        <translation>Studie oder Ledger ö&amp;ffnen …</translation>
    </message>
    <message>
        <source>Open the &amp;Demo Study</source>
        <translation>&amp;Demostudie öffnen</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About ProbAudit</source>
        <translation>Ü&amp;ber ProbAudit</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>Open Study or Ledger</source>
        <translation>Studie oder Ledger öffnen</translation>
    </message>
    <message>
        <source>ProbAudit studies and ledgers (*.study.json *.ledger);;All files (*)</source>
        <translation>ProbAudit-Studien und -Ledger (*.study.json *.ledger);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Open Study</source>
        <translation>Studie öffnen</translation>
    </message>
    <message>
        <source>%1 cannot be read.</source>
        <translation>%1 kann nicht gelesen werden.</translation>
    </message>
    <message>
        <source>This version of ProbAudit cannot read studies or ledgers yet; it shows the engine's environment only. %1 was not opened.</source>
        <translation>Diese Version von ProbAudit kann noch keine Studien oder Ledger lesen; sie zeigt nur die Umgebung der Engine. %1 wurde nicht geöffnet.</translation>
    </message>
    <message>
        <source>Demo Study</source>
        <translation>Demostudie</translation>
    </message>
    <message>
        <source>The demo study is created by ./scripts/demo. This version of ProbAudit runs the environment check only; the demo audit arrives with the engine.</source>
        <translation>Die Demostudie wird von ./scripts/demo erzeugt. Diese Version von ProbAudit führt nur die Umgebungsprüfung aus; das Demo-Audit folgt mit der Engine.</translation>
    </message>
    <message>
        <source>Engine: %1</source>
        <translation>Engine: %1</translation>
    </message>
    <message>
        <source>Engine: not available</source>
        <translation>Engine: nicht verfügbar</translation>
    </message>
</context>
</TS>