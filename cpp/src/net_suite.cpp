#include "tavli/net_suite.h"

#include <stdexcept>

namespace tavli {

void NetSuite::assign(Variant v, std::shared_ptr<const NeuralNet> net) {
  if (!net) throw std::invalid_argument("net suite: no net");
  if (net->family() != net_family(v))
    throw std::invalid_argument("net suite: a net of family '" + net->family() + "' cannot serve " +
                                variant_info(v).name + " (family '" + net_family(v) + "')");
  nets_[static_cast<std::size_t>(v)] = std::make_shared<const NeuralEvaluator>(std::move(net));
  classes_[static_cast<std::size_t>(v)] = nullptr;
}

void NetSuite::assign(Variant v, std::shared_ptr<const ClassNetEvaluator> nets) {
  if (!nets) throw std::invalid_argument("net suite: no class nets");
  if (nets->family() != net_family(v))
    throw std::invalid_argument("net suite: class nets of family '" + nets->family() + "' cannot serve " +
                                variant_info(v).name + " (family '" + net_family(v) + "')");
  classes_[static_cast<std::size_t>(v)] = std::move(nets);
  nets_[static_cast<std::size_t>(v)] = nullptr;
}

void NetSuite::assign_pruner(Variant v, std::shared_ptr<const NeuralNet> net) {
  if (!net) throw std::invalid_argument("net suite: no pruning net");
  if (net->family() != net_family(v))
    throw std::invalid_argument("net suite: a pruning net of family '" + net->family() + "' cannot serve " +
                                variant_info(v).name + " (family '" + net_family(v) + "')");
  pruners_[static_cast<std::size_t>(v)] = std::make_shared<const NeuralEvaluator>(std::move(net));
}

const Evaluator* NetSuite::pruner(const Rules& rules) const {
  return serves(rules.variant) ? pruners_[static_cast<std::size_t>(rules.variant)].get() : nullptr;
}

void NetSuite::evaluate(const Position* positions, int n, const Rules& rules, Probabilities* out) const {
  if (const ClassNetEvaluator* cl = classes_for(rules.variant)) cl->evaluate(positions, n, rules, out);
  else if (const NeuralEvaluator* ev = net_for(rules.variant)) ev->evaluate(positions, n, rules, out);
  else heuristic_evaluator().evaluate(positions, n, rules, out);
}

}  // namespace tavli
