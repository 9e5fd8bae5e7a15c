#include "agents/agent.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "agents/expectimax.h"
#include "agents/levels.h"
#include "agents/simple_agents.h"

namespace ur {
namespace {

constexpr std::array kLevels = {
    LevelPreset{"easy", "one-throw heuristic that plays a random move one time in three", 0,
                1.0 / 3},
    LevelPreset{"medium", "expectimax looking 2 throws ahead", 2, 0.0},
    LevelPreset{"hard", "expectimax looking 3 throws ahead", 3, 0.0},
    LevelPreset{"expert", "expectimax looking 5 throws ahead", 5, 0.0},
};

struct RegisteredKind {
  std::string name;
  AgentFactory factory;
  std::string help;
};

std::vector<RegisteredKind>& registered_kinds() {
  static std::vector<RegisteredKind> kinds;
  return kinds;
}

struct BuiltinKind {
  std::string_view name;
  std::string_view form;  // how the spec is written
  std::string_view help;
};

constexpr std::array kBuiltinKinds = {
    BuiltinKind{"random", "random", "uniformly random legal move"},
    BuiltinKind{"first", "first", "always moves the most advanced piece"},
    BuiltinKind{"last", "last", "always moves the least advanced piece"},
    BuiltinKind{"greedy", "greedy",
                "rule of thumb: capture, else rosette, else safety, else most advanced"},
    BuiltinKind{"heuristic", "heuristic",
                "weighted one-throw heuristic: captures, rosettes, danger, progress"},
    BuiltinKind{"expectimax", "expectimax:D", "searches D throws ahead over the dice, D 1-9"},
};

// The text in double quotes (built by append: GCC 12 warns falsely on "\"" + string).
std::string quoted(std::string_view text) {
  std::string result;
  result.reserve(text.size() + 2);
  result.append(1, '"').append(text).append(1, '"');
  return result;
}

std::string accepted_forms() {
  std::string forms;
  for (const BuiltinKind& kind : kBuiltinKinds) forms += std::string(kind.form) + ", ";
  for (const LevelPreset& level : kLevels) forms += std::string(level.name) + ", ";
  for (const RegisteredKind& kind : registered_kinds()) {
    forms += kind.help.substr(0, kind.help.find(' ')) + ", ";
  }
  forms.resize(forms.size() - 2);
  return forms;
}

AgentSpecError spec_error(std::string_view spec, const std::string& problem) {
  return {"bad agent spec " + quoted(spec) + ": " + problem +
          "; accepted specs: " + accepted_forms()};
}

bool is_builtin(std::string_view name) {
  return std::any_of(kBuiltinKinds.begin(), kBuiltinKinds.end(),
                     [name](const BuiltinKind& kind) { return kind.name == name; }) ||
         find_level(name) != nullptr;
}

std::unique_ptr<Agent> make_level_agent(const LevelPreset& level, std::uint64_t seed) {
  if (level.search_depth == 0) {
    return make_heuristic_agent(std::string(level.name), level.blunder_chance, seed);
  }
  SearchOptions options;
  options.depth = level.search_depth;
  return make_expectimax_agent(std::string(level.name), options);
}

// The D of "expectimax:D", or what is wrong with it.
std::variant<int, std::string> parse_search_depth(std::string_view argument) {
  int depth = 0;
  const char* end = argument.data() + argument.size();
  const auto [stop, error] = std::from_chars(argument.data(), end, depth);
  if (error != std::errc{} || stop != end) {
    return "the depth " + quoted(argument) + " is not a whole number";
  }
  if (depth < kMinSearchDepth || depth > kMaxSearchDepth) {
    return "the depth must be between " + std::to_string(kMinSearchDepth) + " and " +
           std::to_string(kMaxSearchDepth) + ", got " + std::to_string(depth);
  }
  return depth;
}

}  // namespace

std::optional<int> search_depth_of(std::string_view spec) {
  if (const LevelPreset* level = find_level(spec)) {
    return level->search_depth > 0 ? std::optional<int>(level->search_depth) : std::nullopt;
  }
  constexpr std::string_view kPrefix = "expectimax:";
  if (spec.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  const auto depth = parse_search_depth(spec.substr(kPrefix.size()));
  return std::holds_alternative<int>(depth) ? std::optional<int>(std::get<int>(depth))
                                            : std::nullopt;
}

std::span<const LevelPreset> level_presets() {
  return kLevels;
}

const LevelPreset* find_level(std::string_view name) {
  for (const LevelPreset& level : kLevels) {
    if (level.name == name) return &level;
  }
  return nullptr;
}

void register_agent_kind(std::string name, AgentFactory factory, std::string help) {
  auto& kinds = registered_kinds();
  auto existing = std::find_if(kinds.begin(), kinds.end(),
                               [&name](const RegisteredKind& kind) { return kind.name == name; });
  if (existing != kinds.end()) {
    *existing = {std::move(name), factory, std::move(help)};
  } else {
    kinds.push_back({std::move(name), factory, std::move(help)});
  }
}

std::vector<std::string> accepted_agent_specs() {
  std::vector<std::string> lines;
  const auto line = [](std::string_view form, std::string_view help) {
    std::string text(form);
    text.resize(std::max<std::size_t>(text.size() + 2, 16), ' ');
    return text + std::string(help);
  };
  for (const BuiltinKind& kind : kBuiltinKinds) lines.push_back(line(kind.form, kind.help));
  for (const LevelPreset& level : kLevels) lines.push_back(line(level.name, level.description));
  for (const RegisteredKind& kind : registered_kinds()) lines.push_back(kind.help);
  return lines;
}

std::variant<std::unique_ptr<Agent>, AgentSpecError> make_agent(std::string_view spec,
                                                                std::uint64_t seed) {
  const std::size_t colon = spec.find(':');
  const std::string_view name = spec.substr(0, colon);
  const bool has_argument = colon != std::string_view::npos;
  const std::string_view argument = has_argument ? spec.substr(colon + 1) : std::string_view{};
  if (spec.empty()) return spec_error(spec, "the spec is empty");

  if (name == "expectimax") {
    if (!has_argument || argument.empty()) {
      return spec_error(spec, "expectimax needs a depth, e.g. expectimax:3");
    }
    const auto depth = parse_search_depth(argument);
    if (const auto* problem = std::get_if<std::string>(&depth)) return spec_error(spec, *problem);
    SearchOptions options;
    options.depth = std::get<int>(depth);
    return make_expectimax_agent(std::string(spec), options);
  }
  if (is_builtin(name) && has_argument) {
    return spec_error(spec, quoted(name) + " takes no argument");
  }
  if (name == "random") return make_random_agent(seed);
  if (name == "first") return make_first_agent();
  if (name == "last") return make_last_agent();
  if (name == "greedy") return make_greedy_agent();
  if (name == "heuristic") return make_heuristic_agent("heuristic", 0.0, seed);
  if (const LevelPreset* level = find_level(name)) return make_level_agent(*level, seed);
  for (const RegisteredKind& kind : registered_kinds()) {
    if (kind.name == name) return kind.factory(argument, seed);
  }
  if (name == "perfect") {
    return spec_error(spec,
                      "the perfect agent is not part of this build (it comes with the solver)");
  }
  return spec_error(spec, "unknown agent " + quoted(name));
}

}  // namespace ur
