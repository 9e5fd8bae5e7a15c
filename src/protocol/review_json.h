// The JSON form of a game review (docs/review.md): one entry a throw and each side's summary.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/review.h"

namespace ur::protocol {

nlohmann::json to_json(const analysis::Review& review);

}  // namespace ur::protocol
