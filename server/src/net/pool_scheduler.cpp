#include "pool_scheduler.hpp"

namespace senet::server {

void PoolScheduler::after(std::chrono::milliseconds delay, std::function<void()> fn) { schedule(delay, std::move(fn), true); }

void PoolScheduler::afterUncounted(std::chrono::milliseconds delay, std::function<void()> fn) {
    schedule(delay, std::move(fn), false);
}

void PoolScheduler::schedule(std::chrono::milliseconds delay, std::function<void()> fn, bool counted) {
    const int weight = counted ? 1 : 0;
    pending_.fetch_add(weight);
    auto run = [this, weight, fn = std::move(fn)] {
        pending_.fetch_sub(weight);
        fn();
    };
    if (delay.count() <= 0) {
        net::post(pool_, std::move(run));
        return;
    }
    auto timer = std::make_shared<net::steady_timer>(pool_.get_executor(), delay);
    timer->async_wait([this, weight, timer, run = std::move(run)](beast::error_code ec) mutable {
        if (ec) {
            pending_.fetch_sub(weight);
            return;
        }
        run();
    });
}

void PoolScheduler::stop() {
    pool_.stop();
    pool_.join();
}

}  // namespace senet::server
