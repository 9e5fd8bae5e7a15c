// A visitor built from lambdas, one per alternative: std::visit(Overloaded{...}, value).
#pragma once

namespace ur::session {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace ur::session
