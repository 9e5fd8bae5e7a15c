// Fitted weights of the static evaluation (see evaluation.h for the feature layout and
// docs/strength.md for how they were fitted). Regenerate with `ur_tune_eval`.
#pragma once

#include "agents/evaluation.h"

namespace ur {

inline constexpr EvalWeights kTunedEvalWeights = {
    // bias
    0.0902,
    // our pieces on squares 1..14
    0.0913,
    0.1061,
    0.1115,
    0.0987,
    0.0826,
    0.0937,
    -0.0134,
    0.3770,
    0.0952,
    0.1318,
    0.1372,
    0.2288,
    0.4951,
    0.4300,
    // our pieces home
    0.5697,
    // their pieces on squares 1..14
    -0.0912,
    -0.1203,
    -0.1390,
    -0.1143,
    0.0108,
    -0.0387,
    -0.0652,
    -0.4411,
    -0.1025,
    -0.0732,
    -0.1060,
    -0.1923,
    -0.4884,
    -0.4355,
    // their pieces home
    -0.5697,
    // exposure on shared squares 5..12: our near, our far, their near, their far
    0.0969,
    0.0970,
    0.2554,
    0.0000,
    0.2197,
    0.1849,
    0.2731,
    0.2448,
    0.0936,
    0.1003,
    0.2675,
    0.0000,
    0.2607,
    0.2424,
    0.2982,
    0.2203,
    -0.1861,
    -0.1394,
    -0.1390,
    0.0000,
    -0.1727,
    -0.2248,
    -0.2493,
    -0.1825,
    -0.1852,
    -0.1477,
    -0.1628,
    0.0000,
    -0.1998,
    -0.2577,
    -0.2822,
    -0.2438,
    // danger: ours, theirs
    -0.1505,
    0.2423,
};

}  // namespace ur
