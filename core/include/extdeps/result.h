// Errors are values: every fallible library call returns Result<T>. The exit code a CLI run ends
// with is carried by the error, so the front end never has to guess (docs/exit-codes.md). Part of
// the public API: it depends on nothing but the standard library.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace extdeps {

enum class ExitCode : int {
  ok = 0,
  unsatisfied = 1,  // unsatisfiable request, or a need that is missing (check)
  bad_input = 2,    // malformed file, bad argument, unknown key
  environment = 3,  // the machine failed us: unreadable index, network, a command that failed
};

struct Error {
  ExitCode code = ExitCode::bad_input;
  // One line for people, as the edge prints it after "error: ": the place, what went wrong, what
  // was expected and what to do, "pyproject.toml:14:5: unknown DepURL type 'gneric' (did you mean
  // 'generic'?)". Callers that add context in front (a plugin's name) add it here.
  std::string message;
  // The same error as data (the CLI's --json prints them; schema/error.schema.json); empty
  // where the code that failed did not know it.
  std::string place;     // "pyproject.toml:14:5", "https://host/repodata.json: byte 1234"
  std::string what;      // what went wrong, without the place
  std::string expected;  // what the reader expected there ("a string", "1 or 0")
  std::string hint;      // what to do about it
  std::string from;      // where a bad setting came from: "EXTDEPS_MANAGERS", "config.toml:3:12"
};

inline Error bad_input(std::string message) { return {ExitCode::bad_input, std::move(message)}; }
inline Error environment_error(std::string message) { return {ExitCode::environment, std::move(message)}; }

// An error at a place, as data; its message is rendered from the parts, the one way every
// such error reads: "PLACE: WHAT (expected EXPECTED); HINT".
inline Error error_at(ExitCode code, std::string place, std::string what, std::string expected = {},
                      std::string hint = {}) {
  Error e;
  e.code = code;
  e.message = place.empty() ? what : place + ": " + what;
  if (!expected.empty()) e.message += " (expected " + expected + ")";
  if (!hint.empty()) e.message += "; " + hint;
  e.place = std::move(place);
  e.what = std::move(what);
  e.expected = std::move(expected);
  e.hint = std::move(hint);
  return e;
}

// An error whose one line keeps a wording that does not read as error_at's ("expected X, got Y",
// "no such file: P", "plugin p exited with status 3"; tests, docs and the plugin protocol quote
// them): the line as it is, with its parts beside it as data.
inline Error worded(ExitCode code, std::string message, std::string place, std::string what, std::string expected = {},
                    std::string hint = {}) {
  Error e{code, std::move(message)};
  e.place = std::move(place);
  e.what = std::move(what);
  e.expected = std::move(expected);
  e.hint = std::move(hint);
  return e;
}

// A lower layer's error put at the place its caller knows ("line 3 of its answer", a file's
// line:col): the place goes in front of the message, and becomes the error's place unless the
// error already had one (then the new place leads the old: "outer: inner").
inline Error at_place(Error e, const std::string& place) {
  if (place.empty()) return e;
  if (e.what.empty() && e.place.empty()) e.what = e.message;
  e.place = e.place.empty() ? place : place + ": " + e.place;
  e.message = place + ": " + e.message;
  return e;
}

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &std::get<0>(v_); }
  const T* operator->() const { return &std::get<0>(v_); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), failed_(true) {}
  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool failed_ = false;
};

}  // namespace extdeps
