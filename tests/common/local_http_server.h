// A tiny HTTP/1.0 file server for refresh tests, bound to 127.0.0.1 only (an ephemeral port).
// It serves files from one directory by path and can misbehave on purpose: drop the connection
// half-way through a body, or stall after the headers until stopped.
#pragma once

#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <netinet/in.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace cp::test {

class LocalHttpServer {
public:
    enum class Mode { normal, cut_body, stall };

    explicit LocalHttpServer(std::filesystem::path root) : root_(std::move(root)) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = 0;
        ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
        socklen_t len = sizeof addr;
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
        port_ = ntohs(addr.sin_port);
        ::listen(fd_, 16);
        thread_ = std::thread([this] { loop(); });
    }
    ~LocalHttpServer() {
        stop_ = true;
        ::shutdown(fd_, SHUT_RDWR);
        ::close(fd_);
        thread_.join();
    }
    LocalHttpServer(const LocalHttpServer&) = delete;
    LocalHttpServer& operator=(const LocalHttpServer&) = delete;

    std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }
    // Misbehave only for paths containing `match` (others are served normally).
    void set_mode(Mode mode, std::string match = "") {
        mode_ = mode;
        match_ = std::move(match);
    }
    int requests() const { return requests_.load(); }

private:
    void loop() {
        while (!stop_) {
            const int client = ::accept(fd_, nullptr, nullptr);
            if (client < 0) return;
            serve(client);
            ::close(client);
        }
    }
    void send_all(int client, const std::string& data) {
        std::size_t sent = 0;
        while (sent < data.size()) {
            const ssize_t n = ::send(client, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
            if (n <= 0) return;
            sent += static_cast<std::size_t>(n);
        }
    }
    void serve(int client) {
        ++requests_;
        std::string request;
        char buf[4096];
        while (request.find("\r\n\r\n") == std::string::npos) {
            const ssize_t n = ::recv(client, buf, sizeof buf, 0);
            if (n <= 0) return;
            request.append(buf, static_cast<std::size_t>(n));
        }
        std::istringstream line(request.substr(0, request.find("\r\n")));
        std::string method, path;
        line >> method >> path;
        const std::filesystem::path file = root_ / path.substr(1);
        std::ifstream in(file, std::ios::binary);
        if (path.find("..") != std::string::npos || !in) {
            send_all(client, "HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n");
            return;
        }
        const std::string body{std::istreambuf_iterator<char>(in),
                               std::istreambuf_iterator<char>()};
        const bool misbehave = mode_ != Mode::normal && path.find(match_) != std::string::npos;
        send_all(client,
                 "HTTP/1.0 200 OK\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n");
        if (!misbehave) {
            send_all(client, body);
            return;
        }
        send_all(client, body.substr(0, body.size() / 2));
        if (mode_ == Mode::stall)
            while (!stop_)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }

    std::filesystem::path root_;
    int fd_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::atomic<Mode> mode_{Mode::normal};
    std::string match_;
    std::atomic<int> requests_{0};
    std::thread thread_;
};

} // namespace cp::test
