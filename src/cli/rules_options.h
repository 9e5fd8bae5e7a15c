// The --rules option and its column overrides, shared by every command that takes a rule set.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/options.h"
#include "core/rule_sets.h"
#include "core/rules.h"

namespace ur::cli {

// Adds --rules NAME and one override per column to `command`. After parsing, `rules` holds
// the named set with the overrides applied; an unplayable result is a usage error. `rules`
// must outlive parsing.
inline void add_rules_options(CLI::App& command, Rules& rules) {
  struct Choice {
    std::string name = "finkel";
    std::optional<int> pieces;
    std::optional<std::string> bear_off;
    std::optional<std::string> board;
    std::optional<std::string> path;
    std::optional<int> dice;
    std::optional<std::string> zero_roll;
    std::optional<bool> safe_rosettes;
    std::optional<bool> rosette_extra_throw;
    std::optional<bool> capture_extra_throw;
  };
  auto choice = std::make_shared<Choice>();
  const std::size_t first_option = command.get_options().size();  // the rule options follow
  command
      .add_option("--rules", choice->name,
                  "Rule set: " + known_rule_set_names() +
                      " (default finkel); the options "
                      "below override its columns")
      ->check(CLI::Validator(
          [](std::string& name) -> std::string {
            if (find_rule_set(name)) return {};
            return "unknown rule set \"" + name + "\"; known: " + known_rule_set_names();
          },
          "NAME"));
  command.add_option("--pieces", choice->pieces, "Pieces per side (1-7; default the set's)")
      ->check(integer_range(Rules::kMinPieces, Rules::kMaxPieces));
  command
      .add_option("--bear-off", choice->bear_off,
                  "Bear-off rule: exact (default) or any throw that reaches home")
      ->check(CLI::IsMember({"exact", "any"}));
  command.add_option("--board", choice->board, "Board shape: standard or aseb")
      ->check(CLI::IsMember({"standard", "aseb"}));
  command
      .add_option(
          "--path", choice->path,
          "Path: finkel (also called bell), masters, aseb, murray or skiriuk (default the set's)")
      ->check(CLI::IsMember({"finkel", "masters", "aseb", "murray", "skiriuk", "bell"}));
  command.add_option("--dice", choice->dice, "Binary dice thrown (1-6)")
      ->check(integer_range(1, RuleSpec::kMaxDice));
  command
      .add_option("--zero-roll", choice->zero_roll,
                  "A throw of 0: pass, or max (moves dice + 1, as in Masters)")
      ->check(CLI::IsMember({"pass", "max"}));
  command
      .add_option("--safe-rosettes", choice->safe_rosettes,
                  "true: no capture on a rosette (Finkel, Aseb); false (Masters, Blitz)")
      ->check(true_or_false());
  command
      .add_option("--rosette-extra-throw", choice->rosette_extra_throw,
                  "true: landing on a rosette throws again")
      ->check(true_or_false());
  command
      .add_option("--capture-extra-throw", choice->capture_extra_throw,
                  "true: a capture throws again (Blitz)")
      ->check(true_or_false());
  const std::size_t end_option = command.get_options().size();
  command.parse_complete_callback([choice, &rules, &command, first_option, end_option] {
    RuleSpec spec = find_rule_set(choice->name)->spec;
    if (choice->pieces) spec.pieces = *choice->pieces;
    if (choice->bear_off)
      spec.bear_off = *choice->bear_off == "any" ? BearOff::Any : BearOff::Exact;
    if (choice->board) spec.board = *board_from_name(*choice->board);
    if (choice->path) spec.path = *path_from_name(*choice->path);
    if (choice->dice) spec.dice = *choice->dice;
    if (choice->zero_roll) spec.zero_counts_as_max = *choice->zero_roll == "max";
    if (choice->safe_rosettes) spec.safe_rosettes = *choice->safe_rosettes;
    if (choice->rosette_extra_throw) spec.rosette_gives_extra_throw = *choice->rosette_extra_throw;
    if (choice->capture_extra_throw) spec.capture_gives_extra_throw = *choice->capture_extra_throw;
    if (auto why = why_unplayable(spec)) {
      // Named by the options the user gave ("--board aseb --path finkel"), not all as --rules.
      std::string given;
      const std::vector<CLI::Option*> options = command.get_options();
      for (std::size_t i = first_option; i < end_option; ++i) {
        if (options[i]->count() == 0) continue;
        if (!given.empty()) given += ' ';
        given += options[i]->get_name();
        given += ' ';
        given += options[i]->results().back();
      }
      throw CLI::ValidationError(given.empty() ? "--rules" : given,
                                 "these rules cannot be played: " + *why);
    }
    rules = Rules(spec);
  });
}

}  // namespace ur::cli
