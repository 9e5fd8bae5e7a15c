#include "cli/command.h"

namespace ur::cli {

std::vector<RegisteredCommand>& registered_commands() {
  static std::vector<RegisteredCommand> commands;
  return commands;
}

}  // namespace ur::cli
