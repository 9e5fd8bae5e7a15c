#include "server/game.h"

#include <gtest/gtest.h>

TEST(GameTest, Compiles) {}
