// Child processes (core/process): a server child's output lines are bounded, so that a child
// writing without a newline (a broken or hostile runner) cannot drive this process's memory.
#include "core/common/error.h"
#include "core/process/child_process.h"

#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace probaudit;
using probaudit::runner::Child;

class TestProcess : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void linesAreRead() {
        QTemporaryDir dir;
        Child c = Child::startServer("/bin/sh", {"-c", "printf 'one\\n\\ntwo'"}, {},
                                     dir.filePath(QStringLiteral("err")).toStdString());
        std::string line;
        QVERIFY(c.readLine(line));
        QCOMPARE(line, std::string("one"));
        QVERIFY(c.readLine(line));
        QCOMPARE(line, std::string());
        QVERIFY(c.readLine(line)); // the last line, without its newline
        QCOMPARE(line, std::string("two"));
        QVERIFY(!c.readLine(line));
        c.wait();
    }

    void aLineWithoutEndIsRefused() {
        QTemporaryDir dir;
        // 3 MiB of 'a' and no newline; the bound here is 1 MiB.
        Child c = Child::startServer("/bin/sh", {"-c", "head -c 3145728 /dev/zero | tr '\\0' a"},
                                     {}, dir.filePath(QStringLiteral("err")).toStdString());
        std::string line;
        try {
            c.readLine(line, std::size_t(1) << 20);
            QFAIL("an endless line was read");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("a line longer than 1 MiB") != std::string::npos,
                     e.what());
        }
        QVERIFY(line.empty());
        c.signal(SIGKILL);
        c.wait();
    }
};

QTEST_GUILESS_MAIN(TestProcess)
#include "test_process.moc"
