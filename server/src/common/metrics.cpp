#include "metrics.hpp"

#include <cstdio>

namespace senet::server {

void Metrics::observeActionLatency(double seconds) {
    for (std::size_t i = 0; i < kBuckets.size(); ++i)
        if (seconds <= kBuckets[i]) {
            buckets_[i].fetch_add(1, std::memory_order_relaxed);
            break;
        }
    count_.fetch_add(1, std::memory_order_relaxed);
    sumMicros_.fetch_add(static_cast<std::uint64_t>(seconds * 1e6), std::memory_order_relaxed);
}

std::string Metrics::render() const {
    std::string out;
    char line[256];
    auto gauge = [&](const char* name, const char* help, const char* type, std::int64_t v) {
        out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n" + name + " " +
               std::to_string(v) + "\n";
    };
    gauge("senet_games_running", "Games in progress held in memory.", "gauge", gamesRunning.load());
    gauge("senet_rooms_loaded", "Games held in memory, finished or not.", "gauge", roomsLoaded.load());
    gauge("senet_games_created_total", "Games created since start.", "counter", gamesCreated.load());
    gauge("senet_open_sockets", "Open WebSocket connections.", "gauge", openSockets.load());
    gauge("senet_open_connections", "Open connections counted under --max-connections.", "gauge", openConnections.load());
    gauge("senet_http_requests_total", "HTTP requests answered.", "counter", httpRequests.load());
    gauge("senet_actions_total", "Throws and moves accepted.", "counter", actions.load());
    gauge("senet_rejected_messages_total", "Client messages refused with an error.", "counter", rejected.load());
    gauge("senet_lease_acquisitions_total", "Game leases taken to load a game into memory.", "counter", leaseAcquisitions.load());
    gauge("senet_lease_takeovers_total", "Games taken over after another instance's lease expired.", "counter",
          leaseTakeovers.load());
    gauge("senet_leases_lost_total", "Games dropped from memory because another instance took them over.", "counter",
          leasesLost.load());
    gauge("senet_lease_refusals_total", "Lookups answered 'retry' because another instance holds the game.", "counter",
          leaseRefusals.load());
    gauge("senet_moved_closes_total", "WebSockets closed with 4001 moved.", "counter", movedCloses.load());
    gauge("senet_pg_round_trips_total", "Statements sent to PostgreSQL and answered (0 with SQLite).", "counter",
          pgRoundTrips.load());
    {
        const auto calls = storageCalls.load(std::memory_order_relaxed);
        std::snprintf(line, sizeof line,
                      "# HELP senet_storage_call_seconds Time of the storage calls (PostgreSQL).\n"
                      "# TYPE senet_storage_call_seconds summary\n"
                      "senet_storage_call_seconds_sum %.6f\nsenet_storage_call_seconds_count %lld\n",
                      static_cast<double>(storageMicros.load(std::memory_order_relaxed)) / 1e6,
                      static_cast<long long>(calls));
        out += line;
    }
    out += "# HELP senet_action_latency_seconds Time from receiving an action to storing and broadcasting it.\n"
           "# TYPE senet_action_latency_seconds histogram\n";
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < kBuckets.size(); ++i) {
        cumulative += buckets_[i].load(std::memory_order_relaxed);
        std::snprintf(line, sizeof line, "senet_action_latency_seconds_bucket{le=\"%g\"} %llu\n", kBuckets[i],
                      static_cast<unsigned long long>(cumulative));
        out += line;
    }
    const auto count = count_.load();
    std::snprintf(line, sizeof line, "senet_action_latency_seconds_bucket{le=\"+Inf\"} %llu\n",
                  static_cast<unsigned long long>(count));
    out += line;
    std::snprintf(line, sizeof line, "senet_action_latency_seconds_sum %.6f\nsenet_action_latency_seconds_count %llu\n",
                  static_cast<double>(sumMicros_.load()) / 1e6, static_cast<unsigned long long>(count));
    out += line;
    return out;
}

}  // namespace senet::server
