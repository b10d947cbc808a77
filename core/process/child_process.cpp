#include "core/process/child_process.h"

#include "core/common/error.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace probaudit::runner {

namespace {

std::vector<std::string> environmentWith(const std::vector<std::string>& setEnv) {
    std::vector<std::string> out;
    for (char** e = environ; *e != nullptr; ++e) {
        const std::string entry(*e);
        bool replaced = false;
        for (const auto& s : setEnv) {
            const std::string name = s.substr(0, s.find('=') + 1);
            replaced = replaced || entry.rfind(name, 0) == 0;
        }
        if (!replaced) {
            out.push_back(entry);
        }
    }
    out.insert(out.end(), setEnv.begin(), setEnv.end());
    return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> p;
    for (auto& s : strings) {
        p.push_back(s.data());
    }
    p.push_back(nullptr);
    return p;
}

// posix_spawn with SIGPIPE at its default in the child (a process that ignores it here, as the
// engine server does, must not hand that on) and, with `ownGroup`, a process group of its own.
pid_t spawn(const std::string& exe, std::vector<std::string>& argStore,
            const std::vector<std::string>& setEnv, posix_spawn_file_actions_t& fa, bool ownGroup,
            int& rc) {
    std::vector<char*> argv = pointers(argStore);
    std::vector<std::string> envStore = environmentWith(setEnv);
    std::vector<char*> envp = pointers(envStore);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    int flags = POSIX_SPAWN_SETSIGDEF;
    if (ownGroup) {
        flags |= POSIX_SPAWN_SETPGROUP;
        posix_spawnattr_setpgroup(&attr, 0);
    }
    posix_spawnattr_setflags(&attr, static_cast<short>(flags));
    pid_t pid = 0;
    rc = posix_spawn(&pid, exe.c_str(), &fa, &attr, argv.data(), envp.data());
    posix_spawnattr_destroy(&attr);
    return rc == 0 ? pid : -1;
}

} // namespace

Child Child::startServer(const std::string& exe, const std::vector<std::string>& args,
                         const std::vector<std::string>& setEnv, const std::string& stderrFile) {
    std::vector<std::string> argStore{exe};
    argStore.insert(argStore.end(), args.begin(), args.end());
    int toChild[2] = {-1, -1}, fromChild[2] = {-1, -1};
    if (::pipe2(toChild, O_CLOEXEC) != 0) {
        throw Error(exe, "could not be started (no pipe)");
    }
    if (::pipe2(fromChild, O_CLOEXEC) != 0) {
        ::close(toChild[0]);
        ::close(toChild[1]);
        throw Error(exe, "could not be started (no pipe)");
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, toChild[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, fromChild[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, stderrFile.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int rc = 0;
    const pid_t pid = spawn(exe, argStore, setEnv, fa, /*ownGroup=*/true, rc);
    posix_spawn_file_actions_destroy(&fa);
    ::close(toChild[0]);
    ::close(fromChild[1]);
    if (pid < 0) {
        ::close(toChild[1]);
        ::close(fromChild[0]);
        throw Error(exe, std::string("could not be started: ") + std::strerror(rc));
    }
    Child c(pid, -1);
    c.m_in = toChild[1];
    c.m_lines = fromChild[0];
    return c;
}

bool Child::writeLine(const std::string& line) {
    if (m_in < 0) {
        return false;
    }
    const std::string data = line + "\n";
    std::size_t done = 0;
    while (done < data.size()) {
        // MSG_NOSIGNAL exists for sockets only: block SIGPIPE around the write instead.
        sigset_t pipeSet, old;
        sigemptyset(&pipeSet);
        sigaddset(&pipeSet, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipeSet, &old);
        const ssize_t n = ::write(m_in, data.data() + done, data.size() - done);
        const int err = errno;
        if (n < 0 && err == EPIPE) {
            const timespec zero{0, 0};
            sigtimedwait(&pipeSet, nullptr, &zero); // consume the pending SIGPIPE
        }
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
        if (n < 0) {
            if (err == EINTR) {
                continue;
            }
            return false;
        }
        done += std::size_t(n);
    }
    return true;
}

bool Child::readLine(std::string& line, std::size_t maxBytes, double timeoutSeconds) {
    line.clear();
    if (m_lines < 0) {
        return false;
    }
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(std::max(timeoutSeconds, 0.0)));
    std::size_t searched = 0; // m_pending[0, searched) holds no newline
    for (;;) {
        const std::size_t nl = m_pending.find('\n', searched);
        if (nl != std::string::npos && nl <= maxBytes) {
            line.assign(m_pending, 0, nl);
            m_pending.erase(0, nl + 1);
            return true;
        }
        if (m_pending.size() > maxBytes) {
            m_pending.clear();
            m_pending.shrink_to_fit();
            throw Error("the child process " + std::to_string(m_pid) +
                        " wrote a line longer than " + std::to_string(maxBytes >> 20) + " MiB");
        }
        searched = m_pending.size();
        if (timeoutSeconds >= 0) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            pollfd p{m_lines, POLLIN, 0};
            const int ready = left.count() <= 0
                                  ? 0
                                  : ::poll(&p, 1, int(std::min<long long>(left.count(), INT_MAX)));
            if (ready < 0 && errno == EINTR) {
                continue;
            }
            if (ready == 0) {
                throw Error("the child process " + std::to_string(m_pid) +
                            " gave no answer within " +
                            std::to_string(std::lround(timeoutSeconds)) + " s");
            }
        }
        char buf[65536];
        const ssize_t n = ::read(m_lines, buf, sizeof buf);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) { // its end: the last line, if it has one without a newline
            line.swap(m_pending);
            m_pending.clear();
            return !line.empty();
        }
        m_pending.append(buf, std::size_t(n));
    }
}

bool Child::waitFor(double seconds) {
    const auto until = std::chrono::steady_clock::now() +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                           std::chrono::duration<double>(seconds));
    for (;;) {
        int status = 0;
        const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
        if (r == m_pid) {
            m_pid = -1;
            m_exit = {};
            if (WIFSIGNALED(status)) {
                m_exit.signal = WTERMSIG(status);
            } else {
                m_exit.code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
            }
            return true;
        }
        if (r < 0 && errno != EINTR) {
            m_pid = -1;
            m_exit = {1, 0};
            return true;
        }
        if (std::chrono::steady_clock::now() >= until) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

ChildExit Child::stop(double graceSeconds) {
    if (m_in >= 0) {
        ::close(m_in); // a server child reads the end of its input and exits
        m_in = -1;
    }
    if (m_pid > 0 && !waitFor(graceSeconds)) {
        ::kill(-m_pid, SIGTERM); // it leads its own process group: its helpers too
        if (!waitFor(2)) {
            ::kill(-m_pid, SIGKILL);
            waitFor(10);
        }
    }
    return m_exit;
}

Child Child::start(const std::string& exe, const std::string& argv0,
                   const std::vector<std::string>& args, const std::vector<std::string>& setEnv,
                   Stdout out, bool ownGroup) {
    const bool captureStdout = out == Stdout::Capture || out == Stdout::CaptureWithStderr;
    std::vector<std::string> argStore{argv0};
    argStore.insert(argStore.end(), args.begin(), args.end());
    int pipeFd[2] = {-1, -1};
    // Close-on-exec: a sibling started meanwhile from another thread must not inherit either
    // end (it would keep the pipe open past this child's exit). dup2 onto stdout clears it.
    if (captureStdout && ::pipe2(pipeFd, O_CLOEXEC) != 0) {
        throw Error(exe, "could not be started (no pipe)");
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (captureStdout) {
        posix_spawn_file_actions_adddup2(&fa, pipeFd[1], STDOUT_FILENO);
        if (out == Stdout::CaptureWithStderr) {
            posix_spawn_file_actions_adddup2(&fa, pipeFd[1], STDERR_FILENO);
        }
        posix_spawn_file_actions_addclose(&fa, pipeFd[0]);
    } else if (out == Stdout::Discard) {
        posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    }
    int rc = 0;
    const pid_t pid = spawn(exe, argStore, setEnv, fa, ownGroup, rc);
    posix_spawn_file_actions_destroy(&fa);
    if (captureStdout) {
        ::close(pipeFd[1]);
    }
    if (rc != 0) {
        if (captureStdout) {
            ::close(pipeFd[0]);
        }
        throw Error(exe, std::string("could not be started: ") + std::strerror(rc));
    }
    return Child(pid, captureStdout ? pipeFd[0] : -1);
}

Child::Child(Child&& other) noexcept
    : m_pid(other.m_pid), m_out(other.m_out), m_in(other.m_in), m_lines(other.m_lines),
      m_pending(std::move(other.m_pending)), m_exit(other.m_exit) {
    other.m_pid = -1;
    other.m_out = -1;
    other.m_in = -1;
    other.m_lines = -1;
}

Child::~Child() {
    if (m_out >= 0) {
        ::close(m_out);
    }
    if (m_lines >= 0) { // a server child: ended within bounds, never waited for forever
        ::close(m_lines);
        m_lines = -1;
        stop();
    }
    if (m_in >= 0) {
        ::close(m_in);
    }
    if (m_pid > 0) {
        wait(); // never leave a zombie
    }
}

void Child::readLines(const std::function<void(const std::string&)>& onLine) {
    if (m_out < 0) {
        return;
    }
    FILE* in = ::fdopen(m_out, "r");
    m_out = -1; // the FILE owns it now
    char* line = nullptr;
    size_t cap = 0;
    ssize_t n = 0;
    while ((n = ::getline(&line, &cap, in)) > 0) {
        onLine(std::string(line, std::size_t(n)));
    }
    std::free(line);
    std::fclose(in);
}

void Child::signal(int sig) {
    if (m_pid > 0) {
        ::kill(m_pid, sig);
    }
}

ChildExit Child::wait() {
    ChildExit out;
    if (m_pid <= 0) {
        return m_exit; // reaped already (stop), or never started
    }
    int status = 0;
    while (::waitpid(m_pid, &status, 0) < 0) {
        if (errno != EINTR) {
            m_pid = -1;
            out.code = 1;
            return out;
        }
    }
    m_pid = -1;
    if (WIFSIGNALED(status)) {
        out.signal = WTERMSIG(status);
    } else {
        out.code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    }
    return out;
}

std::string siblingPath(const std::string& name) {
    return (std::filesystem::read_symlink("/proc/self/exe").parent_path() / name).string();
}

std::string executableOnPath(const std::string& tool, const std::string& hint) {
    const char* path = std::getenv("PATH");
    std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        const std::size_t end = std::min(dirs.find(':', start), dirs.size());
        const std::string d = dirs.substr(start, end - start);
        const std::filesystem::path p = std::filesystem::path(d.empty() ? "." : d) / tool;
        if (::access(p.c_str(), X_OK) == 0) {
            return p.string();
        }
        start = end + 1;
    }
    throw Error(tool + " was not found on PATH" + hint);
}

} // namespace probaudit::runner
