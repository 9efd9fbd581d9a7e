// Errors as values: every engine function that can reject its input returns Result<T>.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace senet {

/// Why an input was rejected: a one-line, human-readable message.
/// `ply` is the 1-based ply of a game record the error refers to, or 0 when it refers to none.
struct Error {
    std::string message;
    int ply = 0;
};

/// Either a value or an Error. Test with `ok()` (or `if (result)`), then read `value()` or `error()`.
/// [[nodiscard]]: a function that returns a Result can reject its input, so its result is never
/// to be ignored silently (write `(void)` before a call whose failure does not matter).
template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : value_(std::move(value)) {}           // NOLINT: implicit by design
    Result(Error error) : error_(std::move(error)) {}       // NOLINT: implicit by design

    /// Whether there is a value (and no error).
    bool ok() const { return value_.has_value(); }
    explicit operator bool() const { return ok(); }
    /// The value; only when ok() (asserted in debug builds).
    const T& value() const& {
        assert(ok());
        return *value_;
    }
    T& value() & {
        assert(ok());
        return *value_;
    }
    T&& value() && {
        assert(ok());
        return std::move(*value_);
    }
    /// The value, as value(); only when ok().
    const T& operator*() const { return value(); }
    const T* operator->() const { return &value(); }
    /// Why the input was rejected; an empty Error when ok().
    const Error& error() const { return error_; }

private:
    std::optional<T> value_;
    Error error_;
};

/// Shorthand for building an Error result: `return fail("board has 29 squares");`. Takes the
/// message and the ply it refers to (0: none); returns the Error, which converts to any Result.
[[nodiscard]] inline Error fail(std::string message, int ply = 0) { return Error{std::move(message), ply}; }

}  // namespace senet
