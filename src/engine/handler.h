// `ur engine` request handlers. Each "cmd" is served by one handler, registered from the
// area that owns it (moves/apply/perft here, best in agents, evaluate/hints in the solver).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/rules.h"
#include "protocol/json.h"

namespace ur::engine {

// Answers one request whose "rules" have already been parsed. Throws
// protocol::RequestError for bad input; the engine turns it into {"error": ...}.
using Handler = nlohmann::json (*)(const nlohmann::json& request, const Rules& rules);

struct HandlerRegistrar {
  HandlerRegistrar(std::string_view command, Handler handler);
};

// The answer line for one request line; never throws.
std::string answer(std::string_view line);

}  // namespace ur::engine
