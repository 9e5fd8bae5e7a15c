// The --pieces / --bear-off options shared by every command that takes a rule set.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/options.h"
#include "core/rules.h"

namespace ur::cli {

// Adds --pieces and --bear-off to `command`, writing into `rules`, which must outlive parsing.
inline void add_rules_options(CLI::App& command, Rules& rules) {
  command.add_option("--pieces", rules.pieces, "Pieces per side (1-7)")
      ->check(integer_range(Rules::kMinPieces, Rules::kMaxPieces))
      ->default_val(7);
  command
      .add_option_function<std::string>(
          "--bear-off",
          [&rules](const std::string& mode) {
            rules.bear_off = mode == "any" ? BearOff::Any : BearOff::Exact;
          },
          "Bear-off rule: exact (default) or any throw that reaches home")
      ->check(CLI::IsMember({"exact", "any"}));
}

}  // namespace ur::cli
