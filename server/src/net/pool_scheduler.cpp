#include "pool_scheduler.hpp"

namespace senet::server {

void PoolScheduler::after(std::chrono::milliseconds delay, std::function<void()> fn) {
    pending_.fetch_add(1);
    auto run = [this, fn = std::move(fn)] {
        pending_.fetch_sub(1);
        fn();
    };
    if (delay.count() <= 0) {
        net::post(pool_, std::move(run));
        return;
    }
    auto timer = std::make_shared<net::steady_timer>(pool_.get_executor(), delay);
    timer->async_wait([this, timer, run = std::move(run)](beast::error_code ec) mutable {
        if (ec) {
            pending_.fetch_sub(1);
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
