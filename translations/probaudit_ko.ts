<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="ko_KR">
<context>
    <name>probaudit::ui::AboutDialog</name>
    <message>
        <source>libtorch %1</source>
        <translation>libtorch %1</translation>
    </message>
    <message>
        <source>CPU-only build</source>
        <translation>CPU 전용 빌드</translation>
    </message>
    <message>
        <source>CUDA build %1</source>
        <translation>CUDA 빌드 %1</translation>
    </message>
    <message>
        <source>no GPU</source>
        <translation>GPU 없음</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>GPU %n개</numerusform></translation>
    </message>
    <message>
        <source>CPU kernels %1</source>
        <translation>CPU 커널 %1</translation>
    </message>
    <message>
        <source>About ProbAudit</source>
        <translation>ProbAudit 정보</translation>
    </message>
    <message>
        <source>Engine: asking the engine for its fingerprint…</source>
        <translation>엔진: 환경 지문을 확인하는 중…</translation>
    </message>
    <message>
        <source>Engine: ProbAudit %1, %2</source>
        <translation>엔진: ProbAudit %1, %2</translation>
    </message>
    <message>
        <source>Engine: not available (%1)</source>
        <translation>엔진: 사용할 수 없음 (%1)</translation>
    </message>
    <message>
        <source>Audits whether a model's decisions and decision probabilities reproduce across runtime configurations.</source>
        <translation>모델의 결정과 결정 확률이 런타임 구성이 달라도 재현되는지 감사합니다.</translation>
    </message>
    <message>
        <source>Workbench built from commit %1%2 with Qt %3.</source>
        <translation>워크벤치 빌드: 커밋 %1%2, Qt %3.</translation>
    </message>
    <message>
        <source> (modified)</source>
        <translation> (수정됨)</translation>
    </message>
    <message>
        <source>Demo data: Sentiment Labelled Sentences (Kotzias et al., KDD 2015), CC BY 4.0.</source>
        <translation>데모 데이터: Sentiment Labelled Sentences (Kotzias et al., KDD 2015), CC BY 4.0.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::EmptyStatePage</name>
    <message>
        <source>No study is open</source>
        <translation>열린 스터디가 없습니다</translation>
    </message>
    <message>
        <source>ProbAudit checks whether the same input gets the same decision, with the same probability, under every runtime configuration: batch size, padding, dtype, kernels, threads and torch/CUDA builds.</source>
        <translation>ProbAudit는 같은 입력이 모든 런타임 구성(배치 크기, 패딩, 데이터 형식, 커널, 스레드, torch/CUDA 빌드)에서 같은 결정과 같은 확률을 얻는지 확인합니다.</translation>
    </message>
    <message>
        <source>Open a Study…</source>
        <translation>스터디 열기…</translation>
    </message>
    <message>
        <source>Open the Demo Study</source>
        <translation>데모 스터디 열기</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::EngineClient</name>
    <message>
        <source>The engine was not found at %1.</source>
        <translation>%1에서 엔진을 찾을 수 없습니다.</translation>
    </message>
    <message>
        <source>The engine stopped with exit code %1.</source>
        <translation>엔진이 종료 코드 %1로 멈췄습니다.</translation>
    </message>
    <message>
        <source>The engine failed: %1</source>
        <translation>엔진 오류: %1</translation>
    </message>
    <message>
        <source>The engine's answer was not valid JSON (%1).</source>
        <translation>엔진의 응답이 올바른 JSON이 아닙니다 (%1).</translation>
    </message>
    <message>
        <source>The engine could not be started: %1</source>
        <translation>엔진을 시작할 수 없습니다: %1</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::MainWindow</name>
    <message>
        <source>ProbAudit Workbench</source>
        <translation>ProbAudit 워크벤치</translation>
    </message>
    <message>
        <source>Engine: checking…</source>
        <translation>엔진: 확인 중…</translation>
    </message>
    <message>
        <source>Runtime: not pinned</source>
        <translation>런타임: 고정되지 않음</translation>
    </message>
    <message>
        <source>No runtime lock is loaded. A pinned runtime lists every difference between this environment and the verified one.</source>
        <translation>런타임 잠금이 로드되지 않았습니다. 고정된 런타임은 이 환경과 검증된 환경의 모든 차이를 보여 줍니다.</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open Study or Ledger…</source>
        <translation>스터디 또는 원장 열기(&amp;O)…</translation>
    </message>
    <message>
        <source>Open the &amp;Demo Study</source>
        <translation>데모 스터디 열기(&amp;D)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>최근 파일(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>종료(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About ProbAudit</source>
        <translation>ProbAudit 정보(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Qt 정보(&amp;Q)</translation>
    </message>
    <message>
        <source>Open Study or Ledger</source>
        <translation>스터디 또는 원장 열기</translation>
    </message>
    <message>
        <source>ProbAudit studies and ledgers (*.study.json *.ledger);;All files (*)</source>
        <translation>ProbAudit 스터디 및 원장 (*.study.json *.ledger);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Open Study</source>
        <translation>스터디 열기</translation>
    </message>
    <message>
        <source>%1 cannot be read.</source>
        <translation>%1을(를) 읽을 수 없습니다.</translation>
    </message>
    <message>
        <source>This version of ProbAudit cannot read studies or ledgers yet; it shows the engine's environment only. %1 was not opened.</source>
        <translation>이 버전의 ProbAudit는 아직 스터디나 원장을 읽을 수 없으며 엔진 환경만 보여 줍니다. %1을(를) 열지 않았습니다.</translation>
    </message>
    <message>
        <source>Demo Study</source>
        <translation>데모 스터디</translation>
    </message>
    <message>
        <source>The demo study is created by ./scripts/demo. This version of ProbAudit runs the environment check only; the demo audit arrives with the engine.</source>
        <translation>데모 스터디는 ./scripts/demo로 만들어집니다. 이 버전의 ProbAudit는 환경 점검만 실행하며, 데모 감사는 엔진과 함께 제공됩니다.</translation>
    </message>
    <message>
        <source>Engine: %1</source>
        <translation>엔진: %1</translation>
    </message>
    <message>
        <source>Engine: not available</source>
        <translation>엔진: 사용할 수 없음</translation>
    </message>
</context>
</TS>