// A room whose game moved to another instance (server/README.md "Several instances"): its lease
// was lost, so it closes its connections with the "moved" code and leaves this instance.
#include "log_limit.hpp"
#include "metrics.hpp"
#include "room.hpp"

namespace senet::server {

void Room::evict() {
    Guard lock(*this);
    evictLocked();
}

bool Room::moved() const {
    Guard lock(*this);
    return moved_;
}

void Room::evictLocked() {
    if (moved_) return;
    moved_ = true;
    // Released by Guard after unlocking.
    services_.metrics.movedCloses.fetch_add(audience_.closeAll(kMovedCloseCode, "moved"), std::memory_order_relaxed);
}

void Room::onLeaseLost(std::string_view what, const std::exception& e) {
    logLimited("lease", "game " + row_.id + ": " + std::string(what) + " not written, another instance holds the game: " + e.what());
    evictLocked();
    if (services_.leaseLost) services_.leaseLost(row_.id, this);
}

}  // namespace senet::server
