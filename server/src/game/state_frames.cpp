#include "state_frames.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "json_text.hpp"
#include "protocol.hpp"
#include "senet/record.hpp"

namespace senet::server {

using nlohmann::json;

std::shared_ptr<const std::string> StateFrames::snapshot(unsigned seats, const StateFields& fields) {
    auto& cached = snapshots_[seats & 3u];
    if (cached) return cached;
    std::string text;
    writeStateJson(text, fields);
    // Its holder would miss a member that the next events frame leaves out as unchanged.
    if (text != sentState_) sendAllMembers_ = true;
    json s = json::parse(text);
    s["record"] = json::parse(recordToJson(fields.game.record(), fields.game.outcome()));
    json you = json::array();
    for (const int seat : {0, 1})
        if (seats & (1u << seat)) you.push_back(seat);
    s["you"] = std::move(you);
    cached = std::make_shared<const std::string>(protocol::envelope("snapshot", jsonText(s)));
    return cached;
}

std::shared_ptr<const std::string> StateFrames::events(const Events& events, std::int64_t ply, const StateFields& fields) {
    changed();
    // {"t":"events","d":{"events":[...],"ply":N,"state":{...}}}, written without a JSON tree.
    std::string text;
    text.reserve(frameSize_);
    text += R"({"t":"events","d":{"events":[)";
    text += events.text();
    text += R"(],"ply":)";
    jsonout::appendInt(text, ply);
    text += R"(,"state":)";
    // Only the members that changed since the last events frame (PROTOCOL.md "events"); every
    // synced connection holds that frame's state or a snapshot of the same state (else
    // sendAllMembers_ is set). A connection without a snapshot yet gets none: it has no state.
    spareState_.clear();
    StateMarks marks;
    writeStateJson(spareState_, fields, &marks);
    const std::string_view sent(sentState_);
    appendChangedMembers(text, spareState_, marks, sendAllMembers_ ? nullptr : &sent, sentMarks_);
    sentState_.swap(spareState_);
    sentMarks_ = marks;
    sendAllMembers_ = false;
    text += "}}";
    frameSize_ = std::max(frameSize_, text.size() + 256);
    return std::make_shared<const std::string>(std::move(text));
}

}  // namespace senet::server
