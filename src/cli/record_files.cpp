#include "cli/record_files.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "protocol/json.h"
#include "protocol/record_json.h"
#include "records/rgn.h"

namespace ur::cli {

namespace {

// Records are text; anything larger is not one.
constexpr std::size_t kMaxRecordBytes = 64 << 20;

}  // namespace

// The file's text, or an error line.
std::variant<std::string, std::string> read_record_file(const std::string& file) {
  std::ifstream stream;
  std::istream* in = &std::cin;
  if (file != "-") {
    stream.open(file, std::ios::binary);
    if (!stream) {
      return std::variant<std::string, std::string>(
          std::in_place_index<1>, "cannot open " + file + ": " + std::strerror(errno));
    }
    in = &stream;
  }
  std::string text;
  char buffer[1 << 16];
  while (in->read(buffer, sizeof buffer) || in->gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in->gcount()));
    if (text.size() > kMaxRecordBytes) {
      return std::variant<std::string, std::string>(
          std::in_place_index<1>, file + " is larger than 64 MiB: not a game record");
    }
  }
  if (in->bad())
    return std::variant<std::string, std::string>(std::in_place_index<1>, "cannot read " + file);
  return std::variant<std::string, std::string>(std::in_place_index<0>, std::move(text));
}

// JSON records start with '{' (one object a line); anything else is read as RGN.
std::variant<std::vector<records::GameRecord>, std::string> parse_record_text(
    std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{') {
    auto games = records::read_rgn(text);
    if (auto* error = std::get_if<records::ParseError>(&games)) return error->text();
    return std::get<0>(std::move(games));
  }
  std::vector<records::GameRecord> games;
  std::size_t line_start = 0;
  int line = 0;
  while (line_start < text.size()) {
    ++line;
    std::size_t end = text.find('\n', line_start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view row = text.substr(line_start, end - line_start);
    line_start = end + 1;
    if (row.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = "line " + std::to_string(line) + ": ";
    if (protocol::nests_too_deeply(row)) return where + "JSON nested too deeply";
    nlohmann::json value;
    try {
      value = nlohmann::json::parse(row);
    } catch (const nlohmann::json::parse_error& error) {
      return "line " + std::to_string(line) + ", column " + std::to_string(error.byte) +
             ": not JSON (" + error.what() + "); expected one JSON record a line";
    }
    try {
      games.push_back(protocol::record_from_json(value));
    } catch (const protocol::RequestError& error) {
      return where + error.what();
    }
  }
  return games;
}

}  // namespace ur::cli
