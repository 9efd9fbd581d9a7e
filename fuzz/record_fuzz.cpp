// Fuzz target: game records as JSON (engine/include/senet/record.hpp, format in engine/README.md).
// Whatever the text, parseRecord answers a Record or an Error and never throws. A record it
// accepts replays, and writing it out again gives a record that parses to the same JSON
// (recordToJson ∘ parseRecord is stable).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "check.hpp"
#include "senet/record.hpp"

using namespace senet;
using senet::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto record = parseRecord(text);
    const auto game = replayJson(text);
    check(record.ok() == game.ok(), "parseRecord and replayJson disagree", text);
    if (!record) {
        check(!record.error().message.empty(), "a rejected record without a reason", text);
        check(record.error().ply >= 0, "an error with a negative ply", text);
        return 0;
    }
    const auto replayed = replay(*record);
    check(replayed.ok(), "an accepted record does not replay", text);
    const std::string written = recordToJson(*record, replayed->outcome());
    senet::fuzz::parseJson(written, "written record");
    const auto again = parseRecord(written);
    check(again.ok(), "a written record does not parse: " + (again.ok() ? "" : again.error().message), written);
    const auto game2 = replay(*again);
    check(game2.ok() && game2->position() == replayed->position() && game2->outcome() == replayed->outcome(),
          "a written record replays to another game", written);
    check(recordToJson(*again, game2->outcome()) == written, "recordToJson is not stable", written);
    return 0;
}
