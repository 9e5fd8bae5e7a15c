// Runs the built `ur` binary for command-line tests (test code only). UR_BINARY is its path.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace ur::testing {

struct CommandResult {
  int exit_code = -1;
  std::string output;  // what the command line printed on stdout (stderr too, by default)
};

// Runs a shell command line in which `ur` names the binary (its own redirections included).
inline CommandResult run_shell(const std::string& line) {
  const std::string command = "ur() { \"" + std::string(UR_BINARY) + "\" \"$@\"; }; " + line;
  CommandResult run;
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) run.output += buffer.data();
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// `ur ARGUMENTS`, with stderr joining stdout unless the arguments redirect it themselves.
inline CommandResult run_ur(const std::string& arguments) {
  const bool own_stderr = arguments.find("2>") != std::string::npos;
  return run_shell("ur " + arguments + (own_stderr ? "" : " 2>&1"));
}

}  // namespace ur::testing
