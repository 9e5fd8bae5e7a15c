// The settings menu (menu.cpp): changing values, take-back against the computer only, the
// seed field, and starting the next game with the settings chosen.
#include "play/menu.h"

#include <gtest/gtest.h>

#include "core/rule_sets.h"
#include "play/controller.h"
#include "play/play_test_support.h"

namespace ur::play {
namespace {

using testing::make_game;
using testing::press;
using testing::snapshot;

TEST(Menu, MenuChangesSettingsForTheNextGame) {
  PlaySession game = make_game();
  UiState ui;
  press(game, ui, "m");
  ASSERT_EQ(ui.overlay, Overlay::Menu);
  press(game, ui, "\x1b[C");  // opponent: friend -> easy
  EXPECT_EQ(ui.draft.opponent, "easy");
  press(game, ui, "\x1b[B\x1b[B\x1b[C");  // past the rule set: pieces 7 -> 5
  EXPECT_EQ(ui.draft.rules.pieces, 5);
  press(game, ui, "\x1b[B\x1b[B\x1b[B\r");  // auto-play on, at once: nothing was thrown yet
  EXPECT_TRUE(game.settings().auto_play);
  EXPECT_EQ(game.log().back(), "Game 1: light starts.") << "the game starts again under it";
  press(game, ui, "\x1b[B\x1b[B\x1b[B");  // past take-back to the seed row
  press(game, ui,
        "\x7f"
        "9");
  EXPECT_EQ(ui.seed_text, "9") << "seed 7 edited to 9";
  press(game, ui, "z");
  EXPECT_TRUE(ui.message_is_error);
  press(game, ui, "\x1b[B\ry");  // start a new game, abandoning this one
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_EQ(game.settings().opponent, "easy");
  EXPECT_EQ(game.rules().pieces, 5);
  EXPECT_EQ(game.settings().seed, 9u);
  EXPECT_EQ(game.session().seed(), 9u) << "a new seed is a new series of the session";
  EXPECT_EQ(game.game_number(), 2);
  EXPECT_TRUE(game.settings().take_back) << "on by default against the computer";
}

TEST(Menu, TheRuleSetRowCyclesTheNamedSetsKeepingPiecesAndBearOff) {
  PlaySession game = make_game();
  UiState ui;
  press(game, ui, "m");
  ui.menu_row = static_cast<int>(MenuRow::Pieces);
  press(game, ui, "\x1b[C");  // 7 -> 5
  ui.menu_row = static_cast<int>(MenuRow::BearOff);
  press(game, ui, "\r");  // any throw
  ui.menu_row = static_cast<int>(MenuRow::RuleSet);
  std::vector<std::string> seen;
  for (int step = 0; step < 4; ++step) {
    const std::string menu = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
    const NamedRuleSet* set = find_rule_set(rule_set_name(ui.draft.rules));
    ASSERT_NE(set, nullptr);
    seen.emplace_back(set->name);
    EXPECT_NE(menu.find("‹ " + std::string(set->name) + " ›"), std::string::npos) << menu;
    // The set's one-line summary stands under the menu (wrapped), beginning with its words.
    EXPECT_NE(menu.find(std::string(set->summary.substr(0, 20))), std::string::npos) << menu;
    EXPECT_EQ(ui.draft.rules.pieces, 5) << "pieces stay";
    EXPECT_EQ(ui.draft.rules.bear_off, BearOff::Any) << "bear-off stays";
    press(game, ui, "\x1b[C");
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"finkel", "masters", "blitz", "aseb"}));
  EXPECT_EQ(rule_set_name(ui.draft.rules), "finkel") << "round again";
  press(game, ui, "\x1b[D");  // back to aseb
  ui.menu_row = static_cast<int>(MenuRow::Start);
  press(game, ui, "\ry");
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_EQ(rule_set_name(game.rules()), "aseb");
  EXPECT_EQ(game.rules().route_length, 16);
  const std::string screen = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(screen.find("ur · the Royal Game of Ur · Aseb"), std::string::npos) << screen;
}

TEST(Menu, ThePerfectOpponentIsRefusedForAPathTheSolverCannotSolve) {
  PlaySession game = make_game();
  UiState ui;
  press(game, ui, "m");
  ui.draft.opponent = "perfect";
  RuleSpec murray = find_rule_set("masters")->spec;
  murray.path = PathKind::Murray;
  ui.draft.rules = Rules(murray);
  ui.menu_row = static_cast<int>(MenuRow::Start);
  press(game, ui, "\r");
  EXPECT_EQ(ui.overlay, Overlay::Menu) << "no question nor build offer that cannot work";
  EXPECT_TRUE(ui.message_is_error);
  EXPECT_EQ(ui.message.rfind("Perfect play for ", 0), 0u) << ui.message;
  EXPECT_NE(ui.message.find("crosses itself"), std::string::npos) << ui.message;
  EXPECT_NE(ui.message.find("Choose another opponent or rule set."), std::string::npos);
  EXPECT_EQ(rule_set_name(game.rules()), "finkel") << "the game goes on unchanged";
  ui.draft.opponent = "medium";
  press(game, ui, "\ry");
  EXPECT_EQ(ui.overlay, Overlay::None) << "other levels play every set";
  EXPECT_EQ(game.rules().path, PathKind::Murray);
}

// The refusal is longer than the menu's four lines of notes: the box makes room for all of it.
TEST(Menu, ARefusalIsWrappedWholeInsideTheBox) {
  PlaySession game = make_game("medium");
  UiState ui;
  press(game, ui, "m");
  ui.draft.opponent = "perfect";
  RuleSpec murray;
  murray.path = PathKind::Murray;
  murray.pieces = 3;
  ui.draft.rules = Rules(murray);
  ui.menu_row = static_cast<int>(MenuRow::Start);
  press(game, ui, "\r");
  ASSERT_EQ(ui.overlay, Overlay::Menu);
  ASSERT_TRUE(ui.message_is_error);
  const Canvas menu = compose_screen(game, ui, kMinWidth, kMinHeight);
  EXPECT_NE(testing::box_text(menu, 12, 56).find("✗ " + ui.message), std::string::npos)
      << menu.text(false);
}

TEST(Menu, TakeBackIsASettingAgainstTheComputerOnly) {
  PlaySession game = make_game();
  UiState ui;
  press(game, ui, "m");
  ui.menu_row = static_cast<int>(MenuRow::TakeBack);
  press(game, ui, "\r");
  EXPECT_EQ(ui.message, "Take-back is only for games against the computer.");
  EXPECT_FALSE(ui.draft.take_back);
  ui.menu_row = static_cast<int>(MenuRow::Opponent);
  press(game, ui, "\x1b[C");  // friend -> easy
  EXPECT_TRUE(ui.draft.take_back) << "on by default against the computer";
  ui.menu_row = static_cast<int>(MenuRow::TakeBack);
  press(game, ui, "\r");
  EXPECT_FALSE(ui.draft.take_back);
  const std::string menu = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(menu.find("Take-back (u)"), std::string::npos) << menu;
  ui.menu_row = static_cast<int>(MenuRow::Start);
  press(game, ui, "\ry");
  EXPECT_FALSE(game.settings().take_back);
  EXPECT_FALSE(game.session().settings().take_back);
}

// Starting from the menu abandons the game under way, so it asks as n does: no keeps the
// game and the menu's choices, yes starts the new game and says what changed.
TEST(Menu, StartingANewGameFromTheMenuAsksFirstDuringAGame) {
  PlaySession game = make_game("medium");
  UiState ui;
  sync_ui(game, ui);
  press(game, ui, "t");
  const std::string before = snapshot(game);
  press(game, ui, "m");
  press(game, ui, "\x1b[C");  // opponent: medium -> hard
  ui.menu_row = static_cast<int>(MenuRow::RuleSet);
  press(game, ui, "\x1b[C");  // finkel -> masters
  ui.menu_row = static_cast<int>(MenuRow::Pieces);
  press(game, ui, "\x1b[C\x1b[C");  // 7 -> 5 -> 3
  ui.menu_row = static_cast<int>(MenuRow::Start);
  press(game, ui, "\r");
  ASSERT_EQ(ui.overlay, Overlay::Confirm);
  EXPECT_EQ(snapshot(game), before) << "nothing is abandoned before the answer";
  const std::string question = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(question.find("Abandon this game for a new one?  y / n"), std::string::npos)
      << question;
  press(game, ui, "n");
  EXPECT_EQ(ui.overlay, Overlay::Menu) << "no: back in the menu";
  EXPECT_EQ(ui.draft.opponent, "hard") << "the choices are kept";
  EXPECT_EQ(ui.draft.rules.pieces, 3);
  EXPECT_EQ(ui.menu_row, static_cast<int>(MenuRow::Start));
  EXPECT_EQ(snapshot(game), before);
  press(game, ui, "\ry");
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_EQ(game.game_number(), 2);
  EXPECT_EQ(game.settings().opponent, "hard");
  EXPECT_EQ(rule_set_name(game.rules()), "masters");
  EXPECT_EQ(game.rules().pieces, 3);
  EXPECT_FALSE(ui.message_is_error);
  EXPECT_EQ(ui.message, "New game: now Masters, 3 pieces, opponent hard.");
  const std::string screen = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(screen.find("New game: now Masters, 3 pieces, opponent hard."), std::string::npos)
      << screen;
}

// Over, the game has nothing to lose: the menu starts the next one at once, as n does.
TEST(Menu, OnceTheGameIsOverTheMenuStartsTheNextWithoutAsking) {
  PlaySession game = make_game();
  UiState ui;
  testing::play_to_the_end(game);
  sync_ui(game, ui);
  ASSERT_EQ(ui.overlay, Overlay::GameOver);
  press(game, ui, "m");
  ui.menu_row = static_cast<int>(MenuRow::Start);
  press(game, ui, "\r");
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_EQ(game.game_number(), 2);
  EXPECT_EQ(ui.message, "New game with the same settings.");
}

// Esc, m and Back leave the game as it was; changes made in the menu are then dropped, and
// the message line says so rather than losing them unsaid.
TEST(Menu, LeavingTheMenuWithChangesSaysTheyWereDiscarded) {
  PlaySession game = make_game();
  UiState ui;
  press(game, ui, "m");
  const std::string menu = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(menu.find("Esc or m closes, dropping the other changes."), std::string::npos) << menu;
  press(game, ui, "\x1b");
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_EQ(ui.message, "") << "nothing changed, nothing to say";

  press(game, ui, "m\x1b[C\x1b");  // friend -> easy, then Esc
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_EQ(ui.message, "Settings unchanged: your changes were discarded.");
  EXPECT_EQ(game.settings().opponent, kFriend);
  const std::string screen = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(screen.find("Settings unchanged: your changes were discarded."), std::string::npos)
      << screen;

  // The Back row alike; an edited seed is a change too.
  press(game, ui, "m");
  ui.menu_row = static_cast<int>(MenuRow::Seed);
  press(game, ui, "\x7f");
  ui.menu_row = static_cast<int>(MenuRow::Back);
  press(game, ui, "\r");
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_EQ(ui.message, "Settings unchanged: your changes were discarded.");
  EXPECT_EQ(game.settings().seed, 7u);

  // Auto-play takes effect as it is switched: nothing of it is dropped.
  press(game, ui, "m");
  ui.menu_row = static_cast<int>(MenuRow::AutoPlay);
  press(game, ui, "\rm");
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_EQ(ui.message, "");
  EXPECT_TRUE(game.next_settings().auto_play);
}

// A custom set from the command line (here --dice 3 --pieces 5) stays on the rule set's row,
// after the named sets, so the player can go back to it after trying them.
// ur play --pieces 4: the Pieces row offers 7, 5 and 3, and 4 too, so that it is not lost
// once the row has moved on.
TEST(Menu, ThePiecesRowKeepsThePieceCountTheGameStartedWith) {
  Rules four = finkel_rules();
  four.pieces = 4;
  PlaySession game = make_game(std::string(kFriend), 7, four);
  UiState ui;
  press(game, ui, "m");
  ui.menu_row = static_cast<int>(MenuRow::Pieces);
  std::vector<int> seen;
  for (int step = 0; step < 4; ++step) {
    press(game, ui, "\x1b[C");
    seen.push_back(ui.draft.rules.pieces);
  }
  EXPECT_EQ(seen, (std::vector<int>{3, 7, 5, 4}));
}

TEST(Menu, TheRuleSetRowReturnsToTheCustomSetTheGameStartedWith) {
  RuleSpec spec = find_rule_set("finkel")->spec;
  spec.dice = 3;
  spec.pieces = 5;
  ASSERT_FALSE(why_unplayable(spec));
  const Rules custom(spec);
  ASSERT_EQ(rule_set_name(custom), "custom");
  PlaySession game = make_game(std::string(kFriend), 7, custom);
  UiState ui;
  press(game, ui, "m");
  ui.menu_row = static_cast<int>(MenuRow::RuleSet);
  std::string menu = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(menu.find("‹ custom ›"), std::string::npos) << menu;
  EXPECT_NE(menu.find("Custom (finkel path, 3 dice), 5 pieces"), std::string::npos) << menu;
  std::vector<std::string> seen;
  for (int step = 0; step < 5; ++step) {
    press(game, ui, "\x1b[C");
    seen.emplace_back(rule_set_name(ui.draft.rules));
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"finkel", "masters", "blitz", "aseb", "custom"}));
  EXPECT_EQ(ui.draft.rules, custom) << "the very set, pieces and all";
  press(game, ui, "\x1b[D\x1b[C");  // to aseb and back
  EXPECT_EQ(ui.draft.rules, custom);

  // Once Finkel is played, the row still leads back to the custom set (← from finkel).
  press(game, ui, "\x1b[C");
  ui.menu_row = static_cast<int>(MenuRow::Start);
  press(game, ui, "\ry");
  ASSERT_EQ(rule_set_name(game.rules()), "finkel");
  press(game, ui, "m");
  ui.menu_row = static_cast<int>(MenuRow::RuleSet);
  press(game, ui, "\x1b[D");
  EXPECT_EQ(ui.draft.rules, custom);
  menu = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(menu.find("‹ custom ›"), std::string::npos) << menu;
}

TEST(Menu, MenuRefusesAnEmptySeed) {
  PlaySession game = make_game();
  UiState ui;
  press(game, ui, "m");
  ui.menu_row = static_cast<int>(MenuRow::Seed);
  press(game, ui, "\x7f\x1b[B\r");
  EXPECT_EQ(ui.overlay, Overlay::Menu);
  EXPECT_EQ(ui.message, "The seed must be a whole number from 0 to 18446744073709551615.");
  EXPECT_EQ(game.game_number(), 1);
}

}  // namespace
}  // namespace ur::play
