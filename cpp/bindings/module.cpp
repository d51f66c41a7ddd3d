// pybind11 module tavli._core: registration only. Each concept's bindings live in its own file
// (conversions only, no game logic: everything forwards to the core); the conversions they share
// are in args.h, arrays.h and play_object.h. The order below is the order the types are
// registered in, which the signatures of later functions name.
#include <pybind11/pybind11.h>

#include "stoppable.h"
#include "tavli/batch.h"
#include "tavli/cubeful_search.h"
#include "tavli/game.h"
#include "tavli/movegen.h"
#include "tavli/rollout.h"
#include "tavli/search.h"
#include "tavli/sim.h"

namespace py = pybind11;

void bind_variants(py::module_& m);                    // variant_bindings.cpp
void bind_dice(py::module_& m);                        // dice_bindings.cpp
py::class_<tavli::Game> bind_board(py::module_& m);    // board_bindings.cpp
void bind_search(py::class_<tavli::Game>& board);      // search_bindings.cpp
void bind_match(py::module_& m);                       // match_bindings.cpp
void bind_batch(py::module_& m);                       // batch_bindings.cpp
void bind_simulation(py::module_& m);                  // sim_bindings.cpp
void bind_evaluator(py::module_& m);                   // evaluator_bindings.cpp
void bind_nnet(py::module_& m);                        // nnet_bindings.cpp
void bind_class_nets(py::module_& m);                  // class_net_bindings.cpp
void bind_race_db(py::module_& m);                     // race_db_bindings.cpp
void bind_rollout(py::module_& m);                     // rollout_bindings.cpp
void bind_cube(py::module_& m);                        // cube_bindings.cpp

PYBIND11_MODULE(_core, m) {
  m.doc() = "tavli C++ core: rules, move generation and bulk calls for the tables games";

  py::register_local_exception<tavli::InvalidPosition>(m, "InvalidPosition", PyExc_ValueError);
  py::register_local_exception<tavli::IllegalMove>(m, "IllegalMove", PyExc_ValueError);

  tavli_bindings::register_stop_exceptions();

  m.attr("ROW_BYTES") = tavli::kRowBytes;
  m.attr("MAX_PLAYS") = tavli::kMaxPlays;
  // The bounds the core checks (each documented beside its function), for the Python checks that
  // name a parameter before calling in: one owner per range.
  m.attr("MAX_THREADS") = tavli::kMaxThreads;
  m.attr("MAX_SEARCH_PLIES") = tavli::kMaxSearchPlies;
  m.attr("MAX_PRUNE") = tavli::kMaxPrune;
  m.attr("DEFAULT_PRUNE") = tavli::kDefaultPrune;
  m.attr("MAX_BATCH_PLIES") = tavli::kMaxBatchPlies;
  m.attr("MAX_PLAYER_PLIES") = tavli::kMaxPlayerPlies;
  m.attr("MAX_CUBE_PLAYER_PLIES") = tavli::kMaxCubePlayerPlies;
  m.attr("MAX_CUBEFUL_PLIES") = tavli::kMaxCubefulPlies;
  m.attr("MAX_GAMES") = tavli::kMaxGames;
  m.attr("MAX_MATCHES") = tavli::kMaxMatches;
  m.attr("MAX_MATCH_TARGET") = tavli::kMaxMatchTarget;
  m.attr("MAX_ROLLOUT_TRIALS") = tavli::kMaxRolloutTrials;

  bind_variants(m);
  bind_dice(m);
  py::class_<tavli::Game> board = bind_board(m);
  bind_search(board);
  bind_match(m);
  bind_batch(m);
  bind_simulation(m);
  bind_evaluator(m);
  bind_nnet(m);
  bind_class_nets(m);
  bind_race_db(m);
  bind_rollout(m);
  bind_cube(m);
}
