#include "aws_cli.h"

#include "http_fetch.h"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace cp::catalog::refresh {
namespace {

namespace fs = std::filesystem;

// 30 days: the window the planner's spot statistic uses by default (spot_price_stats.h).
constexpr int kHistoryDays = 30;
// The CLI's output for ~50 types x a few zones x 30 days is a few MB; 64 MiB bounds it.
constexpr std::uintmax_t kMaxOutputBytes = 64ull << 20;

std::string find_on_path(const std::string& program) {
    if (program.find('/') != std::string::npos)
        return access(program.c_str(), X_OK) == 0 ? program : "";
    const char* path = std::getenv("PATH");
    if (!path) return {};
    std::string p = path;
    std::size_t start = 0;
    while (start <= p.size()) {
        const std::size_t end = p.find(':', start);
        const std::string dir =
            p.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (!dir.empty()) {
            std::string candidate = dir + "/" + program;
            if (access(candidate.c_str(), X_OK) == 0) return candidate;
        }
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return {};
}

std::string utc_days_ago(int days) {
    const std::time_t t = std::time(nullptr) - static_cast<std::time_t>(days) * 86400;
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace

bool aws_cli_configured(const std::string& program) {
    if (find_on_path(program).empty()) return false;
    for (const char* v : {"AWS_ACCESS_KEY_ID", "AWS_PROFILE", "AWS_WEB_IDENTITY_TOKEN_FILE"})
        if (const char* s = std::getenv(v); s && *s) return true;
    const char* home = std::getenv("HOME");
    if (!home) return false;
    std::error_code ec;
    return fs::exists(fs::path(home) / ".aws" / "credentials", ec) ||
           fs::exists(fs::path(home) / ".aws" / "config", ec);
}

void run_spot_history(const std::string& program, const std::string& region,
                      const std::set<std::string>& types, const fs::path& out,
                      const std::atomic<bool>* cancel, long timeout_s) {
    const std::string exe = find_on_path(program);
    if (exe.empty())
        throw FetchError(FetchError::Kind::transfer,
                         "the AWS CLI ('" + program + "') is not on PATH");
    std::vector<std::string> args{exe,          "ec2",          "describe-spot-price-history",
                                  "--region",   region,         "--product-descriptions",
                                  "Linux/UNIX", "--start-time", utc_days_ago(kHistoryDays),
                                  "--output",   "json",         "--instance-types"};
    args.insert(args.end(), types.begin(), types.end());
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        throw FetchError(FetchError::Kind::transfer, "cannot start the AWS CLI (" + exe + ")");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
    int status = 0;
    for (;;) {
        const pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        std::error_code ec;
        const bool too_big = fs::file_size(out, ec) > kMaxOutputBytes;
        const bool stop =
            (cancel && cancel->load()) || std::chrono::steady_clock::now() > deadline || too_big;
        if (stop) {
            kill(pid, SIGTERM);
            waitpid(pid, &status, 0);
            if (too_big)
                throw FetchError(FetchError::Kind::too_large,
                                 "the AWS CLI printed more than 64 MiB for " + region);
            if (cancel && cancel->load())
                throw FetchError(FetchError::Kind::cancelled, "cancelled");
            throw FetchError(FetchError::Kind::timeout, "aws ec2 describe-spot-price-history for " +
                                                            region + ": timed out after " +
                                                            std::to_string(timeout_s) + " s");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw FetchError(FetchError::Kind::transfer,
                         "aws ec2 describe-spot-price-history for " + region +
                             " failed (exit status " +
                             std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                             "; check the AWS CLI's credentials and region)");
}

} // namespace cp::catalog::refresh
