// Registers the "perfect" agent kind with make_agent (kept in an OBJECT library so the
// static registrar is linked).
#include "tables/perfect_agent.h"
#include "tables/table_store.h"

namespace ur::tables {
namespace {

std::variant<std::unique_ptr<Agent>, AgentSpecError> make_from_spec(std::string_view argument,
                                                                    std::uint64_t /*seed*/) {
  if (!argument.empty()) {
    auto opened = open_table_once(std::filesystem::path(std::string(argument)));
    if (std::holds_alternative<std::string>(opened)) {
      return make_unusable_perfect_agent(std::string(argument), "perfect:" + std::string(argument));
    }
    return make_perfect_agent(std::get<std::shared_ptr<const Table>>(std::move(opened)),
                              "perfect:" + std::string(argument));
  }
  // Without a file the rules in play are not known yet; Agent::cannot_play says, once they
  // are, whether a table exists or can be solved on the fly.
  return make_perfect_agent(nullptr, "perfect");
}

const AgentKindRegistrar registrar{"perfect", &make_from_spec,
                                   "perfect[:TABLE]  plays the solved table's best move"};

}  // namespace
}  // namespace ur::tables
