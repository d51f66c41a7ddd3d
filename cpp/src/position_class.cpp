#include "tavli/position_class.h"

#include <stdexcept>

#include "tavli/bearoff.h"
#include "tavli/bearoff2.h"
#include "tavli/eval.h"

namespace tavli {

int checkers_in_play(const SideState& s) {
  int n = s.on_board() + s.bar;
  for (int r : {23, 22})  // the 1- and 2-points
    if (s.n[r] >= 2) n -= s.n[r] - 1;
  return n;
}

PositionClass position_class(const Position& pos, const Rules& rules) {
  const SideState &me = pos.own(), &op = pos.opp();
  if (is_race(pos, rules)) {
    if (!all_home(me) || !all_home(op)) return PositionClass::Race;
    if (me.off > 0 && op.off > 0 && TwoSidedBearoff::fits(me) && TwoSidedBearoff::fits(op)) return PositionClass::Bearoff2;
    return PositionClass::Bearoff1;
  }
  if (checkers_in_play(me) <= kCrashedPlaying || checkers_in_play(op) <= kCrashedPlaying) return PositionClass::Crashed;
  return PositionClass::Contact;
}

namespace {
constexpr const char* kNames[kPositionClasses] = {"bearoff2", "bearoff1", "race", "crashed", "contact"};
}

const char* position_class_name(PositionClass c) { return kNames[static_cast<int>(c)]; }

PositionClass position_class_from_name(const std::string& name) {
  for (int i = 0; i < kPositionClasses; ++i)
    if (name == kNames[i]) return static_cast<PositionClass>(i);
  throw std::invalid_argument("unknown position class '" + name + "' (known: bearoff2, bearoff1, race, crashed, contact)");
}

}  // namespace tavli
