#include "tables/perfect_agent.h"

#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "tables/table_store.h"

namespace ur::tables {
namespace {

class PerfectAgent final : public Agent {
 public:
  PerfectAgent(std::shared_ptr<const Table> table, std::string name,
               std::optional<std::filesystem::path> unusable)
      : table_(std::move(table)), name_(std::move(name)), unusable_(std::move(unusable)) {}

  AgentChoice choose(const Rules& rules, const Position& position, Roll roll) override {
    const std::shared_ptr<const Table> table = table_for(rules);
    const std::vector<MoveHint> ranked = hints(*table, position, roll);
    if (ranked.empty()) throw std::logic_error("perfect agent asked to move with no legal move");
    return {ranked.front().move, ranked.front().win};
  }

  std::string name() const override { return name_; }

  // A table small enough to solve on the fly is solved here rather than in the first move,
  // which would otherwise carry its time (`ur match` reports the time a move).
  std::optional<std::string> prepare(const Rules& rules) override {
    if (table_ || unusable_ || find_table(rules, nullptr) || !solves_on_the_fly(rules)) {
      return std::nullopt;
    }
    const auto start = std::chrono::steady_clock::now();
    std::string problem;
    const std::shared_ptr<const Table> solved = table_for_play(rules, &problem);
    if (!solved) return std::nullopt;  // choose() reports the problem
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f s", took.count());
    const std::string where = solved->path().empty() ? "kept it in memory (another file is at " +
                                                           default_table_path(rules).string() + ")"
                                                     : "saved it at " + solved->path().string();
    return "solved the table for " + rules_text(rules) + " in " + seconds + " and " + where;
  }

  std::optional<std::string> cannot_play(const Rules& rules) const override {
    if (table_) return table_mismatch(rules);
    if (unusable_) return unusable_problem(rules);
    return perfect_unavailable(rules);
  }

 private:
  // A named table plays only its own rules: falling back to another table would silently
  // play something else than asked for.
  std::optional<std::string> table_mismatch(const Rules& rules) const {
    if (table_->rules() == rules) return std::nullopt;
    return name_ + " is a table " + rules_mismatch(table_->rules(), rules);
  }

  // Why the file named in the spec, which did not open, cannot serve `rules`, with the
  // `ur solve` command that builds it there (find_table's sentence, as for --table).
  std::string unusable_problem(const Rules& rules) const {
    std::string problem;
    if (find_table(rules, &problem, *unusable_)) {
      return name_ + ": the table could not be opened when the agent was made; try again";
    }
    return name_ + ": " + problem;
  }

  std::shared_ptr<const Table> table_for(const Rules& rules) const {
    if (table_) {
      if (auto mismatch = table_mismatch(rules)) throw std::runtime_error(*mismatch);
      return table_;
    }
    if (unusable_) throw std::runtime_error(unusable_problem(rules));
    std::string problem;
    if (auto table = table_for_play(rules, &problem)) return table;
    throw std::runtime_error("perfect agent: " + problem);
  }

  std::shared_ptr<const Table> table_;  // the table named in the spec, if any
  std::string name_;
  std::optional<std::filesystem::path> unusable_;  // a file named in the spec that did not open
};

}  // namespace

std::unique_ptr<Agent> make_perfect_agent(std::shared_ptr<const Table> table, std::string name) {
  return std::make_unique<PerfectAgent>(std::move(table), std::move(name), std::nullopt);
}

std::unique_ptr<Agent> make_unusable_perfect_agent(std::filesystem::path file, std::string name) {
  return std::make_unique<PerfectAgent>(nullptr, std::move(name), std::move(file));
}

}  // namespace ur::tables
