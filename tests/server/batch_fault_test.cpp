// A fault in a group commit (FaultyStorage::appendBatch over real SQLite, through the
// CommitQueue and the rooms): the whole batch fails like a failed COMMIT — every game in it
// gets `storage`, none moves on, nothing is stored — and the next batch, without the fault,
// goes through the inner store's own appendBatch.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "commit_queue.hpp"
#include "memory_storage.hpp"
#include "room_support.hpp"
#include "wait_support.hpp"

namespace senet::testing {
namespace {

using namespace std::chrono_literals;

std::int64_t plyOf(Client& c) { return c.state().value("ply", std::int64_t{-1}); }

TEST(BatchFault, AFailedGroupCommitFailsEveryGameInItAndStoresNothing) {
    const auto dir = std::filesystem::temp_directory_path() / ("senet-batch-fault-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    {
        auto sqlite = openSqliteStorage((dir / "games.db").string(), false);
        FaultyStorage faulty(*sqlite);
        Metrics metrics;
        ManualScheduler scheduler;
        Config config;
        CommitQueue queue(faulty);
        Registry registry(faulty, metrics, scheduler, config);
        registry.setCommitQueue(&queue);
        std::vector<std::string> ids;
        std::vector<std::unique_ptr<Client>> clients;
        for (int g = 0; g < 2; ++g) {
            CreateRequest req;
            req.opponent = Opponent::Local;
            const Created c = registry.create(req);
            ids.push_back(c.id);
            clients.push_back(std::make_unique<Client>(registry.find(c.id).room));
            clients.back()->hello(c.secret, "seed" + std::to_string(g));
        }
        // Only group commits fail: the games' other writes (hello's seeds) went through.
        faulty.setFault([](WriteKind kind, std::int64_t) { return kind == WriteKind::Batch; });
        for (auto& c : clients) c->send("throw", {{"ply", 0}});
        for (std::size_t g = 0; g < clients.size(); ++g) {
            ASSERT_TRUE(eventually([&] { return clients[g]->hasNewError(); })) << "game " << g << " got no error";
            EXPECT_EQ(clients[g]->waitForError("storage").value("code", ""), "storage");
            EXPECT_EQ(plyOf(*clients[g]), 0) << "game " << g << " moved on";
            EXPECT_TRUE(sqlite->loadActions(ids[g]).empty()) << "game " << g << ": a throw of the failed batch was stored";
        }
        faulty.setFault({});
        for (auto& c : clients) c->send("throw", {{"ply", 0}});
        for (std::size_t g = 0; g < clients.size(); ++g) {
            ASSERT_TRUE(eventually([&] { return plyOf(*clients[g]) == 1; })) << "game " << g;
            EXPECT_FALSE(clients[g]->hasNewError());
            ASSERT_EQ(sqlite->loadActions(ids[g]).size(), 1u);
        }
        queue.stop();
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace senet::testing
