// The events of one message (PROTOCOL.md "Events"), written as JSON objects in the order they
// happen, without a JSON tree: the inside of an events frame's `events` array.
#pragma once

#include <string>

#include "json_out.hpp"

namespace senet::server {

/// The events of one message, serialised in order as they happen.
class Events {
public:
    /// Starts the next event object; it is closed when the returned writer is destroyed.
    jsonout::Object add() {
        if (!text_.empty()) text_ += ',';
        return jsonout::Object(text_);
    }
    /// Whether no event was added.
    bool empty() const { return text_.empty(); }
    /// The events joined by commas (the inside of the JSON array).
    const std::string& text() const { return text_; }

private:
    std::string text_;
};

}  // namespace senet::server
