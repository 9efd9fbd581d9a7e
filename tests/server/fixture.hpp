// A fresh server per test: temporary data dir and web root, the real process.
#pragma once

#include <gtest/gtest.h>

#include "harness.hpp"

namespace senet::testing {

class ServerTest : public ::testing::Test {
protected:
    /// Extra server flags for this test suite.
    virtual std::vector<std::string> flags() const { return {}; }
    void SetUp() override {
        web_ = makeWebRoot(dir_.path());
        server_ = std::make_unique<ServerProcess>(dir_.path() / "data", web_, flags());
    }
    /// Restarts the server on the same data directory (after it was stopped).
    void restart(std::vector<std::string> extra = {}) {
        server_.reset();
        auto f = flags();
        f.insert(f.end(), extra.begin(), extra.end());
        server_ = std::make_unique<ServerProcess>(dir_.path() / "data", web_, f);
    }
    unsigned short port() const { return server_->port(); }

    TempDir dir_;
    std::filesystem::path web_;
    std::unique_ptr<ServerProcess> server_;
};

}  // namespace senet::testing
