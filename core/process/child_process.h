#pragma once
// Child processes of a runner: the engine re-executed under another ATEN_CPU_CAPABILITY, the
// Qt-based report writer beside `probaudit`. One place that starts them, reads their output
// and says how they ended (an exit code, or the signal that killed them).
#include <cstdio>
#include <functional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace probaudit::runner {

// What becomes of a child's standard output.
enum class Stdout {
    Inherit,           // this process's
    Capture,           // read through Child::readLines()
    CaptureWithStderr, // both, in one stream, through Child::readLines() (a tool's messages)
    Discard,           // /dev/null (its errors still reach stderr)
};

struct ChildExit {
    int code = 0;   // the exit code when it exited
    int signal = 0; // the signal that ended it, 0 when it exited
    // The exit code a caller passes on: the child's, or 1 when a signal ended it.
    int exitCode() const { return signal != 0 ? 1 : code; }
};

class Child {
public:
    // Starts `exe` with `argv0` and `args`; the environment is this process's with each
    // "NAME=VALUE" of `setEnv` replacing NAME. Throws probaudit::Error naming `exe` when it
    // cannot start.
    // With `ownGroup` the child leads a process group of its own: a Ctrl-C at the terminal
    // reaches only this process, which tells the child itself (a run stops after its batch on
    // the first SIGINT and dies at once on a second).
    static Child start(const std::string& exe, const std::string& argv0,
                       const std::vector<std::string>& args,
                       const std::vector<std::string>& setEnv = {}, Stdout out = Stdout::Inherit,
                       bool ownGroup = false);
    // A child that serves requests (the transformers runner): its standard input and output
    // are pipes (writeLine, readLine) and its standard error goes to the file `stderrFile`,
    // which the caller reads for the message when it fails. It leads a process group of its
    // own: a Ctrl-C reaches only this process, which stops between requests.
    static Child startServer(const std::string& exe, const std::vector<std::string>& args,
                             const std::vector<std::string>& setEnv, const std::string& stderrFile);
    Child(Child&& other) noexcept;
    Child& operator=(Child&&) = delete;
    Child(const Child&) = delete;
    ~Child();

    // Calls `onLine` with every line of the child's standard output until it closes it.
    void readLines(const std::function<void(const std::string& line)>& onLine);
    // One line to a server child's standard input (a newline is added); false when it has
    // closed it (it ended). Never raises SIGPIPE.
    bool writeLine(const std::string& line);
    // The next line of a server child's standard output, without the newline; false at its
    // end. Every wait is bounded: a line longer than `maxBytes` is refused once that many bytes
    // are read (a child that writes without a newline cannot drive this process's memory), and
    // a line not complete within `timeoutSeconds` (< 0: no limit) is refused too; both throw
    // probaudit::Error and leave the child to stop().
    static constexpr std::size_t kMaxLineBytes = std::size_t(512) << 20;
    bool readLine(std::string& line, std::size_t maxBytes = kMaxLineBytes,
                  double timeoutSeconds = -1);
    // Ends a server child: closes its input (a well-behaved one exits), waits up to
    // `graceSeconds`, then SIGTERM to its process group, 2 s, then SIGKILL; returns how it ended.
    // The destructor does the same for a server child still running.
    ChildExit stop(double graceSeconds = 5);
    void signal(int sig);
    pid_t pid() const { return m_pid; }
    // Waits for the child to end (retrying when interrupted).
    ChildExit wait();

private:
    Child(pid_t pid, int out) : m_pid(pid), m_out(out) {}
    pid_t m_pid = -1;
    int m_out = -1;
    bool waitFor(double seconds); // whether the child ended within `seconds` (then reaped)

    int m_in = -1;         // server children: the write end of their standard input
    int m_lines = -1;      // server children: their standard output, read by readLine
    std::string m_pending; // read from m_lines, not yet returned as a line
    ChildExit m_exit;      // how it ended, once reaped by waitFor
};

// The executable `name` beside this process's own executable.
std::string siblingPath(const std::string& name);

// The first executable `tool` on PATH; throws probaudit::Error "TOOL was not found on PATH" +
// `hint`.
std::string executableOnPath(const std::string& tool, const std::string& hint);

} // namespace probaudit::runner
