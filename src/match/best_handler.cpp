// The engine's "best" command: the move a computer agent would play.
//   {"cmd":"best","position":P,"roll":r,"agent":"hard","seed":0}
//   -> {"move":{"from":..,"to":..,"capture":..,"extra_throw":..},"value":x}
// "agent" defaults to "hard" and "seed" (for agents that draw random numbers) to 0. "value"
// is the agent's estimate of the mover's chance to win after the move, or null when the
// agent has none. When the roll has no legal move the answer is a pass:
//   {"move":null,"value":null,"pass":"<why the side must pass>"}

#include "agents/agent.h"
#include "core/explain.h"
#include "engine/handler.h"
#include "protocol/json.h"

namespace ur::engine {
namespace {

using nlohmann::json;

constexpr std::string_view kDefaultAgent = "hard";

std::string agent_spec(const json& request) {
  const auto found = request.find("agent");
  if (found == request.end()) return std::string(kDefaultAgent);
  if (!found->is_string()) {
    throw protocol::RequestError("agent must be a string naming an agent, e.g. \"hard\", got " +
                                 protocol::quote_json(*found));
  }
  return found->get<std::string>();
}

json answer_best(const json& request, const Rules& rules) {
  const Position position = protocol::position_from_request(request, rules);
  const Roll roll = protocol::roll_from_request(request, rules);
  protocol::require_game_in_progress(rules, position);
  const std::string spec = agent_spec(request);
  const std::uint64_t seed = protocol::optional_seed(request, "seed", 0);
  auto made = make_agent(spec, seed);
  if (auto* error = std::get_if<AgentSpecError>(&made)) {
    throw protocol::RequestError(error->message);
  }
  if (auto why = std::get<std::unique_ptr<Agent>>(made)->cannot_play(rules)) {
    throw protocol::RequestError(*why);
  }
  if (count_legal_moves(rules, position, roll) == 0) {
    return {{"move", nullptr}, {"value", nullptr}, {"pass", why_pass(rules, position, roll)}};
  }
  const AgentChoice choice = std::get<std::unique_ptr<Agent>>(made)->choose(rules, position, roll);
  return {{"move", protocol::to_json(choice.move)},
          {"value", choice.value ? json(*choice.value) : json(nullptr)}};
}

const HandlerRegistrar registrar{"best", &answer_best};

}  // namespace
}  // namespace ur::engine
