// The geometry of a rule set as the page draws it (docs/web-api.md, "Geometry"): the board's
// cells, each side's path, rosettes, safe tiles, dice and the rules in words. Everything
// comes from core/rule_sets.h, so the page keeps no rules constants of its own.
#pragma once

#include <nlohmann/json.hpp>

#include "core/rules.h"

namespace ur::server {

// {"name", "title", "board", "columns", "rows", "route_length", "home",
//  "cells": [{"tile":"A4","lane":0,"column":4,"rosette":false}, ...],
//  "paths": {"light":["A4",...], "dark":["C4",...]}, "rosettes": [...], "safe": [...],
//  "dice": {"count", "zero_counts_as_max", "min_roll", "max_roll",
//           "rolls":[{"roll","weight","chance"}, ...]},
//  "flags": {...}, "prose": ["...", ...], "perfect_play": null or "why not yet"}
nlohmann::json geometry_json(const Rules& rules);

// GET /api/rule-sets: {"rule_sets": [{"name","title","summary","geometry"}, ...], "columns":
// {...}}: the named sets in the registry's order (finkel first, the default) and the values
// each column of a custom set may take.
nlohmann::json rule_sets_json();

// Why the solver has no perfect play for `rules`, as a sentence (the solver's reason: "Perfect
// play for custom rules (...) is not available: its path crosses itself ..."), or nothing
// when it can solve them.
std::optional<std::string> perfect_play_unavailable(const Rules& rules);

}  // namespace ur::server
