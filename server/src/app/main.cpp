// senet-server: HTTP pages, the JSON API and WebSocket play on one port. server/README.md.
#include <iostream>

#include "config_flags.hpp"
#include "server_app.hpp"
#include "storage.hpp"

using namespace senet::server;

int main(int argc, char** argv) {
    std::string error;
    bool help = false;
    auto config = parseConfig(argc, argv, error, help);
    if (!config) {
        (help ? std::cout : std::cerr) << (help ? "" : "senet-server: ") << error << (help ? "" : "\n");
        return help ? kStopped : kUsage;
    }
    if (config->testSeed) std::cerr << "senet-server: WARNING: --test-seed: every game uses the same server seed (tests only)\n";
    try {
        runServer(*config);
    } catch (const InstanceNameInUse& e) {
        std::cerr << "senet-server: " << e.what() << '\n';
        return kInstanceInUse;
    } catch (const UsageError& e) {
        std::cerr << "senet-server: " << e.what() << '\n';
        return kUsage;
    } catch (const std::exception& e) {
        std::cerr << "senet-server: " << e.what() << '\n';
        return kError;
    }
    return kStopped;
}
