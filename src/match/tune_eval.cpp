// ur_tune_eval: fits the static evaluation's weights to self-play outcomes.
//
// Plays games between two copies of expectimax:D that use the current weights, records the
// features of positions (seen by the side about to throw) with whether that side went on to
// win, and fits a logistic regression by Newton's method with a small L2 penalty. Every
// tenth game is held out to report how well the old and new weights predict results.
// Prints the new weights in the form of src/agents/evaluation_weights.h.
//
//   ur_tune_eval [--games N] [--depth D] [--rounds R] [--seed S] [--threads T]
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "agents/evaluation.h"
#include "agents/expectimax.h"
#include "agents/rng.h"

namespace ur {
namespace {

constexpr int kFeatures = eval_feature::kCount;
constexpr double kSampleChance = 0.25;  // positions kept per game, to bound memory
constexpr double kRidge = 1e-3;         // L2 penalty per sample, keeps redundant weights bounded

struct Sample {
  std::array<float, kFeatures> features;
  bool won;
  bool held_out;
};

struct Dataset {
  std::vector<Sample> samples;
  std::mutex mutex;
};

void play_game(const Rules& rules, const EvalWeights& weights, int depth, std::uint64_t seed,
               bool held_out, Dataset& dataset) {
  SearchOptions options;
  options.depth = depth;
  options.weights = &weights;
  ExpectimaxSearch search(options);
  SplitMix64 rng(seed);
  Position position = starting_position(rules, rng.below(2) ? Side::Light : Side::Dark);
  std::vector<std::pair<Sample, Side>> seen;
  std::array<double, kFeatures> features{};
  while (!is_game_over(rules, position)) {
    if (rng.unit() < kSampleChance) {
      eval_features(rules, position, features);
      Sample sample{};
      std::copy(features.begin(), features.end(), sample.features.begin());
      sample.held_out = held_out;
      seen.emplace_back(sample, position.turn);
    }
    const Roll roll = throw_dice(rules, rng);
    if (count_legal_moves(rules, position, roll) == 0) {
      position = pass_turn(position);
      continue;
    }
    position = apply_move(rules, position, search.search(rules, position, roll).move);
  }
  const Side winning = *winner(rules, position);
  std::lock_guard lock(dataset.mutex);
  for (auto& [sample, side] : seen) {
    sample.won = side == winning;
    dataset.samples.push_back(sample);
  }
}

double logit(const EvalWeights& weights, const Sample& sample) {
  double sum = 0.0;
  for (int i = 0; i < kFeatures; ++i) sum += weights[i] * sample.features[i];
  return sum;
}

struct Fit {
  double log_loss = 0.0;
  double brier = 0.0;
};

Fit score(const EvalWeights& weights, const std::vector<Sample>& samples) {
  Fit fit;
  int count = 0;
  for (const Sample& sample : samples) {
    if (!sample.held_out) continue;
    const double p = std::clamp(1.0 / (1.0 + std::exp(-logit(weights, sample))), 1e-12, 1 - 1e-12);
    fit.log_loss -= sample.won ? std::log(p) : std::log(1 - p);
    fit.brier += (p - sample.won) * (p - sample.won);
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
        gradient[i] += (p - sample.won) * sample.features[i];
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

void print_weights(const EvalWeights& weights) {
  namespace f = eval_feature;
  const auto row = [&weights](int first, int count) {
    std::string text = "   ";
    for (int i = first; i < first + count; ++i) {
      char number[32];
      std::snprintf(number, sizeof number, " %.4f,", weights[i]);
      text += number;
    }
    return text + "\n";
  };
  std::cout << "inline constexpr EvalWeights kTunedEvalWeights = {\n"
            << "    // bias\n"
            << row(f::kBias, 1) << "    // our pieces on squares 1..14\n"
            << row(f::kOurSquare, 14) << "    // our pieces home\n"
            << row(f::kOurHome, 1) << "    // their pieces on squares 1..14\n"
            << row(f::kTheirSquare, 14) << "    // their pieces home\n"
            << row(f::kTheirHome, 1)
            << "    // exposure on shared squares 5..12: our near, our far, their near, their far\n"
            << row(f::kOurNear, 8) << row(f::kOurFar, 8) << row(f::kTheirNear, 8)
            << row(f::kTheirFar, 8) << "    // danger: ours, theirs\n"
            << row(f::kOurDanger, 2) << "};\n";
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
      ->check(CLI::Range(1, 20));
  app.add_option("--seed", seed, "Seed for dice and sampling");
  app.add_option("--threads", threads, "Games played at once")->check(CLI::Range(1, 256));
  CLI11_PARSE(app, argc, argv);

  const ur::Rules rules = ur::finkel_rules();
  ur::EvalWeights weights = ur::tuned_eval_weights();
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
                          game % 10 == 0, dataset);
          }
        });
      }
    }
    const ur::EvalWeights fitted = ur::fit_logistic(dataset.samples, weights);
    const ur::Fit before = ur::score(weights, dataset.samples);
    const ur::Fit after = ur::score(fitted, dataset.samples);
    std::fprintf(stderr,
                 "round %d: %zu positions from %d games; held-out log-loss %.4f -> %.4f, "
                 "Brier %.4f -> %.4f\n",
                 round + 1, dataset.samples.size(), games, before.log_loss, after.log_loss,
                 before.brier, after.brier);
    weights = fitted;
  }
  ur::print_weights(weights);
  return 0;
}
