// Errors as values: every engine function that can reject its input returns Result<T>.
#pragma once

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
template <class T>
class Result {
public:
    Result(T value) : value_(std::move(value)) {}           // NOLINT: implicit by design
    Result(Error error) : error_(std::move(error)) {}       // NOLINT: implicit by design

    bool ok() const { return value_.has_value(); }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return *value_; }
    T& value() & { return *value_; }
    T&& value() && { return std::move(*value_); }
    const T& operator*() const { return *value_; }
    const T* operator->() const { return &*value_; }
    const Error& error() const { return error_; }

private:
    std::optional<T> value_;
    Error error_;
};

/// Shorthand for building an Error result: `return fail("board has 29 squares");`
inline Error fail(std::string message, int ply = 0) { return Error{std::move(message), ply}; }

}  // namespace senet
