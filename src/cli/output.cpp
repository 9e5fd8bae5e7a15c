#include "cli/output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli/command.h"

namespace ur::cli {
namespace {

int write_errno = 0;  // errno of the first failed flush, kept for the message

}  // namespace

bool stdout_ok() {
  errno = 0;
  std::cout.flush();
  const bool stream_ok = !std::cout.fail();
  const bool file_ok = std::fflush(stdout) == 0 && std::ferror(stdout) == 0;
  if ((!stream_ok || !file_ok) && write_errno == 0) write_errno = errno;
  return stream_ok && file_ok;
}

int finish_output(std::string_view command, int code) {
  if (stdout_ok()) return code;
  std::cerr << "ur" << (command.empty() ? "" : " ") << command << ": cannot write output"
            << (write_errno != 0 ? std::string(": ") + std::strerror(write_errno) : std::string())
            << "\n";
  return code == 0 ? kFailure : code;
}

}  // namespace ur::cli
