#include "clusterplan/remote/process.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cp::remote {
namespace {

using Clock = std::chrono::steady_clock;

struct Running {
    pid_t pid = -1;
    int in = -1, out = -1, err = -1;
    std::size_t written = 0;
    std::string err_line;
    bool exited = false;
    int status = 0;
    Clock::time_point started;
    Clock::time_point term_sent{};
    bool term = false, killed = false;
};

void set_nonblocking(int fd) {
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

void close_fd(int& fd) {
    if (fd >= 0) close(fd);
    fd = -1;
}

// fork + execvp; the child gets its own process group so cancel can stop everything it starts.
Running spawn(const ProcessJob& job) {
    Running r;
    int pin[2], pout[2], perr[2];
    if (pipe2(pin, O_CLOEXEC) || pipe2(pout, O_CLOEXEC) || pipe2(perr, O_CLOEXEC)) return r;
    std::vector<char*> argv;
    for (const auto& a : job.argv)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    // The environment is assembled before fork: the child may only call async-signal-safe
    // functions (the GUI runs jobs from a worker thread), and setenv is not one.
    std::vector<std::string> env_strings;
    for (char** e = environ; e && *e; ++e) {
        const std::string entry = *e;
        const std::string name = entry.substr(0, entry.find('='));
        bool replaced = false;
        for (const auto& kv : job.env)
            replaced = replaced || kv.first == name;
        if (!replaced) env_strings.push_back(entry);
    }
    for (const auto& [name, value] : job.env)
        env_strings.push_back(name + "=" + value);
    std::vector<char*> envp;
    for (auto& e : env_strings)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    r.pid = fork();
    if (r.pid == 0) {
        setpgid(0, 0);
        dup2(pin[0], 0);
        dup2(pout[1], 1);
        dup2(perr[1], 2);
        signal(SIGPIPE, SIG_DFL);
        if (job.env.empty())
            execvp(argv[0], argv.data());
        else
            execvpe(argv[0], argv.data(), envp.data());
        const char* msg = "cannot start program: ";
        (void)!write(2, msg, std::strlen(msg));
        (void)!write(2, argv[0], std::strlen(argv[0]));
        (void)!write(2, "\n", 1);
        _exit(127);
    }
    close(pin[0]);
    close(pout[1]);
    close(perr[1]);
    r.in = pin[1];
    r.out = pout[0];
    r.err = perr[0];
    if (r.pid < 0) {
        close_fd(r.in);
        close_fd(r.out);
        close_fd(r.err);
        return r;
    }
    setpgid(r.pid, r.pid);
    set_nonblocking(r.in);
    set_nonblocking(r.out);
    set_nonblocking(r.err);
    r.started = Clock::now();
    if (job.stdin_data.empty()) close_fd(r.in);
    return r;
}

void emit_lines(Running& r, const ProcessJob& job, const char* data, std::size_t n, bool flush) {
    r.err_line.append(data, n);
    std::size_t pos;
    while ((pos = r.err_line.find('\n')) != std::string::npos) {
        if (job.on_stderr_line) job.on_stderr_line(r.err_line.substr(0, pos));
        r.err_line.erase(0, pos + 1);
    }
    if (flush && !r.err_line.empty()) {
        if (job.on_stderr_line) job.on_stderr_line(r.err_line);
        r.err_line.clear();
    }
}

} // namespace

std::vector<ProcessResult> run_processes(std::vector<ProcessJob> jobs,
                                         const std::atomic<bool>* cancel) {
    std::vector<ProcessResult> results(jobs.size());
    std::vector<Running> procs;
    struct sigaction ignore_pipe {
    }, old_pipe{};
    ignore_pipe.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore_pipe, &old_pipe); // a child closing stdin early must not kill us
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        procs.push_back(spawn(jobs[i]));
        if (procs.back().pid < 0) {
            results[i].exit_code = 127;
            results[i].err = "cannot start " + jobs[i].argv.at(0) + ": " + std::strerror(errno);
            procs.back().exited = true;
        }
    }
    char buf[65536];
    for (;;) {
        bool any_open = false;
        std::vector<pollfd> fds;
        std::vector<std::pair<std::size_t, int>> owner; // job index, which fd (0 in, 1 out, 2 err)
        for (std::size_t i = 0; i < procs.size(); ++i) {
            Running& r = procs[i];
            if (r.in >= 0) {
                fds.push_back({r.in, POLLOUT, 0});
                owner.emplace_back(i, 0);
            }
            if (r.out >= 0) {
                fds.push_back({r.out, POLLIN, 0});
                owner.emplace_back(i, 1);
            }
            if (r.err >= 0) {
                fds.push_back({r.err, POLLIN, 0});
                owner.emplace_back(i, 2);
            }
            any_open = any_open || r.in >= 0 || r.out >= 0 || r.err >= 0 || !r.exited;
        }
        if (!any_open) break;
        if (!fds.empty())
            poll(fds.data(), fds.size(), 100);
        else
            usleep(20000);
        for (std::size_t k = 0; k < fds.size(); ++k) {
            if (!fds[k].revents) continue;
            const auto [i, which] = owner[k];
            Running& r = procs[i];
            if (which == 0) {
                const std::string& data = jobs[i].stdin_data;
                const ssize_t n = write(r.in, data.data() + r.written, data.size() - r.written);
                if (n > 0) r.written += static_cast<std::size_t>(n);
                if ((n < 0 && errno != EAGAIN) || r.written >= data.size()) close_fd(r.in);
                continue;
            }
            int& fd = which == 1 ? r.out : r.err;
            const ssize_t n = read(fd, buf, sizeof buf);
            if (n > 0) {
                std::string& kept = which == 1 ? results[i].out : results[i].err;
                const std::size_t room =
                    jobs[i].max_output_bytes - std::min(kept.size(), jobs[i].max_output_bytes);
                const std::size_t take = std::min(room, static_cast<std::size_t>(n));
                kept.append(buf, take);
                if (which == 2) emit_lines(r, jobs[i], buf, take, false);
                if (take < static_cast<std::size_t>(n)) results[i].output_overflow = true;
            } else if (n == 0 || errno != EAGAIN) {
                if (which == 2) emit_lines(r, jobs[i], "", 0, true);
                close_fd(fd);
            }
        }
        const bool cancelled = cancel && cancel->load();
        for (std::size_t i = 0; i < procs.size(); ++i) {
            Running& r = procs[i];
            if (r.exited) continue;
            if (waitpid(r.pid, &r.status, WNOHANG) == r.pid) {
                r.exited = true;
                close_fd(r.in);
                continue;
            }
            const bool over_time =
                jobs[i].timeout.count() > 0 && Clock::now() - r.started > jobs[i].timeout;
            if ((cancelled || over_time || results[i].output_overflow) && !r.term) {
                results[i].cancelled = cancelled;
                results[i].timed_out = over_time && !cancelled;
                kill(-r.pid, SIGTERM);
                r.term = true;
                r.term_sent = Clock::now();
            } else if (r.term && !r.killed &&
                       Clock::now() - r.term_sent > std::chrono::seconds(2)) {
                kill(-r.pid, SIGKILL);
                r.killed = true;
            }
        }
    }
    for (std::size_t i = 0; i < procs.size(); ++i) {
        const Running& r = procs[i];
        if (r.pid < 0) continue;
        if (WIFEXITED(r.status))
            results[i].exit_code = WEXITSTATUS(r.status);
        else if (WIFSIGNALED(r.status))
            results[i].exit_code = 128 + WTERMSIG(r.status);
    }
    sigaction(SIGPIPE, &old_pipe, nullptr);
    return results;
}

ProcessResult run_process(ProcessJob job, const std::atomic<bool>* cancel) {
    std::vector<ProcessJob> jobs;
    jobs.push_back(std::move(job));
    return run_processes(std::move(jobs), cancel).front();
}

} // namespace cp::remote
