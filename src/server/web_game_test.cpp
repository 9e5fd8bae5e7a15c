// The page's view of a session: intents as the page sends them, refusals, GameState, events
// and the log, all in the page's words.
#include "server/web_game.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include "core/explain.h"
#include "core/notation.h"
#include "server/api_error.h"
#include "server/test_agent.h"
#include "server/web_settings.h"

namespace ur::server {
namespace {

using nlohmann::json;
using session::Phase;
using session::Session;

constexpr session::Time kNow = 1'764'547'200'000;

session::Settings web_settings(const json& patch) {
  return merge_web_settings(default_web_settings(), patch);
}

session::Settings friend_settings() {
  return web_settings({{"opponent", "friend"}});
}

WebGame new_game(const session::Settings& settings, std::uint64_t seed = 7) {
  return WebGame{"g-0000000000000001", 0, Session::start(settings, seed, kNow)};
}

// Applies the page's intent and returns its events as the page receives them.
json act(WebGame& game, Action action, const json& body = json::object()) {
  const std::size_t first = apply_intent(game, parse_intent(action, body), kNow);
  return web_events(game.session, first);
}

Square first_legal_from(const WebGame& game) {
  return game.session.legal_moves()[0].from;
}

// Throws until the side to move has a throw with a legal move (passing the others).
void throw_until_move(WebGame& game) {
  for (int i = 0; i < 100 && game.session.phase() != Phase::Move; ++i) {
    if (game.session.phase() == Phase::Pass) act(game, Action::Pass);
    if (game.session.phase() == Phase::Throw) act(game, Action::Throw);
  }
  ASSERT_EQ(game.session.phase(), Phase::Move);
}

// Expects the intent to be refused with `code`, leaving the game exactly as it was.
void expect_refused(WebGame& game, const std::string& code, Action action,
                    const json& body = json::object()) {
  const auto before = game.session.history();
  try {
    act(game, action, body);
    FAIL() << "expected " << code;
  } catch (const ApiError& error) {
    EXPECT_EQ(error.code(), code) << error.what();
    EXPECT_FALSE(std::string(error.what()).empty());
    EXPECT_EQ(error.status(), code.starts_with("bad_") ? 400 : 409);
  }
  EXPECT_EQ(game.session.history(), before);
}

TEST(WebGame, FriendGamePlaysToTheEndAndCountsTheWin) {
  WebGame game = new_game(friend_settings());
  int actions = 0;
  while (game.session.phase() != Phase::Over && actions < 5000) {
    json events;
    switch (game.session.phase()) {
      case Phase::Throw:
        events = act(game, Action::Throw, {{"side", side_name(game.session.to_move())}});
        ASSERT_EQ(events.front()["type"], "throw");
        break;
      case Phase::Move:
        events = act(game, Action::Move, {{"from", first_legal_from(game)}});
        ASSERT_EQ(events.front()["type"], "move");
        break;
      case Phase::Pass:
        events = act(game, Action::Pass);
        ASSERT_EQ(events.front()["type"], "pass");
        EXPECT_TRUE(events.front()["reason"].is_string());
        break;
      case Phase::Over:
        break;
    }
    EXPECT_EQ(game.version, 0u);  // the hub numbers versions, not the game
    ++actions;
  }
  ASSERT_EQ(game.session.phase(), Phase::Over);
  const Side winner = *game.session.winner();
  EXPECT_EQ(game.session.tally()[index_of(winner)], 1);
  EXPECT_EQ(game.session.tally()[1 - index_of(winner)], 0);
  const json state = game_state_json(game);
  EXPECT_EQ(state["phase"], "game_over");
  EXPECT_EQ(state["winner"], side_name(winner));
  // The log keeps the whole game, not only its latest lines.
  EXPECT_GT(state["log"].size(), 20u);
  EXPECT_EQ(state["log"].front(), "Game 1: Shell starts.");

  const json events = act(game, Action::New);
  EXPECT_EQ(game.session.game_number(), 2);
  EXPECT_EQ(game.session.game_starter(), Side::Dark);  // alternate: dark opens even games
  EXPECT_EQ(game.session.position(), starting_position(game.session.rules(), Side::Dark));
  EXPECT_EQ(game.session.tally()[index_of(winner)], 1);
  EXPECT_EQ(events.front()["type"], "new_game");
}

TEST(WebGame, TheComputerPlaysThroughTheSessionUntilThePersonMustAct) {
  WebGame game = new_game(web_settings({{"seat", "dark"}}));  // the computer opens game 1
  ASSERT_TRUE(game.session.computer_to_act());
  expect_refused(game, "not_your_turn", Action::Throw);
  testing::LastMoveAgents agents;
  const std::size_t first = game.session.history().size();
  ASSERT_TRUE(game.session.drive(agents, kNow).accepted());
  EXPECT_EQ(game.session.to_move(), Side::Dark);
  const json events = web_events(game.session, first);
  EXPECT_EQ(events.front()["type"], "throw");
  EXPECT_EQ(events.front()["side"], "light");
  EXPECT_EQ(game_state_json(game)["human_sides"], json::array({"dark"}));
  EXPECT_EQ(game_state_json(game)["computer_sides"], json::array({"light"}));
}

TEST(WebGame, RefusesEveryBadIntentAndLeavesTheGameUnchanged) {
  WebGame game = new_game(friend_settings());
  expect_refused(game, "no_throw_yet", Action::Move, {{"from", 0}});
  expect_refused(game, "no_throw_yet", Action::Pass);
  expect_refused(game, "not_your_turn", Action::Throw, {{"side", "dark"}});
  throw_until_move(game);
  expect_refused(game, "throw_pending", Action::Throw);
  expect_refused(game, "illegal_move", Action::Pass);
  expect_refused(game, "illegal_move", Action::Move, {{"from", 9}});
  expect_refused(game, "illegal_move", Action::Move, {{"from", 15}});
  const Side other = opponent(game.session.to_move());
  expect_refused(game, "not_your_turn", Action::Move, {{"from", 0}, {"side", side_name(other)}});
  expect_refused(game, "take_back_off", Action::TakeBack);
  EXPECT_THROW(act(game, Action::Settings, {{"settings", {{"pieces", 4}}}}), ApiError);
  EXPECT_THROW(act(game, Action::Settings, {{"settings", {{"colour", "red"}}}}), ApiError);
  EXPECT_THROW(act(game, Action::New, {{"settings", json::array()}}), ApiError);
}

TEST(WebGame, RefusesIntentsAfterTheGameEnded) {
  WebGame game = new_game(friend_settings());
  act(game, Action::Resign);
  ASSERT_EQ(game.session.phase(), Phase::Over);
  expect_refused(game, "game_over", Action::Throw);
  expect_refused(game, "game_over", Action::Move, {{"from", 0}});
  const json state = game_state_json(game);
  EXPECT_TRUE(state["resigned"].get<bool>());
  EXPECT_EQ(state["winner"], "dark");
}

TEST(WebGame, PassPhaseNeedsThePassIntent) {
  WebGame game = new_game(friend_settings(), 1);
  for (int i = 0; i < 200 && game.session.phase() != Phase::Pass; ++i) {
    if (game.session.phase() == Phase::Move) {
      act(game, Action::Move, {{"from", first_legal_from(game)}});
    } else if (game.session.phase() == Phase::Throw) {
      act(game, Action::Throw);
    }
  }
  ASSERT_EQ(game.session.phase(), Phase::Pass);
  const json state = game_state_json(game);
  EXPECT_TRUE(state["pass_reason"].is_string());
  EXPECT_TRUE(state["legal_moves"].empty());
  expect_refused(game, "illegal_move", Action::Move, {{"from", 0}});
  expect_refused(game, "throw_pending", Action::Throw);
  const Side mover = game.session.to_move();
  act(game, Action::Pass, {{"side", side_name(mover)}});
  EXPECT_EQ(game.session.to_move(), opponent(mover));
  EXPECT_EQ(game.session.phase(), Phase::Throw);
}

TEST(WebGame, SettingsApplyAtOnceBeforeTheFirstThrowAndLaterOtherwise) {
  WebGame game = new_game(friend_settings());
  json events = act(game, Action::Settings, {{"settings", {{"pieces", 5}, {"bear_off", "any"}}}});
  EXPECT_EQ(game.session.rules().pieces, 5);
  EXPECT_EQ(game.session.position().start, (std::array<std::uint8_t, 2>{5, 5}));
  EXPECT_EQ(events.back()["type"], "new_game");

  throw_until_move(game);
  act(game, Action::Settings, {{"settings", {{"pieces", 3}}}});
  EXPECT_EQ(game.session.rules().pieces, 5);
  ASSERT_TRUE(game.session.pending_settings().has_value());
  EXPECT_EQ(game.session.pending_settings()->rules.pieces, 3);
  EXPECT_EQ(game.session.pending_settings()->rules.bear_off, BearOff::Any);
  EXPECT_EQ(game_state_json(game)["next_settings"]["pieces"], 3);

  act(game, Action::New, {{"settings", {{"auto_play", true}}}});
  EXPECT_EQ(game.session.rules().pieces, 3);
  EXPECT_TRUE(game.session.settings().auto_play);
  EXPECT_FALSE(game.session.pending_settings().has_value());
  EXPECT_EQ(game.session.position().start, (std::array<std::uint8_t, 2>{3, 3}));
}

TEST(WebGame, TakeBackIsASettingOnAgainstTheComputerAndOffBetweenFriends) {
  EXPECT_TRUE(default_web_settings().take_back);
  EXPECT_FALSE(friend_settings().take_back);
  EXPECT_FALSE(web_settings({{"opponent", "friend"}, {"take_back", true}}).take_back);
  EXPECT_FALSE(web_settings({{"take_back", false}}).take_back);
  // Back from a friend game, take-back is on again unless asked otherwise.
  EXPECT_TRUE(merge_web_settings(friend_settings(), {{"opponent", "hard"}}).take_back);
  EXPECT_EQ(web_settings_json(default_web_settings())["take_back"], true);
}

// Take-back against the computer: back to the person's last decision, with the same throw.
TEST(WebGame, TakeBackReturnsToTheLastDecisionWithTheSameThrow) {
  testing::LastMoveAgents agents;
  for (std::uint64_t seed = 1; seed < 200; ++seed) {
    WebGame game = new_game(default_web_settings(), seed);
    for (int i = 0; i < 400 && game.session.phase() != Phase::Over; ++i) {
      if (game.session.computer_to_act()) {
        game.session.drive(agents, kNow);
        continue;
      }
      if (game.session.phase() == Phase::Move && game.session.legal_moves().size() >= 2) {
        const Position before = game.session.position();
        const Roll roll = game.session.pending_throw()->roll;
        act(game, Action::Move, {{"from", game.session.legal_moves()[1].from}});
        game.session.drive(agents, kNow);
        if (game.session.phase() == Phase::Over) break;
        ASSERT_TRUE(game_state_json(game)["can_take_back"].get<bool>());
        const json events = act(game, Action::TakeBack);
        EXPECT_EQ(events.front()["type"], "take_back");
        EXPECT_EQ(events.front()["side"], "light");
        EXPECT_EQ(game.session.position(), before);
        EXPECT_EQ(game.session.pending_throw()->roll, roll);
        EXPECT_EQ(game_state_json(game)["phase"], "move");
        return;
      }
      if (game.session.phase() == Phase::Move) {
        act(game, Action::Move, {{"from", first_legal_from(game)}});
      } else {
        act(game, game.session.phase() == Phase::Throw ? Action::Throw : Action::Pass);
      }
    }
  }
  FAIL() << "no game reached a decision";
}

// The page shows the log and the refusals as they are: they name the sides as the board does.
TEST(WebGame, LogAndRefusalsNameTheSidesShellAndBitumen) {
  WebGame game = new_game(web_settings({{"opponent", "friend"}, {"starts", "higher"}}));
  for (int i = 0; i < 30; ++i) {
    if (game.session.phase() == Phase::Throw) act(game, Action::Throw);
    if (game.session.phase() == Phase::Move)
      act(game, Action::Move, {{"from", first_legal_from(game)}});
    if (game.session.phase() == Phase::Pass) act(game, Action::Pass);
  }
  bool shell = false;
  bool bitumen = false;
  const json log = game_state_json(game)["log"];
  for (const std::string line : log) {
    EXPECT_EQ(line.find("ight"), std::string::npos) << line;
    EXPECT_EQ(line.find("ark"), std::string::npos) << line;
    shell = shell || line.find("Shell") != std::string::npos;
    bitumen = bitumen || line.find("Bitumen") != std::string::npos;
  }
  EXPECT_TRUE(shell && bitumen);
  const Side other = opponent(game.session.to_move());
  try {
    act(game, Action::Throw, {{"side", side_name(other)}});
    FAIL() << "a throw out of turn was accepted";
  } catch (const ApiError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(other == Side::Light ? "Shell" : "Bitumen"), std::string::npos)
        << message;
    EXPECT_EQ(message.find("ight"), std::string::npos) << message;
    EXPECT_EQ(message.find("ark"), std::string::npos) << message;
  }
}

// Settings applied before the first throw restart the game: the log tells only that start.
TEST(WebGame, SettingsAppliedAtOnceLeaveOneStartLineInTheLog) {
  auto starts = [](const WebGame& game, const std::string& prefix) {
    const json log = game_state_json(game)["log"];
    return std::count_if(log.begin(), log.end(), [&](const json& line) {
      return line.get<std::string>().starts_with(prefix);
    });
  };
  WebGame game = new_game(friend_settings());
  act(game, Action::Settings, {{"settings", {{"pieces", 5}}}});
  EXPECT_EQ(starts(game, "Game 1: "), 1);
  // With the higher throw the opening decides who starts; no line names the earlier starter.
  for (std::uint64_t seed = 1; seed < 20; ++seed) {
    game = new_game(friend_settings(), seed);
    act(game, Action::Settings, {{"settings", {{"starts", "higher"}}}});
    EXPECT_EQ(starts(game, "Game 1: "), 1);
    const json log = game_state_json(game)["log"];
    const std::string starter = game.session.game_starter() == Side::Light ? "Shell" : "Bitumen";
    EXPECT_EQ(log.back(), "Game 1: " + starter + " starts.");
    EXPECT_TRUE(log.front().get<std::string>().starts_with("Opening throws: ")) << log.dump();
  }
  throw_until_move(game);
  act(game, Action::New);
  act(game, Action::Settings, {{"settings", {{"pieces", 3}}}});
  EXPECT_EQ(game.session.rules().pieces, 3);
  EXPECT_EQ(starts(game, "Game 2: "), 1);
}

TEST(WebGame, AutoPlayMakesForcedMovesAndAutoPassPasses) {
  const session::Settings settings =
      web_settings({{"opponent", "friend"}, {"auto_play", true}, {"auto_pass", true}});
  // From the opening every non-zero throw has exactly one move: enter a piece.
  for (std::uint64_t seed = 1; seed < 40; ++seed) {
    WebGame game = new_game(settings, seed);
    const json events = act(game, Action::Throw);
    EXPECT_EQ(game.session.phase(), Phase::Throw);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[1]["type"], events[0]["roll"] == 0 ? "pass" : "move");
  }
}

TEST(WebGame, HigherThrowOpeningEventsFollowTheirNewGame) {
  const session::Settings settings = web_settings({{"opponent", "friend"}, {"starts", "higher"}});
  for (std::uint64_t seed = 1; seed < 60; ++seed) {
    const WebGame game = new_game(settings, seed);
    const json state = game_state_json(game);
    ASSERT_TRUE(state["opening"].is_object());
    const int light = state["opening"]["light"];
    const int dark = state["opening"]["dark"];
    ASSERT_NE(light, dark);
    EXPECT_EQ(state["starting_side"], light > dark ? "light" : "dark");
    const json events = web_events(game.session, 0);
    EXPECT_EQ(events.front()["type"], "new_game");
    for (std::size_t i = 1; i + 1 < events.size(); ++i) {
      EXPECT_EQ(events[i]["light"], events[i]["dark"]);  // earlier rounds tied
    }
  }
}

// The dice of the first 30 throws of a friend game that always moves its first legal piece
// ('1' = marked corner up).
std::vector<std::string> first_throws(std::uint64_t seed) {
  WebGame game = new_game(friend_settings(), seed);
  std::vector<std::string> throws;
  for (int i = 0; i < 30 && game.session.phase() != Phase::Over; ++i) {
    act(game, Action::Throw);
    std::string dice;
    const json state = game_state_json(game);
    for (bool marked : state["dice"]) dice += marked ? '1' : '0';
    throws.push_back(dice);
    if (game.session.phase() == Phase::Pass) {
      act(game, Action::Pass);
    } else {
      act(game, Action::Move, {{"from", first_legal_from(game)}});
    }
  }
  return throws;
}

// Pinned (the same dice as before the session model: stored games continue unchanged).
TEST(WebGame, SameSeedThrowsTheSameDice) {
  const std::vector<std::string> golden = {
      "1100", "0110", "0110", "1010", "1001", "0001", "0000", "1011", "0110", "0100",
      "0111", "0111", "1110", "0110", "0000", "0101", "0000", "1111", "0111", "1010",
      "1100", "0110", "0011", "0010", "1001", "0100", "0011", "1010", "0111", "1111"};
  EXPECT_EQ(first_throws(99), golden);
  EXPECT_NE(first_throws(100), golden);
}

// "pieces": 4 was refused, but "rules": {"name": "finkel", "pieces": 4} went through.
TEST(WebGame, ARuleSetsPiecesAreHeldToTheSameChoices) {
  for (const int pieces : {1, 2, 4, 6}) {
    try {
      web_settings({{"rules", {{"name", "finkel"}, {"pieces", pieces}}}});
      ADD_FAILURE() << pieces << " pieces were accepted";
    } catch (const ApiError& error) {
      EXPECT_EQ(error.code(), "bad_settings");
      EXPECT_NE(std::string(error.what()).find("7, 5 or 3"), std::string::npos) << error.what();
    }
  }
  EXPECT_EQ(web_settings({{"rules", {{"name", "blitz"}, {"pieces", 3}}}}).rules.pieces, 3);
  // A game played on from a 4-piece record keeps its pieces through later settings (the page
  // sends the game's rules back with them).
  session::Settings from_record = default_web_settings();
  from_record.rules = finkel_rules(4);
  EXPECT_EQ(merge_web_settings(from_record, {{"rules", {{"name", "finkel"}, {"pieces", 4}}}})
                .rules.pieces,
            4);
  EXPECT_EQ(merge_web_settings(from_record, {{"auto_play", true}}).rules.pieces, 4);
}

TEST(WebGame, MergeSettingsRefusesGarbageWithoutCrashing) {
  rc::check("any JSON settings patch is merged or refused with ApiError", [] {
    const auto key =
        *rc::gen::element<std::string>("opponent", "pieces", "bear_off", "starts", "auto_play",
                                       "auto_pass", "seat", "take_back", "x");
    const auto kind = *rc::gen::inRange(0, 6);
    json value;
    switch (kind) {
      case 0:
        value = *rc::gen::arbitrary<int>();
        break;
      case 1:
        value = *rc::gen::arbitrary<std::string>();
        break;
      case 2:
        value = *rc::gen::arbitrary<bool>();
        break;
      case 3:
        value = *rc::gen::arbitrary<double>();
        break;
      case 4:
        value = json::array({1, "a"});
        break;
      default:
        value = nullptr;
        break;
    }
    try {
      const session::Settings merged = web_settings({{key, value}});
      RC_ASSERT(!session::validate(merged));
      RC_ASSERT(merged.rules.pieces == 7 || merged.rules.pieces == 5 || merged.rules.pieces == 3);
    } catch (const ApiError& error) {
      RC_ASSERT(error.code() == "bad_request" || error.code() == "bad_settings");
    }
  });
}

}  // namespace
}  // namespace ur::server

namespace ur::server {
namespace {

TEST(WebGame, MovesReadEveryRuleSetsSquaresAndTheStateCarriesTheGeometry) {
  // Aseb and Masters routes are 16 squares: a bear-off from 16 must reach the session.
  EXPECT_EQ(parse_intent(Action::Move, {{"from", 16}}).from, 16);
  EXPECT_THROW(parse_intent(Action::Move, {{"from", 28}}), ApiError);
  const session::Settings aseb =
      merge_web_settings(default_web_settings(), {{"rules", {{"name", "aseb"}}}});
  const WebGame game{"g-0000000000000002", 0, session::Session::start(aseb, 3, 0)};
  const nlohmann::json state = game_state_json(game);
  EXPECT_EQ(state["rules"]["name"], "aseb");
  EXPECT_EQ(state["settings"]["rules"]["name"], "aseb");
  EXPECT_EQ(state["geometry"]["columns"], 12);
  EXPECT_EQ(state["geometry"]["home"], 17);
}

}  // namespace
}  // namespace ur::server

namespace ur::server {
namespace {

// While a throw waits for its move, the state says why each other piece of the mover cannot
// use it, in the core's words, so the page keeps no rules of its own. Played in Finkel and
// Masters (where the opponent's numbering of a tile differs).
TEST(WebGame, StateWordsWhyEachOtherPieceCannotMove) {
  for (const char* set : {"finkel", "masters"}) {
    WebGame game = new_game(web_settings({{"opponent", "friend"}, {"rules", {{"name", set}}}}));
    int reasons_seen = 0;
    for (int actions = 0; game.session.phase() != Phase::Over && actions < 3000; ++actions) {
      const Phase phase = game.session.phase();
      const json state = game_state_json(game);
      if (phase != Phase::Move) {
        EXPECT_TRUE(state["illegal_reasons"].empty());
      } else {
        const Rules& rules = game.session.rules();
        const Position& position = game.session.position();
        const Roll roll = game.session.pending_throw()->roll;
        const MoveList moves = game.session.legal_moves();
        for (Square from = 0; from <= rules.route_length; ++from) {
          const bool piece = from == 0 ? position.start_of(position.turn) > 0
                                       : (position.board_of(position.turn) & square_bit(from));
          const std::string key = std::to_string(from);
          if (!piece || find_move(moves, from)) {
            EXPECT_FALSE(state["illegal_reasons"].contains(key)) << key;
            continue;
          }
          ++reasons_seen;
          EXPECT_EQ(state["illegal_reasons"][key],
                    describe(why_illegal(rules, position, roll, from), rules, roll, from));
          EXPECT_FALSE(state["illegal_reasons"][key].get<std::string>().empty());
        }
      }
      switch (phase) {
        case Phase::Throw:
          act(game, Action::Throw, {{"side", side_name(game.session.to_move())}});
          break;
        case Phase::Move:
          act(game, Action::Move, {{"from", first_legal_from(game)}});
          break;
        case Phase::Pass:
          act(game, Action::Pass);
          break;
        case Phase::Over:
          break;
      }
    }
    EXPECT_GT(reasons_seen, 10) << set;
  }
}

}  // namespace
}  // namespace ur::server
