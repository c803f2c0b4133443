// The probe's size schedule, iteration counts, conventions, statistics, result assembly,
// output framing and host facts, all without a GPU.
#include "clusterplan/probe/host_facts.h"
#include "clusterplan/probe/options.h"
#include "clusterplan/probe/report.h"
#include "clusterplan/probe/schedule.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

using namespace cp::probe;

TEST_CASE("NCCL sizes are whole floats divisible across ranks", "[probes][schedule]") {
    const auto s = nccl_sizes(1024, 1 << 20, false, 16);
    REQUIRE(s.size() == 11);
    for (std::size_t b : s)
        CHECK(b % (4 * 16) == 0);
    CHECK(s.front() == 1024);
    CHECK(s.back() == std::size_t{1} << 20);
    // 24 ranks: 1 KiB rounds down to 960 bytes (10 floats per rank).
    CHECK(nccl_sizes(1024, 4096, false, 24).front() == 960);
    // Quick runs step by 8x; nothing below one float per rank.
    CHECK(nccl_sizes(1024, 1 << 20, true, 8) ==
          std::vector<std::size_t>{1024, 8192, 65536, 524288});
    CHECK(nccl_sizes(8, 32, false, 16).empty());
    CHECK(nccl_sizes(8, 64, false, 16) == std::vector<std::size_t>{64});
    // Send + receive buffers plus NCCL's share must fit: 80 GB free caps 1 GiB at 1 GiB, 2 GB at
    // 512 MiB.
    CHECK(nccl_max_bytes(1 << 30, 1024, 80e9) == 1 << 30);
    CHECK(nccl_max_bytes(1 << 30, 1024, 2e9) == 1 << 29);
    CHECK(nccl_max_bytes(1 << 30, 1024, 0) == 1024);
}

TEST_CASE("bus bandwidth factors follow nccl-tests", "[probes][schedule]") {
    CHECK(busbw_factor("all_reduce", 8) == 1.75);
    CHECK(busbw_factor("all_gather", 8) == 0.875);
    CHECK(busbw_factor("reduce_scatter", 16) == 0.9375);
    CHECK(busbw_factor("broadcast", 8) == 1.0);
    CHECK(busbw_factor("sendrecv", 8) == 1.0);
    CHECK(probe_collectives().size() == 5);
}

TEST_CASE("GEMM counts follow mamf-finder and quick runs lower them", "[probes][schedule]") {
    const Iterations it = plan_iterations(20, false);
    CHECK(it.gemm_warmup >= 50);
    CHECK(it.gemm_timed >= 100);
    CHECK(it.nccl_timed == 20);
    const Iterations q = plan_iterations(20, true);
    CHECK(q.gemm_timed < it.gemm_timed);
    CHECK(q.nccl_timed == 5);
}

TEST_CASE("sample statistics", "[probes][schedule]") {
    const SampleStats s = sample_stats({3e-3, 1e-3, 2e-3, 10e-3});
    CHECK(s.count == 4);
    CHECK(s.min_s == 1e-3);
    CHECK(s.max_s == 10e-3);
    CHECK_REL(s.median_s, 2.5e-3, 1e-12);
    CHECK_REL(s.mean_s, 4e-3, 1e-12);
    CHECK(sample_stats({}).count == 0);
    CHECK(sample_stats({7.0}).median_s == 7.0);
}

TEST_CASE("memory bandwidth arrays must dwarf L2 and come in sizes a factor 4 apart",
          "[probes][schedule]") {
    using Sizes = std::vector<std::size_t>;
    constexpr std::size_t kMiB = std::size_t{1} << 20;
    // H100: 50 MiB L2, 80 GB free -> 1 and 4 GiB arrays (256 MiB would be 5x L2).
    CHECK(membw_array_sizes(80e9, 50.0 * kMiB) == Sizes{1024 * kMiB, 4096 * kMiB});
    // A10G: 6 MiB L2, 22 GB free -> 256 MiB, 1 GiB and 4 GiB.
    CHECK(membw_array_sizes(22e9, 6.0 * kMiB) == Sizes{256 * kMiB, 1024 * kMiB, 4096 * kMiB});
    // T4: 15 GB free holds three 2 GiB arrays, not three of 4 GiB.
    CHECK(membw_array_sizes(15e9, 4.0 * kMiB).back() == 2048 * kMiB);
    // 1.5 GB free -> 256 MiB arrays, only 5x a 50 MiB L2: refused.
    CHECK_THROWS_WITH(membw_array_sizes(1.5e9, 50.0 * kMiB), Catch::Matchers::Contains("L2"));
    CHECK(membw_array_sizes(1.5e9, 4.0 * kMiB) == Sizes{64 * kMiB, 256 * kMiB});
}

TEST_CASE("a failed section is kept with its errors and sets the exit status", "[probes][report]") {
    RunReport r;
    r.ran("info");
    r.ran("gemm");
    CHECK(r.status() == "ok");
    CHECK(r.exit_code() == kExitOk);
    r.fail("nccl", "ncclCommInitRank: unhandled system error");
    r.skip("p2p", "fewer than two GPUs");
    CHECK(r.status() == "partial");
    CHECK(r.exit_code() == kExitSectionFailed);
    REQUIRE(r.errors().size() == 1);
    CHECK(r.errors()[0] == "nccl: ncclCommInitRank: unhandled system error");
    JsonWriter w;
    w.begin_object();
    r.write(w);
    w.end_object();
    CHECK_THAT(
        w.str(),
        Catch::Matchers::Contains(R"("status":"partial")") &&
            Catch::Matchers::Contains(
                R"({"name":"nccl","status":"failed","errors":["ncclCommInitRank: unhandled system error"]})") &&
            Catch::Matchers::Contains(R"("note":"fewer than two GPUs")"));
    RunReport all_failed;
    all_failed.fail("gemm", "x");
    CHECK(all_failed.status() == "failed");
}

TEST_CASE("documents are found by their marker lines among banners and NCCL output",
          "[probes][report]") {
    const std::string doc = R"({"schema":"clusterplan.probe/1","note":"{not a brace problem}"})";
    const std::string out =
        "Welcome to Ubuntu {banner with braces}\n"
        "ip-10-0-0-1:123:456 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n" +
        framed_document(doc) + "{\"trailing\": true}\n";
    const MarkedDocuments m = extract_marked_documents(out);
    REQUIRE(m.documents.size() == 1);
    CHECK(m.documents[0] == doc);
    CHECK_FALSE(m.truncated);
    // Two ranks' documents, CRLF line ends (a pty), and a cut-off third.
    const std::string two = framed_document("{\"a\":1}") + framed_document("{\"b\":2}") +
                            std::string(kDocumentBegin) + "\n{\"c\":";
    const MarkedDocuments t = extract_marked_documents(two);
    CHECK(t.documents.size() == 2);
    CHECK(t.truncated);
    // A marker inside a line is not a marker.
    CHECK(extract_marked_documents("echo " + std::string(kDocumentBegin) + "\n{}\n")
              .documents.empty());
}

TEST_CASE("the NCCL transport comes from NCCL's own init log", "[probes][host]") {
    const NcclTransport efa =
        parse_nccl_transport("node:1:1 [0] NCCL INFO NET/OFI Initializing aws-ofi-nccl 1.13.2\n"
                             "node:1:1 [0] NCCL INFO NET/OFI Selected provider is efa, fabric is "
                             "efa-direct (found 32 nics)\n"
                             "node:1:1 [0] NCCL INFO Using network Libfabric\n");
    CHECK(efa.kind == "efa");
    CHECK(efa.provider == "efa");
    CHECK(efa.network == "Libfabric");
    const NcclTransport old =
        parse_nccl_transport("x NCCL INFO NET/OFI Selected Provider is efa (found 4 nics)\n"
                             "x NCCL INFO Using network AWS Libfabric\n");
    CHECK(old.kind == "efa");
    CHECK(old.network == "AWS Libfabric");
    const NcclTransport sock =
        parse_nccl_transport("x NCCL INFO NET/Plugin: Could not find: libnccl-net.so\n"
                             "x NCCL INFO NET/Socket : Using [0]ens5:10.0.0.5<0>\n"
                             "x NCCL INFO Using network Socket\n");
    CHECK(sock.kind == "socket");
    CHECK(parse_nccl_transport("x NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.1.0.1<0>\nx "
                               "NCCL INFO Using network IB\n")
              .kind == "ib");
    CHECK(parse_nccl_transport("x NCCL INFO NET/OFI Selected provider is tcp\n").kind == "socket");
    CHECK(parse_nccl_transport("").kind.empty());
}

TEST_CASE("the driver version is read from both kernel modules' version lines", "[probes][host]") {
    CHECK(parse_nvidia_driver_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  "
                                      "Sun Jul 27 07:09:14 UTC 2025") == "580.65.06");
    // The open module says "for x86_64" first (an H200 host, 2026-11-27).
    CHECK(parse_nvidia_driver_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
                                      "580.159.04  Release Build  (dvs-builder@U16-I2-C03)") ==
          "580.159.04");
    CHECK(parse_nvidia_driver_version("") == "");
    CHECK(parse_nvidia_driver_version("NVRM version: NVIDIA UNIX Kernel Module for x86_64") == "");
}

TEST_CASE("DMI names the instance type and --instance is checked against it", "[probes][host]") {
    const auto dir =
        std::filesystem::temp_directory_path() / ("cp-dmi-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "sys_vendor") << "Amazon EC2\n";
    std::ofstream(dir / "product_name") << "p4d.24xlarge\n";
    const DmiIdentity dmi = read_dmi(dir.string());
    CHECK(dmi.product_name == "p4d.24xlarge");
    CHECK(dmi_instance_type(dmi) == "p4d.24xlarge");
    CHECK_FALSE(check_instance(dmi, "p4d.24xlarge").has_value());
    const auto wrong = check_instance(dmi, "p4de.24xlarge");
    REQUIRE(wrong.has_value());
    CHECK_THAT(*wrong, Catch::Matchers::Contains("this host is a p4d.24xlarge"));
    // Not EC2: nothing to check against, said so.
    std::string note;
    CHECK_FALSE(
        check_instance({"Dell Inc.", "PowerEdge XE9680"}, "p5.48xlarge", &note).has_value());
    CHECK_THAT(note, Catch::Matchers::Contains("cannot be checked"));
    CHECK(read_dmi("/nonexistent").product_name.empty());
    std::filesystem::remove_all(dir);
}

TEST_CASE("probe options: values are bounded, typos are usage errors", "[probes][options]") {
    const Options o = parse_options(
        {"all", "--gpus", "4", "--iters", "50", "--graphs", "--instance", "p5.48xlarge"});
    CHECK(o.gpus == 4);
    CHECK(o.iterations == 50);
    CHECK(o.graphs);
    CHECK(o.instance == "p5.48xlarge");
    CHECK_THROWS_AS(parse_options({"bogus"}), UsageError);
    CHECK_THROWS_AS(parse_options({"all", "--gpus", "many"}), UsageError);
    CHECK_THROWS_AS(parse_options({"all", "--gpus", "0"}), UsageError);
    CHECK_THROWS_AS(parse_options({"all", "--iters"}), UsageError);
    CHECK_THROWS_AS(parse_options({"all", "--max-bytes", "1e30"}), UsageError);
    CHECK_THROWS_AS(parse_options({"all", "--visible-gpus", "8"}), UsageError); // dry runs only
    CHECK_THROWS_AS(parse_options({}), UsageError);
}

TEST_CASE("NCCL's init log goes to a file of the probe's unless the user chose one",
          "[probes][host]") {
    std::map<std::string, std::string> vars;
    const EnvLookup env = [&vars](const char* n) -> const char* {
        auto it = vars.find(n);
        return it == vars.end() ? nullptr : it->second.c_str();
    };
    NcclLogSetup s = plan_nccl_log(env, "node-a", 42, "/tmp");
    CHECK(s.owned);
    CHECK(s.path == "/tmp/clusterplan-probe-nccl.node-a.42.log");
    CHECK(std::find(s.set.begin(), s.set.end(),
                    std::pair<std::string, std::string>{"NCCL_DEBUG", "INFO"}) != s.set.end());
    vars["NCCL_DEBUG_FILE"] = "/var/log/nccl.%h.%p";
    s = plan_nccl_log(env, "node-a", 42, "/tmp");
    CHECK_FALSE(s.owned);
    CHECK(s.set.empty());
    CHECK(s.path == "/var/log/nccl.node-a.42");
    CHECK(expand_nccl_debug_file("x%%h%q", "h", 1) == "x%h%q");
}
