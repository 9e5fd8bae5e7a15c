// Validators for numeric options, shared so that every command words range errors alike:
// "--depth: must be an integer 0..12, got x".
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

namespace ur::cli {

// Accepts decimal integers min..max (no sign on non-negative ranges' values, no spaces).
template <typename Integer>
CLI::Validator integer_range(Integer min, Integer max) {
  const std::string range = std::to_string(min) + ".." + std::to_string(max);
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        Integer value{};
        const char* end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        if (text.empty() || error != std::errc() || stop != end || value < min || value > max) {
          return "must be an integer " + range + ", got " + text;
        }
        return {};
      },
      "INT in " + range);
}

// Accepts finite decimal numbers min..max ("nan" and "inf" are refused: every comparison with
// NaN is false, so a plain range check lets it through).
inline CLI::Validator number_range(double min, double max) {
  std::ostringstream shown;
  shown << min << ".." << max;
  const std::string range = shown.str();
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        double value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        if (text.empty() || error != std::errc() || stop != end || !std::isfinite(value) ||
            value < min || value > max) {
          return "must be a number " + range + ", got " + text;
        }
        return {};
      },
      "NUMBER in " + range);
}

// A file or directory option given as "" (`--record ''`) is a mistake, not "none": the
// command would quietly do without it (write no record, use the default table).
inline CLI::Validator non_empty_path() {
  return CLI::Validator(
      [](std::string& value) {
        return value.empty() ? std::string("the value is empty; expected a path") : std::string();
      },
      "", "non_empty_path");
}

// A yes-or-no column of the rules: "true" or "false" exactly (CLI11 alone also takes -1, 2,
// yes, on and 0, which the docs do not promise).
inline CLI::Validator true_or_false() {
  return CLI::Validator(
      [](std::string& text) {
        return text == "true" || text == "false" ? std::string()
                                                 : "must be true or false, got " + text;
      },
      "true|false");
}

// Seeds: any 64-bit unsigned integer.
inline CLI::Validator seed_range() {
  return integer_range<std::uint64_t>(0, std::numeric_limits<std::uint64_t>::max());
}

}  // namespace ur::cli
