// A review request as the engine and the web API take it (docs/engine-protocol.md,
// docs/web-api.md): {"record": R} or {"rgn": TEXT}, optional "table" and "estimate".
#pragma once

#include <nlohmann/json.hpp>

namespace ur::tables {

// The review of docs/review.md for `request`. Throws protocol::RequestError naming what is
// wrong. `solve_small_tables` lets a missing table of up to 4 pieces be solved on the spot
// (about a second); the server, which must not stall, passes false.
nlohmann::json review_request(const nlohmann::json& request, bool solve_small_tables);

}  // namespace ur::tables
