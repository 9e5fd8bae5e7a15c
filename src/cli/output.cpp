#include "cli/output.h"

#include <poll.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli/command.h"

namespace ur::cli {
namespace {

int write_errno = 0;         // errno of the first failed flush, kept for the message
bool loss_reported = false;  // report_lost_output has told the user

// True when stdout is a pipe or socket whose reader has gone.
bool reader_gone() {
  struct stat status {};
  if (::fstat(STDOUT_FILENO, &status) != 0) return false;
  if (!S_ISFIFO(status.st_mode) && !S_ISSOCK(status.st_mode)) return false;
  pollfd out{STDOUT_FILENO, POLLOUT, 0};
  return ::poll(&out, 1, 0) == 1 && (out.revents & (POLLERR | POLLHUP)) != 0;
}

// The likely reason for a write that failed inside an earlier implicit flush (a full buffer),
// whose errno later calls overwrote: the reader of a pipe or socket gone, a full file system,
// stdout closed. 0 when none of these holds.
int lost_write_reason() {
  struct stat status {};
  if (::fstat(STDOUT_FILENO, &status) != 0) return errno;
  if (reader_gone()) return EPIPE;
  if (S_ISCHR(status.st_mode) && status.st_rdev == makedev(1, 7)) return ENOSPC;  // /dev/full
  struct statvfs file_system {};
  if (S_ISREG(status.st_mode) && ::fstatvfs(STDOUT_FILENO, &file_system) == 0 &&
      file_system.f_bavail == 0) {
    return ENOSPC;
  }
  return 0;
}

}  // namespace

bool stdout_ok() {
  errno = 0;
  std::cout.flush();
  const bool stream_ok = !std::cout.fail();
  const bool file_ok = std::fflush(stdout) == 0 && std::ferror(stdout) == 0;
  if ((!stream_ok || !file_ok) && write_errno == 0) {
    write_errno = errno != 0 ? errno : lost_write_reason();
  }
  return stream_ok && file_ok;
}

int stdout_lost() {
  if (!stdout_ok()) return write_errno != 0 ? write_errno : EIO;
  return reader_gone() ? EPIPE : 0;
}

void report_lost_output(std::string_view command, int reason, std::string_view consequence) {
  std::cerr << "ur " << command << ": cannot write output: " << std::strerror(reason) << "; "
            << consequence << "\n";
  loss_reported = true;
}

int finish_output(std::string_view command, int code) {
  if (stdout_ok()) return code;
  if (loss_reported) return code == 0 ? kFailure : code;
  std::cerr << "ur" << (command.empty() ? "" : " ") << command << ": cannot write output"
            << (write_errno != 0 ? std::string(": ") + std::strerror(write_errno) : std::string())
            << "\n";
  return code == 0 ? kFailure : code;
}

}  // namespace ur::cli
