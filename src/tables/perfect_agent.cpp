#include "tables/perfect_agent.h"

#include <stdexcept>

#include "tables/table_store.h"

namespace ur::tables {
namespace {

class PerfectAgent final : public Agent {
 public:
  PerfectAgent(std::shared_ptr<const Table> table, std::string name)
      : table_(std::move(table)), name_(std::move(name)) {}

  AgentChoice choose(const Rules& rules, const Position& position, Roll roll) override {
    const std::shared_ptr<const Table> table = table_for(rules);
    const std::vector<MoveHint> ranked = hints(*table, position, roll);
    if (ranked.empty()) throw std::logic_error("perfect agent asked to move with no legal move");
    return {ranked.front().move, ranked.front().win};
  }

  std::string name() const override { return name_; }

  std::optional<std::string> cannot_play(const Rules& rules) const override {
    if (table_) return table_mismatch(rules);
    return perfect_unavailable(rules);
  }

 private:
  // A named table plays only its own rules: falling back to another table would silently
  // play something else than asked for.
  std::optional<std::string> table_mismatch(const Rules& rules) const {
    if (table_->rules() == rules) return std::nullopt;
    return name_ + " is a table " + rules_mismatch(table_->rules(), rules);
  }

  std::shared_ptr<const Table> table_for(const Rules& rules) const {
    if (table_) {
      if (auto mismatch = table_mismatch(rules)) throw std::runtime_error(*mismatch);
      return table_;
    }
    std::string problem;
    if (auto table = table_for_play(rules, &problem)) return table;
    throw std::runtime_error("perfect agent: " + problem);
  }

  std::shared_ptr<const Table> table_;  // the table named in the spec, if any
  std::string name_;
};

}  // namespace

std::unique_ptr<Agent> make_perfect_agent(std::shared_ptr<const Table> table, std::string name) {
  return std::make_unique<PerfectAgent>(std::move(table), std::move(name));
}

}  // namespace ur::tables
