// Line input from a user's stream (stdin, a script file) that cannot be made to hold more
// than a bounded line in memory.
#pragma once

#include <cstddef>
#include <ios>
#include <istream>
#include <stdexcept>
#include <string>

namespace ur::cli {

// Reads the next line of `in` (without its '\n', nor the '\r' of a CRLF ending) into `line`,
// keeping at most `keep` bytes: a line of gigabytes (`--script /dev/zero`) is read through
// without being held, and the caller tells it by its length (keep one byte more than it
// accepts; a cut line keeps its last byte even when that is '\r'). False at the end of
// input with nothing read. A read error (the stream is a directory) is thrown as
// std::runtime_error "cannot read standard input: Is a directory" with `what` as the source.
inline bool read_line(std::istream& in, std::string& line, std::size_t keep,
                      const std::string& what = "standard input") {
  line.clear();
  std::streambuf* buffer = in.rdbuf();
  bool any = false;
  bool cut = false;
  try {
    for (int c; (c = buffer->sbumpc()) != std::char_traits<char>::eof();) {
      any = true;
      if (c == '\n') {
        if (!cut && !line.empty() && line.back() == '\r') line.pop_back();
        return true;
      }
      if (line.size() < keep) {
        line.push_back(static_cast<char>(c));
      } else {
        cut = true;
      }
    }
  } catch (const std::ios_base::failure& failure) {
    throw std::runtime_error("cannot read " + what + ": " + failure.code().message());
  }
  return any;
}

}  // namespace ur::cli
