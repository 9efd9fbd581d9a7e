// `senet arena`: see engine/ai/README.md.
#include "cli.hpp"

namespace senet::cli {
int cmdArena(Args) { return error("arena is not available in this build"); }
}  // namespace senet::cli
