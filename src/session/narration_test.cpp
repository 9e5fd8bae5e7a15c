#include "session/narration.h"

#include <gtest/gtest.h>

#include "core/rule_sets.h"

namespace ur::session {
namespace {

const Rules kRules = finkel_rules();
const Voice kWeb = Voice::sides("Shell", "Bitumen");
const Voice kYou = Voice::you_against(Side::Light, "the computer");

std::string say(EventBody body, const Voice& voice = kWeb) {
  return narrate(Event{0, std::move(body)}, voice, kRules);
}

TEST(Narration, ThrowsNameTheSideOnce) {
  EXPECT_EQ(say(Thrown{Side::Dark, dice_showing(kRules, 1), 1}), "Bitumen threw 1.");
  EXPECT_EQ(say(Thrown{Side::Light, dice_showing(kRules, 2), 2}, kYou), "You threw 2.");
  EXPECT_EQ(say(Thrown{Side::Dark, dice_showing(kRules, 4), 4}, kYou), "The computer threw 4.");
}

TEST(Narration, MastersThrowOfNoMarksSaysItMovesFour) {
  const Rules masters(find_rule_set("masters")->spec);
  const Dice none = dice_showing(masters, 4);
  EXPECT_EQ(narrate(Event{0, Thrown{Side::Light, none, roll_of(masters, none)}}, kYou, masters),
            "You threw 4 (no marks count as 4).");
  EXPECT_EQ(narrate(Event{0, OpeningRound{none, dice_showing(masters, 3)}}, kWeb, masters),
            "Opening throws: Shell 4, Bitumen 3.");
}

TEST(Narration, ARosetteGivesAnotherThrowInTheRightPerson) {
  const Move to_rosette{0, 4, false, true};
  EXPECT_EQ(say(Moved{Side::Light, 4, to_rosette, false}, kYou),
            "You entered a piece on 4; you throw again for the rosette.");
  EXPECT_EQ(say(Moved{Side::Dark, 4, to_rosette, false}, kYou),
            "The computer entered a piece on 4; the computer throws again for the rosette.");
  EXPECT_EQ(say(Moved{Side::Dark, 4, to_rosette, false}),
            "Bitumen entered a piece on 4; Bitumen throws again for the rosette.");
}

TEST(Narration, CapturesNameWhosePieceWasTaken) {
  const Move capture{5, 7, true, false};
  EXPECT_EQ(say(Moved{Side::Dark, 2, capture, false}, kYou),
            "The computer moved 5 to 7, capturing your piece.");
  EXPECT_EQ(say(Moved{Side::Light, 2, capture, false}, kYou),
            "You moved 5 to 7, capturing the computer's piece.");
  EXPECT_EQ(say(Moved{Side::Light, 2, capture, false}),
            "Shell moved 5 to 7, capturing Bitumen's piece.");
}

TEST(Narration, BearingOffAndTheOnlyMove) {
  EXPECT_EQ(say(Moved{Side::Light, 1, Move{14, 15, false, false}, true}),
            "Shell bore a piece off from 14 (the only move).");
}

TEST(Narration, PassesAndGameStarts) {
  EXPECT_EQ(say(Passed{Side::Light, 0, false}, kYou), "You pass on a throw of 0.");
  EXPECT_EQ(say(Passed{Side::Dark, 3, false}), "Bitumen cannot move with a 3 and passes.");
  EXPECT_EQ(say(GameStarted{2, Side::Light, std::nullopt}, kYou), "Game 2: you start.");
  EXPECT_EQ(say(GameStarted{1, Side::Dark, std::nullopt}), "Game 1: Bitumen starts.");
}

TEST(Narration, OpeningRoundsEndsAndTakeBacks) {
  EXPECT_EQ(say(OpeningRound{dice_showing(kRules, 2), dice_showing(kRules, 2)}),
            "Opening throws: Shell 2, Bitumen 2 (a tie: both throw again).");
  EXPECT_EQ(say(Resigned{Side::Light}), "Shell resigned.");
  EXPECT_EQ(say(GameEnded{Side::Dark, true}), "Bitumen won the game.");
  EXPECT_EQ(say(GameEnded{Side::Light, false}, kYou), "You won.");
  EXPECT_EQ(say(TookBack{Side::Light, 9}, kYou), "You took back your last move.");
  EXPECT_EQ(say(SeriesStarted{}), "");
}

// The server said "gone for 2:00 ... you may claim the win after 2:00" at 1:59.5: an elapsed
// span rounded up.
TEST(Narration, ElapsedTimeRoundsDownAndAWaitRoundsUp) {
  using enum ClockRounding;
  EXPECT_EQ(minutes_seconds(0, kElapsed), "0:00");
  EXPECT_EQ(minutes_seconds(0, kWait), "0:00");
  EXPECT_EQ(minutes_seconds(1, kElapsed), "0:00");
  EXPECT_EQ(minutes_seconds(1, kWait), "0:01");
  EXPECT_EQ(minutes_seconds(119'500, kElapsed), "1:59");
  EXPECT_EQ(minutes_seconds(119'500, kWait), "2:00");
  EXPECT_EQ(minutes_seconds(61'000, kElapsed), "1:01");
  EXPECT_EQ(minutes_seconds(61'000, kWait), "1:01");
  EXPECT_EQ(minutes_seconds(-5, kElapsed), "0:00");
  EXPECT_EQ(minutes_seconds(-1'500, kWait), "0:00");
}

}  // namespace
}  // namespace ur::session
