#include "cli/record_files.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/printable.h"

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
    std::error_code error;
    if (std::filesystem::is_directory(file, error)) {
      return std::variant<std::string, std::string>(
          std::in_place_index<1>, file + " is a directory; give a record file (RGN or JSON)");
    }
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
  if (in->bad()) {
    return std::variant<std::string, std::string>(
        std::in_place_index<1>, "cannot read " + file + ": " + std::strerror(errno));
  }
  return std::variant<std::string, std::string>(std::in_place_index<0>, std::move(text));
}

std::variant<std::vector<records::GameRecord>, std::string> read_records(const std::string& file) {
  auto text = read_record_file(file);
  if (text.index() == 1) return std::get<1>(std::move(text));
  auto games = parse_record_text(std::get<0>(text));
  if (auto* error = std::get_if<std::string>(&games)) return file + ": " + printable(*error);
  return games;
}

}  // namespace ur::cli
