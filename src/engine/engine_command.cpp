// `ur engine`: JSON Lines on stdin/stdout (docs/engine-protocol.md).
#include <iostream>
#include <string>

#include "cli/command.h"
#include "cli/output.h"
#include "cli/read_line.h"
#include "engine/handler.h"

namespace ur::engine {
namespace {

// One answer line per request line, flushed at once so that a client can wait for it.
// Blank lines are skipped without an answer; EOF ends the session with exit code 0. An answer
// that cannot be written ends it at once (main reports it).
int run_engine() {
  std::ios::sync_with_stdio(false);
  std::string line;
  // One byte past the limit is kept, so that serving the line refuses it for its length.
  while (cli::read_line(std::cin, line, kMaxLineBytes + 1)) {
    // A blank line gets no answer; an overlong one always does, whatever its first bytes.
    if (line.size() <= kMaxLineBytes && line.find_first_not_of(" \t") == std::string::npos) {
      continue;
    }
    std::cout << answer(line) << '\n';
    if (!cli::stdout_ok()) break;
  }
  return 0;
}

cli::CommandRunner setup_engine(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "engine",
      "Answer JSON requests for programs: one JSON object per line on stdin, one answer line per "
      "request on stdout");
  command->footer(
      "Example request:\n"
      "  {\"cmd\":\"moves\",\"position\":{\"turn\":\"light\",\"light\":{\"start\":7,\"home\":0,"
      "\"board\":[]},\"dark\":{\"start\":7,\"home\":0,\"board\":[]}},\"roll\":2}\n"
      "Every request may carry \"rules\" ({\"name\":\"masters\"}, with optional \"pieces\", "
      "\"bear_off\" and column overrides; default Finkel, 7 pieces) and an \"id\" that is copied "
      "into the answer.\n"
      "Bad requests are answered with {\"error\":\"...\"} and the engine goes on. Blank lines are "
      "skipped. End of input exits 0.\n"
      "Commands and answers: docs/engine-protocol.md");
  return [] { return run_engine(); };
}

const cli::CommandRegistrar registrar{60, &setup_engine};

}  // namespace
}  // namespace ur::engine
