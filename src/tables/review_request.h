// A review request as the engine and the web API take it (docs/engine-protocol.md,
// docs/web-api.md): {"record": R} or {"rgn": TEXT}, optional "table" and "estimate".
#pragma once

#include <nlohmann/json.hpp>

namespace ur::tables {

// The review of docs/review.md for `request`. Throws protocol::RequestError naming what is
// wrong. A missing table small enough to solve on the fly (solves_on_the_fly: up to 3 million
// positions, about a second) is solved on the spot, as every front end does.
nlohmann::json review_request(const nlohmann::json& request);

}  // namespace ur::tables
