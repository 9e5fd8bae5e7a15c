#include "play/online_screen.h"

#include <algorithm>

#include "core/explain.h"
#include "core/rule_sets.h"
#include "play/board_view.h"
#include "play/play_session.h"
#include "play/screen.h"
#include "session/narration.h"

namespace ur::play {
namespace {

using namespace layout;
constexpr int kPresenceRow = kStatusRow;

void set_error(OnlineUi& ui, std::string message) {
  ui.message = std::move(message);
  ui.message_is_error = true;
}

void refuse(OnlineUi& ui, const Key& key, const std::string& hint) {
  set_error(ui, describe_key(key) + " does nothing now: " + hint);
}

std::string possessive(const OnlineView& view, Side side) {
  return side == view.me ? "your" : view.name_of(side) + "'s";
}

void cycle_cursor(const MoveList& legal, OnlineUi& ui, int step) {
  if (legal.empty()) return;
  ui.cursor = next_movable(legal, ui.cursor, step);
  ui.typed.clear();
  ui.message.clear();
}

// Selects the piece on `square` or says why it cannot move (the core's words); a refused
// number leaves the preview.
void pick_square(const OnlineView& view, const MoveList& legal, OnlineUi& ui, Square square) {
  if (find_move(legal, square) != nullptr) {
    ui.cursor = square;
    ui.message.clear();
    return;
  }
  ui.typed.clear();
  const OnlineGame& game = view.game;
  const IllegalReason reason = why_illegal(game.rules, game.position, game.roll, square);
  set_error(ui, describe(reason, game.rules, game.roll, square));
}

// What the player may do now, for refusals.
std::string what_now(const OnlineView& view) {
  const OnlineGame& game = view.game;
  if (game.waiting_for_opponent) return "waiting for your friend to join (q quits)";
  if (game.phase == OnlinePhase::Over) return "n asks for a rematch, q quits";
  if (!view.my_turn()) return "it is " + view.name_of(opponent(view.me)) + "'s turn";
  switch (game.phase) {
    case OnlinePhase::Throw:
      return "press t or space to throw";
    case OnlinePhase::Move:
      return "← → and Enter, or type a square (s = new)";
    case OnlinePhase::Pass:
      return "press p or Enter to pass";
    case OnlinePhase::Over:
      break;
  }
  return "";
}

std::string tally_text(const OnlineView& view) {
  const auto& tally = view.game.tally;
  return view.name_of(Side::Light) + " " + std::to_string(tally[0]) + " – " +
         std::to_string(tally[1]) + " " + view.name_of(Side::Dark);
}

std::string set_title(const Rules& rules) {
  const NamedRuleSet* set = find_rule_set(rule_set_name(rules));
  return set ? std::string(set->title) : "Custom";
}

// "connected", "has left 0:42 ago", "not joined yet".
std::string presence_words(const OnlineView& view, Side side, std::int64_t now_ms) {
  const OnlineSeat& seat = view.game.seat(side);
  if (!seat.taken) return "not joined yet";
  if (seat.connected) return "connected";
  if (seat.left_at) {
    return "has left " +
           session::minutes_seconds(server_now(view, now_ms) - *seat.left_at,
                                    session::ClockRounding::kElapsed) +
           " ago";
  }
  return "has left";
}

void draw_side_label(Canvas& canvas, int x, int y, const OnlineView& view, Side side,
                     std::int64_t now_ms) {
  const OnlineGame& game = view.game;
  const bool to_move =
      game.phase != OnlinePhase::Over && game.position.turn == side && !game.waiting_for_opponent;
  canvas.put(x, y, to_move ? "▶" : " ", palette::kTitle);
  int at = canvas.put(x + 2, y, piece_glyph(side), piece_style(side));
  at = canvas.put(at + 1, y, page_side_name(side), piece_style(side));
  const OnlineSeat& seat = game.seat(side);
  std::string role;
  if (side == view.me) {
    role = seat.name.empty() ? "you" : "you (" + seat.name + ")";
  } else {
    role = (seat.name.empty() ? std::string("your friend") : seat.name) + " · " +
           presence_words(view, side, now_ms);
  }
  at = canvas.put(at, y, " — " + role, palette::kHint);
  if (game.winner == side) canvas.put(at + 2, y, "★ winner", palette::kTarget);
}

BoardMarks marks_for(const OnlineView& view, const OnlineUi& ui) {
  BoardMarks marks;
  const OnlineGame& game = view.game;
  // The latest move stays pointed out until the next throw, and once the game is over.
  if (view.last_move && (game.phase == OnlinePhase::Throw || game.phase == OnlinePhase::Over)) {
    marks.last_from = view.last_move->move.from;
    marks.last_to = view.last_move->move.to;
    marks.last_side = view.last_move->side;
  }
  if (game.phase != OnlinePhase::Move || !view.my_turn()) return marks;
  const MoveList legal = game.legal();
  for (const Move& move : legal) marks.movable |= square_bit(move.from);
  // A number being typed hides the cursor's choice: Enter does not move that piece then.
  if (ui.cursor && !typed_waits(ui.typed, game.rules, legal)) {
    if (const Move* move = find_move(legal, *ui.cursor)) {
      marks.selected = move->from;
      marks.target = move->to;
    }
  }
  return marks;
}

struct Headline {
  std::string first;
  std::string second;
};

Headline headline(const OnlineView& view) {
  const OnlineGame& game = view.game;
  const std::string them = view.name_of(opponent(view.me));
  const std::string roll = std::to_string(game.roll);
  if (game.waiting_for_opponent) return {"Waiting for your friend", "to open the invite link"};
  if (game.phase == OnlinePhase::Over) {
    const bool won = game.winner == view.me;
    std::string second = "n rematch · q quit";
    if (game.rematch_offer == view.me) second = "rematch asked: waiting for " + them;
    if (game.rematch_offer == opponent(view.me)) second = them + " asks for a rematch: n accepts";
    return {won ? "You win!" : them + " wins!", second};
  }
  if (!view.my_turn()) {
    switch (game.phase) {
      case OnlinePhase::Throw:
        return {them + " to throw", "waiting for " + them};
      case OnlinePhase::Move:
        return {them + " threw " + roll, "waiting for " + them + "'s move"};
      case OnlinePhase::Pass:
        return {them + " threw " + roll + ": no move", "waiting for " + them + " to pass"};
      case OnlinePhase::Over:
        break;
    }
  }
  switch (game.phase) {
    case OnlinePhase::Throw:
      return {"Your turn: throw the dice", "press t or space to throw"};
    case OnlinePhase::Move:
      return {"You threw " + roll, "← → and Enter, or type a square (s = new)"};
    case OnlinePhase::Pass:
      return {"You threw " + roll + ": no move", "press p or Enter to pass"};
    case OnlinePhase::Over:
      break;
  }
  return {};
}

std::string detail(const OnlineView& view, const OnlineUi& ui) {
  const OnlineGame& game = view.game;
  if (game.phase == OnlinePhase::Pass) return game.pass_reason;
  if (view.last_move && (game.phase == OnlinePhase::Throw || game.phase == OnlinePhase::Over)) {
    const Side side = view.last_move->side;
    return "‹ › ‹" + std::string(piece_glyph(side)) + "› mark " + possessive(view, side) +
           " last move: " + move_squares_text(game.rules, view.last_move->move);
  }
  if (game.phase != OnlinePhase::Move || !view.my_turn()) return "";
  const MoveList legal = game.legal();
  if (typed_waits(ui.typed, game.rules, legal)) return typed_waiting_text(ui.typed);
  std::string text;
  if (!ui.typed.empty()) text = "typed " + ui.typed + ": ";
  if (ui.cursor) {
    if (const Move* move = find_move(legal, *ui.cursor)) {
      return text + "» " + describe_online_move(view, view.me, *move) + "   (Enter to move)";
    }
  }
  return text;
}

// The presence line: the connection, the opponent, and a claim of the win when offered.
std::pair<std::string, Style> presence_line(const OnlineView& view, const OnlineUi& ui,
                                            std::int64_t now_ms) {
  if (!ui.connected)
    return {"The connection to the server was lost: reconnecting…", palette::kError};
  const Side them = opponent(view.me);
  const std::string name = view.name_of(them);
  if (const auto wait = claim_wait_ms(view, now_ms)) {
    if (*wait == 0) {
      return {name + " is gone on their turn: c claims the win, or keep waiting", palette::kTarget};
    }
    return {name + " has left on their turn: you may claim the win in " +
                session::minutes_seconds(*wait, session::ClockRounding::kWait),
            palette::kHint};
  }
  const OnlineSeat& seat = view.game.seat(them);
  if (!seat.taken) return {"Your friend has not joined yet", palette::kHint};
  std::string line = name;
  line += " ";
  line += seat.connected ? std::string("is connected") : presence_words(view, them, now_ms);
  return {line, palette::kHint};
}

std::string keys_help(const OnlineView& view, std::int64_t now_ms) {
  const OnlineGame& game = view.game;
  const std::string quit = " · q quit (the seat stays)";
  if (game.waiting_for_opponent) return "v numbers" + quit;
  if (game.phase == OnlinePhase::Over) return "n rematch · v numbers" + quit;
  std::string common = "v numbers · r resign";
  if (claim_wait_ms(view, now_ms) == 0) common += " · c claims the win";
  if (!view.my_turn()) return common + quit;
  common = " · " + common;
  switch (game.phase) {
    case OnlinePhase::Throw:
      return "t throw" + common + quit;
    case OnlinePhase::Move:
      return "←→ ⏎ move" + common + quit;
    case OnlinePhase::Pass:
      return "p/⏎ pass" + common + quit;
    case OnlinePhase::Over:
      break;
  }
  return common + quit;
}

void draw_invite(Canvas& canvas, int ox, int oy, const OnlineUi& ui) {
  const int x = ox + 2, y = oy + kBoardRow + 1, width = 76, height = 8;
  draw_box(canvas, x, y, width, height, "Invite a friend");
  canvas.put(x + 2, y + 1, "Send your friend this link:");
  const auto lines = wrap(ui.invite_link, width - 4);
  for (std::size_t i = 0; i < lines.size() && i < 2; ++i) {
    canvas.put(x + 2, y + 2 + static_cast<int>(i), lines[i], palette::kTitle);
  }
  canvas.put(x + 2, y + 4, "It opens in a browser, or in a terminal: ur play --join LINK",
             palette::kHint);
  if (!ui.watch_link.empty())
    canvas.put(x + 2, y + 5, "Anyone may watch: " + ui.watch_link, palette::kHint);
  canvas.put(x + 2, y + 6, "Waiting for your friend to join…", palette::kPlain);
}

void draw_confirm(Canvas& canvas, int ox, int oy) {
  const int x = ox + 18, y = oy + 7, width = 44, height = 5;
  draw_box(canvas, x, y, width, height, "Confirm");
  canvas.put_centered(x, y + 2, width, "Resign this game?  y / n", palette::kTitle);
}

}  // namespace

void sync_online_ui(const OnlineView& view, OnlineUi& ui) {
  ui.typed.clear();
  if (view.game.phase != OnlinePhase::Move || !view.my_turn()) {
    ui.cursor.reset();
    return;
  }
  const MoveList legal = view.game.legal();
  if (legal.empty()) return;
  if (!ui.cursor || find_move(legal, *ui.cursor) == nullptr) ui.cursor = legal[0].from;
}

OnlineIntent online_key(const OnlineView& view, OnlineUi& ui, const Key& key, std::int64_t now_ms) {
  const OnlineGame& game = view.game;
  if (ui.confirm_resign) {
    ui.confirm_resign = false;
    if (is_char(key, 'y') || is_char(key, 'Y')) return {OnlineAction::Resign, 0};
    ui.message.clear();
    return {};
  }
  if (is_char(key, 'q') || is_char(key, 'Q')) {
    ui.quit = true;
    return {OnlineAction::Quit, 0};
  }
  if (is_char(key, 'v')) {
    ui.route_numbers = !ui.route_numbers;
    return {};
  }
  if (is_char(key, 'c')) {
    const auto wait = claim_wait_ms(view, now_ms);
    if (wait && *wait == 0) return {OnlineAction::ClaimWin, 0};
    if (wait) {
      set_error(ui, "You may claim the win in " +
                        session::minutes_seconds(*wait, session::ClockRounding::kWait) + ", if " +
                        view.name_of(opponent(view.me)) + " stays away.");
    } else {
      refuse(ui, key, "a win can be claimed only when the other player has left on their turn");
    }
    return {};
  }
  if (game.waiting_for_opponent) {
    refuse(ui, key, what_now(view));
    return {};
  }
  if (game.phase == OnlinePhase::Over) {
    if (is_char(key, 'n')) {
      if (game.rematch_offer == view.me) {
        set_error(ui, "You asked for a rematch already: waiting for " +
                          view.name_of(opponent(view.me)) + ".");
        return {};
      }
      return {OnlineAction::Rematch, 0};
    }
    refuse(ui, key, what_now(view));
    return {};
  }
  if (is_char(key, 'r')) {
    ui.confirm_resign = true;
    return {};
  }
  if (!view.my_turn()) {
    refuse(ui, key, what_now(view) + ": wait for them");
    return {};
  }
  const bool enter = key.code == KeyCode::Enter;
  switch (game.phase) {
    case OnlinePhase::Throw:
      if (is_char(key, 't') || is_char(key, ' ')) return {OnlineAction::Throw, 0};
      break;
    case OnlinePhase::Pass:
      if (is_char(key, 'p') || enter) return {OnlineAction::Pass, 0};
      break;
    case OnlinePhase::Move: {
      const MoveList legal = game.legal();
      if (enter) {
        // Enter ends a number still waiting for a digit: it names no movable piece.
        if (typed_waits(ui.typed, game.rules, legal)) {
          pick_square(view, legal, ui, static_cast<Square>(std::stoi(ui.typed)));
          return {};
        }
        if (ui.cursor && find_move(legal, *ui.cursor) != nullptr) {
          ui.typed.clear();
          return {OnlineAction::Move, *ui.cursor};
        }
        set_error(ui, "Choose a piece first: ← → or type its square.");
        return {};
      }
      if (key.code == KeyCode::Right || key.code == KeyCode::Down || key.code == KeyCode::Tab) {
        cycle_cursor(legal, ui, +1);
        return {};
      }
      if (key.code == KeyCode::Left || key.code == KeyCode::Up || key.code == KeyCode::BackTab) {
        cycle_cursor(legal, ui, -1);
        return {};
      }
      if (is_char(key, 's')) {
        ui.typed.clear();
        pick_square(view, legal, ui, 0);
        return {};
      }
      if (is_digit(key)) {
        // A number that may still grow into a movable piece's square waits for its next digit.
        ui.typed = typed_with(ui.typed, key.character, game.rules);
        if (typed_waits(ui.typed, game.rules, legal)) {
          ui.message.clear();
        } else {
          pick_square(view, legal, ui, static_cast<Square>(std::stoi(ui.typed)));
        }
        return {};
      }
      if (is_char(key, 'p')) {
        set_error(ui, "You have a legal move: choose a piece and press Enter.");
        return {};
      }
      break;
    }
    case OnlinePhase::Over:
      break;
  }
  refuse(ui, key, what_now(view));
  return {};
}

nlohmann::json socket_intent(const OnlineIntent& intent, const std::string& token,
                             std::uint64_t version) {
  nlohmann::json message = {{"token", token}, {"version", version}};
  switch (intent.action) {
    case OnlineAction::Throw:
      message["action"] = "throw";
      break;
    case OnlineAction::Move:
      message["action"] = "move";
      message["from"] = intent.from;
      break;
    case OnlineAction::Pass:
      message["action"] = "pass";
      break;
    case OnlineAction::Resign:
      message["action"] = "resign";
      break;
    default:
      return nullptr;  // not a socket intent
  }
  return message;
}

Canvas compose_online_screen(const OnlineView& view, const OnlineUi& ui, int width, int height,
                             std::int64_t now_ms) {
  if (width < kMinWidth || height < kMinHeight) {
    return too_small_screen(width, height,
                            {"Enlarge it, or press q to quit (the seat stays yours)."});
  }
  Canvas canvas(width, height);
  const int ox = (width - kMinWidth) / 2, oy = (height - kMinHeight) / 2;
  const OnlineGame& game = view.game;

  const std::string status = "game " + std::to_string(game.game_number) + " · " + tally_text(view);
  const int status_x = kMinWidth - 1 - text_width(status);
  std::string title = "ur · online · " + set_title(game.rules);
  if (status_x < 1 + text_width(title) + 2) title = "ur · " + set_title(game.rules);
  canvas.put(ox + 1, oy + kTitleRow, title, palette::kTitle);
  canvas.put(ox + std::max(status_x, 1 + text_width(title) + 2), oy + kTitleRow, status,
             palette::kHint);

  draw_side_label(canvas, ox + kLeft, oy + kDarkLabelRow, view, Side::Dark, now_ms);
  BoardOptions options;
  options.route_numbers = ui.route_numbers;
  options.viewer = view.me;
  draw_board(canvas, ox + kLeft, oy + kBoardRow, game.rules, game.position, marks_for(view, ui),
             options);
  draw_side_label(canvas, ox + kLeft, oy + kLightLabelRow, view, Side::Light, now_ms);

  const bool fresh = game.phase == OnlinePhase::Move || game.phase == OnlinePhase::Pass;
  draw_dice(canvas, ox + kLeft, oy + kDiceRow, fresh ? game.dice : view.last_dice,
            fresh ? game.roll : view.last_roll, game.rules.dice, fresh);
  const Headline lines = headline(view);
  canvas.put(ox + kHeadlineColumn, oy + kDiceRow, lines.first, palette::kTitle);
  canvas.put(ox + kHeadlineColumn, oy + kDiceRow + 1, lines.second, palette::kHint);

  const auto detail_lines = wrap(detail(view, ui), kMinWidth - 2 * kLeft);
  for (std::size_t i = 0; i < detail_lines.size() && i < 2; ++i) {
    canvas.put(ox + kLeft, oy + kDetailRow + static_cast<int>(i), detail_lines[i],
               palette::kTarget);
  }
  if (!ui.message.empty()) {
    // One line: a longer message (several of the opponent's steps at once) ends in "…".
    const auto message =
        wrap((ui.message_is_error ? "✗ " : "") + ui.message, kMinWidth - 2 * kLeft - 1);
    canvas.put(ox + kLeft, oy + kMessageRow, message[0] + (message.size() > 1 ? "…" : ""),
               ui.message_is_error ? palette::kError : palette::kPlain);
  }
  const std::size_t shown = std::min<std::size_t>(2, game.log.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const std::string& line = game.log[game.log.size() - shown + i];
    const bool latest = i + 1 == shown;
    canvas.put(ox + kLeft, oy + kLogRow + static_cast<int>(i), (latest ? "› " : "  ") + line,
               latest ? palette::kPlain : palette::kHint);
  }
  const auto [presence, presence_style] = presence_line(view, ui, now_ms);
  canvas.put(ox + kLeft, oy + kPresenceRow, presence, presence_style);
  canvas.put(ox + kLeft, oy + kKeysRow, keys_help(view, now_ms), palette::kHint);

  if (game.waiting_for_opponent && !ui.invite_link.empty()) draw_invite(canvas, ox, oy, ui);
  if (ui.confirm_resign) draw_confirm(canvas, ox, oy);
  return canvas;
}

}  // namespace ur::play
