// The online game as the terminal mirrors it: GameState JSON into the core's terms, the
// events narrated, presence, the screen drawn from it, and what keys ask of the server.
#include <gtest/gtest.h>

#include "core/notation.h"
#include "play/board_view.h"
#include "play/online_game.h"
#include "play/online_screen.h"
#include "protocol/json.h"

namespace ur::play {
namespace {

using nlohmann::json;

// A GameState as the server writes it (docs/web-api.md, online-api additions).
json game_state(const Position& position, const std::string& phase, std::uint64_t version,
                Roll roll = 0, json dice = nullptr) {
  const Rules rules = finkel_rules();
  return {{"id", "g-0123456789abcdef"},
          {"version", version},
          {"rules", protocol::to_json(rules)},
          {"position", protocol::to_json(position)},
          {"phase", phase},
          {"to_move", position.turn == Side::Light ? "light" : "dark"},
          {"roll", phase == "move" || phase == "pass" ? json(roll) : json(nullptr)},
          {"dice", dice},
          {"pass_reason", phase == "pass" ? json("A throw of 0: the turn passes.") : json(nullptr)},
          {"winner", nullptr},
          {"tally", {{"light", 1}, {"dark", 0}}},
          {"game_number", 2},
          {"online", true},
          {"seats",
           {{"light",
             {{"name", "Ann"},
              {"player", "person"},
              {"taken", true},
              {"connected", true},
              {"left_at", nullptr}}},
            {"dark",
             {{"name", "Bob"},
              {"player", "person"},
              {"taken", true},
              {"connected", true},
              {"left_at", nullptr}}}}},
          {"waiting_for_opponent", false},
          {"rematch_offer", nullptr},
          {"claim_win_after", nullptr},
          {"server_time", 1764600000000},
          {"log", {"Shell threw 2.", "Shell entered a piece on 2."}}};
}

json update(const json& state, json events = json::array()) {
  return {{"type", "update"}, {"game", state}, {"events", events}};
}

Position start_with(Side turn) {
  return starting_position(finkel_rules(), turn);
}

// A view of Ann (light) in a game whose first state has arrived.
OnlineView ann_view(const json& state) {
  OnlineView view;
  view.me = Side::Light;
  apply_message(view, update(state), 1000);
  return view;
}

std::string screen_text(const OnlineView& view, const OnlineUi& ui, std::int64_t now = 1000) {
  return compose_online_screen(view, ui, 80, 24, now).text(false);
}

TEST(OnlineGame, ReadsAGameStateIntoTheCoresTerms) {
  Position position = start_with(Side::Light);
  position.board[0] = square_bit(4);
  position.start[0] = 6;
  const OnlineGame game =
      online_game_from_json(game_state(position, "move", 12, 2, {true, false, true, false}));
  EXPECT_EQ(game.id, "g-0123456789abcdef");
  EXPECT_EQ(game.version, 12u);
  EXPECT_EQ(game.position, position);
  EXPECT_EQ(game.phase, OnlinePhase::Move);
  EXPECT_EQ(game.roll, 2);
  ASSERT_TRUE(game.dice.has_value());
  EXPECT_EQ(game.dice->count, 4);
  EXPECT_EQ(game.dice->marks, 0b0101);
  EXPECT_EQ(game.tally, (std::array<int, 2>{1, 0}));
  EXPECT_EQ(game.game_number, 2);
  EXPECT_EQ(game.seat(Side::Dark).name, "Bob");
  EXPECT_TRUE(game.seat(Side::Dark).connected);
  // The moves are the core's for that position and throw: enter on 2, or 4 → 6.
  const MoveList legal = game.legal();
  ASSERT_EQ(legal.size(), 2);
  EXPECT_EQ(legal[0].from, 0);
  EXPECT_EQ(legal[1].from, 4);
  EXPECT_EQ(legal[1].to, 6);
}

TEST(OnlineGame, RefusesAStateItCannotRead) {
  json state = game_state(start_with(Side::Light), "throw", 1);
  state.erase("position");
  EXPECT_THROW(online_game_from_json(state), protocol::RequestError);
  state = game_state(start_with(Side::Light), "thinking", 1);
  try {
    online_game_from_json(state);
    FAIL() << "accepted an unknown phase";
  } catch (const protocol::RequestError& error) {
    EXPECT_NE(std::string(error.what()).find("unknown phase \"thinking\""), std::string::npos);
  }
}

TEST(OnlineGame, NarratesTheOpponentsTurnAndDropsOldUpdates) {
  OnlineView view = ann_view(game_state(start_with(Side::Dark), "throw", 5));
  Position after = start_with(Side::Light);
  after.start[1] = 6;
  after.board[1] = square_bit(3);
  const json events = {
      {{"type", "throw"}, {"side", "dark"}, {"roll", 3}, {"dice", {true, true, true, false}}},
      {{"type", "move"},
       {"side", "dark"},
       {"from", 0},
       {"to", 3},
       {"capture", false},
       {"extra_throw", false}}};
  const auto said = apply_message(view, update(game_state(after, "throw", 7), events), 2000);
  ASSERT_EQ(said.size(), 2u);
  EXPECT_EQ(said[0], "Bob threw 3.");
  EXPECT_EQ(said[1], "Bob moved start → 3, enters a new piece.");
  ASSERT_TRUE(view.last_move.has_value());
  EXPECT_EQ(view.last_move->side, Side::Dark);
  EXPECT_EQ(view.last_move->move.to, 3);
  EXPECT_EQ(view.last_roll, 3);
  EXPECT_EQ(view.game.version, 7u);
  EXPECT_TRUE(view.my_turn());
  // An update not newer than the one shown changes nothing.
  EXPECT_TRUE(
      apply_message(view, update(game_state(start_with(Side::Dark), "throw", 6)), 3000).empty());
  EXPECT_EQ(view.game.position, after);
  // My own throw is not narrated back to me.
  const json mine = {
      {{"type", "throw"}, {"side", "light"}, {"roll", 1}, {"dice", {true, false, false, false}}}};
  EXPECT_TRUE(
      apply_message(
          view, update(game_state(after, "move", 8, 1, {true, false, false, false}), mine), 3000)
          .empty());
}

TEST(OnlineGame, SaysPresenceAndCountsDownAClaim) {
  OnlineView view = ann_view(game_state(start_with(Side::Dark), "throw", 5));
  json seats = game_state(start_with(Side::Dark), "throw", 5)["seats"];
  seats["dark"]["connected"] = false;
  seats["dark"]["left_at"] = 1764600000000;
  const json presence = {{"type", "presence"},
                         {"game_id", "g-0123456789abcdef"},
                         {"seats", seats},
                         {"claim_win_after", 1764600120000},
                         {"server_time", 1764600000000}};
  auto said = apply_message(view, presence, 10000);
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0], "Bob has left.");
  // Bob is to move and gone: Ann may claim after 2 minutes of the server's clock.
  EXPECT_EQ(claim_wait_ms(view, 10000), 120000);
  EXPECT_EQ(claim_wait_ms(view, 70000), 60000);
  EXPECT_EQ(claim_wait_ms(view, 200000), 0);
  OnlineUi ui;
  std::string screen = screen_text(view, ui, 70000);
  EXPECT_NE(screen.find("Bob has left on their turn: you may claim the win in 1:00"),
            std::string::npos)
      << screen;
  EXPECT_NE(screen.find("● Bitumen — Bob · has left 1:00 ago"), std::string::npos) << screen;
  EXPECT_NE(screen.find("v numbers · r resign · q quit"), std::string::npos) << screen;
  const std::string claimable = screen_text(view, ui, 200000);
  EXPECT_NE(claimable.find("Bob is gone on their turn: c claims the win, or keep waiting"),
            std::string::npos)
      << claimable;
  EXPECT_NE(claimable.find("v numbers · r resign · c claims the win · q quit"), std::string::npos)
      << claimable;
  EXPECT_EQ(online_key(view, ui, char_key('c'), 70000).action, OnlineAction::None);
  EXPECT_EQ(ui.message, "You may claim the win in 1:00, if Bob stays away.");
  EXPECT_EQ(online_key(view, ui, char_key('c'), 200000).action, OnlineAction::ClaimWin);
  seats["dark"]["connected"] = true;
  said = apply_message(view,
                       {{"type", "presence"},
                        {"seats", seats},
                        {"claim_win_after", nullptr},
                        {"server_time", 1764600100000}},
                       100000);
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0], "Bob is connected.");
  EXPECT_FALSE(claim_wait_ms(view, 100000).has_value());
}

TEST(OnlineGame, TheScreenDrawsTheStatesBoardWithTheLocalDrawing) {
  Position position = start_with(Side::Light);
  position.board[0] = square_bit(4);
  position.start[0] = 6;
  position.board[1] = square_bit(6);
  position.start[1] = 6;
  OnlineView view = ann_view(game_state(position, "throw", 3));
  OnlineUi ui;
  const std::string screen = screen_text(view, ui);
  EXPECT_NE(screen.find("ur · online · Finkel"), std::string::npos) << screen;
  EXPECT_NE(screen.find("game 2 · Ann 1 – 0 Bob"), std::string::npos) << screen;
  EXPECT_NE(screen.find("● Bitumen — Bob · connected"), std::string::npos) << screen;
  EXPECT_NE(screen.find("▶ ○ Shell — you (Ann)"), std::string::npos) << screen;
  EXPECT_NE(screen.find("Your turn: throw the dice"), std::string::npos) << screen;
  EXPECT_NE(screen.find("Bob is connected"), std::string::npos) << screen;
  EXPECT_NE(screen.find("› Shell entered a piece on 2."), std::string::npos) << screen;
  EXPECT_NE(screen.find("t throw · v numbers · r resign · q quit (the seat stays)"),
            std::string::npos)
      << screen;
  // The board is board_view's, row for row, for Ann's numbering.
  BoardOptions options;
  options.viewer = Side::Light;
  const std::string board = board_text(finkel_rules(), position, BoardMarks{}, options);
  std::size_t at = 0;
  for (std::size_t end; (end = board.find('\n', at)) != std::string::npos; at = end + 1) {
    const std::string row = board.substr(at, end - at);
    if (!row.empty()) {
      EXPECT_NE(screen.find(row), std::string::npos) << row << "\n" << screen;
    }
  }
}

TEST(OnlineGame, TheHostWaitsWithTheInviteLink) {
  json state = game_state(start_with(Side::Light), "throw", 1);
  state["waiting_for_opponent"] = true;
  state["seats"]["dark"] = {{"name", ""},
                            {"player", "person"},
                            {"taken", false},
                            {"connected", false},
                            {"left_at", nullptr}};
  OnlineView view = ann_view(state);
  OnlineUi ui;
  ui.invite_link = "http://127.0.0.1:8080/#join=0123456789abcdef0123456789abcdef";
  ui.watch_link = "http://127.0.0.1:8080/#watch=g-0123456789abcdef";
  const std::string screen = screen_text(view, ui);
  EXPECT_NE(screen.find("Anyone may watch: " + ui.watch_link), std::string::npos) << screen;
  EXPECT_NE(screen.find(ui.invite_link), std::string::npos) << screen;
  EXPECT_NE(screen.find("Waiting for your friend to join…"), std::string::npos) << screen;
  EXPECT_NE(screen.find("● Bitumen — your friend · not joined yet"), std::string::npos) << screen;
  EXPECT_EQ(online_key(view, ui, char_key('t'), 0).action, OnlineAction::None);
  EXPECT_EQ(ui.message, "'t' does nothing now: waiting for your friend to join (q quits)");
  // The friend joins: said, and the game is on.
  state["waiting_for_opponent"] = false;
  state["version"] = 2;
  state["seats"]["dark"] = {{"name", "Bob"},
                            {"player", "person"},
                            {"taken", true},
                            {"connected", true},
                            {"left_at", nullptr}};
  const auto said = apply_message(view, update(state), 2000);
  ASSERT_FALSE(said.empty());
  EXPECT_EQ(said.back(), "Bob joined.");
  EXPECT_EQ(online_key(view, ui, char_key('t'), 0).action, OnlineAction::Throw);
}

TEST(OnlineGame, KeysChooseAndMoveAsInTheLocalGame) {
  Position position = start_with(Side::Light);
  position.board[0] = square_bit(4);
  position.start[0] = 6;
  OnlineView view = ann_view(game_state(position, "move", 9, 2, {true, true, false, false}));
  OnlineUi ui;
  sync_online_ui(view, ui);
  ASSERT_EQ(ui.cursor, Square{0});
  std::string screen = screen_text(view, ui);
  EXPECT_NE(screen.find("You threw 2"), std::string::npos) << screen;
  EXPECT_NE(screen.find("» start → 2, enters a new piece   (Enter to move)"), std::string::npos)
      << screen;
  EXPECT_EQ(online_key(view, ui, Key{KeyCode::Right, 0}, 0).action, OnlineAction::None);
  EXPECT_EQ(ui.cursor, Square{4});
  OnlineIntent intent = online_key(view, ui, Key{KeyCode::Enter, 0}, 0);
  EXPECT_EQ(intent.action, OnlineAction::Move);
  EXPECT_EQ(intent.from, 4);
  EXPECT_EQ(socket_intent(intent, "T", 9),
            (json{{"action", "move"}, {"from", 4}, {"token", "T"}, {"version", 9}}));
  // A square typed with no piece on it: the core's reason, and the preview is cleared.
  online_key(view, ui, char_key('9'), 0);
  EXPECT_EQ(ui.message, "You have no piece on square 9.");
  EXPECT_TRUE(ui.message_is_error);
  EXPECT_EQ(ui.typed, "");
  // A first digit that may grow into a square waits for the next, as in the local game.
  online_key(view, ui, char_key('1'), 0);
  EXPECT_EQ(ui.message, "");
  EXPECT_EQ(ui.typed, "1");
  screen = screen_text(view, ui);
  EXPECT_NE(screen.find("typed 1…   the next digit, or Enter for square 1"), std::string::npos)
      << screen;
  EXPECT_EQ(online_key(view, ui, Key{KeyCode::Enter, 0}, 0).action, OnlineAction::None);
  EXPECT_EQ(ui.message, "You have no piece on square 1.");
  EXPECT_EQ(ui.typed, "");
  online_key(view, ui, char_key('s'), 0);
  EXPECT_EQ(ui.cursor, Square{0});
  EXPECT_EQ(online_key(view, ui, char_key('p'), 0).action, OnlineAction::None);
  EXPECT_EQ(ui.message, "You have a legal move: choose a piece and press Enter.");
  // Resigning asks first.
  EXPECT_EQ(online_key(view, ui, char_key('r'), 0).action, OnlineAction::None);
  EXPECT_TRUE(ui.confirm_resign);
  EXPECT_NE(screen_text(view, ui).find("Resign this game?  y / n"), std::string::npos);
  EXPECT_EQ(online_key(view, ui, char_key('y'), 0).action, OnlineAction::Resign);
  EXPECT_EQ(online_key(view, ui, char_key('q'), 0).action, OnlineAction::Quit);
  EXPECT_TRUE(ui.quit);
}

TEST(OnlineGame, KeysWaitForTheOpponentAndOfferARematchAtTheEnd) {
  OnlineView view = ann_view(game_state(start_with(Side::Dark), "throw", 4));
  OnlineUi ui;
  EXPECT_EQ(online_key(view, ui, char_key('t'), 0).action, OnlineAction::None);
  EXPECT_EQ(ui.message, "'t' does nothing now: it is Bob's turn: wait for them");
  std::string waiting = screen_text(view, ui);
  EXPECT_NE(waiting.find("Bob to throw"), std::string::npos) << waiting;
  EXPECT_NE(waiting.find("\n  v numbers · r resign · q quit (the seat stays)"), std::string::npos)
      << waiting;
  // A message longer than its line ends in "…".
  ui.message.clear();
  for (int i = 0; i < 10; ++i) ui.message += "Bob threw 3. ";
  ui.message_is_error = false;
  waiting = screen_text(view, ui);
  EXPECT_NE(
      waiting.find(
          "\n  Bob threw 3. Bob threw 3. Bob threw 3. Bob threw 3. Bob threw 3. Bob threw…\n"),
      std::string::npos)
      << waiting;

  json over = game_state(start_with(Side::Dark), "game_over", 40);
  over["winner"] = "light";
  const json events = {{{"type", "game_over"}, {"winner", "light"}, {"by_resignation", false}}};
  EXPECT_EQ(apply_message(view, update(over, events), 5000), std::vector<std::string>{"You win!"});
  std::string screen = screen_text(view, ui);
  EXPECT_NE(screen.find("You win!"), std::string::npos) << screen;
  EXPECT_NE(screen.find("★ winner"), std::string::npos) << screen;
  EXPECT_EQ(online_key(view, ui, char_key('n'), 0).action, OnlineAction::Rematch);
  over["version"] = 41;
  over["rematch_offer"] = "dark";
  EXPECT_EQ(apply_message(view, update(over), 6000),
            std::vector<std::string>{"Bob offers a rematch: n accepts."});
  screen = screen_text(view, ui);
  EXPECT_NE(screen.find("Bob asks for a rematch: n accepts"), std::string::npos) << screen;
}

TEST(OnlineGame, ServerErrorsAreShownAsTheyCome) {
  OnlineView view = ann_view(game_state(start_with(Side::Light), "throw", 4));
  const json error = {{"type", "error"},
                      {"action", "throw"},
                      {"error", "It is not your seat."},
                      {"code", "not_your_seat"}};
  EXPECT_TRUE(is_error_message(error));
  EXPECT_EQ(apply_message(view, error, 0), std::vector<std::string>{"It is not your seat."});
}

}  // namespace
}  // namespace ur::play
