// Registers the "perfect" agent kind with make_agent (kept in an OBJECT library so the
// static registrar is linked).
#include "tables/perfect_agent.h"
#include "tables/table_store.h"

namespace ur::tables {
namespace {

std::variant<std::unique_ptr<Agent>, AgentSpecError> make_from_spec(std::string_view argument,
                                                                    std::uint64_t /*seed*/) {
  if (!argument.empty()) {
    auto opened = Table::open(std::filesystem::path(std::string(argument)), std::nullopt);
    if (auto* message = std::get_if<std::string>(&opened)) {
      return AgentSpecError{"perfect:" + std::string(argument) + ": " + *message};
    }
    return make_perfect_agent(std::get<std::shared_ptr<const Table>>(std::move(opened)),
                              "perfect:" + std::string(argument));
  }
  // Without a file the rules in play are not known yet: accept when some table exists, or
  // say how to build one. Games with few pieces solve theirs on the fly.
  const std::filesystem::path directory = default_table_directory();
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    if (entry.path().extension() == ".table") return make_perfect_agent(nullptr, "perfect");
  }
  return AgentSpecError{"perfect: no solved tables in " + directory.string() +
                        ": build one with `ur solve --pieces 7` (minutes; " +
                        std::to_string(kSolveOnTheFlyMaxPieces) +
                        " pieces or fewer take seconds), or give perfect:FILE"};
}

const AgentKindRegistrar registrar{"perfect", &make_from_spec,
                                   "perfect[:TABLE]  plays the solved table's best move"};

}  // namespace
}  // namespace ur::tables
