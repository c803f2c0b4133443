// Child processes started with fork/execvp from an argv vector (never a shell command line),
// run concurrently with their output streamed back line by line, cancellable.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cp::remote {

struct ProcessJob {
    std::vector<std::string> argv; // argv[0] is looked up on PATH
    std::string stdin_data;        // written to the child's stdin, then closed
    std::function<void(const std::string&)> on_stderr_line; // progress lines as they come
    std::chrono::seconds timeout{0};                        // 0 = no limit
    // Set (or replaced) in the child's environment, the rest inherited: how launchers such as
    // mpirun -x NAME and srun --export=ALL receive the NCCL/libfabric variables.
    std::vector<std::pair<std::string, std::string>> env;
    // Most bytes kept of each of stdout and stderr: a remote that streams without end is stopped
    // (as on timeout) instead of filling memory. 64 MiB: a probe document of a 1,000-rank run is
    // a few MB (the same bound as any input file, sim/io/input_file.h).
    std::size_t max_output_bytes = std::size_t{64} << 20;
};

struct ProcessResult {
    int exit_code = -1; // 127: could not be started; 128+N: killed by signal N
    bool timed_out = false;
    bool cancelled = false;
    bool output_overflow = false; // stopped for printing more than max_output_bytes
    std::string out;
    std::string err; // complete stderr (also streamed)
};

// Runs all jobs at once and waits for all of them. When `cancel` becomes true, or a job
// exceeds its timeout or its output bound, its process group is sent SIGTERM, then SIGKILL
// after 2 s.
std::vector<ProcessResult> run_processes(std::vector<ProcessJob> jobs,
                                         const std::atomic<bool>* cancel = nullptr);

// Convenience for one job.
ProcessResult run_process(ProcessJob job, const std::atomic<bool>* cancel = nullptr);

} // namespace cp::remote
