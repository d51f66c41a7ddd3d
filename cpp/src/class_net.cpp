#include "tavli/class_net.h"

#include <stdexcept>
#include <vector>

#include "tavli/bearoff2.h"

namespace tavli {

namespace {
std::shared_ptr<const NeuralEvaluator> wrap(std::shared_ptr<const NeuralNet> net, const std::string& family,
                                            const char* what) {
  if (!net) return nullptr;
  if (net->family() != family)
    throw std::invalid_argument(std::string("class nets: the ") + what + " net is of family '" + net->family() +
                                "', the contact net of '" + family + "'");
  return std::make_shared<const NeuralEvaluator>(std::move(net));
}
}  // namespace

ClassNetEvaluator::ClassNetEvaluator(std::shared_ptr<const NeuralNet> contact, std::shared_ptr<const NeuralNet> race,
                                     std::shared_ptr<const NeuralNet> crashed) {
  if (!contact) throw std::invalid_argument("class nets: a contact net is required");
  const std::string family = contact->family();
  contact_ = wrap(std::move(contact), family, "contact");
  race_ = wrap(std::move(race), family, "race");
  crashed_ = wrap(std::move(crashed), family, "crashed");
}

bool ClassNetEvaluator::supports(const Rules& rules) const { return contact_->supports(rules); }

bool ClassNetEvaluator::has_own_net(PositionClass c) const {
  return c == PositionClass::Contact || (c == PositionClass::Race && race_) || (c == PositionClass::Crashed && crashed_);
}

const NeuralEvaluator* ClassNetEvaluator::net_for(PositionClass c) const {
  switch (c) {
    case PositionClass::Bearoff2:
    case PositionClass::Bearoff1: return nullptr;
    case PositionClass::Race: return race_ ? race_.get() : contact_.get();
    case PositionClass::Crashed: return crashed_ ? crashed_.get() : contact_.get();
    case PositionClass::Contact: return contact_.get();
  }
  return contact_.get();
}

void ClassNetEvaluator::evaluate(const Position* positions, int n, const Rules& rules, Probabilities* out) const {
  if (!supports(rules))
    throw std::invalid_argument("class nets of family '" + family() + "' cannot evaluate " + rules.info().name +
                                " (family '" + net_family(rules.variant) + "')");
  // Each net sees its positions in one batch, in their order; the results go back to their slots
  // (a position's value does not depend on its batch: nnet.h).
  thread_local std::vector<Position> group[3];
  thread_local std::vector<int> where[3];
  thread_local std::vector<Probabilities> got;
  const NeuralEvaluator* nets[3] = {net_for(PositionClass::Race), net_for(PositionClass::Crashed),
                                    net_for(PositionClass::Contact)};
  for (int g = 0; g < 3; ++g) group[g].clear(), where[g].clear();
  for (int i = 0; i < n; ++i) {
    const Position& p = positions[i];
    switch (position_class(p, rules)) {
      case PositionClass::Bearoff2: {
        Probabilities q;  // each side has a checker off: no doubles or triples
        q.win = TwoSidedBearoff::get().win(p.own(), p.opp());
        out[i] = q;
        break;
      }
      case PositionClass::Bearoff1:  // NeuralEvaluator values it exactly (one-sided table)
      case PositionClass::Contact: group[2].push_back(p), where[2].push_back(i); break;
      case PositionClass::Race: group[0].push_back(p), where[0].push_back(i); break;
      case PositionClass::Crashed: group[1].push_back(p), where[1].push_back(i); break;
    }
  }
  for (int g = 0; g < 3; ++g) {
    const int m = static_cast<int>(group[g].size());
    if (!m) continue;
    got.resize(static_cast<std::size_t>(m));
    nets[g]->evaluate(group[g].data(), m, rules, got.data());
    for (int k = 0; k < m; ++k) out[where[g][static_cast<std::size_t>(k)]] = got[static_cast<std::size_t>(k)];
  }
}

}  // namespace tavli
