// ur_tune_eval: fits the static evaluation's weights to self-play positions.
//
// Plays games between two copies of expectimax:D that use the current weights, records the
// features of positions (seen by the side about to throw) with a target: whether that side
// went on to win, or, with --table, its exact chance to win from a solved table (far less
// noisy). Fits a logistic regression to the targets by Newton's method with a small L2
// penalty. Every tenth game is held out to report how well the old and new weights predict.
// Prints the new weights in the form of src/agents/evaluation_weights.h. With --objective
// play it fits one-throw choices instead; with --objective coordinates, expectimax:D's own
// moves in games against greedy, both rated by the table.
//
//   ur_tune_eval [--rules NAME] [--games N] [--depth D] [--rounds R] [--seed S] [--threads T]
//   [--table FILE]
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "agents/evaluation.h"
#include "agents/expectimax.h"
#include "agents/rng.h"
#include "cli/options.h"
#include "core/rule_sets.h"
#include "match/match_runner.h"
#include "match/table_judge.h"
#include "tables/table.h"

namespace ur {
namespace {

constexpr int kFeatures = eval_feature::kCount;
constexpr double kSampleChance = 0.25;  // positions kept per game, to bound memory
constexpr double kRidge = 1e-3;         // L2 penalty per sample, keeps redundant weights bounded

struct Sample {
  std::array<float, kFeatures> features;
  float target;  // 0..1: the outcome (0 or 1) or the solved chance to win
  bool held_out;
};

// One move of a sampled decision, with its exact value from the table.
struct Choice {
  std::array<float, kFeatures> features;  // the position after the move, its mover's view
  bool same_mover;  // the mover throws again, so the model's value counts as is (else 1 - it)
  bool wins;        // the move ends the game: worth 1 whatever the weights
  float value;      // the mover's exact chance to win after the move
};

struct Decision {
  std::vector<Choice> choices;  // two or more
  float best;                   // the largest Choice::value
  bool held_out;
};

struct Dataset {
  std::vector<Sample> samples;
  std::vector<Decision> decisions;  // only with a table
  std::mutex mutex;
};

// The choices of `roll` in `position`, rated by `table`; empty unless there are two or more.
Decision sample_decision(const Rules& rules, const tables::Table& table, const Position& position,
                         Roll roll, bool held_out) {
  Decision decision{{}, 0.0f, held_out};
  const MoveList moves = legal_moves(rules, position, roll);
  if (moves.size() < 2) return decision;
  std::array<double, kFeatures> features{};
  for (const Move& move : moves) {
    const Position after = apply_move(rules, position, move);
    Choice choice{};
    choice.same_mover = after.turn == position.turn;
    choice.wins = is_game_over(rules, after);
    if (choice.wins) {
      choice.value = 1.0f;
    } else {
      eval_features(rules, after, features);
      std::copy(features.begin(), features.end(), choice.features.begin());
      const double exact = tables::evaluate(table, after);
      choice.value = static_cast<float>(choice.same_mover ? exact : 1.0 - exact);
    }
    decision.best = std::max(decision.best, choice.value);
    decision.choices.push_back(choice);
  }
  return decision;
}

// `table` (may be null) gives exact targets; without it the game's outcome is the target.
void play_game(const Rules& rules, const EvalWeights& weights, int depth, std::uint64_t seed,
               bool held_out, const tables::Table* table, Dataset& dataset) {
  SearchOptions options;
  options.depth = depth;
  options.weights = &weights;
  ExpectimaxSearch search(options);
  SplitMix64 rng(seed);
  Position position = starting_position(rules, rng.below(2) ? Side::Light : Side::Dark);
  std::vector<std::pair<Sample, Side>> seen;
  std::vector<Decision> decisions;
  std::array<double, kFeatures> features{};
  while (!is_game_over(rules, position)) {
    if (rng.unit() < kSampleChance) {
      eval_features(rules, position, features);
      Sample sample{};
      std::copy(features.begin(), features.end(), sample.features.begin());
      sample.held_out = held_out;
      sample.target = table ? static_cast<float>(tables::evaluate(*table, position)) : 0.0f;
      seen.emplace_back(sample, position.turn);
    }
    const Roll roll = throw_dice(rules, rng);
    if (table && rng.unit() < kSampleChance) {
      Decision decision = sample_decision(rules, *table, position, roll, held_out);
      if (!decision.choices.empty()) decisions.push_back(std::move(decision));
    }
    if (count_legal_moves(rules, position, roll) == 0) {
      position = pass_turn(position);
      continue;
    }
    position = apply_move(rules, position, search.search(rules, position, roll).move);
  }
  const Side winning = *winner(rules, position);
  std::lock_guard lock(dataset.mutex);
  for (auto& [sample, side] : seen) {
    if (!table) sample.target = side == winning ? 1.0f : 0.0f;
    dataset.samples.push_back(sample);
  }
  for (Decision& decision : decisions) dataset.decisions.push_back(std::move(decision));
}

double logit(const EvalWeights& weights, const Sample& sample) {
  double sum = 0.0;
  for (int i = 0; i < kFeatures; ++i) sum += weights[i] * sample.features[i];
  return sum;
}

struct Fit {
  double log_loss = 0.0;  // cross-entropy against the targets
  double brier = 0.0;     // mean squared error against the targets
};

Fit score(const EvalWeights& weights, const std::vector<Sample>& samples) {
  Fit fit;
  int count = 0;
  for (const Sample& sample : samples) {
    if (!sample.held_out) continue;
    const double p = std::clamp(1.0 / (1.0 + std::exp(-logit(weights, sample))), 1e-12, 1 - 1e-12);
    fit.log_loss -= sample.target * std::log(p) + (1 - sample.target) * std::log(1 - p);
    fit.brier += (p - sample.target) * (p - sample.target);
    ++count;
  }
  fit.log_loss /= count;
  fit.brier /= count;
  return fit;
}

// Solves a * x = b (symmetric positive definite) by Gaussian elimination with pivoting.
std::array<double, kFeatures> solve(std::vector<double> a, std::array<double, kFeatures> b) {
  const int n = kFeatures;
  for (int col = 0; col < n; ++col) {
    int pivot = col;
    for (int row = col + 1; row < n; ++row) {
      if (std::abs(a[row * n + col]) > std::abs(a[pivot * n + col])) pivot = row;
    }
    for (int k = 0; k < n; ++k) std::swap(a[col * n + k], a[pivot * n + k]);
    std::swap(b[col], b[pivot]);
    for (int row = col + 1; row < n; ++row) {
      const double factor = a[row * n + col] / a[col * n + col];
      for (int k = col; k < n; ++k) a[row * n + k] -= factor * a[col * n + k];
      b[row] -= factor * b[col];
    }
  }
  std::array<double, kFeatures> x{};
  for (int row = n - 1; row >= 0; --row) {
    double sum = b[row];
    for (int k = row + 1; k < n; ++k) sum -= a[row * n + k] * x[k];
    x[row] = sum / a[row * n + row];
  }
  return x;
}

EvalWeights fit_logistic(const std::vector<Sample>& samples, EvalWeights weights) {
  const int n = kFeatures;
  for (int iteration = 0; iteration < 12; ++iteration) {
    std::vector<double> hessian(n * n, 0.0);
    std::array<double, kFeatures> gradient{};
    double training = 0;
    for (const Sample& sample : samples) {
      if (sample.held_out) continue;
      ++training;
      const double p = 1.0 / (1.0 + std::exp(-logit(weights, sample)));
      const double w = p * (1 - p);
      for (int i = 0; i < n; ++i) {
        gradient[i] += (p - sample.target) * sample.features[i];
        if (sample.features[i] == 0.0f) continue;
        for (int j = 0; j < n; ++j)
          hessian[i * n + j] += w * sample.features[i] * sample.features[j];
      }
    }
    for (int i = 0; i < n; ++i) {
      gradient[i] += kRidge * training * weights[i];
      hessian[i * n + i] += kRidge * training;
    }
    const auto step = solve(hessian, gradient);
    double largest = 0.0;
    for (int i = 0; i < n; ++i) {
      weights[i] -= step[i];
      largest = std::max(largest, std::abs(step[i]));
    }
    if (largest < 1e-6) break;
  }
  return weights;
}

double sigmoid(double z) {
  return 1.0 / (1.0 + std::exp(-z));
}

// The model's value of a choice for the mover.
double choice_value(const EvalWeights& weights, const Choice& choice) {
  if (choice.wins) return 1.0;
  double z = 0.0;
  for (int i = 0; i < kFeatures; ++i) z += weights[i] * choice.features[i];
  const double p = sigmoid(z);
  return choice.same_mover ? p : 1.0 - p;
}

// Mean chance to win given away by playing the model's favourite choice (one throw deep).
double held_out_regret(const EvalWeights& weights, const std::vector<Decision>& decisions) {
  double regret = 0.0;
  int count = 0;
  for (const Decision& decision : decisions) {
    if (!decision.held_out) continue;
    const Choice* pick = &decision.choices.front();
    double pick_value = -1.0;
    for (const Choice& choice : decision.choices) {
      const double value = choice_value(weights, choice);
      if (value > pick_value) {
        pick = &choice;
        pick_value = value;
      }
    }
    regret += decision.best - pick->value;
    ++count;
  }
  return count ? regret / count : 0.0;
}

// Fits the weights to play well rather than to predict: minimises, over the training
// decisions, the regret of a soft choice (softmax of `sharpness` x the model's values), plus
// `calibration` x the squared error of the position values against the table, by Adam.
EvalWeights fit_decisions(const Dataset& dataset, EvalWeights weights, double sharpness,
                          double calibration, int epochs, double rate) {
  const int n = kFeatures;
  std::array<double, kFeatures> first_moment{}, second_moment{};
  constexpr double kBeta1 = 0.9, kBeta2 = 0.999;
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    std::array<double, kFeatures> gradient{};
    int decisions = 0;
    std::vector<double> values, chances;
    for (const Decision& decision : dataset.decisions) {
      if (decision.held_out) continue;
      ++decisions;
      values.clear();
      double top = -1.0;
      for (const Choice& choice : decision.choices) {
        values.push_back(choice_value(weights, choice));
        top = std::max(top, values.back());
      }
      chances.assign(values.size(), 0.0);
      double total = 0.0, expected_regret = 0.0;
      for (std::size_t c = 0; c < values.size(); ++c) {
        chances[c] = std::exp(sharpness * (values[c] - top));
        total += chances[c];
      }
      for (std::size_t c = 0; c < values.size(); ++c) {
        chances[c] /= total;
        expected_regret += chances[c] * (decision.best - decision.choices[c].value);
      }
      for (std::size_t c = 0; c < values.size(); ++c) {
        const Choice& choice = decision.choices[c];
        if (choice.wins) continue;
        const double d_value =
            sharpness * chances[c] * ((decision.best - choice.value) - expected_regret);
        const double p = choice.same_mover ? values[c] : 1.0 - values[c];
        const double d_z = d_value * (choice.same_mover ? 1.0 : -1.0) * p * (1.0 - p);
        for (int i = 0; i < n; ++i) gradient[i] += d_z * choice.features[i];
      }
    }
    for (double& g : gradient) g /= std::max(1, decisions);
    int samples = 0;
    std::array<double, kFeatures> calibration_gradient{};
    for (const Sample& sample : dataset.samples) {
      if (sample.held_out) continue;
      ++samples;
      const double p = sigmoid(logit(weights, sample));
      const double d_z = 2.0 * (p - sample.target) * p * (1.0 - p);
      for (int i = 0; i < n; ++i) calibration_gradient[i] += d_z * sample.features[i];
    }
    for (int i = 0; i < n; ++i) {
      const double g = gradient[i] + calibration * calibration_gradient[i] / std::max(1, samples);
      first_moment[i] = kBeta1 * first_moment[i] + (1 - kBeta1) * g;
      second_moment[i] = kBeta2 * second_moment[i] + (1 - kBeta2) * g * g;
      const double m = first_moment[i] / (1 - std::pow(kBeta1, epoch));
      const double v = second_moment[i] / (1 - std::pow(kBeta2, epoch));
      weights[i] -= rate * m / (std::sqrt(v) + 1e-8);
    }
    if (epoch % 50 == 0) {
      std::fprintf(stderr, "  epoch %d: held-out regret %.5f\n", epoch,
                   held_out_regret(weights, dataset.decisions));
    }
  }
  return weights;
}

// In the form of src/agents/evaluation_weights.h: `name` is the set's title ("Masters").
void print_weights(std::string_view title, const EvalWeights& weights) {
  namespace f = eval_feature;
  const auto rows = [&weights](std::string_view label, int first, int count) {
    std::string text = "    // " + std::string(label) + "\n";
    for (int i = first; i < first + count; i += 9) {
      text += "   ";
      for (int k = i; k < std::min(first + count, i + 9); ++k) {
        char number[32];
        std::snprintf(number, sizeof number, " %.6f,", weights[k]);
        text += number;
      }
      text += "\n";
    }
    return text;
  };
  const int squares = f::kSquares;
  std::cout << "inline constexpr EvalWeights k" << title << "EvalWeights = {\n"
            << rows("bias", f::kBias, 1)
            << rows("our pieces on squares 1..27", f::kOurSquare, squares)
            << rows("our pieces home", f::kOurHome, 1)
            << rows("their pieces on squares 1..27", f::kTheirSquare, squares)
            << rows("their pieces home", f::kTheirHome, 1)
            << rows("our pieces exposed near, squares 1..27", f::kOurNear, squares)
            << rows("our pieces exposed far", f::kOurFar, squares)
            << rows("their pieces exposed near", f::kTheirNear, squares)
            << rows("their pieces exposed far", f::kTheirFar, squares)
            << rows("danger: ours, theirs", f::kOurDanger, 2)
            << rows("blocking, stuck, chased: ours, theirs", f::kOurBlocking,
                    f::kCount - f::kOurBlocking)
            << "};\n";
}

// The weights "candidate:D" searches with (set before a check match; read-only during it).
const EvalWeights* candidate_weights = nullptr;

std::variant<std::unique_ptr<Agent>, AgentSpecError> make_candidate(std::string_view argument,
                                                                    std::uint64_t /*seed*/) {
  SearchOptions options;
  options.depth = argument.empty() ? 3 : std::stoi(std::string(argument));
  options.weights = candidate_weights;
  return make_expectimax_agent("candidate:" + std::string(argument), options);
}

// expectimax:D with `weights` against greedy (candidate as agent A): its mean loss a move as
// the table rates it, in chance to win, and its wins.
struct SearchScore {
  double loss = 0.0;
  int wins = 0;
};

SearchScore search_score(const Rules& rules, const EvalWeights& weights,
                         const match::MoveLoss& judge, int depth, int games, std::uint64_t seed,
                         int threads) {
  candidate_weights = &weights;
  match::MatchOptions options;
  options.specs = {"candidate:" + std::to_string(depth), "greedy"};
  options.games = games;
  options.seed = seed;
  options.threads = threads;
  options.rules = rules;
  options.move_loss = judge;
  const match::MatchResult result = match::run_match(options, [](int, int) {});
  const match::AgentTally& candidate = result.agents[0];
  return {candidate.moves ? candidate.loss / candidate.moves : 0.0, candidate.wins};
}

// Each feature's root mean square over the positions of 200 games of random moves.
std::array<double, kFeatures> feature_rms(const Rules& rules) {
  std::array<double, kFeatures> sum{}, features{};
  int positions = 0;
  SplitMix64 rng(12345);
  for (int game = 0; game < 200; ++game) {
    Position position = starting_position(rules);
    while (!is_game_over(rules, position)) {
      eval_features(rules, position, features);
      for (int i = 0; i < kFeatures; ++i) sum[i] += features[i] * features[i];
      ++positions;
      const MoveList moves = legal_moves(rules, position, throw_dice(rules, rng));
      position = moves.empty() ? pass_turn(position)
                               : apply_move(rules, position, moves[rng.below(moves.size())]);
    }
  }
  for (double& value : sum) value = std::sqrt(value / positions);
  return sum;
}

// Fits the weights to the search's own play by coordinate descent: over `rounds` passes, each
// free weight in turn is moved by +-step (step = `perturbation` divided by its feature's RMS
// in random games, so every move shifts the logit alike) and the move is kept when it lowers
// expectimax:D's mean loss a move against greedy over the same `games` (same dice throughout,
// so small gains are not noise of the dice); the step halves after each pass.
EvalWeights fit_coordinates(const Rules& rules, EvalWeights weights, const match::MoveLoss& judge,
                            int depth, int rounds, int games, std::uint64_t seed, int threads,
                            double perturbation, bool only_contact) {
  register_agent_kind("candidate", make_candidate, "candidate[:D]  the tuner's fitted weights");
  const std::array<double, kFeatures> rms = feature_rms(rules);
  const int first_free = only_contact ? eval_feature::kOurBlocking : 0;
  double best = search_score(rules, weights, judge, depth, games, seed, threads).loss;
  std::fprintf(stderr, "  start: loss a move %.5f points\n", 100.0 * best);
  for (int round = 0; round < rounds; ++round, perturbation /= 2) {
    for (int i = first_free; i < kFeatures; ++i) {
      if (rms[i] == 0.0) continue;  // the feature never occurs in these rules
      const double step = perturbation / rms[i];
      for (const double sign : {1.0, -1.0}) {
        EvalWeights trial = weights;
        trial[i] += sign * step;
        const double loss = search_score(rules, trial, judge, depth, games, seed, threads).loss;
        if (loss < best) {
          std::fprintf(stderr, "  round %d: weight %d %+.6f -> %.6f: loss %.5f -> %.5f points\n",
                       round + 1, i, sign * step, trial[i], 100.0 * best, 100.0 * loss);
          best = loss;
          weights = trial;
          break;
        }
      }
    }
  }
  return weights;
}

// Plays `games` of expectimax:3 with `weights` against greedy, as `ur match hard greedy`
// would with them compiled in (same seeds and seats), and prints the result.
void check_against_greedy(const Rules& rules, const EvalWeights& weights, int games,
                          std::uint64_t seed, int threads) {
  candidate_weights = &weights;
  register_agent_kind("candidate", make_candidate, "candidate[:D]  the tuner's fitted weights");
  match::MatchOptions options;
  options.specs = {"candidate:3", "greedy"};
  options.games = games;
  options.seed = seed;
  options.threads = threads;
  options.rules = rules;
  const match::MatchResult result = match::run_match(options, [](int, int) {});
  const int wins = result.agents[0].wins;
  const match::Interval interval = match::wilson_interval(wins, games);
  std::fprintf(stderr,
               "check: expectimax:3 with these weights beats greedy %d/%d = %.1f%% [%.1f%%, "
               "%.1f%%] (seed %llu)\n",
               wins, games, 100.0 * wins / games, 100.0 * interval.low, 100.0 * interval.high,
               static_cast<unsigned long long>(seed));
}

}  // namespace
}  // namespace ur

int main(int argc, char** argv) {
  CLI::App app{"Fit the static evaluation's weights to self-play outcomes"};
  int games = 20000;
  int depth = 2;
  int rounds = 2;
  std::uint64_t seed = 1;
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  app.add_option("--games", games, "Self-play games per round")->check(CLI::Range(10, 10'000'000));
  app.add_option("--depth", depth, "Search depth (throws) of the self-play players")
      ->check(CLI::Range(ur::kMinSearchDepth, ur::kMaxSearchDepth));
  app.add_option("--rounds", rounds, "Play-then-fit rounds, each playing with the last fit")
      ->check(CLI::Range(0, 20));
  app.add_option("--seed", seed, "Seed for dice and sampling");
  app.add_option("--threads", threads, "Games played at once")->check(CLI::Range(1, 256));
  std::string rules_name = "finkel";
  app.add_option("--rules", rules_name,
                 "Named rule set whose weights are fitted: finkel, masters, blitz, aseb");
  int pieces = 0;
  app.add_option("--pieces", pieces,
                 "Pieces per side of the games played (default the set's own); the weights "
                 "serve every piece count, so a smaller solved table can teach them")
      ->check(CLI::Range(1, 7));
  std::string table_path;
  app.add_option("--table", table_path,
                 "Solved table (ur solve --rules NAME) for the set at the piece count played: fit "
                 "to its exact values instead of game outcomes");
  std::string objective = "predict";
  app.add_option("--objective", objective,
                 "predict: fit the chance to win (outcomes, or the table's values); play: with "
                 "--table, fit one-throw choices to the table's best moves; coordinates: "
                 "with --table, fit expectimax:D's own moves against greedy, one weight at a time "
                 "(--games a trial, --steps passes)")
      ->check(CLI::IsMember({"predict", "play", "coordinates"}));
  double sharpness = 100.0;
  double calibration = 1.0;
  int epochs = 300;
  double rate = 0.01;
  app.add_option("--sharpness", sharpness, "play: softmax sharpness of the soft choice")
      ->check(ur::cli::number_range(1.0, 10000.0));
  app.add_option("--calibration", calibration,
                 "play: weight of the squared error of position values")
      ->check(ur::cli::number_range(0.0, 1000.0));
  app.add_option("--epochs", epochs, "play: Adam steps")->check(CLI::Range(1, 100000));
  int check_games = 0;
  std::uint64_t check_seed = 3;
  app.add_option("--check", check_games,
                 "After fitting, play this many games of expectimax:3 with the new weights "
                 "against greedy (0: none)")
      ->check(CLI::Range(0, 100000));
  app.add_option("--check-seed", check_seed, "Seed of the check match");
  app.add_option("--rate", rate, "play: Adam step size (smaller refines weights already fitted)")
      ->check(ur::cli::number_range(1e-6, 1.0));
  int steps = 3;
  double perturbation = 0.02;
  app.add_option("--steps", steps, "coordinates: passes over the weights")
      ->check(CLI::Range(1, 100));
  app.add_option("--perturbation", perturbation,
                 "coordinates: first step, in logit units at a feature's typical size (halves "
                 "each pass)")
      ->check(ur::cli::number_range(1e-6, 1.0));
  bool only_contact = false;
  app.add_flag("--only-contact", only_contact, "coordinates: fit only the six contact weights");
  bool from_progress = false;
  app.add_flag("--from-progress", from_progress,
               "Start from the set's progress weights instead of its current ones");
  CLI11_PARSE(app, argc, argv);

  const ur::NamedRuleSet* named = ur::find_rule_set(rules_name);
  if (!named) {
    std::cerr << "ur_tune_eval: unknown rule set '" << rules_name << "'; expected one of "
              << ur::known_rule_set_names() << "\n";
    return 2;
  }
  ur::Rules rules(named->spec);
  if (pieces > 0) rules.pieces = pieces;
  std::shared_ptr<const ur::tables::Table> table;
  if (!table_path.empty()) {
    auto opened = ur::tables::Table::open(table_path, rules);
    if (const auto* problem = std::get_if<std::string>(&opened)) {
      std::cerr << "ur_tune_eval: " << *problem << "\n";
      return 2;
    }
    table = std::get<std::shared_ptr<const ur::tables::Table>>(opened);
  }
  ur::EvalWeights weights =
      from_progress ? ur::progress_eval_weights(rules) : ur::eval_weights(rules);
  std::fprintf(stderr, "starting from the %s weights\n",
               from_progress ? "progress" : std::string(ur::eval_weights_name(rules)).c_str());
  if (objective == "coordinates") {
    if (!table) {
      std::cerr << "ur_tune_eval: --objective coordinates needs --table\n";
      return 2;
    }
    weights = ur::fit_coordinates(rules, weights, ur::match::table_move_loss(table), depth, steps,
                                  games, seed, threads, perturbation, only_contact);
    rounds = 0;
  }
  for (int round = 0; round < rounds; ++round) {
    ur::Dataset dataset;
    std::atomic<int> next{0};
    {
      std::vector<std::jthread> workers;
      for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&] {
          for (int game = next++; game < games; game = next++) {
            ur::play_game(rules, weights, depth,
                          ur::derive_seed(seed, static_cast<std::uint64_t>(round) * games + game),
                          game % 10 == 0, table.get(), dataset);
          }
        });
      }
    }
    const ur::EvalWeights fitted =
        objective == "play" && table
            ? ur::fit_decisions(dataset, weights, sharpness, calibration, epochs, rate)
            : ur::fit_logistic(dataset.samples, weights);
    if (table) {
      std::fprintf(stderr, "round %d: %zu decisions; held-out one-throw regret %.5f -> %.5f\n",
                   round + 1, dataset.decisions.size(),
                   ur::held_out_regret(weights, dataset.decisions),
                   ur::held_out_regret(fitted, dataset.decisions));
    }
    const ur::Fit before = ur::score(weights, dataset.samples);
    const ur::Fit after = ur::score(fitted, dataset.samples);
    std::fprintf(stderr,
                 "round %d: %zu positions from %d games; held-out log-loss %.4f -> %.4f, "
                 "Brier %.4f -> %.4f\n",
                 round + 1, dataset.samples.size(), games, before.log_loss, after.log_loss,
                 before.brier, after.brier);
    weights = fitted;
  }
  ur::print_weights(named->title, weights);
  if (check_games > 0)
    ur::check_against_greedy(ur::Rules(named->spec), weights, check_games, check_seed, threads);
  return 0;
}
