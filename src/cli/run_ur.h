// Runs the built `ur` binary for command-line tests (test code only).
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace ur::testing {

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// `arguments` go through the shell, so they may redirect and pipe; stderr joins stdout
// unless the arguments redirect it themselves.
inline CommandResult run_ur(const std::string& arguments) {
  const bool own_stderr = arguments.find("2>") != std::string::npos;
  const std::string command =
      std::string(UR_BINARY) + " " + arguments + (own_stderr ? "" : " 2>&1");
  CommandResult run;
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) run.output += buffer.data();
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace ur::testing
