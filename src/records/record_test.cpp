#include "records/record.h"

#include <gtest/gtest.h>

#include "core/notation.h"
#include "records/rgn.h"

namespace ur::records {
namespace {

using session::Session;
constexpr session::Time kNow = 1'764'547'200'000;  // 2025-12-01T00:00:00Z

// A finished game between two computer seats, as a record.
GameRecord finished_game(std::uint64_t seed) {
  session::Settings settings;
  settings.seats = {session::Seat{"random", {}}, session::Seat{"greedy", {}}};
  Session game = Session::start(settings, seed, kNow);
  EXPECT_TRUE(game.drive(session::standard_agents(), kNow).accepted());
  return records_of_series(game).front();
}

TEST(ContinueFrom, PlaysOnFromTheChosenPlyWithTheRecordsMovesBehindIt) {
  const GameRecord record = finished_game(7);
  const auto played = std::get<Replay>(replay(record));
  const std::size_t plies = record.plies.size() / 2;
  auto result = continue_from(record, plies, session::against_computer("medium"), 99, kNow);
  ASSERT_TRUE(std::holds_alternative<Session>(result)) << std::get<std::string>(result);
  Session& game = std::get<Session>(result);
  EXPECT_EQ(game.position(), played.plies[plies - 1].after);
  EXPECT_EQ(game.phase(), session::Phase::Throw);
  EXPECT_EQ(game.throws(), plies);
  EXPECT_EQ(game.settings().seat(Side::Dark).agent, "medium");
  // Its record starts with the original's plies.
  const GameRecord again = records_of_series(game).front();
  ASSERT_EQ(again.plies.size(), plies);
  EXPECT_TRUE(std::equal(again.plies.begin(), again.plies.end(), record.plies.begin()));
  // And it plays on.
  game.drive(session::standard_agents(), kNow);
  const Side person = game.to_move();
  EXPECT_TRUE(game.act(session::ThrowIntent{}, person, kNow).accepted());
}

TEST(ContinueFrom, PlyZeroIsTheStartAndPastTheEndOrAfterTheWinIsRefused) {
  const GameRecord record = finished_game(8);
  auto start = continue_from(record, 0, session::between_friends(), 1, kNow);
  ASSERT_TRUE(std::holds_alternative<Session>(start));
  EXPECT_EQ(std::get<Session>(start).position(), starting_position(record.rules, record.first));

  auto past = continue_from(record, record.plies.size() + 1, session::between_friends(), 1, kNow);
  ASSERT_TRUE(std::holds_alternative<std::string>(past));
  EXPECT_NE(std::get<std::string>(past).find("plies"), std::string::npos);
  auto won = continue_from(record, record.plies.size(), session::between_friends(), 1, kNow);
  ASSERT_TRUE(std::holds_alternative<std::string>(won));
  EXPECT_NE(std::get<std::string>(won).find("over"), std::string::npos);

  session::Settings five = session::between_friends();
  five.rules = finkel_rules(5);
  EXPECT_TRUE(std::holds_alternative<std::string>(continue_from(record, 2, five, 1, kNow)));
}

TEST(PositionTag, AGameCarriedOverFromAPositionRoundTripsThroughRgn) {
  const session::Settings settings = session::between_friends();
  Position from = starting_position(settings.rules, Side::Dark);
  from.start = {5, 6};
  from.board = {SquareMask{1} << 4 | SquareMask{1} << 9, SquareMask{1} << 2};
  auto made = Session::from_history({{kNow, session::SeriesStarted{settings, 3, {}, 0}},
                                     {kNow, session::GameStarted{1, Side::Dark, from}}});
  ASSERT_TRUE(std::holds_alternative<Session>(made)) << std::get<std::string>(made);
  Session game = std::get<Session>(std::move(made));
  for (int i = 0; i < 6; ++i) {
    const Side side = game.to_move();
    game.act(session::ThrowIntent{}, side, kNow);
    if (game.phase() == session::Phase::Pass) game.act(session::PassIntent{}, side, kNow);
    if (game.phase() == session::Phase::Move) {
      game.act(session::MoveIntent{game.legal_moves()[0].from}, side, kNow);
    }
  }
  const GameRecord record = records_of_series(game).front();
  ASSERT_NE(record.tag(kPositionTag), nullptr);
  EXPECT_EQ(*record.tag(kPositionTag), to_text(from));
  const std::string text = write_rgn({record});
  auto read = read_rgn(text);
  ASSERT_TRUE(std::holds_alternative<std::vector<GameRecord>>(read));
  const auto played = replay(std::get<0>(read).front());
  ASSERT_TRUE(std::holds_alternative<Replay>(played)) << std::get<ReplayError>(played).message;
  EXPECT_EQ(std::get<Replay>(played).session.position(), game.position());
  EXPECT_EQ(write_rgn(std::get<0>(read)), text);
}

TEST(PositionTag, ABadPositionTagIsRefusedWithTheReason) {
  GameRecord record;
  record.tags = {{"Rules", "Finkel"}, {std::string(kPositionTag), "not a position"}};
  const auto played = replay(record);
  ASSERT_TRUE(std::holds_alternative<ReplayError>(played));
  EXPECT_NE(std::get<ReplayError>(played).message.find("Position tag"), std::string::npos);
}

// A Position tag where one side already has every piece home started a game that went on:
// moves after it were taken, and the result read "unfinished".
TEST(PositionTag, AFinishedPositionIsRefused) {
  const auto read = read_rgn("[Pieces \"2\"]\n[Position \"L:0/14/1:0/-/2\"]\n\n1. A7A+#\n");
  ASSERT_TRUE(std::holds_alternative<ParseError>(read));
  EXPECT_NE(
      std::get<ParseError>(read).message.find("turn 1: the game is already over at the Position "
                                              "tag (dark has every piece home), yet the record "
                                              "goes on"),
      std::string::npos)
      << std::get<ParseError>(read).message;
}

TEST(HintsTag, AGamePlayedWithHintsSaysWhoHadThem) {
  Session game = Session::start(session::between_friends(), 4, kNow);
  EXPECT_EQ(records_of_series(game).front().tag("Hints"), nullptr);
  ASSERT_TRUE(game.act(session::ShowHintsIntent{true}, Side::Dark, kNow).accepted());
  ASSERT_TRUE(game.act(session::ShowHintsIntent{false}, Side::Dark, kNow).accepted());
  ASSERT_NE(records_of_series(game).front().tag("Hints"), nullptr);
  EXPECT_EQ(*records_of_series(game).front().tag("Hints"), "dark");
  // Hints still on when the next game starts count for it too.
  game.act(session::ShowHintsIntent{true}, Side::Light, kNow);
  game.act(session::ResignIntent{}, Side::Light, kNow);
  game.act(session::NewGameIntent{}, Side::Light, kNow);
  EXPECT_EQ(*records_of_series(game).back().tag("Hints"), "light");
  EXPECT_EQ(*records_of_series(game).front().tag("Hints"), "both");
}

TEST(RecordsOfSeries, AGameLeftBeforeItsFirstPlyIsNotKept) {
  Session game = Session::start(session::between_friends(), 4, kNow);
  ASSERT_TRUE(game.act(session::NewGameIntent{}, Side::Light, kNow).accepted());
  game.act(session::ThrowIntent{}, game.to_move(), kNow);
  if (game.phase() == session::Phase::Pass) game.act(session::PassIntent{}, game.to_move(), kNow);
  if (game.phase() == session::Phase::Move) {
    game.act(session::MoveIntent{game.legal_moves()[0].from}, game.to_move(), kNow);
  }
  const auto records = records_of_series(game);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].first, Side::Dark);  // game 2, which dark opens
  // The game under way is kept even before its first ply, and so is a resigned one.
  game.act(session::NewGameIntent{}, Side::Light, kNow);
  EXPECT_EQ(records_of_series(game).size(), 2u);
  game.act(session::ResignIntent{}, game.to_move(), kNow);
  game.act(session::NewGameIntent{}, Side::Light, kNow);
  EXPECT_EQ(records_of_series(game).size(), 3u);
}

}  // namespace
}  // namespace ur::records
