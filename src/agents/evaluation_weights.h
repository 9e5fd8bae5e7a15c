// Fitted weights of the static evaluation (see evaluation.h for the feature layout and
// docs/strength.md for how they were fitted). Regenerate with `ur_tune_eval`.
#pragma once

#include "agents/evaluation.h"

namespace ur {

inline constexpr EvalWeights kTunedEvalWeights = {
    // bias
    0.0957,
    // our pieces on squares 1..14
    0.0594,
    0.0671,
    0.0746,
    0.0455,
    0.0593,
    0.0652,
    0.0816,
    0.5907,
    0.1918,
    0.2594,
    0.3122,
    0.3734,
    0.6316,
    0.6048,
    // our pieces home
    0.8264,
    // their pieces on squares 1..14
    -0.0731,
    -0.0731,
    -0.0820,
    -0.0429,
    -0.0456,
    -0.0145,
    -0.0646,
    -0.6913,
    -0.1444,
    -0.2125,
    -0.2606,
    -0.3417,
    -0.6375,
    -0.6091,
    // their pieces home
    -0.8271,
    // exposure on shared squares 5..12: our near, our far, their near, their far
    0.1034,
    0.1283,
    0.1238,
    0.0000,
    0.1458,
    0.1576,
    0.1685,
    0.1823,
    0.1881,
    0.1845,
    0.2153,
    0.0000,
    0.2299,
    0.2058,
    0.2256,
    0.2292,
    -0.0825,
    -0.1102,
    -0.0906,
    0.0000,
    -0.1596,
    -0.1527,
    -0.1534,
    -0.1859,
    -0.1540,
    -0.1988,
    -0.1937,
    0.0000,
    -0.2421,
    -0.2530,
    -0.2654,
    -0.2509,
    // danger: ours, theirs
    -0.0418,
    0.0874,
};

}  // namespace ur
