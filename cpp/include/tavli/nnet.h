// Small dense neural networks: inference, the weight file, and the evaluator that uses them.
//
// A net maps a position's encoding (encode.h, side to move first) to the five cumulative
// probabilities of eval.h, in this output order:
//   out[0] win, out[1] win_double, out[2] win_triple, out[3] lose_double, out[4] lose_triple.
// One hidden layer, sigmoid everywhere:
//   hidden[h] = sigmoid(b1[h] + sum_i x[i] * w1[i * H + h])          h = 0..H-1
//   out[o]    = sigmoid(b2[o] + sum_h hidden[h] * w2[o * H + h])      o = 0..4
//
// Weight layouts (float32, row-major, as Stockfish lays out its networks): the input layer is
// input-major, w1[i][h] (I rows of H), so that the weights of one input are one contiguous row:
// encodings are mostly zeros, and a zero input skips its whole row (a backgammon position has
// about 27 non-zero units of 198). The output layer is output-major, w2[o][h] (O rows of H), one
// contiguous dot product per output; a second hidden layer (room in the file format) would be
// laid out the same way. In numpy terms:
//   hidden = sigmoid(x @ w1.reshape(I, H) + b1);  out = sigmoid(hidden @ w2.reshape(O, H).T + b2).
//
// Implementations of the same arithmetic (nnet_forward.h): AVX2 + FMA (chosen at run time when
// the CPU has it; the library needs no -march flag; AVX-512F for the sparse path's layers where
// the CPU has that too, with AVX2's bits) and portable scalar code. Per hidden unit both add the inputs'
// products in the same order (increasing input index, starting from the bias), so they differ
// only by FMA's single rounding and the order of the output layer's dot products: outputs agree
// to about 2e-7 absolute in practice, and kScalarTolerance (1e-5) is the bound the tests hold both
// paths to, against each other and against a float64 numpy forward pass. Within one path the
// result for a row does not depend on the batch it comes in (tiles add exact zeros for the inputs
// other rows use), so a search gives the same values whatever positions it groups together.
//
// The weight file (little-endian throughout; `save` writes it atomically, `load` checks all of it
// and throws std::invalid_argument naming what is wrong):
//   offset  size  field
//   0       8     magic "TAVLINET"
//   8       4     u32 format version (kFormatVersion = 1)
//   12      4     u32 L: weight layers (2 = one hidden layer; room for 3 = two hidden layers,
//                 which this version refuses to load)
//   16      4(L+1) u32 layer sizes: inputs, hidden..., outputs (outputs = 5)
//   ..      4+n   encoding name (u32 byte count, then the bytes; encode.h's names, or "raw")
//   ..      4+n   variant family (u32 byte count, bytes; see net_family())
//   ..      4+n   metadata, free UTF-8 text: training command, games, seed (u32 count, bytes)
//   ..            float32 weights, layer by layer: w1 (I*H), b1 (H), w2 (O*H), b2 (O)
//   end-8   8     u64 FNV-1a 64 checksum of every byte before it
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "tavli/encode.h"
#include "tavli/nnet_forward.h"
#include "tavli/eval.h"

namespace tavli {

// The family of games a net serves (one net per family; the games of a family share their contact
// rule, so their encoding): "backgammon" (backgammon, portes, tavla, nackgammon, hypergammon),
// "plakoto", "fevga" (fevga, moultezim, jacquet), "narde", "tawla31".
const char* net_family(Variant v);
// Throws std::invalid_argument unless `name` is one of the families above.
void check_net_family(const std::string& name);
// The encoding of a family's games (their contact rule's default_encoding); throws like the above.
Encoding net_family_encoding(const std::string& family);

// A net's input for a position (mover-relative, game not over): its encoding seen by the side to
// move, always encoded with White to move. This is what NeuralEvaluator feeds its net, and what a
// trainer must feed it too. Writes encoding_size(e, false) floats.
void net_encode(const Position& pos, const Rules& rules, Encoding e, float* out);

class NeuralNet {
 public:
  static constexpr int kOutputs = nnet_forward::kOutputs;
  static constexpr std::uint32_t kFormatVersion = 1;
  static constexpr int kMaxUnits = 4096;              // per layer: a sanity bound for files
  static constexpr std::size_t kMaxText = 1u << 20;   // metadata bytes
  static constexpr float kScalarTolerance = 1e-5f;    // |avx2 - scalar| per output, tested

  // Small random weights from our own generator (rng.h): uniform in +-1/sqrt(fan-in), biases 0,
  // so the same seed gives the same net everywhere. `encoding`: a name of encode.h (then `inputs`
  // must be its size without the roll, and the family's games must use it) or "raw" (any input
  // size, e.g. for benchmarks; not usable by the evaluator). `family`: see net_family(). Throws
  // std::invalid_argument naming what does not fit.
  NeuralNet(int inputs, int hidden, const std::string& encoding, const std::string& family, std::uint64_t seed);

  static NeuralNet load(const std::string& path);
  // Writes to a temporary file next to `path`, then renames it over `path`.
  void save(const std::string& path) const;

  int inputs() const { return inputs_; }
  int hidden() const { return hidden_; }
  int outputs() const { return kOutputs; }
  const std::string& encoding() const { return encoding_; }
  const std::string& family() const { return family_; }
  const std::string& metadata() const { return metadata_; }
  void set_metadata(std::string text);

  // The weights, in the layouts above; a trainer updates them in place (sizes are fixed). Each
  // call of these non-const accessors gives the net a new version().
  float* w1() { touch(); return w1_.data(); }  // I * H
  float* b1() { touch(); return b1_.data(); }  // H
  float* w2() { touch(); return w2_.data(); }  // O * H
  float* b2() { touch(); return b2_.data(); }  // O
  // Unique to the weights and forward path as they are: a new number from a process-wide counter
  // whenever they may change (a non-const weight accessor, force_scalar, force_avx2); copies keep
  // it, so equal versions mean equal outputs. NeuralEvaluator checks it; Python's Net keys its
  // cached evaluator by it.
  std::uint64_t version() const { return version_; }
  const float* w1() const { return w1_.data(); }
  const float* b1() const { return b1_.data(); }
  const float* w2() const { return w2_.data(); }
  const float* b2() const { return b2_.data(); }
  // Throws std::invalid_argument naming the first weight that is NaN or infinite.
  void check_finite() const;

  // One position: x has inputs() floats, out gets 5. With `hidden`, also the hidden activations
  // (hidden() floats): what a trainer needs for the gradient.
  void forward(const float* x, float* out, float* hidden = nullptr) const { forward_batch(x, 1, out, hidden); }
  // n positions, row-major: x is n * inputs(), out n * 5, hidden (optional) n * hidden(). The
  // AVX2 path takes the rows four at a time: each weight row of an input that any of the four
  // uses is loaded once and feeds all four (the candidate plays of a roll share most inputs).
  void forward_batch(const float* x, int n, float* out, float* hidden = nullptr) const;
  // The same from sparse inputs (encode_sparse's form): row r's listed units are
  // index[start[r]] .. index[start[r + 1] - 1] (increasing) with their values, every other input
  // 0. Bit-identical to forward_batch on the dense rows (the same products, added in the same
  // order; a zero input only ever adds an exact 0 there), but each row touches only its own
  // units' weight rows: unrelated positions (a search's distinct leaves) share few of them, so
  // this does not pay for the union of a tile's inputs as forward_batch does. The vector paths
  // take two rows at a time: on AVX-512 their hidden layers interleaved, then their output layers
  // side by side (independent sums; each row's in its own order, so the bits do not change).
  void forward_sparse(const std::uint16_t* index, const float* value, const int* start, int n, float* out) const;
  // The same with the first layer's rows read from `w1` instead of the net's own: rows of
  // hidden() floats, 64-byte aligned, as many as `index` addresses (NeuralEvaluator's: the net's
  // rows, then its point columns).
  void forward_sparse(const float* w1, const std::uint16_t* index, const float* value, const int* start, int n,
                      float* out) const;

  // Which implementation forward uses: AVX2 + FMA when the CPU has it, unless forced to scalar;
  // forward_sparse's layers then run on AVX-512F where the CPU has that too, unless forced
  // to AVX2 (bit-identical to it: each unit's sum in the same order; for tests and A/B timing).
  bool avx2() const { return use_avx2_; }
  bool avx512() const { return use_avx512_; }
  void force_scalar(bool on);
  void force_avx2(bool on);
  static bool cpu_has_avx2();
  static bool cpu_has_avx512();

  // Cache-line aligned: a 32-byte load of a weight row then never straddles two lines (the
  // forward pass is bound by loading w1's rows; vector's 16-byte alignment split every other load).
  template <typename T>
  struct LineAligned {
    using value_type = T;
    LineAligned() = default;
    template <typename U>
    LineAligned(const LineAligned<U>&) {}
    T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{64})); }
    void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t{64}); }
    bool operator==(const LineAligned&) const { return true; }
    bool operator!=(const LineAligned&) const { return false; }
  };
  using Weights = std::vector<float, LineAligned<float>>;

 private:
  NeuralNet() = default;
  int inputs_ = 0, hidden_ = 0;
  std::string encoding_, family_, metadata_;
  Weights w1_, b1_, w2_, b2_;
  bool use_avx2_ = false, use_avx512_ = false;
  std::uint64_t version_ = next_version();
  static std::uint64_t next_version();
  void touch() { version_ = next_version(); }
  using Path = nnet_forward::Path;
  Path path() const;
  nnet_forward::Layers layers() const { return {inputs_, hidden_, w1_.data(), b1_.data(), w2_.data(), b2_.data()}; }
};

// Static evaluation by a net: each position encoded with the net's encoding (seen by the side to
// move, with to_move = white: the value of a mover-relative position does not depend on colour,
// so a trainer must encode the same way), all positions of a call in one forward_batch, outputs
// made consistent (win_triple <= win_double <= win, lose_triple <= lose_double <= 1 - win; no
// kinds of win that the game's scoring lacks; draw and margin 0). Races with every checker home
// use the exact bear-off values instead, as the heuristic does.
//
// Point columns (encode.h): for an encoding that has them, the evaluator keeps its own first
// layer, the net's rows followed by one precomputed row per (side, point, count), the sum of that
// point's units times their weights; each occupied point then adds one row instead of up to four
// (1.07x the positions a second on backgammon's shipped net, 1.19x on Fevga's). The outputs differ
// from the net's forward_batch on the same encoding only in the rounding of those sums (a few
// 1e-7, tested).
class NeuralEvaluator final : public Evaluator {
 public:
  // Shares the net, and copies its first layer (with the point columns): a trainer that updates
  // the net makes a new evaluator afterwards. Throws std::invalid_argument if the net's encoding
  // is "raw" or does not match its family.
  explicit NeuralEvaluator(std::shared_ptr<const NeuralNet> net);
  std::string name() const override { return "neural"; }
  // Throws std::invalid_argument when `rules` is not a game of the net's family, std::logic_error
  // when the net has changed since the evaluator was made (its version()).
  void evaluate(const Position* positions, int n, const Rules& rules, Probabilities* out) const override;
  bool supports(const Rules& rules) const;
  std::string refusal(const Rules& rules) const override;
  const NeuralNet& net() const { return *net_; }

 private:
  std::shared_ptr<const NeuralNet> net_;
  Encoding encoding_;
  std::uint64_t version_;             // the net's when made
  int point_columns_ = 0;             // the first point column's row (the net's inputs); 0: none
  NeuralNet::Weights first_layer_;  // with point columns: the net's w1 rows, then the columns
};

}  // namespace tavli
