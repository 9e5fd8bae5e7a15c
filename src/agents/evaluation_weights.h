// Fitted weights of the static evaluation (see evaluation.h for the feature layout and
// docs/strength.md for how they were fitted). Regenerate with `ur_tune_eval`.
#pragma once

#include "agents/evaluation.h"

namespace ur {

inline constexpr EvalWeights kTunedEvalWeights = {
    // bias
    0.1,
    // our pieces on squares 1..14
    0.04, 0.08, 0.12, 0.2, 0.2, 0.24, 0.28, 0.4, 0.36, 0.4, 0.44, 0.48, 0.52, 0.58,
    // our pieces home
    0.6,
    // their pieces on squares 1..14
    -0.04, -0.08, -0.12, -0.2, -0.2, -0.24, -0.28, -0.4, -0.36, -0.4, -0.44, -0.48, -0.52, -0.58,
    // their pieces home
    -0.6,
    // our danger, their danger
    -0.3, 0.4};

}  // namespace ur
