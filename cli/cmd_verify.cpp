// `senet verify`: see server/PROTOCOL.md.
#include "cli.hpp"

namespace senet::cli {
int cmdVerify(Args) { return error("verify is not available in this build"); }
}  // namespace senet::cli
