// The lobby's pairing under load (bench/README.md "lobby_bench"): 1,000 seekers arriving at
// random over 10 s (a Poisson process, rulesets drawn among the five and "any"), each on its
// own lobby connection, the lobby over a Registry on real SQLite (every pairing stores a game
// and its second seat, as on the server). Prints the time from a seek to its `paired` frame
// for the seeker that completes a pair (the server's part) and for the one that waited (which
// the arrivals decide), p50/p99/max, and the memory one open seek holds (malloc'd bytes with
// 1,000 open seeks minus without, per seek).
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "config.hpp"
#include "lobby.hpp"
#include "manual_scheduler.hpp"
#include "metrics.hpp"
#include "storage.hpp"

using namespace senet::server;
using Steady = std::chrono::steady_clock;

namespace {

/// A lobby connection that notes when its `paired` frame came.
struct TimedPeer : Peer {
    std::mutex mutex;
    Steady::time_point pairedAt{};
    void send(std::shared_ptr<const std::string> frame) override {
        if (frame->starts_with("{\"t\":\"paired\"")) {
            std::lock_guard lock(mutex);
            pairedAt = Steady::now();
        }
    }
};

double ms(Steady::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

void report(const char* what, std::vector<double> v) {
    if (v.empty()) return void(std::printf("%-34s none\n", what));
    std::sort(v.begin(), v.end());
    auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))]; };
    std::printf("%-34s n=%zu  p50 %.3f ms  p99 %.3f ms  max %.3f ms\n", what, v.size(), at(0.5), at(0.99), v.back());
}

std::size_t heapBytes() { return mallinfo2().uordblks; }

}  // namespace

int main(int argc, char** argv) {
    int seekers = 1000;
    double seconds = 10;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--seekers") seekers = std::stoi(argv[i + 1]);
        else if (flag == "--seconds") seconds = std::stod(argv[i + 1]);
    }
    const auto dir = std::filesystem::temp_directory_path() / ("lobby-bench-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    auto storage = openSqliteStorage((dir / "senet.sqlite3").string(), false);
    Metrics metrics;
    ManualScheduler scheduler;
    Config config;
    Registry registry(*storage, metrics, scheduler, config);
    lobby::Options options;
    options.selfTick = false;
    options.seeksPerAddress = seekers;
    auto theLobby = std::make_shared<lobby::Lobby>(registry, scheduler, steadyClock(), options);

    // Memory per open seek: 1,000 connections without a seek, then each with one (one browser
    // token, so that none pairs).
    {
        std::vector<std::shared_ptr<SocketTarget>> targets;
        std::vector<std::shared_ptr<TimedPeer>> peers;
        for (int i = 0; i < 1000; ++i) {
            targets.push_back(theLobby->connect("192.0.2.1"));
            peers.push_back(std::make_shared<TimedPeer>());
            targets.back()->attach(peers.back().get(), peers.back());
        }
        const std::size_t before = heapBytes();
        for (int i = 0; i < 1000; ++i)
            targets[i]->receive(peers[i].get(), R"({"t":"seek","d":{"ruleset":"standard","browser":"one-browser"}})", Steady::now());
        const std::size_t after = heapBytes();
        std::printf("memory per open seek: %.0f bytes (%zu open seeks)\n", static_cast<double>(after - before) / 1000.0,
                    theLobby->stats().openSeeks);
        for (int i = 0; i < 1000; ++i) targets[i]->detach(peers[i].get());
    }

    std::mt19937_64 rng(29);
    std::exponential_distribution<double> gap(static_cast<double>(seekers) / seconds);
    static const char* kRulesets[] = {"standard", "jequier", "bell", "kendall", "piccione", "any"};
    std::vector<std::shared_ptr<SocketTarget>> targets(seekers);
    std::vector<std::shared_ptr<TimedPeer>> peers(seekers);
    std::vector<Steady::time_point> seekAt(seekers);
    std::vector<bool> completes(seekers);  ///< paired within its own seek (it completed a pair)
    const auto start = Steady::now();
    auto next = start;
    for (int i = 0; i < seekers; ++i) {
        next += std::chrono::duration_cast<Steady::duration>(std::chrono::duration<double>(gap(rng)));
        std::this_thread::sleep_until(next);
        targets[i] = theLobby->connect("198.51.100." + std::to_string(i % 250));
        peers[i] = std::make_shared<TimedPeer>();
        targets[i]->attach(peers[i].get(), peers[i]);
        const std::string frame = std::string(R"({"t":"seek","d":{"ruleset":")") + kRulesets[rng() % 6] + R"(","browser":"b)" +
                                  std::to_string(i) + R"("}})";
        seekAt[i] = Steady::now();
        targets[i]->receive(peers[i].get(), frame, seekAt[i]);
        std::lock_guard lock(peers[i]->mutex);
        completes[i] = peers[i]->pairedAt != Steady::time_point{};
    }
    const double took = std::chrono::duration<double>(Steady::now() - start).count();
    std::vector<double> completing, waited;
    int unpaired = 0;
    for (int i = 0; i < seekers; ++i) {
        std::lock_guard lock(peers[i]->mutex);
        if (peers[i]->pairedAt == Steady::time_point{}) {
            ++unpaired;
            continue;
        }
        const double t = ms(peers[i]->pairedAt - seekAt[i]);
        (completes[i] ? completing : waited).push_back(t);
    }
    std::printf("%d seekers over %.1f s, %llu games, %d still waiting at the end\n", seekers, took,
                static_cast<unsigned long long>(theLobby->stats().paired), unpaired);
    report("time to pairing, all seekers:", [&] {
        std::vector<double> all = completing;
        all.insert(all.end(), waited.begin(), waited.end());
        return all;
    }());
    report("  the seeker completing a pair:", completing);
    report("  the seeker that waited:", waited);
    for (int i = 0; i < seekers; ++i) targets[i]->detach(peers[i].get());
    std::filesystem::remove_all(dir);
    return 0;
}
