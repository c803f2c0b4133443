// `info`: host (with its DMI identity), driver and library versions, the launch layout, GPUs,
// the P2P access matrix and visible NICs.
#include "clusterplan/probe/host_facts.h"
#include "common.h"

#include <algorithm>
#include <cctype>
#include <cublasLt.h>
#include <dirent.h>
#include <fstream>
#include <gnu/libc-version.h>
#include <nccl.h>
#include <sstream>
#include <sys/utsname.h>
#include <unistd.h>

namespace cp::probe {
namespace {

std::string read_first_line(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

std::string driver_version() {
    return parse_nvidia_driver_version(read_first_line("/proc/driver/nvidia/version"));
}

std::string cuda_version_string(int v) {
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

std::vector<std::string> list_dir(const std::string& path) {
    std::vector<std::string> out;
    if (DIR* d = opendir(path.c_str())) {
        while (dirent* e = readdir(d))
            if (e->d_name[0] != '.') out.push_back(e->d_name);
        closedir(d);
    }
    std::sort(out.begin(), out.end());
    return out;
}

int device_attr(cudaDeviceAttr attr, int dev) {
    int v = 0;
    return cudaDeviceGetAttribute(&v, attr, dev) == cudaSuccess ? v : -1;
}

} // namespace

void write_info(JsonWriter& w, const Context& c, RunReport& report) {
    report.ran("info");
    const DmiIdentity dmi = read_dmi();
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    utsname un{};
    uname(&un);
    w.key("host")
        .begin_object()
        .field("hostname", std::string(host))
        .field("kernel", std::string(un.release))
        .field("arch", std::string(un.machine))
        .field("glibc", std::string(gnu_get_libc_version()))
        .field("sys_vendor", dmi.sys_vendor)
        .field("product_name", dmi.product_name)
        .field("instance_type", dmi_instance_type(dmi))
        .field("instance_requested", c.options.instance)
        .end_object();

    int drv = 0, rt = 0, nccl = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    ncclGetVersion(&nccl);
    const size_t cublas = cublasLtGetVersion();
    const std::string nccl_str = std::to_string(nccl / 10000) + "." +
                                 std::to_string((nccl / 100) % 100) + "." +
                                 std::to_string(nccl % 100);
    w.key("versions")
        .begin_object()
        .field("driver", driver_version())
        .field("cuda_driver", cuda_version_string(drv))
        .field("cuda_runtime", cuda_version_string(rt))
        .field("nccl", nccl_str)
        .field("cublaslt", std::to_string(cublas))
        .end_object();

    const LaunchInfo& l = c.plan.launch;
    w.key("launch")
        .begin_object()
        .field("rank", l.rank)
        .field("world_size", l.world_size)
        .field("local_rank", l.local_rank)
        .field("local_size", l.local_size)
        .field("hosts", l.hosts)
        .field("launcher", l.launcher)
        .field("binding", c.plan.devices.binding)
        .end_object();

    w.key("gpus").begin_array();
    for (int dev : c.devices()) {
        cudaDeviceProp p{};
        CP_CUDA(cudaGetDeviceProperties(&p, dev));
        char bus[32] = {};
        cudaDeviceGetPCIBusId(bus, sizeof bus, dev);
        std::string bus_lower = bus;
        for (auto& ch : bus_lower)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        const std::string numa =
            read_first_line("/sys/bus/pci/devices/" + bus_lower + "/numa_node");
        char uuid[64] = {};
        const unsigned char* u = reinterpret_cast<const unsigned char*>(p.uuid.bytes);
        std::snprintf(uuid, sizeof uuid,
                      "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                      u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
                      u[12], u[13], u[14], u[15]);
        w.begin_object()
            .field("index", dev)
            .field("name", std::string(p.name))
            .field("uuid", std::string(uuid))
            .field("compute_capability", std::to_string(p.major) + "." + std::to_string(p.minor))
            .field("sm_count", p.multiProcessorCount)
            .field("sm_clock_mhz", device_attr(cudaDevAttrClockRate, dev) / 1000)
            .field("memory_clock_mhz", device_attr(cudaDevAttrMemoryClockRate, dev) / 1000)
            .field("memory_bus_bits", device_attr(cudaDevAttrGlobalMemoryBusWidth, dev))
            .field("l2_bytes", p.l2CacheSize)
            .field("memory_bytes", static_cast<unsigned long long>(p.totalGlobalMem))
            .field("pci_bus_id", std::string(bus))
            .key("numa_node");
        if (numa.empty())
            w.null();
        else
            w.value(std::atoi(numa.c_str()));
        w.end_object();
    }
    w.end_array();

    w.key("p2p_access").begin_array();
    for (int a : c.devices()) {
        w.begin_array();
        for (int b : c.devices()) {
            int can = 0;
            if (a != b) cudaDeviceCanAccessPeer(&can, a, b);
            w.value(can != 0);
        }
        w.end_array();
    }
    w.end_array();

    w.key("nics").begin_array();
    for (const auto& name : list_dir("/sys/class/net")) {
        if (name == "lo") continue;
        const std::string speed = read_first_line("/sys/class/net/" + name + "/speed");
        w.begin_object()
            .field("name", name)
            .field("kind", std::string("ethernet"))
            .key("speed_mbps");
        if (speed.empty() || speed[0] == '-')
            w.null();
        else
            w.value(std::atoi(speed.c_str()));
        w.end_object();
    }
    for (const auto& name : list_dir("/sys/class/infiniband")) {
        // "200 Gb/sec (4X HDR)" on port 1.
        const std::string rate = read_first_line("/sys/class/infiniband/" + name + "/ports/1/rate");
        w.begin_object()
            .field("name", name)
            .field("kind", std::string("infiniband"))
            .key("speed_mbps");
        if (rate.empty())
            w.null();
        else
            w.value(std::atoi(rate.c_str()) * 1000);
        w.end_object();
    }
    w.end_array();
}

} // namespace cp::probe
