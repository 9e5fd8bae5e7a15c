// `ur engine` request handlers. Each "cmd" is served by one handler, registered from the
// area that owns it (moves/apply/perft here, best in agents, evaluate/hints in the solver).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/rules.h"
#include "protocol/json.h"

namespace ur::engine {

// Answers one request whose "rules" have already been parsed. Throws
// protocol::RequestError for bad input; the engine turns it into {"error": ...}.
using Handler = nlohmann::json (*)(const nlohmann::json& request, const Rules& rules);

// Registers `handler` for {"cmd": command}. Registering one command twice aborts at startup.
struct HandlerRegistrar {
  HandlerRegistrar(std::string_view command, Handler handler);
};

// The answer line for one request line; never throws. A request's "id" member, if any, is
// copied into its answer (success or error).
std::string answer(std::string_view line);

// Every registered command name, sorted.
std::vector<std::string> known_commands();

// Request lines longer than this are answered with an error without being parsed.
inline constexpr std::size_t kMaxLineBytes = 1 << 20;

}  // namespace ur::engine
