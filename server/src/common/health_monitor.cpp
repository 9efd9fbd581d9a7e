#include "health_monitor.hpp"

#include <algorithm>
#include <iostream>

namespace senet::server {

namespace {

/// At most 160 printable ASCII characters of `reason` (it goes into a JSON answer and a log line).
std::string shortReason(const std::string& reason) {
    std::string out;
    for (char c : reason) {
        if (out.size() >= 160) break;
        out += (c >= 0x20 && c < 0x7f) ? c : ' ';
    }
    return out.empty() ? "unhealthy" : out;
}

}  // namespace

HealthMonitor::HealthMonitor(std::function<std::string()> probe, std::chrono::milliseconds interval,
                             std::chrono::milliseconds timeout, std::chrono::milliseconds retry)
    : probe_(std::move(probe)), interval_(interval), timeout_(timeout), retry_(std::min(retry, interval)) {
    checkOnce();
    thread_ = std::thread([this] { run(); });
}

HealthMonitor::~HealthMonitor() { stop(); }

void HealthMonitor::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

HealthMonitor::Status HealthMonitor::current() const {
    std::lock_guard lock(mutex_);
    if (running_ && Clock::now() - runningSince_ > timeout_)
        return {false, "storage check unfinished after " + std::to_string(timeout_.count()) + " ms"};
    return last_;
}

void HealthMonitor::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        if (wake_.wait_for(lock, last_.ok ? interval_ : retry_, [&] { return stopping_; })) break;
        lock.unlock();
        checkOnce();
        lock.lock();
    }
}

void HealthMonitor::checkOnce() {
    {
        std::lock_guard lock(mutex_);
        running_ = true;
        runningSince_ = Clock::now();
    }
    std::string reason;
    try {
        reason = probe_();
    } catch (const std::exception& e) {
        reason = e.what();
    } catch (...) {
        reason = "storage check failed";
    }
    Status now{reason.empty(), reason.empty() ? std::string() : shortReason(reason)};
    std::lock_guard lock(mutex_);
    running_ = false;
    if (now.ok != last_.ok) {
        if (now.ok) std::cerr << "senet-server: storage healthy again\n";
        else std::cerr << "senet-server: storage unhealthy: " << now.reason << "\n";
    }
    last_ = std::move(now);
}

}  // namespace senet::server
