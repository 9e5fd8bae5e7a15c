// A solved table as the review's values: every chance exact (to the table's encoding).
#pragma once

#include <memory>

#include "analysis/review.h"
#include "tables/table.h"

namespace ur::tables {

class TableValues final : public analysis::PositionValues {
 public:
  explicit TableValues(std::shared_ptr<const Table> table) : table_(std::move(table)) {}
  double before_throw(const Rules&, const Position& position) override {
    return evaluate(*table_, position);
  }
  bool exact() const override { return true; }
  std::string source() const override {
    return "solved table " +
           (table_->path().empty() ? std::string("(in memory)") : table_->path().string());
  }

 private:
  std::shared_ptr<const Table> table_;
};

}  // namespace ur::tables
