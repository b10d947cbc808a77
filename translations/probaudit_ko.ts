<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko_KR">
<context>
    <name>Charts</name>
    <message>
        <location filename="../ui/charts/charts.cpp" line="70"/>
        <location filename="../ui/charts/exactchart.cpp" line="96"/>
        <source>items</source>
        <translation>항목 수</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="151"/>
        <source>Δp per item (points), log bins</source>
        <translation>항목별 Δp (포인트), 로그 구간</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="152"/>
        <source>no flip</source>
        <translation>뒤집힘 없음</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="153"/>
        <location filename="../ui/charts/charts.cpp" line="224"/>
        <location filename="../ui/charts/charts.cpp" line="309"/>
        <source>flipped</source>
        <translation>뒤집힘</translation>
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
        <translation>Δp 범위 %1</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="221"/>
        <source>Reference margin |logit gap|: the near-tie view</source>
        <translation>기준 마진 |로짓 차이|: 근소 차이 보기</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="222"/>
        <source>bit-identical p</source>
        <translation>비트 동일 p</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="223"/>
        <source>p changed</source>
        <translation>p 변경됨</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="255"/>
        <source>|margin| in %1</source>
        <translation>|마진| 범위 %1</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="260"/>
        <source>, flipped</source>
        <translation>, 뒤집힘</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="263"/>
        <source>, p changed</source>
        <translation>, p 변경됨</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="266"/>
        <source>, p unchanged</source>
        <translation>, p 변경 없음</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="277"/>
        <source>p (reference) against p (config)</source>
        <translation>p (기준) 대 p (구성)</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="302"/>
        <source>%1 (%2 of %3 drawn)</source>
        <translation>%1 (%3개 중 %2개 표시)</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="308"/>
        <source>Δp &gt; 0</source>
        <translation>Δp &gt; 0</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="324"/>
        <source>p (reference)</source>
        <translation>p (기준)</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="325"/>
        <source>p (config)</source>
        <translation>p (구성)</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="80"/>
        <source>threshold</source>
        <translation>임계값</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="55"/>
        <source>%1 in [%2, %3): %4 items</source>
        <translation>%1, 구간 [%2, %3): 항목 %4개</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="194"/>
        <source>Δp (points), bins from the value shown</source>
        <translation>Δp (포인트), 표시된 값부터 시작하는 구간</translation>
    </message>
    <message>
        <location filename="../ui/charts/charts.cpp" line="246"/>
        <source>|margin| in the reference run (logits), bins from the value shown</source>
        <translation>기준 실행의 |마진| (로짓), 표시된 값부터 시작하는 구간</translation>
    </message>
    <message>
        <location filename="../ui/charts/neartiechart.cpp" line="77"/>
        <source>Flip rate by the reference&apos;s margin, with Wilson 95% intervals</source>
        <translation>참조 마진별 결정 반전 비율 (Wilson 95% 구간)</translation>
    </message>
    <message>
        <location filename="../ui/charts/neartiechart.cpp" line="98"/>
        <source>|margin| in the reference run (logits), items per bin in brackets</source>
        <translation>참조 실행의 |마진| (로짓), 괄호 안은 구간별 항목 수</translation>
    </message>
    <message>
        <location filename="../ui/charts/neartiechart.cpp" line="101"/>
        <source>flip rate (%)</source>
        <translation>반전 비율 (%)</translation>
    </message>
    <message>
        <location filename="../ui/charts/neartiechart.cpp" line="53"/>
        <source>%1 (%2 flips)</source>
        <translation>%1 (반전 %2건)</translation>
    </message>
    <message>
        <location filename="../ui/charts/neartiechart.cpp" line="65"/>
        <source>%1 (no flip)</source>
        <translation>%1 (반전 없음)</translation>
    </message>
    <message>
        <location filename="../ui/charts/neartiechart.cpp" line="67"/>
        <source>%1 configs, no flip</source>
        <translation>구성 %1개, 반전 없음</translation>
    </message>
    <message>
        <location filename="../ui/charts/exactchart.cpp" line="52"/>
        <source>Distance to exact |p − p_exact| (points): %1 closer on %2%, the reference on %3%</source>
        <translation>정확값까지의 거리 |p − p_exact| (포인트): %1이(가) %2%에서 더 가깝고, 기준은 %3%에서 더 가까움</translation>
    </message>
    <message>
        <location filename="../ui/charts/exactchart.cpp" line="68"/>
        <source>%1 (reference)</source>
        <translation>%1 (기준)</translation>
    </message>
    <message>
        <location filename="../ui/charts/exactchart.cpp" line="87"/>
        <source>|p − p_exact| (points), bins from the value shown; float64 run: %1</source>
        <translation>|p − p_exact| (포인트), 표시된 값부터의 구간; float64 실행: %1</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <location filename="../ui/models/format.cpp" line="66"/>
        <source>not captured</source>
        <translation>캡처 안 됨</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="69"/>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="72"/>
        <location filename="../ui/models/format.cpp" line="100"/>
        <source>embeddings</source>
        <translation>임베딩</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="74"/>
        <source>layer %1</source>
        <translation>레이어 %1</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="78"/>
        <source>accuracy %1; decisions %2; probabilities %3</source>
        <translation>정확도 %1; 결정 %2; 확률 %3</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="79"/>
        <source>reproduces</source>
        <translation>재현됨</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="80"/>
        <source>does NOT reproduce</source>
        <translation>재현되지 않음</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="81"/>
        <source>reproduce</source>
        <translation>재현됨</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="82"/>
        <source>do NOT reproduce</source>
        <translation>재현되지 않음</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="83"/>
        <source>reproduce bit for bit</source>
        <translation>비트 단위로 재현됨</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="84"/>
        <source>do NOT reproduce bit for bit</source>
        <translation>비트 단위로 재현되지 않음</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="102"/>
        <source>norms</source>
        <translation>정규화</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="104"/>
        <source>projections</source>
        <translation>프로젝션</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="106"/>
        <source>attention</source>
        <translation>어텐션</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="108"/>
        <source>attention output</source>
        <translation>어텐션 출력</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="110"/>
        <source>MLP</source>
        <translation>MLP</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="112"/>
        <source>residual adds</source>
        <translation>잔차 덧셈</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="116"/>
        <source>head</source>
        <translation>헤드</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="121"/>
        <source>loader and repeatability</source>
        <translation>로더와 반복성</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="124"/>
        <source>neighbour interference</source>
        <translation>이웃 간섭</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="127"/>
        <source>shape</source>
        <translation>형태</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="130"/>
        <source>kernels and runtime</source>
        <translation>커널과 런타임</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="133"/>
        <source>model variant</source>
        <translation>모델 변형</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="136"/>
        <source>cause</source>
        <translation>원인</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="139"/>
        <source>repeatability</source>
        <translation>반복 가능성</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="142"/>
        <source>serving</source>
        <translation>서빙</translation>
    </message>
    <message>
        <location filename="../ui/models/format.cpp" line="145"/>
        <source>runtime</source>
        <translation>런타임</translation>
    </message>
</context>
<context>
    <name>GenerationView</name>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="31"/>
        <source>run to run</source>
        <translation>실행 간</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="34"/>
        <source>serving (concurrency)</source>
        <translation>서빙 (동시성)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="36"/>
        <source>configuration</source>
        <translation>구성</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="40"/>
        <source>%1, run twice</source>
        <translation>%1, 두 번 실행</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="41"/>
        <source>%1 vs %2</source>
        <translation>%1 대 %2</translation>
    </message>
    <message>
        <location filename="../ui/charts/gapchart.cpp" line="28"/>
        <source>Top-2 logit gap of the reference: where outputs diverge, and at every step</source>
        <translation>기준의 top-2 로짓 차이: 출력이 갈라지는 지점과 모든 단계</translation>
    </message>
    <message>
        <location filename="../ui/charts/gapchart.cpp" line="30"/>
        <source>at divergence points</source>
        <translation>분기 지점</translation>
    </message>
    <message>
        <location filename="../ui/charts/gapchart.cpp" line="31"/>
        <source>at every step</source>
        <translation>모든 단계</translation>
    </message>
    <message>
        <location filename="../ui/charts/gapchart.cpp" line="50"/>
        <source>at divergence points (%1)</source>
        <translation>분기 지점 (%1)</translation>
    </message>
    <message>
        <location filename="../ui/charts/gapchart.cpp" line="51"/>
        <source>at every step (%1)</source>
        <translation>모든 단계 (%1)</translation>
    </message>
    <message>
        <location filename="../ui/charts/gapchart.cpp" line="59"/>
        <source>top-2 logit gap, bins from the value shown</source>
        <translation>top-2 로짓 차이, 표시된 값부터 시작하는 구간</translation>
    </message>
    <message>
        <location filename="../ui/charts/gapchart.cpp" line="66"/>
        <source>% of its set</source>
        <translation>각 계열 내 %</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="49"/>
        <source>&lt;p&gt;This item has no output in one of the runs.&lt;/p&gt;</source>
        <translation>&lt;p&gt;이 항목은 두 실행 중 한쪽에 출력이 없습니다.&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="63"/>
        <source>&lt;b&gt;%1&lt;/b&gt; (run %2)&lt;br&gt;&lt;small&gt;%3 tokens, ended by %4, arrived %5.&lt;/small&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (실행 %2)&lt;br&gt;&lt;small&gt;토큰 %3개, 종료 사유 %4, 도착 순서 %5.&lt;/small&gt;</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="73"/>
        <source>Byte-identical outputs.</source>
        <translation>출력이 바이트 단위로 동일합니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="75"/>
        <source>The outputs diverge at generated token %1; the reference&apos;s top-2 logit gap there was %2.</source>
        <translation>출력이 %1번째 생성 토큰에서 갈라집니다. 그 지점에서 기준의 top-2 로짓 차이는 %2였습니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="102"/>
        <source>only here:</source>
        <translation>여기에만:</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="105"/>
        <source>&lt;i&gt;no records&lt;/i&gt;</source>
        <translation>&lt;i&gt;레코드 없음&lt;/i&gt;</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="109"/>
        <source>Record Jaccard %1 (%2 shared of %3)</source>
        <translation>레코드 Jaccard %1 (%3개 중 %2개 공통)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="114"/>
        <source>; answers: &quot;%1&quot; and &quot;%2&quot;%3</source>
        <translation>; 답: &quot;%1&quot;, &quot;%2&quot;%3</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="116"/>
        <source>, the same</source>
        <translation>, 같음</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="117"/>
        <source>, different</source>
        <translation>, 다름</translation>
    </message>
    <message>
        <location filename="../ui/models/generationhtml.cpp" line="124"/>
        <location filename="../ui/models/generationhtml.cpp" line="125"/>
        <source>Records of %1</source>
        <translation>%1의 레코드</translation>
    </message>
</context>
<context>
    <name>PinStatus</name>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="18"/>
        <source>absent</source>
        <translation>없음</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="27"/>
        <source>Runtime: not pinned</source>
        <translation>런타임: 고정되지 않음</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="28"/>
        <source>No runtime lock is loaded. A pinned runtime lists every difference between this environment and the verified one.</source>
        <translation>런타임 잠금이 로드되지 않았습니다. 고정된 런타임은 이 환경과 검증된 환경의 모든 차이를 보여 줍니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="37"/>
        <source>Runtime: pinned (%1), checking…</source>
        <translation>런타임: 고정됨 (%1), 확인 중…</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="38"/>
        <source>Waiting for the engine&apos;s environment fingerprint.</source>
        <translation>엔진의 환경 지문을 기다리는 중입니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="57"/>
        <source>Runtime: matches the pin</source>
        <translation>런타임: 고정 환경과 일치</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="60"/>
        <source>This environment is the one %1 verified.</source>
        <translation>이 환경은 %1에서 검증한 바로 그 환경입니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="63"/>
        <source>This environment matches %1 in everything that can move numbers. Other differences:
%2</source>
        <translation>이 환경은 수치를 바꿀 수 있는 모든 항목에서 %1의 환경과 일치합니다. 기타 차이:
%2</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="69"/>
        <source>Runtime: differs from the pin (%1)</source>
        <translation>런타임: 고정 환경과 다름 (%1)</translation>
    </message>
    <message>
        <location filename="../ui/models/pinstatus.cpp" line="72"/>
        <source>This environment differs from %1 in ways that can move numbers:
%2</source>
        <translation>이 환경은 수치를 바꿀 수 있는 부분에서 %1의 환경과 다릅니다:
%2</translation>
    </message>
</context>
<context>
    <name>ScreenshotTour</name>
    <message>
        <location filename="../ui/pages/screenshottour.cpp" line="93"/>
        <source>|margin| &lt; 1</source>
        <translation>|마진| &lt; 1</translation>
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
        <translation>CPU 전용 빌드</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="27"/>
        <source>CUDA build %1</source>
        <translation>CUDA 빌드 %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="29"/>
        <source>no GPU</source>
        <translation>GPU 없음</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pages/aboutdialog.cpp" line="29"/>
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>GPU %n개</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="30"/>
        <source>CPU kernels %1</source>
        <translation>CPU 커널 %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="37"/>
        <source>About ProbAudit</source>
        <translation>ProbAudit 정보</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="61"/>
        <source>Engine: asking the engine for its fingerprint…</source>
        <translation>엔진: 환경 지문을 확인하는 중…</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="66"/>
        <source>Engine: ProbAudit %1, %2</source>
        <translation>엔진: ProbAudit %1, %2</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="73"/>
        <source>Engine: not available (%1)</source>
        <translation>엔진: 사용할 수 없음 (%1)</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="86"/>
        <source>Audits whether a model&apos;s decisions and decision probabilities reproduce across runtime configurations.</source>
        <translation>모델의 결정과 결정 확률이 런타임 구성이 달라도 재현되는지 감사합니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="89"/>
        <source>Workbench built from commit %1%2 with Qt %3.</source>
        <translation>워크벤치 빌드: 커밋 %1%2, Qt %3.</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="90"/>
        <source> (modified)</source>
        <translation> (수정됨)</translation>
    </message>
    <message>
        <location filename="../ui/pages/aboutdialog.cpp" line="94"/>
        <source>Demo data: Sentiment Labelled Sentences (Kotzias et al., KDD 2015), CC BY 4.0.</source>
        <translation>데모 데이터: Sentiment Labelled Sentences (Kotzias et al., KDD 2015), CC BY 4.0.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::CauseView</name>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="128"/>
        <source>Δp complete by</source>
        <translation>Δp 완성 지점</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="128"/>
        <source>Items</source>
        <translation>항목</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="129"/>
        <source>A&apos;s state</source>
        <translation>A의 상태</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="133"/>
        <source>A set</source>
        <translation>집합</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="139"/>
        <source>The share of Δp removed when A&apos;s hidden state after this row&apos;s layer is spliced into B</source>
        <translation>이 행의 레이어 뒤 A의 은닉 상태를 B에 끼워 넣을 때 사라지는 Δp의 비율</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="143"/>
        <source>The mean share of Δp removed when B computes this operator class as A does, in every layer; in brackets, the items it is the cause of</source>
        <translation>B가 모든 레이어에서 이 연산자 클래스를 A처럼 계산할 때 사라지는 Δp의 평균 비율; 괄호 안은 이 클래스가 원인인 항목 수</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="148"/>
        <source>Items no class explains alone, but a set of classes computed as A together does</source>
        <translation>어떤 클래스도 혼자서는 설명하지 못하지만, A처럼 함께 계산한 클래스 집합이 설명하는 항목</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="185"/>
        <source>flip</source>
        <translation>뒤집힘</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="198"/>
        <source>Item</source>
        <translation>항목</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="198"/>
        <source>Δp (points)</source>
        <translation>Δp (포인트)</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="198"/>
        <source>Flip</source>
        <translation>뒤집힘</translation>
    </message>
    <message>
        <location filename="../ui/models/causemodels.cpp" line="199"/>
        <source>Cause</source>
        <translation>원인</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="26"/>
        <source>The config whose difference from the reference is shown</source>
        <translation>기준과의 차이를 보여 줄 구성</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="46"/>
        <source>Config:</source>
        <translation>구성:</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="79"/>
        <source>No diagnosis is stored for this head yet. probaudit diagnose STUDY runs the ladder; its fifth rung, cause, localises each config that differs from the reference.</source>
        <translation>이 헤드에 저장된 진단이 아직 없습니다. probaudit diagnose STUDY가 사다리를 실행하며, 다섯 번째 단계인 원인이 기준과 다른 각 구성을 국소화합니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="82"/>
        <source>The stored diagnosis has no cause rung: no config differed from the reference, or it was made before the rung existed (diagnose again).</source>
        <translation>저장된 진단에 원인 단계가 없습니다: 기준과 다른 구성이 없었거나, 이 단계가 생기기 전에 만들어졌습니다(다시 진단하세요).</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="86"/>
        <source>Why each config differs from the reference &quot;%1&quot;: B ran again with one operator class at a time computed as the reference computes it, in every layer, on its flips, then its largest Δp (up to %2 items). A cell is the mean share of Δp that class&apos;s splice removes over the row&apos;s items (darker: more), with the items it is the cause of; click a cell for its items, activate an item to inspect it.</source>
        <translation>각 구성이 기준 &quot;%1&quot;과 다른 이유: B를 다시 실행하되, 한 번에 한 연산자 클래스를 모든 레이어에서 기준처럼 계산했습니다. 대상은 뒤집힌 항목, 그다음 Δp가 가장 큰 항목입니다(최대 %2개). 셀은 그 클래스를 끼워 넣었을 때 행의 항목에서 사라지는 Δp의 평균 비율(진할수록 큼)과 그 클래스가 원인인 항목 수입니다. 셀을 클릭하면 항목이 나오고, 항목을 활성화하면 검사합니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="116"/>
        <source>Not localised: %1.</source>
        <translation>국소화되지 않음: %1.</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="140"/>
        <source>Items complete by %1 whose cause is %2</source>
        <translation>%1까지 완성되고 원인이 %2인 항목</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="143"/>
        <source>Items complete by %1 that a set of classes explains</source>
        <translation>%1까지 완성되고 클래스 집합이 설명하는 항목</translation>
    </message>
    <message>
        <location filename="../ui/pages/causeview.cpp" line="144"/>
        <source>Items complete by %1</source>
        <translation>%1까지 완성되는 항목</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pages/causeview.cpp" line="146"/>
        <source>%1: %n item(s)</source>
        <translation>
            <numerusform>%1: 항목 %n개</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>probaudit::ui::ConfigEditor</name>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="70"/>
        <source>Configs of %1</source>
        <translation>%1의 구성</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="86"/>
        <source>&amp;Add</source>
        <translation>추가(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="87"/>
        <source>A new config: a copy of the selected one (or of the reference).</source>
        <translation>새 구성: 선택한 구성(또는 기준)의 복사본입니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="88"/>
        <source>Re&amp;move</source>
        <translation>제거(&amp;M)</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="89"/>
        <source>Make &amp;Reference</source>
        <translation>기준으로 지정(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="90"/>
        <source>&amp;Save</source>
        <translation>저장(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="92"/>
        <source>Save and R&amp;un Selected</source>
        <translation>저장 후 선택 항목 실행(&amp;U)</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="94"/>
        <source>Close</source>
        <translation>닫기</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="104"/>
        <source>Double-click a cell to change it. Cells that differ from the reference are highlighted. Saving rewrites the study file (a copy of the original is kept as .bak; comments are not kept).</source>
        <translation>셀을 두 번 클릭하면 값을 바꿀 수 있습니다. 기준과 다른 셀은 강조 표시됩니다. 저장하면 스터디 파일을 다시 씁니다(원본 사본은 .bak으로 보관되며, 주석은 보존되지 않습니다).</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="153"/>
        <source>Select the configs to run (rows).</source>
        <translation>실행할 구성(행)을 선택하세요.</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="178"/>
        <location filename="../ui/pages/configeditor.cpp" line="197"/>
        <source>%1 cannot be written.</source>
        <translation>%1에 쓸 수 없습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/configeditor.cpp" line="202"/>
        <source>Saved %1.</source>
        <translation>저장했습니다: %1.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::ConfigMatrixModel</name>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="120"/>
        <source>%1 (reference)</source>
        <translation>%1 (기준)</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="130"/>
        <source>The reference: every other config is compared with it.</source>
        <translation>기준: 다른 모든 구성을 이 구성과 비교합니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="131"/>
        <source>The same settings as the reference.</source>
        <translation>기준과 설정이 같습니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="132"/>
        <source>Differs from the reference in: %1</source>
        <translation>기준과 다른 축: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="161"/>
        <source>%1: %2 here, %3 in the reference</source>
        <translation>%1: 여기서는 %2, 기준에서는 %3</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="182"/>
        <source>There is already a config named %1.</source>
        <translation>이름이 %1인 구성이 이미 있습니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="204"/>
        <source>%1 must be a whole number.</source>
        <translation>%1 값은 정수여야 합니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/configmatrixmodel.cpp" line="241"/>
        <source>Config</source>
        <translation>구성</translation>
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
        <translation>기준 구성은 제거할 수 없습니다. 먼저 다른 구성을 기준으로 지정하세요.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::DashboardModel</name>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="68"/>
        <source>Config %1 has no finished run for this head yet.</source>
        <translation>구성 %1에는 이 헤드의 완료된 실행이 아직 없습니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="72"/>
        <source>Accuracy of this config minus the reference&apos;s, in points, with a paired bootstrap 95% interval. McNemar&apos;s exact test on the %1 + %2 items that only one run gets right: p = %3.</source>
        <translation>이 구성의 정확도에서 기준의 정확도를 뺀 값(포인트)과 쌍체 부트스트랩 95% 구간입니다. 한 실행만 맞힌 항목 %1 + %2개에 대한 McNemar 정확 검정: p = %3.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="83"/>
        <source>Where the hidden states first differ: %1</source>
        <translation>은닉 상태가 처음 달라지는 곳: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="96"/>
        <source>%1 (reference)</source>
        <translation>%1 (기준)</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="103"/>
        <source>nothing</source>
        <translation>없음</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="109"/>
        <source>not run yet</source>
        <translation>아직 실행 안 됨</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="163"/>
        <source>The runtime-configuration axes in which this config differs from the reference config.</source>
        <translation>이 구성이 기준 구성과 다른 런타임 구성 축입니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="166"/>
        <source>Share of items with the same decision as in the reference run.</source>
        <translation>기준 실행과 결정이 같은 항목의 비율입니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="168"/>
        <source>Items whose decision differs from the reference run.</source>
        <translation>결정이 기준 실행과 다른 항목입니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="170"/>
        <source>Largest Δp: 100 × |p(reference) − p(config)| over the items, in points.</source>
        <translation>항목 전체에서 가장 큰 Δp: 100 × |p(기준) − p(구성)|, 포인트 단위.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="172"/>
        <source>Share of items whose every recorded float and layer hash has the same bits as in the reference run.</source>
        <translation>기록된 모든 부동소수점 값과 레이어 해시가 기준 실행과 같은 비트인 항목의 비율입니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="175"/>
        <source>The first divergent layer seen most often: the first layer whose hidden states differ bitwise from the reference run.</source>
        <translation>가장 자주 나타난 첫 차이 레이어: 은닉 상태가 기준 실행과 비트 단위로 처음 달라지는 레이어입니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="178"/>
        <source>The three levels of reproduction: accuracy (the interval of the difference contains 0), decisions (no flips), bits (every item bit-identical).</source>
        <translation>재현의 세 수준: 정확도(차이의 구간이 0을 포함), 결정(뒤집힘 없음), 비트(모든 항목이 비트 동일).</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="148"/>
        <source>Config</source>
        <translation>구성</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="149"/>
        <source>Differs in</source>
        <translation>차이 축</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="150"/>
        <source>Accuracy</source>
        <translation>정확도</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="151"/>
        <source>ΔAcc (points) [95%]</source>
        <translation>Δ정확도 (포인트) [95%]</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="152"/>
        <source>Agreement</source>
        <translation>일치율</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="153"/>
        <source>Flips</source>
        <translation>뒤집힘</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="154"/>
        <source>Max Δp</source>
        <translation>최대 Δp</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="155"/>
        <source>Bit-identical</source>
        <translation>비트 동일</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="156"/>
        <source>First divergent layer</source>
        <translation>첫 차이 레이어</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="157"/>
        <source>Verdict</source>
        <translation>판정</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="136"/>
        <source>none (head only)</source>
        <translation>없음 (헤드만)</translation>
    </message>
    <message>
        <location filename="../ui/models/dashboardmodel.cpp" line="59"/>
        <source>Config %1 as recorded in environment %2 (run %3%4), not in the reference run&apos;s environment; compared with the reference recorded here.</source>
        <translation>환경 %2에서 기록된 구성 %1 (실행 %3%4), 기준 실행의 환경이 아님; 여기에서 기록된 기준과 비교했습니다.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::DiagnosisView</name>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="79"/>
        <source>What changed</source>
        <translation>변경 사항</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="79"/>
        <location filename="../ui/models/diagnosismodels.cpp" line="215"/>
        <source>Largest Δp</source>
        <translation>최대 Δp</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="80"/>
        <source>First layer that differs</source>
        <translation>첫 차이 레이어</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="80"/>
        <source>Flipped</source>
        <translation>뒤집힘</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="81"/>
        <source>Bit-identical</source>
        <translation>비트 동일</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="155"/>
        <source>Probe</source>
        <translation>프로브</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="155"/>
        <source>Kind</source>
        <translation>종류</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="156"/>
        <source>Operator or kernel</source>
        <translation>연산자 또는 커널</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="156"/>
        <source>Count (A)</source>
        <translation>횟수 (A)</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="157"/>
        <source>Count (B)</source>
        <translation>횟수 (B)</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="213"/>
        <location filename="../ui/models/diagnosismodels.cpp" line="260"/>
        <source>Config</source>
        <translation>구성</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="213"/>
        <source>Differs in</source>
        <translation>차이 축</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="214"/>
        <source>Suspects</source>
        <translation>의심 요인</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="214"/>
        <source>Flips</source>
        <translation>뒤집힘</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="215"/>
        <source>First layer</source>
        <translation>첫 차이 레이어</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="260"/>
        <source>Predicted flips</source>
        <translation>예측 뒤집힘</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="261"/>
        <source>Observed flips</source>
        <translation>관측 뒤집힘</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="262"/>
        <source>Probe sample</source>
        <translation>프로브 표본</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="218"/>
        <source>Probes</source>
        <translation>프로브</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="220"/>
        <source>Kernel trace: operators whose counts differ between a probe and its baseline</source>
        <translation>커널 트레이스: 프로브와 그 베이스라인 사이에서 실행 횟수가 다른 연산자</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="225"/>
        <source>The study&apos;s configs, explained by the suspects they differ in</source>
        <translation>의심 요인으로 설명한 스터디의 구성</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="227"/>
        <source>Fragility forecast against the full runs</source>
        <translation>취약성 예측과 전체 실행 비교</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="244"/>
        <source>No diagnosis is stored for this head yet. Run it with:
  probaudit diagnose STUDY --ledger %1
It probes a seeded sample: the reference twice, neighbours changed, the batch shape, kernels and runtime, and explains every config.</source>
        <translation>이 헤드에 저장된 진단이 아직 없습니다. 다음 명령으로 실행하세요:
  probaudit diagnose STUDY --ledger %1
시드를 고정한 표본으로 기준 두 번, 이웃 변경, 배치 형태, 커널과 런타임을 프로브하고 모든 구성을 설명합니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="259"/>
        <source>Why do results differ from the reference config &quot;%1&quot;? Probes on a seeded sample of %2 items (seed %3, batch %4); every probe run is in the ledger.</source>
        <translation>결과가 기준 구성 &quot;%1&quot;의 결과와 다른 이유는 무엇일까요? 시드를 고정한 표본 항목 %2개에 대한 프로브입니다(시드 %3, 배치 %4). 모든 프로브 실행은 원장에 있습니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="139"/>
        <source>operator</source>
        <translation>연산자</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="140"/>
        <source>device kernel</source>
        <translation>디바이스 커널</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="126"/>
        <source>every probe</source>
        <translation>모든 프로브</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="128"/>
        <source>the same operators ran, the same number of times</source>
        <translation>같은 연산자가 같은 횟수만큼 실행됨</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="199"/>
        <location filename="../ui/models/diagnosismodels.cpp" line="243"/>
        <source>not run</source>
        <translation>실행 안 됨</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="253"/>
        <source>%1 items</source>
        <translation>항목 %1개</translation>
    </message>
    <message>
        <location filename="../ui/models/diagnosismodels.cpp" line="261"/>
        <source>Error (predicted − observed)</source>
        <translation>오차 (예측 − 관측)</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="255"/>
        <source>Why do results differ from the reference config &quot;%1&quot;? Read from the study&apos;s recorded runs over all %2 items; a server is not probed.</source>
        <translation>결과가 기준 구성 &quot;%1&quot;과(와) 다른 이유는 무엇입니까? 연구에 기록된 전체 %2개 항목의 실행에서 읽었으며, 서버는 탐색하지 않습니다.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::EmptyStatePage</name>
    <message>
        <location filename="../ui/pages/emptystatepage.cpp" line="13"/>
        <source>No study is open</source>
        <translation>열린 스터디가 없습니다</translation>
    </message>
    <message>
        <location filename="../ui/pages/emptystatepage.cpp" line="22"/>
        <source>ProbAudit checks whether the same input gets the same decision, with the same probability, under every runtime configuration: batch size, padding, dtype, kernels, threads and torch/CUDA builds.</source>
        <translation>ProbAudit는 같은 입력이 모든 런타임 구성(배치 크기, 패딩, 데이터 형식, 커널, 스레드, torch/CUDA 빌드)에서 같은 결정과 같은 확률을 얻는지 확인합니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/emptystatepage.cpp" line="30"/>
        <source>Open a Study…</source>
        <translation>스터디 열기…</translation>
    </message>
    <message>
        <location filename="../ui/pages/emptystatepage.cpp" line="32"/>
        <source>Open the Demo Study</source>
        <translation>데모 스터디 열기</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::EngineClient</name>
    <message>
        <location filename="../ui/pages/engineclient.cpp" line="40"/>
        <source>The engine was not found at %1.</source>
        <translation>%1에서 엔진을 찾을 수 없습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/engineclient.cpp" line="55"/>
        <source>The engine stopped with exit code %1.</source>
        <translation>엔진이 종료 코드 %1로 멈췄습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/engineclient.cpp" line="56"/>
        <source>The engine failed: %1</source>
        <translation>엔진 오류: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/engineclient.cpp" line="63"/>
        <source>The engine&apos;s answer was not valid JSON (%1).</source>
        <translation>엔진의 응답이 올바른 JSON이 아닙니다 (%1).</translation>
    </message>
    <message>
        <location filename="../ui/pages/engineclient.cpp" line="76"/>
        <source>The engine could not be started: %1</source>
        <translation>엔진을 시작할 수 없습니다: %1</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::EngineDialog</name>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="21"/>
        <source>Engine</source>
        <translation>엔진</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="23"/>
        <source>This computer</source>
        <translation>이 컴퓨터</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="25"/>
        <source>Another host, over ssh (your keys and ssh configuration)</source>
        <translation>다른 호스트, ssh로 연결 (사용자의 키와 ssh 설정)</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="32"/>
        <source>probaudit on that host&apos;s PATH</source>
        <translation>그 호스트 PATH의 probaudit</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="34"/>
        <source>your own (~/.ssh/config)</source>
        <translation>사용자 설정 (~/.ssh/config)</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="36"/>
        <location filename="../ui/pages/enginedialog.cpp" line="38"/>
        <source>studies have the same path on both</source>
        <translation>연구 경로가 양쪽에서 같음</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="39"/>
        <source>Host:</source>
        <translation>호스트:</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="40"/>
        <source>probaudit there:</source>
        <translation>그곳의 probaudit:</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="41"/>
        <source>ssh configuration file:</source>
        <translation>ssh 설정 파일:</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="42"/>
        <source>Studies here under:</source>
        <translation>이곳의 연구 폴더:</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="43"/>
        <source>are there under:</source>
        <translation>그곳의 폴더:</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="45"/>
        <source>Studies, models and data are read on that host. Progress shows here as it happens; finished runs come back into the ledger open here. If the connection drops, run again: the run resumes.</source>
        <translation>연구, 모델, 데이터는 그 호스트에서 읽습니다. 진행 상황은 실시간으로 여기에 표시되고, 끝난 실행은 여기 열린 원장으로 돌아옵니다. 연결이 끊기면 다시 실행하십시오. 실행이 이어서 진행됩니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="51"/>
        <source>Check</source>
        <translation>점검</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="100"/>
        <source>The host is an ssh:// address, such as ssh://user@gpu-host or ssh://gpu-host:2222.</source>
        <translation>호스트는 ssh://user@gpu-host 또는 ssh://gpu-host:2222 같은 ssh:// 주소입니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="104"/>
        <source>Give both folders, or neither (then studies have the same path on both).</source>
        <translation>두 폴더를 모두 입력하거나 둘 다 비워 두십시오 (그러면 연구 경로가 양쪽에서 같습니다).</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="127"/>
        <source>Asking the engine…</source>
        <translation>엔진에 묻는 중…</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="149"/>
        <source>No engine answered: %1</source>
        <translation>응답한 엔진이 없습니다: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="160"/>
        <source>no GPU, CPU %1</source>
        <translation>GPU 없음, CPU %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pages/enginedialog.cpp" line="161"/>
        <source>%n GPU(s): %1</source>
        <translation>
            <numerusform>GPU %n개: %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pages/enginedialog.cpp" line="163"/>
        <source>Reached probaudit %1 with torch %2 (CUDA build %3); %4.</source>
        <translation>probaudit %1에 연결됨, torch %2 (CUDA 빌드 %3); %4.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::GenerationItemsModel</name>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="214"/>
        <source>The outputs agree on the first %1 generated tokens</source>
        <translation>처음 %1개 생성 토큰에서 출력이 일치합니다</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="224"/>
        <source>yes</source>
        <translation>예</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="224"/>
        <source>no</source>
        <translation>아니요</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="253"/>
        <source>Item</source>
        <translation>항목</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="254"/>
        <source>Identical</source>
        <translation>동일</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="255"/>
        <source>Diverges at token</source>
        <translation>분기 토큰</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="256"/>
        <source>Logit gap there</source>
        <translation>분기 지점 로짓 차이</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="257"/>
        <source>Record Jaccard</source>
        <translation>레코드 Jaccard</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="258"/>
        <source>Answer (reference side)</source>
        <translation>답 (기준 쪽)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="259"/>
        <source>Answer (other side)</source>
        <translation>답 (다른 쪽)</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::GenerationPage</name>
    <message>
        <location filename="../ui/pages/generationpage.cpp" line="50"/>
        <source>&amp;Outputs</source>
        <translation>출력(&amp;O)</translation>
    </message>
    <message>
        <location filename="../ui/pages/generationpage.cpp" line="51"/>
        <source>Logit &amp;gaps</source>
        <translation>로짓 차이(&amp;G)</translation>
    </message>
    <message>
        <location filename="../ui/pages/generationpage.cpp" line="133"/>
        <source>%1 — %2 (generation head &quot;%3&quot;)</source>
        <translation>%1 — %2 (생성 헤드 &quot;%3&quot;)</translation>
    </message>
    <message>
        <location filename="../ui/pages/generationpage.cpp" line="154"/>
        <source>%1: %2 of %3 outputs byte-identical, pooled record Jaccard %4%5. Fork points: %6 of them at a top-2 logit gap below 0.0001.</source>
        <translation>%1: 출력 %3개 중 %2개 바이트 동일, 합산 레코드 Jaccard %4%5. 분기 지점: 그중 %6개는 top-2 로짓 차이가 0.0001 미만.</translation>
    </message>
    <message>
        <location filename="../ui/pages/generationpage.cpp" line="160"/>
        <source>, answers agree on %1 of %2</source>
        <translation>, 답 일치 %2개 중 %1개</translation>
    </message>
    <message>
        <location filename="../ui/pages/generationpage.cpp" line="167"/>
        <source>Nothing to compare yet: a generation study needs two finished runs (run the reference config and another, or one config twice).</source>
        <translation>아직 비교할 것이 없습니다. 생성 스터디에는 완료된 실행이 두 개 필요합니다(기준 구성과 다른 구성을 하나씩 실행하거나, 한 구성을 두 번 실행하세요).</translation>
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
        <translation>실행 %1 (%2) 대 실행 %3 (%4)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="89"/>
        <source>nothing</source>
        <translation>없음</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="95"/>
        <source>%1 / %2 (%3)</source>
        <translation>%1 / %2 (%3)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="104"/>
        <source>no reduction</source>
        <translation>집계 없음</translation>
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
        <translation>두 실행에서 토큰이 정확히 같은 출력</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="158"/>
        <source>Records shared by both runs over records in either, pooled over the items (1 = the same records)</source>
        <translation>두 실행에 공통인 레코드를 어느 한쪽에라도 있는 레코드로 나눈 값, 항목 전체 합산 (1 = 같은 레코드)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="161"/>
        <source>Items whose answer (the reduction over their records) is the same</source>
        <translation>답(레코드에 대한 집계)이 같은 항목</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="163"/>
        <source>Distinct records per item, summed: reference side / other side</source>
        <translation>항목별 고유 레코드 수의 합: 기준 쪽 / 다른 쪽</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="141"/>
        <source>Comparison</source>
        <translation>비교</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="142"/>
        <source>Kind</source>
        <translation>종류</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="143"/>
        <source>Differs in</source>
        <translation>차이 축</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="144"/>
        <source>Byte-identical outputs</source>
        <translation>바이트 동일 출력</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="145"/>
        <source>Record Jaccard (pooled)</source>
        <translation>레코드 Jaccard (합산)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="146"/>
        <source>Answers agree</source>
        <translation>답 일치</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="147"/>
        <source>Records</source>
        <translation>레코드</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="131"/>
        <source>%1 (%2–%3)</source>
        <translation>%1 (%2–%3)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="165"/>
        <source>Mean KL divergence per token position (nats), over the tokens both runs&apos; top-K lists hold, up to each output&apos;s first differing token</source>
        <translation>토큰 위치별 평균 KL 발산(nats). 두 실행의 top-K 목록에 모두 있는 토큰에 대해, 각 출력의 첫 번째 다른 토큰까지</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="168"/>
        <source>Token positions whose most likely token is the same in both runs, with a 95% interval</source>
        <translation>두 실행에서 가장 가능성 높은 토큰이 같은 토큰 위치의 비율(95% 구간 포함)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="171"/>
        <source>Root mean square of the change of the chosen token&apos;s probability, in points</source>
        <translation>선택된 토큰 확률 변화의 제곱평균제곱근(포인트)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="148"/>
        <source>KL (mean)</source>
        <translation>KL (평균)</translation>
    </message>
    <message>
        <location filename="../ui/models/generationmodels.cpp" line="149"/>
        <source>Same top token</source>
        <translation>같은 최상위 토큰</translation>
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
        <translation>임베딩</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="218"/>
        <source>%1, %2: %3 of the items differ bitwise (%4 of %5)</source>
        <translation>%1, %2: 비트 단위로 다른 항목 %3 (%5개 중 %4개)</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="224"/>
        <source>relative L2 of the decision-token vector: median %1, max %2</source>
        <translation>결정 토큰 벡터의 상대 L2: 중앙값 %1, 최대 %2</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="231"/>
        <source>first divergent layer of %1 items</source>
        <translation>항목 %1개의 첫 차이 레이어</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="233"/>
        <source>Click to list these items.</source>
        <translation>클릭하면 이 항목들을 나열합니다.</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="244"/>
        <source>No per-layer records: run the study with capture &quot;hashes&quot; or &quot;vectors&quot;, and at least one config besides the reference.</source>
        <translation>레이어별 기록이 없습니다. 캡처 &quot;hashes&quot; 또는 &quot;vectors&quot;로, 기준 외에 구성을 하나 이상 포함하여 스터디를 실행하세요.</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="252"/>
        <source>These runs were recorded with capture &quot;none&quot;: there are no per-layer hashes to compare.</source>
        <translation>이 실행들은 캡처 &quot;none&quot;으로 기록되어 비교할 레이어별 해시가 없습니다.</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="268"/>
        <source>Share of items whose hidden states differ bitwise from the reference</source>
        <translation>은닉 상태가 기준과 비트 단위로 다른 항목의 비율</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="269"/>
        <source>Median relative L2 distance of the decision-token vector</source>
        <translation>결정 토큰 벡터의 상대 L2 거리 중앙값</translation>
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
        <translation>항목의 100%</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="345"/>
        <source>bit-identical</source>
        <translation>비트 동일</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="345"/>
        <source>identical</source>
        <translation>동일</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="92"/>
        <source>%1 (flip)</source>
        <translation>%1 (뒤집힘)</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="206"/>
        <source>%1, %2: the hidden states differ bitwise from the reference</source>
        <translation>%1, %2: 은닉 상태가 기준과 비트 단위로 다름</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="207"/>
        <source>%1, %2: the same bits as the reference</source>
        <translation>%1, %2: 기준과 같은 비트</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="210"/>
        <source>Δp %1 points. Click to open the item.</source>
        <translation>Δp %1 포인트. 클릭하면 항목을 엽니다.</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="264"/>
        <source>Layers whose hidden states differ bitwise from the reference, per item (the most moved first)</source>
        <translation>항목별로 은닉 상태가 기준과 비트 단위로 다른 레이어 (가장 많이 바뀐 항목부터)</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="266"/>
        <source>Relative L2 distance of each item&apos;s decision vector</source>
        <translation>각 항목 결정 벡터의 상대 L2 거리</translation>
    </message>
    <message>
        <location filename="../ui/charts/heatmapwidget.cpp" line="330"/>
        <source>differs</source>
        <translation>다름</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::Inspector</name>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="122"/>
        <source>Config</source>
        <translation>구성</translation>
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
        <translation>마진</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="124"/>
        <source>Decision</source>
        <translation>결정</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="117"/>
        <source>p under every config</source>
        <translation>모든 구성에서의 p</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="120"/>
        <source>Per-layer divergence from the reference</source>
        <translation>기준 대비 레이어별 차이</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="123"/>
        <source>Layer hashes: equal (=) or different (≠)</source>
        <translation>레이어 해시: 같음(=) 또는 다름(≠)</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="166"/>
        <source>Tokens not shown: %1</source>
        <translation>토큰을 표시하지 않음: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="199"/>
        <source>Tokens as the model read them: %1 (␣ marks a leading space).</source>
        <translation>모델이 읽은 토큰: %1개 (␣는 앞 공백을 나타냄).</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="201"/>
        <source>The run recorded %1 tokens (truncated to the model&apos;s length, or another tokenizer version).</source>
        <translation>실행에는 토큰 %1개가 기록되었습니다(모델 길이에 맞춰 잘렸거나 토크나이저 버전이 다름).</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="209"/>
        <source>No item selected</source>
        <translation>선택한 항목 없음</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="211"/>
        <source>Select an item in the items table, or click a point in the scatter plot.</source>
        <translation>항목 표에서 항목을 선택하거나 산점도에서 점을 클릭하세요.</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="232"/>
        <source>Item %1 · label %2</source>
        <translation>항목 %1 · 레이블 %2</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="71"/>
        <source>%1 (ref.)</source>
        <translation>%1 (기준)</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="80"/>
        <source>%1 (flipped)</source>
        <translation>%1 (뒤집힘)</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="270"/>
        <source>threshold</source>
        <translation>임계값</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="354"/>
        <source>The decision-token vectors were not captured (capture &quot;vectors&quot; records them); the hashes below still show where the states differ.</source>
        <translation>결정 토큰 벡터가 캡처되지 않았습니다(캡처 &quot;vectors&quot;로 기록). 아래 해시로 상태가 달라지는 위치는 확인할 수 있습니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="193"/>
        <source>emb</source>
        <translation>emb</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="175"/>
        <source>%1, %2: the same bits as the reference</source>
        <translation>%1, %2: 기준과 같은 비트</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="174"/>
        <source>%1, %2: differs from the reference</source>
        <translation>%1, %2: 기준과 다름</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="124"/>
        <source>First layer</source>
        <translation>첫 레이어</translation>
    </message>
    <message>
        <location filename="../ui/models/inspectormodels.cpp" line="87"/>
        <source>none (head only)</source>
        <translation>없음 (헤드만)</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="294"/>
        <source>hidden state (0 = embeddings); identical states drawn at 1e-12</source>
        <translation>은닉 상태 (0 = 임베딩); 동일한 상태는 1e-12에 표시</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="299"/>
        <source>relative L2 of the decision vector</source>
        <translation>결정 벡터의 상대 L2</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="343"/>
        <source>Identical to the reference at every layer: %1</source>
        <translation>모든 레이어에서 기준과 동일: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="348"/>
        <source>%1: the hidden states are bit-identical, yet the decision vector differs; the head&apos;s pooling (a mean over the real tokens, summed in another order when the row is padded differently) moved the numbers, not the layers.</source>
        <translation>%1: 은닉 상태는 비트 단위로 동일하지만 결정 벡터는 다릅니다. 숫자를 바꾼 것은 레이어가 아니라 헤드의 풀링(실제 토큰에 대한 평균으로, 패딩이 다르면 다른 순서로 더해짐)입니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/inspector.cpp" line="146"/>
        <source>Tokenized by the server (%1): its tokens are not known here.</source>
        <translation>서버(%1)에서 토큰화됨: 여기서는 토큰을 알 수 없습니다.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::ItemsModel</name>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="343"/>
        <source>Logit gap (top-1 minus top-2 of the decision classes): %1 in the reference run, %2 under this config.</source>
        <translation>로짓 차이(결정 클래스의 top-1 빼기 top-2): 기준 실행 %1, 이 구성 %2.</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="348"/>
        <source>Decision %1 in the reference run, %2 under this config.</source>
        <translation>결정: 기준 실행 %1, 이 구성 %2.</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="256"/>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="260"/>
        <source>identical</source>
        <translation>동일</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="363"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="363"/>
        <source>Text</source>
        <translation>텍스트</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="370"/>
        <source>The gold label from the dataset.</source>
        <translation>데이터셋의 정답 레이블입니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="363"/>
        <source>Label</source>
        <translation>레이블</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="372"/>
        <source>p in the reference run: the probability of the positive class (binary heads) or of the reference run&apos;s decision.</source>
        <translation>기준 실행의 p: 양성 클래스의 확률(이진 헤드) 또는 기준 실행이 결정한 클래스의 확률입니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="363"/>
        <source>p (ref)</source>
        <translation>p (기준)</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="375"/>
        <source>p under the selected config.</source>
        <translation>선택한 구성에서의 p입니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="363"/>
        <source>p (cfg)</source>
        <translation>p (구성)</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="377"/>
        <source>Δp in points: 100 × |p(ref) − p(cfg)| (the largest over the classes).</source>
        <translation>포인트 단위 Δp: 100 × |p(기준) − p(구성)| (클래스 중 최댓값).</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="364"/>
        <source>Δp</source>
        <translation>Δp</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="379"/>
        <source>The reference run&apos;s logit gap: top-1 minus top-2 logit of the decision classes. Small margins are near the boundary (tinted).</source>
        <translation>기준 실행의 로짓 차이: 결정 클래스의 top-1 로짓 빼기 top-2 로짓. 마진이 작으면 경계 근처입니다(색으로 표시).</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="364"/>
        <source>Margin</source>
        <translation>마진</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="382"/>
        <source>The decision differs between the two runs.</source>
        <translation>두 실행의 결정이 다릅니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="364"/>
        <source>Flip</source>
        <translation>뒤집힘</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="384"/>
        <source>The first layer whose hidden states (real tokens only) differ bitwise from the reference run.</source>
        <translation>은닉 상태(실제 토큰만)가 기준 실행과 비트 단위로 처음 달라지는 레이어입니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="263"/>
        <source>none (head only)</source>
        <translation>없음 (헤드만)</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="364"/>
        <source>First layer</source>
        <translation>첫 레이어</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="281"/>
        <source>|p − p_exact| in points against the float64 run %1: %2 under this config, %3 in the reference run (%4).</source>
        <translation>float64 실행 %1 대비 |p − p_exact| (포인트): 이 구성에서 %2, 기준 실행에서 %3 (%4).</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="285"/>
        <source>this config is closer</source>
        <translation>이 구성이 더 가까움</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="286"/>
        <source>the reference is closer</source>
        <translation>기준이 더 가까움</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="287"/>
        <source>as close</source>
        <translation>같은 거리</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="364"/>
        <source>To exact</source>
        <translation>정확값까지</translation>
    </message>
    <message>
        <location filename="../ui/models/itemsmodel.cpp" line="387"/>
        <source>Distance to exact: |p(cfg) − p_exact| in points, against the study&apos;s float64 run (the exact reference). Tinted where the config is closer than the reference run.</source>
        <translation>정확값까지의 거리: 스터디의 float64 실행(정확한 기준) 대비 |p(cfg) − p_exact| (포인트). 구성이 기준 실행보다 가까운 곳은 색으로 표시됩니다.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::ItemsTable</name>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="53"/>
        <source>&amp;Flipped only</source>
        <translation>뒤집힌 항목만(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="55"/>
        <source>C&amp;hanged only</source>
        <translation>변경된 항목만(&amp;N)</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="57"/>
        <source>Items that are not bit-identical to the reference run.</source>
        <translation>기준 실행과 비트 동일하지 않은 항목입니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="64"/>
        <source>any Δp</source>
        <translation>모든 Δp</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="65"/>
        <source>Δp &gt; </source>
        <translation>Δp &gt; </translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="66"/>
        <source>Only items whose Δp (points) is above this value.</source>
        <translation>Δp(포인트)가 이 값보다 큰 항목만 표시합니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="72"/>
        <source>any margin</source>
        <translation>모든 마진</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="73"/>
        <source>|margin| &lt; </source>
        <translation>|마진| &lt; </translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="74"/>
        <source>Only items whose reference margin (logit gap) is below this value: the near-boundary items.</source>
        <translation>기준 마진(로짓 차이)이 이 값보다 작은 항목, 즉 경계 근처 항목만 표시합니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="80"/>
        <source>Search text or id</source>
        <translation>텍스트 또는 ID 검색</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="87"/>
        <source>A filter set from a chart or the heatmap; click to remove it.</source>
        <translation>차트나 히트맵에서 설정한 필터입니다. 클릭하면 제거됩니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="36"/>
        <source>Copy</source>
        <translation>복사</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="161"/>
        <source>any label</source>
        <translation>모든 레이블</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="165"/>
        <source>label: %1</source>
        <translation>레이블: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="167"/>
        <source>unlabelled</source>
        <translation>레이블 없음</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="194"/>
        <source>%1  ✕</source>
        <translation>%1  ✕</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="245"/>
        <source>%1 items</source>
        <translation>항목 %1개</translation>
    </message>
    <message>
        <location filename="../ui/pages/itemstable.cpp" line="246"/>
        <source>%1 of %2 items</source>
        <translation>항목 %2개 중 %1개</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::LadderChart</name>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="71"/>
        <location filename="../ui/pages/diagnosisview.cpp" line="78"/>
        <source>Suspect %1: %2</source>
        <translation>의심 요인 %1: %2</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="79"/>
        <source>not judged: the ladder stopped at &quot;%1&quot;</source>
        <translation>판정 안 함: 사다리가 &quot;%1&quot;에서 멈춤</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="89"/>
        <source>Then: pin</source>
        <translation>다음: 고정</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="90"/>
        <source>Pin the runtime that reproduces the reference (probaudit pin), so that a different build or kernel library is reported before it moves a decision.</source>
        <translation>기준을 재현하는 런타임을 고정하세요(probaudit pin). 그러면 다른 빌드나 커널 라이브러리가 결정을 바꾸기 전에 보고됩니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="141"/>
        <source>clean</source>
        <translation>이상 없음</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="144"/>
        <source>moves the numbers</source>
        <translation>수치를 바꿈</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="147"/>
        <source>stop</source>
        <translation>중단</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="149"/>
        <source>not judged</source>
        <translation>판정 안 함</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="84"/>
        <source>Then: declare</source>
        <translation>다음: 선언</translation>
    </message>
    <message>
        <location filename="../ui/pages/diagnosisview.cpp" line="85"/>
        <source>Declare the server&apos;s settings in the study ($.model.labels) and record the reference again after every change of the server, so that the change shows as a runtime step.</source>
        <translation>연구에 서버 설정을 선언하고($.model.labels) 서버가 바뀔 때마다 기준 구성을 다시 기록하십시오. 그러면 변경이 런타임 단계로 나타납니다.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::MainWindow</name>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="53"/>
        <source>ProbAudit Workbench</source>
        <translation>ProbAudit 워크벤치</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="102"/>
        <source>Engine: checking…</source>
        <translation>엔진: 확인 중…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="54"/>
        <location filename="../ui/pages/selfcheck.cpp" line="88"/>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="64"/>
        <source>&amp;Open Study or Ledger…</source>
        <translation>스터디 또는 원장 열기(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="67"/>
        <source>Open the &amp;Demo Study</source>
        <translation>데모 스터디 열기(&amp;D)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="86"/>
        <source>Open &amp;Recent</source>
        <translation>최근 파일(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="90"/>
        <source>&amp;Quit</source>
        <translation>종료(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="46"/>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="47"/>
        <source>&amp;About ProbAudit</source>
        <translation>ProbAudit 정보(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="50"/>
        <source>About &amp;Qt</source>
        <translation>Qt 정보(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="158"/>
        <source>Open Study or Ledger</source>
        <translation>스터디 또는 원장 열기</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="159"/>
        <source>ProbAudit studies and ledgers (*.study.json *.ledger);;All files (*)</source>
        <translation>ProbAudit 스터디 및 원장 (*.study.json *.ledger);;모든 파일 (*)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="174"/>
        <source>Open Study</source>
        <translation>스터디 열기</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="182"/>
        <source>%1 cannot be read.</source>
        <translation>%1을(를) 읽을 수 없습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="460"/>
        <source>Demo Study</source>
        <translation>데모 스터디</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="533"/>
        <source>Engine: %1</source>
        <translation>엔진: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="542"/>
        <source>Engine: not available</source>
        <translation>엔진: 사용할 수 없음</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="115"/>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="122"/>
        <source>Opening cancelled.</source>
        <translation>열기를 취소했습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="116"/>
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="118"/>
        <source>&amp;Items</source>
        <translation>항목(&amp;I)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="119"/>
        <source>&amp;Charts</source>
        <translation>차트(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="120"/>
        <source>&amp;Layers Heatmap</source>
        <translation>레이어 히트맵(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="121"/>
        <source>&amp;Diagnosis</source>
        <translation>진단(&amp;D)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="123"/>
        <source>&amp;Runs</source>
        <translation>실행(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="135"/>
        <source>&amp;Next Config</source>
        <translation>다음 구성(&amp;N)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="137"/>
        <source>&amp;Previous Config</source>
        <translation>이전 구성(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="139"/>
        <source>Show &amp;Flipped Items Only</source>
        <translation>뒤집힌 항목만 표시(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="147"/>
        <source>&amp;Search Items…</source>
        <translation>항목 검색(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="175"/>
        <source>%1 has no ledger yet (%2). Run it first:
  probaudit run %1 --all</source>
        <translation>%1에는 아직 원장이 없습니다(%2). 먼저 실행하세요:
  probaudit run %1 --all</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="181"/>
        <location filename="../ui/pages/mainwindow.cpp" line="291"/>
        <source>Open Ledger</source>
        <translation>원장 열기</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="190"/>
        <source>Opening %1…</source>
        <translation>%1 여는 중…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="277"/>
        <source>%1 — ProbAudit Workbench</source>
        <translation>%1 — ProbAudit 워크벤치</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="461"/>
        <source>The demo ledger is made by ./scripts/demo (about two minutes): it trains the demo adapter, runs demo study A under seven configs and diagnoses it. Run it, then open the demo again.</source>
        <translation>데모 원장은 ./scripts/demo로 만듭니다(약 2분). 이 스크립트는 데모 어댑터를 학습하고, 데모 스터디 A를 7개 구성에서 실행한 뒤 진단합니다. 스크립트를 실행한 다음 데모를 다시 여세요.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="90"/>
        <source>Engine Runs</source>
        <translation>엔진 실행</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="96"/>
        <source>&amp;Study</source>
        <translation>스터디(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="97"/>
        <source>&amp;Run Configs…</source>
        <translation>구성 실행(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="100"/>
        <source>&amp;Diagnose</source>
        <translation>진단(&amp;D)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="103"/>
        <source>&amp;Edit Configs…</source>
        <translation>구성 편집(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="106"/>
        <source>Load Runtime &amp;Lock…</source>
        <translation>런타임 잠금 불러오기(&amp;L)…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="108"/>
        <source>&amp;Cancel Run</source>
        <translation>실행 중단(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="111"/>
        <source>Show Engine &amp;Runs Panel</source>
        <translation>엔진 실행 패널 표시(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="122"/>
        <source>C&amp;ause</source>
        <translation>원인(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="124"/>
        <source>&amp;Variants</source>
        <translation>변형(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="161"/>
        <source>&amp;Presentation Mode</source>
        <translation>프레젠테이션 모드(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="168"/>
        <source>&amp;Theme</source>
        <translation>테마(&amp;T)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="169"/>
        <source>Follow the &amp;System</source>
        <translation>시스템 설정 따르기(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="170"/>
        <source>&amp;Light</source>
        <translation>밝게(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="171"/>
        <source>&amp;Dark</source>
        <translation>어둡게(&amp;D)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="183"/>
        <source>&amp;Language</source>
        <translation>언어(&amp;G)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="189"/>
        <source>Language</source>
        <translation>언어</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="190"/>
        <source>The workbench uses the new language from its next start.</source>
        <translation>워크벤치를 다음에 시작할 때부터 새 언어가 적용됩니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="307"/>
        <source>Where is the study file of this ledger?</source>
        <translation>이 원장의 스터디 파일은 어디에 있습니까?</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="308"/>
        <source>ProbAudit studies (*.study.json *.json)</source>
        <translation>ProbAudit 스터디 (*.study.json *.json)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="345"/>
        <source>Edit Configs</source>
        <translation>구성 편집</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="327"/>
        <location filename="../ui/pages/mainwindow.cpp" line="345"/>
        <location filename="../ui/pages/mainwindow.cpp" line="386"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="239"/>
        <source>Open a study or ledger first.</source>
        <translation>먼저 스터디나 원장을 여세요.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="327"/>
        <location filename="../ui/pages/mainwindow.cpp" line="331"/>
        <source>Diagnose</source>
        <translation>진단</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="386"/>
        <location filename="../ui/pages/mainwindow.cpp" line="394"/>
        <source>Run Configs</source>
        <translation>구성 실행</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="401"/>
        <source>%1 (recorded in run %2)</source>
        <translation>%1 (실행 %2에 기록됨)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="410"/>
        <source>Configs already recorded in this environment are skipped by the engine; unfinished runs resume where they stopped.</source>
        <translation>이 환경에서 이미 기록된 구성은 엔진이 건너뛰며, 완료되지 않은 실행은 멈춘 지점부터 재개됩니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="415"/>
        <source>Run</source>
        <translation>실행</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="497"/>
        <source>%1 is not a runtime lock (made by probaudit pin).</source>
        <translation>%1은(는) 런타임 잠금(probaudit pin으로 만든 파일)이 아닙니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="510"/>
        <source>Load Runtime Lock</source>
        <translation>런타임 잠금 불러오기</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="511"/>
        <source>Runtime locks (*.lock.json);;All files (*)</source>
        <translation>런타임 잠금 (*.lock.json);;모든 파일 (*)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="55"/>
        <source>&amp;New Study…</source>
        <translation>새 스터디(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="361"/>
        <location filename="../ui/pages/mainwindow.cpp" line="375"/>
        <source>New Study</source>
        <translation>새 스터디</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="331"/>
        <location filename="../ui/pages/mainwindow.cpp" line="361"/>
        <source>Wait for the current run to end.</source>
        <translation>현재 실행이 끝날 때까지 기다리세요.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="71"/>
        <source>&amp;Export Report…</source>
        <translation>보고서 내보내기(&amp;X)…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="239"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="243"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="330"/>
        <source>Export Report</source>
        <translation>보고서 내보내기</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="244"/>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="333"/>
        <source>Report written to %1</source>
        <translation>보고서를 저장했습니다: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="74"/>
        <source>Export &amp;Items of This Comparison…</source>
        <translation>이 비교의 항목 내보내기(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="254"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="385"/>
        <source>Export Items</source>
        <translation>항목 내보내기</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="255"/>
        <source>CSV (*.csv);;JSON lines (*.jsonl)</source>
        <translation>CSV (*.csv);;JSON 줄 (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="84"/>
        <source>Export &amp;Headline Table…</source>
        <translation>요약 표 내보내기(&amp;H)…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="305"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="406"/>
        <source>Export Headline</source>
        <translation>요약 내보내기</translation>
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
        <translation>%1에 쓸 수 없습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="389"/>
        <source>Items written to %1</source>
        <translation>항목을 저장했습니다: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="410"/>
        <source>Headline written to %1</source>
        <translation>요약을 저장했습니다: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="78"/>
        <source>Export Audit &amp;Bundle…</source>
        <translation>감사 번들 내보내기(&amp;B)…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="266"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="360"/>
        <source>Export Audit Bundle</source>
        <translation>감사 번들 내보내기</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="267"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="275"/>
        <source>Audit bundles (*.zip)</source>
        <translation>감사 번들 (*.zip)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="363"/>
        <source>Audit bundle written to %1</source>
        <translation>감사 번들을 저장했습니다: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="81"/>
        <source>&amp;Import Audit Bundle…</source>
        <translation>감사 번들 가져오기(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="274"/>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="293"/>
        <source>Import Audit Bundle</source>
        <translation>감사 번들 가져오기</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="284"/>
        <source>Import Into Ledger</source>
        <translation>원장으로 가져오기</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="285"/>
        <source>Ledgers (*.ledger)</source>
        <translation>원장 (*.ledger)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="297"/>
        <source>%1 runs imported, %2 already there</source>
        <translation>실행 %1개를 가져왔고, %2개는 이미 있습니다</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="157"/>
        <source>Field Report &amp;Tables…</source>
        <translation>현장 보고서 표(&amp;T)…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="206"/>
        <source>Ledger: TAMPERED</source>
        <translation>원장: 변조됨</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="209"/>
        <source>Ledger: verified, signed by %1</source>
        <translation>원장: 검증됨, %1 서명</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="212"/>
        <source>Ledger: verified, unsigned</source>
        <translation>원장: 검증됨, 서명 없음</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="221"/>
        <source>TAMPERED LEDGER: %1. The figures below come from a ledger that was changed after it was sealed; do not sign them off.</source>
        <translation>변조된 원장: %1. 아래 수치는 봉인 후 변경된 원장에서 나온 것입니다. 승인하지 마십시오.</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindow.cpp" line="229"/>
        <source>Ledger: verifying…</source>
        <translation>원장: 검증 중…</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="365"/>
        <source>%1, without the study file: %2</source>
        <translation>%1, 스터디 파일 없이: %2</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="40"/>
        <source>Se&amp;ttings</source>
        <translation>설정(&amp;T)</translation>
    </message>
    <message>
        <location filename="../ui/pages/mainwindowmenus.cpp" line="41"/>
        <source>&amp;Engine…</source>
        <translation>엔진(&amp;E)…</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::NewStudyDialog</name>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="122"/>
        <source>Browse…</source>
        <translation>찾아보기…</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="126"/>
        <source>Model folder</source>
        <translation>모델 폴더</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="128"/>
        <source>GGUF model file</source>
        <translation>GGUF 모델 파일</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="129"/>
        <source>GGUF (*.gguf)</source>
        <translation>GGUF (*.gguf)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="132"/>
        <source>Choose a file</source>
        <translation>파일 선택</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="159"/>
        <source>New Study</source>
        <translation>새 스터디</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="163"/>
        <source>e.g. sentiment-minilm</source>
        <translation>예: sentiment-minilm</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="164"/>
        <source>&amp;Name:</source>
        <translation>이름(&amp;N):</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="174"/>
        <source>&amp;Model:</source>
        <translation>모델(&amp;M):</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="175"/>
        <source>a Hugging Face folder or a GGUF file</source>
        <translation>Hugging Face 폴더 또는 GGUF 파일</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="178"/>
        <source>&amp;Dataset:</source>
        <translation>데이터셋(&amp;D):</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="179"/>
        <source>a JSONL or CSV file</source>
        <translation>JSONL 또는 CSV 파일</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="183"/>
        <source>text field</source>
        <translation>텍스트 필드</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="185"/>
        <source>label field</source>
        <translation>레이블 필드</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="189"/>
        <source>class names in order, e.g. negative, positive</source>
        <translation>순서대로 클래스 이름, 예: negative, positive</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="190"/>
        <source>&amp;Classes:</source>
        <translation>클래스(&amp;C):</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="192"/>
        <source>adapter (a linear head file)</source>
        <translation>어댑터 (선형 헤드 파일)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="193"/>
        <source>label tokens (an LLM&apos;s next token)</source>
        <translation>레이블 토큰 (LLM의 다음 토큰)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="194"/>
        <source>classifier (inside the checkpoint)</source>
        <translation>분류기 (체크포인트 내장)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="195"/>
        <source>Decision &amp;head:</source>
        <translation>결정 헤드(&amp;H):</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="196"/>
        <source>Adapter &amp;file:</source>
        <translation>어댑터 파일(&amp;F):</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="198"/>
        <source>prompt with {text}; the classes are the label words</source>
        <translation>{text}가 들어간 프롬프트. 클래스 이름이 레이블 단어입니다</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="199"/>
        <source>&amp;Prompt:</source>
        <translation>프롬프트(&amp;P):</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="203"/>
        <source>Ca&amp;pture:</source>
        <translation>캡처(&amp;T):</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="376"/>
        <source>reference: batch 1, no padding, float32, 1 thread</source>
        <translation>기준: 배치 1, 패딩 없음, float32, 스레드 1개</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="205"/>
        <source>Configs:</source>
        <translation>구성:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="206"/>
        <source>Save &amp;as:</source>
        <translation>저장 위치(&amp;A):</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="207"/>
        <source>NAME.study.json</source>
        <translation>NAME.study.json</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="213"/>
        <source>Create and Run</source>
        <translation>만들고 실행</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="224"/>
        <source>Problems:</source>
        <translation>문제:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="566"/>
        <source>%1, %2 layers, hidden %3</source>
        <translation>%1, 레이어 %2개, 은닉 크기 %3</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="601"/>
        <source>%1 items, %2 with a label</source>
        <translation>항목 %1개, 레이블 있음 %2개</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="624"/>
        <source>found</source>
        <translation>찾음</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="626"/>
        <source>%1 cannot be read</source>
        <translation>%1을(를) 읽을 수 없음</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="490"/>
        <source>The study needs a name.</source>
        <translation>스터디 이름이 필요합니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="635"/>
        <source>Choose where to save the study file.</source>
        <translation>스터디 파일을 저장할 위치를 선택하세요.</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="638"/>
        <source>%1 is not a writable folder</source>
        <translation>%1은(는) 쓸 수 있는 폴더가 아님</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="643"/>
        <source>exists: it will be replaced</source>
        <translation>이미 있음: 덮어씀</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="643"/>
        <source>new file</source>
        <translation>새 파일</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="499"/>
        <source>None: the study is ready.</source>
        <translation>없음: 스터디가 준비되었습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="657"/>
        <source>%1 cannot be written.</source>
        <translation>%1에 쓸 수 없습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="56"/>
        <source>batch 8, right padding</source>
        <translation>배치 8, 오른쪽 패딩</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="58"/>
        <source>batch 8, left padding</source>
        <translation>배치 8, 왼쪽 패딩</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="60"/>
        <source>padded to 128 tokens</source>
        <translation>128 토큰까지 패딩</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="62"/>
        <source>2 threads</source>
        <translation>스레드 2개</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="64"/>
        <source>bfloat16</source>
        <translation>bfloat16</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="66"/>
        <source>SDPA attention</source>
        <translation>SDPA 어텐션</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="76"/>
        <source>the same again (repeat)</source>
        <translation>같은 설정 한 번 더 (repeat)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="78"/>
        <source>4 requests in flight</source>
        <translation>동시 요청 4개</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="81"/>
        <source>4 in flight, another arrival order</source>
        <translation>동시 4개, 다른 도착 순서</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="83"/>
        <source>prefix cache warm</source>
        <translation>프리픽스 캐시 웜</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="169"/>
        <source>a model file (the built-in engine)</source>
        <translation>모델 파일 (내장 엔진)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="172"/>
        <source>a server (OpenAI-compatible API)</source>
        <translation>서버 (OpenAI 호환 API)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="173"/>
        <source>Model &amp;source:</source>
        <translation>모델 출처(&amp;S):</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="335"/>
        <source>e.g. http://127.0.0.1:8000/v1</source>
        <translation>예: http://127.0.0.1:8000/v1</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="336"/>
        <source>Server &amp;URL:</source>
        <translation>서버 &amp;URL:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="338"/>
        <source>the model name the server serves</source>
        <translation>서버가 제공하는 모델 이름</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="339"/>
        <source>Model &amp;name:</source>
        <translation>모델 이름(&amp;N):</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="341"/>
        <source>completions</source>
        <translation>completions</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="342"/>
        <source>chat completions</source>
        <translation>chat completions</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="343"/>
        <source>&amp;API:</source>
        <translation>&amp;API:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="345"/>
        <source>environment variable holding the key, e.g. OPENAI_API_KEY</source>
        <translation>키를 담은 환경 변수, 예: OPENAI_API_KEY</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="346"/>
        <source>&amp;Key variable:</source>
        <translation>키 변수(&amp;K):</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="347"/>
        <source>Test connection</source>
        <translation>연결 테스트</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="372"/>
        <source>reference: one request at a time, cold cache</source>
        <translation>기준: 한 번에 요청 하나, 콜드 캐시</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="393"/>
        <source>Asking %1 for its models…</source>
        <translation>%1에 모델 목록을 묻는 중…</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pages/newstudydialog.cpp" line="401"/>
        <source>The server lists %n model(s): %1.</source>
        <translation>
            <numerusform>서버가 모델 %n개를 제공합니다: %1.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="405"/>
        <source>It does not list %1.</source>
        <translation>%1은(는) 목록에 없습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="92"/>
        <source>a GGUF file; transformers dequantizes it at load</source>
        <translation>GGUF 파일; transformers가 로드할 때 역양자화합니다</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="97"/>
        <source>%1: no config.json (not a Hugging Face folder)</source>
        <translation>%1: config.json이 없습니다 (Hugging Face 폴더가 아님)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="104"/>
        <source>%1: config.json names no model_type</source>
        <translation>%1: config.json에 model_type이 없습니다</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="106"/>
        <source>%1, read by transformers in the environment</source>
        <translation>%1, 환경의 transformers가 읽음</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="170"/>
        <source>a model file, in a Python environment (transformers)</source>
        <translation>모델 파일, Python 환경에서 (transformers)</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="248"/>
        <source>&amp;Python:</source>
        <translation>&amp;Python:</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="251"/>
        <source>the interpreter of the environment, e.g. /opt/venv/bin/python</source>
        <translation>환경의 인터프리터, 예: /opt/venv/bin/python</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="253"/>
        <source>Check interpreter</source>
        <translation>인터프리터 확인</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="266"/>
        <source>Starting the transformers runner in %1…</source>
        <translation>%1에서 transformers 러너를 시작하는 중…</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="271"/>
        <source>No interpreter given.</source>
        <translation>인터프리터가 지정되지 않았습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="275"/>
        <source>Python %1, torch %2, transformers %3</source>
        <translation>Python %1, torch %2, transformers %3</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="374"/>
        <source>reference: batch 1, no padding, float32, 1 thread, in the Python environment</source>
        <translation>기준: 배치 1, 패딩 없음, float32, 스레드 1개, Python 환경에서</translation>
    </message>
    <message>
        <location filename="../ui/pages/newstudydialog.cpp" line="69"/>
        <source>float64, the exact reference (which side is closer to exact)</source>
        <translation>float64, 정확한 기준 (어느 쪽이 정확값에 더 가까운지)</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::PresentationWindow</name>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="62"/>
        <source>ProbAudit — Presentation</source>
        <translation>ProbAudit — 프레젠테이션</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="109"/>
        <source>Same model, same inputs: do the decisions reproduce?</source>
        <translation>같은 모델, 같은 입력: 결정이 재현될까요?</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="110"/>
        <source>%1 runtime configurations against the reference: %2 flipped decisions in total, probabilities moved by up to %3 points.</source>
        <translation>기준 대비 런타임 구성 %1개: 뒤집힌 결정 총 %2건, 확률은 최대 %3포인트 이동.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="130"/>
        <source>Where decisions move: near the boundary</source>
        <translation>결정이 바뀌는 곳: 경계 근처</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="131"/>
        <source>Items by their margin in the reference run; under %1, %2 flipped and %3% kept every bit.</source>
        <translation>기준 실행의 마진별 항목. %1에서 %2건이 뒤집혔고 %3%는 모든 비트가 그대로였습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="183"/>
        <source>One input, two decisions</source>
        <translation>하나의 입력, 두 가지 결정</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="183"/>
        <source>One input, two probabilities</source>
        <translation>하나의 입력, 두 가지 확률</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="184"/>
        <source>The same text gets another decision under %1.</source>
        <translation>같은 텍스트가 %1에서 다른 결정을 받습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="185"/>
        <source>The item whose probability moved most under %1.</source>
        <translation>%1에서 확률이 가장 크게 움직인 항목입니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="194"/>
        <source>Where the numbers part: layer by layer</source>
        <translation>수치가 갈라지는 곳: 레이어별로</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="195"/>
        <source>Share of items whose hidden states differ from the reference, per config and layer.</source>
        <translation>구성과 레이어별로, 은닉 상태가 기준과 다른 항목의 비율입니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="211"/>
        <source>Why: the suspects, one by one</source>
        <translation>원인: 의심 요인을 하나씩</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="213"/>
        <source>Each probe changes one thing and compares bit for bit.</source>
        <translation>각 프로브는 한 가지만 바꾸고 비트 단위로 비교합니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="214"/>
        <source>No diagnosis is stored yet: run probaudit diagnose.</source>
        <translation>저장된 진단이 아직 없습니다. probaudit diagnose를 실행하세요.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="306"/>
        <source>%1 / %2  ·  ← → to move  ·  Esc to leave</source>
        <translation>%1 / %2  ·  ← → 이동  ·  Esc 종료</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="155"/>
        <source>Do the flips sit at near ties?</source>
        <translation>반전된 결정은 근소한 차이에서 일어나는가?</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="156"/>
        <source>No config flipped a decision; the whiskers show the flip rate each margin bin still allows (Wilson 95%).</source>
        <translation>어떤 구성도 결정을 뒤집지 않았습니다. 수염은 각 마진 구간이 아직 허용하는 반전 비율입니다 (Wilson 95%).</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="158"/>
        <source>%1 flipped decisions over all configs, %2 of them where the reference&apos;s margin was below 1; whiskers: Wilson 95% intervals.</source>
        <translation>모든 구성에서 반전된 결정 %1건, 그중 %2건은 참조 마진이 1 미만; 수염: Wilson 95% 구간.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="229"/>
        <source>Same prompts, temperature 0: do the outputs reproduce?</source>
        <translation>같은 프롬프트, 온도 0: 출력이 재현되는가?</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="230"/>
        <source>%1 prompts. Most telling: %2, %3 of %4 outputs byte-identical, pooled record Jaccard %5.</source>
        <translation>프롬프트 %1개. 가장 뚜렷한 비교: %2, 출력 %4개 중 %3개 바이트 동일, 통합 레코드 Jaccard %5.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="237"/>
        <source>Nothing to compare yet: a generation study needs two finished runs.</source>
        <translation>아직 비교할 것이 없습니다: 생성 스터디에는 완료된 실행이 두 개 필요합니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="242"/>
        <source>Every output is byte-identical: there is no diverging prompt.</source>
        <translation>모든 출력이 바이트 동일합니다: 갈라지는 프롬프트가 없습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="258"/>
        <source>One prompt, two outputs</source>
        <translation>하나의 프롬프트, 두 개의 출력</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="266"/>
        <source>Do outputs fork at near ties?</source>
        <translation>출력은 근소한 차이에서 갈라지는가?</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="267"/>
        <source>The reference&apos;s top-2 logit gap where outputs first diverge, against its gaps at every step.</source>
        <translation>출력이 처음 갈라지는 곳의 참조 상위 2 로짓 차이와 모든 단계의 차이 비교.</translation>
    </message>
    <message>
        <location filename="../ui/pages/presentation.cpp" line="250"/>
        <source>Prompt %1 under %2: the outputs part at generated token %3, where the reference&apos;s top-2 logit gap was %4.</source>
        <translation>%2에서 프롬프트 %1: 출력이 생성 토큰 %3에서 갈라지며, 그때 참조의 상위 2 로짓 차이는 %4였습니다.</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::ReviewPage</name>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="44"/>
        <source>accuracy</source>
        <translation>정확도</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="44"/>
        <source>decisions</source>
        <translation>결정</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="44"/>
        <source>bits</source>
        <translation>비트</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="106"/>
        <source>The head variant under review</source>
        <translation>검토 중인 헤드 변형</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="188"/>
        <source>Share of items bitwise different</source>
        <translation>비트 단위로 다른 항목 비율</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="189"/>
        <source>Relative L2 of the decision-token vector (median)</source>
        <translation>결정 토큰 벡터의 상대 L2 (중앙값)</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="198"/>
        <source>Colour:</source>
        <translation>색상:</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="124"/>
        <source>&amp;Items</source>
        <translation>항목(&amp;I)</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="125"/>
        <source>C&amp;harts</source>
        <translation>차트(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="126"/>
        <source>&amp;Layers</source>
        <translation>레이어(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="127"/>
        <source>Dia&amp;gnosis</source>
        <translation>진단(&amp;G)</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="128"/>
        <source>&amp;Cause</source>
        <translation>원인(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="129"/>
        <source>R&amp;uns</source>
        <translation>실행(&amp;U)</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="130"/>
        <source>Va&amp;riants</source>
        <translation>변형(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="154"/>
        <source>Head:</source>
        <translation>헤드:</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="308"/>
        <source>%1 differs</source>
        <translation>%1 다름</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="332"/>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="404"/>
        <source>Nothing to compare yet: the ledger has no finished run.</source>
        <translation>아직 비교할 것이 없습니다. 원장에 완료된 실행이 없습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="408"/>
        <source>Config %1 has no finished run yet.</source>
        <translation>구성 %1에는 아직 완료된 실행이 없습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="409"/>
        <source>The reference config %1 has no finished run, so nothing can be compared.</source>
        <translation>기준 구성 %1에 완료된 실행이 없어 아무것도 비교할 수 없습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="413"/>
        <source>Comparing the reference config &quot;%1&quot; (run %2) with &quot;%3&quot; (run %4): %5</source>
        <translation>기준 구성 &quot;%1&quot;(실행 %2) 대 &quot;%3&quot;(실행 %4) 비교: %5</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="192"/>
        <source>Configs</source>
        <translation>구성</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="193"/>
        <source>Items of the selected config (the 40 most moved)</source>
        <translation>선택한 구성의 항목 (가장 많이 바뀐 40개)</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="196"/>
        <source>Rows:</source>
        <translation>행:</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="252"/>
        <source>Sweep: the study&apos;s shards on the cluster</source>
        <translation>스윕: 클러스터에서 실행한 연구의 샤드</translation>
    </message>
    <message>
        <location filename="../ui/pages/reviewpage.cpp" line="258"/>
        <source>Refresh</source>
        <translation>새로 고침</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::RunController</name>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="53"/>
        <source>A run is already in progress.</source>
        <translation>이미 진행 중인 실행이 있습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="60"/>
        <source>The engine was not found at %1.</source>
        <translation>%1에서 엔진을 찾을 수 없습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="79"/>
        <source>The engine could not be started: %1</source>
        <translation>엔진을 시작할 수 없습니다: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="142"/>
        <source>Every batch finished before it is kept in %1.</source>
        <translation>그 전에 완료된 모든 배치는 %1에 보존됩니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="146"/>
        <source>The engine stopped unexpectedly (it crashed or was killed). %1</source>
        <translation>엔진이 예기치 않게 멈췄습니다(충돌했거나 강제 종료됨). %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="154"/>
        <source>The run was cancelled. %1</source>
        <translation>실행이 취소되었습니다. %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="162"/>
        <source>exit code %1</source>
        <translation>종료 코드 %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/runcontroller.cpp" line="164"/>
        <source>The engine failed: %1. %2</source>
        <translation>엔진 오류: %1. %2</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::RunPanel</name>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="33"/>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="35"/>
        <source>Stop after the current batch; every finished batch stays in the ledger and the run can be resumed.</source>
        <translation>현재 배치가 끝나면 멈춥니다. 완료된 배치는 모두 원장에 남으며 실행을 재개할 수 있습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="52"/>
        <source>Stopping after the current batch…</source>
        <translation>현재 배치 후 멈추는 중…</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="60"/>
        <source>resumed at %1</source>
        <translation>재개됨 (%1부터)</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="60"/>
        <location filename="../ui/pages/runpanel.cpp" line="155"/>
        <source>running</source>
        <translation>실행 중</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="61"/>
        <source>Running %1 (run %2)…</source>
        <translation>%1 실행 중 (실행 %2)…</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="68"/>
        <source>already recorded</source>
        <translation>이미 기록됨</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="77"/>
        <source>%1 items/s · ETA %2</source>
        <translation>%1 항목/s · 남은 시간 %2</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="93"/>
        <source>finished</source>
        <translation>완료</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="119"/>
        <source>waiting</source>
        <translation>대기 중</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="138"/>
        <source>Starting the engine…</source>
        <translation>엔진 시작 중…</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="146"/>
        <source>All runs finished.</source>
        <translation>모든 실행이 완료되었습니다.</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="155"/>
        <source>resumed</source>
        <translation>재개됨</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="156"/>
        <source>interrupted</source>
        <translation>중단됨</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="157"/>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="83"/>
        <source>%1 items/s · %2 requests in flight</source>
        <translation>%1 항목/초 · 동시 요청 %2개</translation>
    </message>
    <message>
        <location filename="../ui/pages/runpanel.cpp" line="86"/>
        <source>Measured from the requests&apos; send and reply times: the server may work on fewer requests at once than the config&apos;s concurrency asks for</source>
        <translation>요청의 전송·응답 시각으로 측정: 서버는 설정의 동시성보다 적은 요청을 동시에 처리할 수 있습니다</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::RunsModel</name>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="100"/>
        <source>records SHA-256 %1
chain SHA-256 %2</source>
        <translation>레코드 SHA-256 %1
체인 SHA-256 %2</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="113"/>
        <source>probe</source>
        <translation>프로브</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="113"/>
        <source>study</source>
        <translation>스터디</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="126"/>
        <source>finished</source>
        <translation>완료</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="128"/>
        <source>interrupted</source>
        <translation>중단됨</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="130"/>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="132"/>
        <source>running</source>
        <translation>실행 중</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="132"/>
        <source>cut off (resumable)</source>
        <translation>끊김 (재개 가능)</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="136"/>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="146"/>
        <source>not sealed</source>
        <translation>봉인 안 됨</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="154"/>
        <source>Run</source>
        <translation>실행</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="154"/>
        <source>Kind</source>
        <translation>종류</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="154"/>
        <source>Config or probe</source>
        <translation>구성 또는 프로브</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="154"/>
        <source>Model variant</source>
        <translation>모델 변형</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="155"/>
        <source>Head</source>
        <translation>헤드</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="155"/>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="155"/>
        <source>Items</source>
        <translation>항목</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="155"/>
        <source>Capture</source>
        <translation>캡처</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="156"/>
        <source>Environment</source>
        <translation>환경</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="156"/>
        <source>Started (UTC)</source>
        <translation>시작 (UTC)</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="156"/>
        <source>Seal</source>
        <translation>봉인</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="38"/>
        <source>environment %1
libtorch %2, CUDA build %3
CPU %4, kernels %5
intra-op threads %6
ProbAudit %7 (commit %8)</source>
        <translation>환경 %1
libtorch %2, CUDA 빌드 %3
CPU %4, 커널 %5
intra-op 스레드 %6
ProbAudit %7 (커밋 %8)</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="113"/>
        <source>imported</source>
        <translation>가져옴</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="22"/>
        <source>environment %1
server %2 (%3 API), model %4</source>
        <translation>환경 %1
서버 %2 (%3 API), 모델 %4</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="54"/>
        <source>%1 items/s · %2 in flight</source>
        <translation>%1 항목/초 · 동시 %2</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="58"/>
        <source>%1 items in %2 s over %3 session(s); requests in flight on average %4 (measured from send and reply times); latency median %5 s, p99 %6 s; %7 retries, %8 items failed</source>
        <translation>%3개 세션에서 %2초 동안 %1개 항목; 평균 동시 요청 %4 (전송 및 응답 시간으로 측정); 지연 시간 중앙값 %5초, p99 %6초; 재시도 %7회, 실패 항목 %8개</translation>
    </message>
    <message>
        <location filename="../ui/models/runsmodel.cpp" line="156"/>
        <source>Serving</source>
        <translation>서빙</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::SeedTablesDialog</name>
    <message>
        <location filename="../ui/pages/seedtablesdialog.cpp" line="18"/>
        <source>Field Report Tables</source>
        <translation>현장 보고서 표</translation>
    </message>
    <message>
        <location filename="../ui/pages/seedtablesdialog.cpp" line="30"/>
        <source>&amp;Copy as Markdown</source>
        <translation>Markdown으로 복사(&amp;C)</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::SweepModel</name>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="82"/>
        <source>, %1 unknown</source>
        <translation>, 알 수 없음 %1</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="85"/>
        <source>; not merged yet</source>
        <translation>; 아직 병합되지 않음</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="86"/>
        <source>; merged into %1</source>
        <translation>; %1에 병합됨</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="88"/>
        <source>The scheduler could not be asked (%1): states from the shards&apos; ledgers alone.</source>
        <translation>스케줄러에 물을 수 없습니다 (%1): 샤드 원장만으로 판단한 상태입니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="100"/>
        <source>queued</source>
        <translation>대기</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="102"/>
        <source>running</source>
        <translation>실행 중</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="104"/>
        <source>complete</source>
        <translation>완료</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="106"/>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="108"/>
        <source>unknown</source>
        <translation>알 수 없음</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="115"/>
        <source>unreadable: %1</source>
        <translation>읽을 수 없음: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="118"/>
        <source>no ledger yet</source>
        <translation>아직 원장 없음</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="120"/>
        <source>%1/%2 runs, %3/%4 items</source>
        <translation>실행 %1/%2, 항목 %3/%4</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="148"/>
        <source>The task&apos;s last words: %1</source>
        <translation>작업의 마지막 출력: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="160"/>
        <source>not known</source>
        <translation>알 수 없음</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="173"/>
        <source>Shard</source>
        <translation>샤드</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="173"/>
        <source>Slurm task</source>
        <translation>Slurm 작업</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="173"/>
        <source>Scheduler</source>
        <translation>스케줄러</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="173"/>
        <source>Its ledger</source>
        <translation>샤드 원장</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="173"/>
        <source>State</source>
        <translation>상태</translation>
    </message>
    <message>
        <location filename="../ui/models/sweepmodel.cpp" line="75"/>
        <source>%1 of %2 shards complete, %3 running, %4 queued, %5 failed</source>
        <translation>샤드 %2개 중 %1개 완료, 실행 중 %3, 대기 %4, 실패 %5</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::VariantsModel</name>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="34"/>
        <source>Runtime noise floor: not measured (no runtime config of &quot;%1&quot; besides the reference has a run).</source>
        <translation>런타임 노이즈 플로어: 측정되지 않음(기준 외에 &quot;%1&quot;의 런타임 구성 실행이 없음).</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="37"/>
        <source>Runtime noise floor: the reference variant &quot;%1&quot; under %2 other runtime config(s) flips at most %3 decision(s), largest Δp %4 points.</source>
        <translation>런타임 노이즈 플로어: 기준 변형 &quot;%1&quot;은(는) 다른 런타임 구성 %2개에서 최대 %3개의 결정이 뒤집힘, 최대 Δp %4 포인트.</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="44"/>
        <source>Its largest mean KL over the vocabulary: %1 nats (%2).</source>
        <translation>어휘 전체에 대한 최대 평균 KL: %1 nats (%2).</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="48"/>
        <source>%1 has no run of the reference variant with the same runtime settings to compare it with.</source>
        <translation>%1: 비교할 같은 런타임 설정의 기준 변형 실행이 없습니다.</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="58"/>
        <source>yes</source>
        <translation>예</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="58"/>
        <source>no</source>
        <translation>아니요</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="58"/>
        <source>not measured</source>
        <translation>측정되지 않음</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="70"/>
        <location filename="../ui/models/variantsmodel.cpp" line="72"/>
        <source>no labels</source>
        <translation>레이블 없음</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="78"/>
        <source>not recorded</source>
        <translation>기록되지 않음</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="111"/>
        <source>Variant</source>
        <translation>변형</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="111"/>
        <source>Config</source>
        <translation>구성</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="111"/>
        <source>Against</source>
        <translation>비교 대상</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="112"/>
        <source>Flips</source>
        <translation>뒤집힘</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="112"/>
        <source>Churn (95%)</source>
        <translation>이탈 (95%)</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="112"/>
        <source>Net, points</source>
        <translation>순 차이, 포인트</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="113"/>
        <source>Largest Δp</source>
        <translation>최대 Δp</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="113"/>
        <source>Above the floor</source>
        <translation>플로어 초과</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="113"/>
        <source>KL mean (nats)</source>
        <translation>KL 평균 (nats)</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="114"/>
        <source>KL p99</source>
        <translation>KL p99</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="114"/>
        <source>Same top token</source>
        <translation>같은 최상위 토큰</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="114"/>
        <source>KL above the floor</source>
        <translation>KL 플로어 초과</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="120"/>
        <source>The reference variant&apos;s config with the same runtime settings</source>
        <translation>같은 런타임 설정의 기준 변형 구성</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="122"/>
        <source>Labelled items whose correctness changed either way (Wilson 95%)</source>
        <translation>정답 여부가 어느 쪽으로든 바뀐 레이블 항목 (Wilson 95%)</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="124"/>
        <source>The accuracy difference, variant minus baseline (paired bootstrap 95%)</source>
        <translation>정확도 차이, 변형 빼기 기준선 (쌍체 부트스트랩 95%)</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="126"/>
        <source>More flips than any runtime config of the reference variant, or as many and a larger Δp</source>
        <translation>기준 변형의 어떤 런타임 구성보다 뒤집힘이 많거나, 같은 수이면서 Δp가 더 큼</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="129"/>
        <source>KL(baseline || variant) over the whole vocabulary at the decision position, mean over items (heads that record their vocabulary)</source>
        <translation>결정 위치에서 어휘 전체에 대한 KL(기준선 || 변형), 항목 평균 (어휘를 기록하는 헤드)</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="132"/>
        <source>Items whose most likely vocabulary token is the same (Wilson 95%)</source>
        <translation>가장 가능성 높은 어휘 토큰이 같은 항목 (Wilson 95%)</translation>
    </message>
    <message>
        <location filename="../ui/models/variantsmodel.cpp" line="134"/>
        <source>A mean KL above every runtime config&apos;s</source>
        <translation>모든 런타임 구성보다 큰 평균 KL</translation>
    </message>
</context>
<context>
    <name>probaudit::ui::VerdictStrip</name>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="40"/>
        <source>Policy: evaluating…</source>
        <translation>정책: 평가 중…</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="70"/>
        <source>Policy: cannot be evaluated: %1</source>
        <translation>정책: 평가할 수 없음: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="74"/>
        <source>Policy: &lt;b&gt;not judged&lt;/b&gt;: the ledger was changed after it was sealed (%1).</source>
        <translation>정책: &lt;b&gt;판정하지 않음&lt;/b&gt;: 원장이 봉인된 뒤 변경되었습니다 (%1).</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="80"/>
        <source>Policy verdict: &lt;b&gt;%1&lt;/b&gt; (%2 passed, %3 failed, %4 cannot be evaluated); policy %5.</source>
        <translation>정책 판정: &lt;b&gt;%1&lt;/b&gt; (%2 통과, %3 실패, %4 평가 불가); 정책 %5.</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="82"/>
        <source>FAIL</source>
        <translation>실패</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="83"/>
        <source>INCOMPLETE</source>
        <translation>불완전</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="84"/>
        <source>PASS</source>
        <translation>통과</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="107"/>
        <source>Not passed: %1</source>
        <translation>통과하지 못함: %1</translation>
    </message>
    <message>
        <location filename="../ui/pages/verdictstrip.cpp" line="125"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
</TS>
