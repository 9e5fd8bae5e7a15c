#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <vector>

#include "engine/handler.h"
#include "engine/rules_handlers.h"

namespace ur::engine {
namespace {

using nlohmann::json;
using protocol::RequestError;

using Registry = std::map<std::string, Handler, std::less<>>;

// Function-local so that other areas' static HandlerRegistrars may run in any order. The
// rules engine's own commands are always present, even when nothing else is linked.
Registry& registry() {
  static Registry handlers{
      {"apply", &answer_apply}, {"moves", &answer_moves}, {"perft", &answer_perft}};
  return handlers;
}

std::string command_list() {
  std::string text;
  for (const std::string& name : known_commands()) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

constexpr std::string_view kRequestExample =
    R"({"cmd":"moves","position":{"turn":"light","light":{"start":7,"home":0,"board":[]},"dark":{"start":7,"home":0,"board":[]}},"roll":2})";

// Every top-level member some command reads (docs/engine-protocol.md). Other members are the
// client's own bookkeeping and ignored, unless one is so close to these that it is taken for
// a typo ("Rules", "rule", "agnet"): dropping it would answer for other rules or another agent.
constexpr std::array<std::string_view, 13> kRequestMembers = {
    "cmd",   "id",   "rules", "position", "roll", "move",    "depth",
    "agent", "seed", "table", "record",   "rgn",  "estimate"};

// Edits (insertions, deletions, substitutions, swaps of neighbours) between `a` and `b`,
// ignoring case.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  const auto lower = [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  };
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = lower(a[i - 1]) == lower(b[j - 1]);
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// The known member `name` looks like a typo of, if any: the same letters in another case, or
// one edit away (two for names of five letters or more).
std::optional<std::string_view> misspelt_member(std::string_view name) {
  if (name.size() > 32) return std::nullopt;
  for (const std::string_view known : kRequestMembers) {
    if (name == known) return std::nullopt;
  }
  for (const std::string_view known : kRequestMembers) {
    const std::size_t allowed = known.size() >= 5 ? 2 : known.size() >= 3 ? 1 : 0;
    if (edit_distance(name, known) <= allowed) return known;
  }
  return std::nullopt;
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// Parses and serves one request; copies its "id" into `id` as soon as it is known.
json serve(std::string_view line, std::optional<json>& id) {
  if (line.size() > kMaxLineBytes) {
    throw RequestError("request line is longer than " + std::to_string(kMaxLineBytes) +
                       " bytes, the most accepted");
  }
  if (is_blank(line)) {
    throw RequestError("empty request; send one JSON object per line, e.g. " +
                       std::string(kRequestExample));
  }
  // A refused request still names its "id" where it was read before the fault, so that a client
  // matching answers by id gets this one.
  if (protocol::nests_too_deeply(line)) {
    id = protocol::member_before_fault(line, "id");
    throw RequestError(
        "request nests arrays or objects more than " + std::to_string(protocol::kMaxJsonNesting) +
        " levels deep; requests are flat objects like " + std::string(kRequestExample));
  }
  // The parser takes a NUL byte for the end of the text and would ignore what follows it.
  if (const auto nul = line.find('\0'); nul != std::string_view::npos) {
    id = protocol::member_before_fault(line, "id");
    throw RequestError("request has a NUL byte at byte " + std::to_string(nul + 1) +
                       "; send one JSON object per line, e.g. " + std::string(kRequestExample));
  }
  json request;
  try {
    request = protocol::parse_json_text(line);
  } catch (const protocol::JsonTextError& error) {
    id = protocol::member_before_fault(line, "id");
    throw RequestError("not valid JSON (" + std::string(error.what()) +
                       "); send one JSON object per line, e.g. " + std::string(kRequestExample));
  }
  if (!request.is_object()) {
    throw RequestError("a request must be a JSON object like " + std::string(kRequestExample) +
                       ", got " + protocol::quote_json(request));
  }
  if (const auto found = request.find("id"); found != request.end()) id = *found;
  for (const auto& [name, value] : request.items()) {
    if (const auto known = misspelt_member(name)) {
      throw RequestError("unknown member " + protocol::quote_json(json(name)) +
                         ": did you mean \"" + std::string(*known) +
                         "\"? Members the protocol does not use are ignored, but not one this "
                         "close to a member it does");
    }
  }
  const json& command =
      protocol::require_member(request, "cmd", "the command name, one of " + command_list());
  if (!command.is_string()) {
    throw RequestError("cmd must be a string naming a command (" + command_list() + "), got " +
                       protocol::quote_json(command));
  }
  const auto handler = registry().find(command.get_ref<const std::string&>());
  if (handler == registry().end()) {
    throw RequestError("unknown cmd " + protocol::quote_json(command) +
                       "; known commands: " + command_list());
  }
  return handler->second(request, protocol::rules_from_request(request));
}

}  // namespace

HandlerRegistrar::HandlerRegistrar(std::string_view command, Handler handler) {
  if (!registry().emplace(std::string(command), handler).second) {
    std::fprintf(stderr, "ur engine: command \"%.*s\" is registered twice\n",
                 static_cast<int>(command.size()), command.data());
    std::abort();
  }
}

std::vector<std::string> known_commands() {
  std::vector<std::string> names;
  for (const auto& [name, handler] : registry()) names.push_back(name);
  return names;
}

std::string answer(std::string_view line) {
  std::optional<json> id;  // null is an id too
  json reply;
  try {
    reply = serve(line, id);
  } catch (const RequestError& error) {
    reply = {{"error", error.what()}};
  } catch (const std::exception& error) {
    reply = {{"error", std::string("internal error: ") + error.what()}};
  } catch (...) {
    reply = {{"error", "internal error"}};
  }
  try {
    if (id && reply.is_object()) reply["id"] = std::move(*id);
    return reply.dump(-1, ' ', false, json::error_handler_t::replace);
  } catch (...) {
    return R"({"error":"internal error: the answer could not be written"})";
  }
}

}  // namespace ur::engine
