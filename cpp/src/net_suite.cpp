#include "tavli/net_suite.h"

#include <stdexcept>
#include <string>

namespace tavli {
namespace {

// Throws std::invalid_argument unless `what` is given and of v's family; `kind` names it ("net"),
// `phrase` with its article ("a net").
template <class T>
void check_serves(const T& what, const char* kind, const char* phrase, Variant v) {
  if (!what) throw std::invalid_argument(std::string("net suite: no ") + kind);
  if (what->family() != net_family(v))
    throw std::invalid_argument(std::string("net suite: ") + phrase + " of family '" + what->family() +
                                "' cannot serve " + variant_info(v).name + " (family '" + net_family(v) + "')");
}

}  // namespace

void NetSuite::assign(Variant v, std::shared_ptr<const NeuralNet> net) {
  check_serves(net, "net", "a net", v);
  nets_[static_cast<std::size_t>(v)] = std::make_shared<const NeuralEvaluator>(std::move(net));
  classes_[static_cast<std::size_t>(v)] = nullptr;
}

void NetSuite::assign(Variant v, std::shared_ptr<const ClassNetEvaluator> nets) {
  check_serves(nets, "class nets", "class nets", v);
  classes_[static_cast<std::size_t>(v)] = std::move(nets);
  nets_[static_cast<std::size_t>(v)] = nullptr;
}

void NetSuite::assign_pruner(Variant v, std::shared_ptr<const NeuralNet> net) {
  check_serves(net, "pruning net", "a pruning net", v);
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
