// Neural nets (nnet.h): initialisation, the choice of forward path (the arithmetic is in
// nnet_forward.cpp), the weight file, and the evaluator. Layouts and the file format are
// documented in nnet.h.
#include "tavli/nnet.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "tavli/nnet_forward.h"
#include "tavli/rng.h"
#include "tavli/simd.h"

#if defined(_WIN32)
#include <process.h>
#define tavli_getpid _getpid
#else
#include <unistd.h>
#define tavli_getpid getpid
#endif

namespace tavli {

// --- families ------------------------------------------------------------------------------------

const char* net_family(Variant v) { return variant_info(v).facts.net_family.c_str(); }

namespace {
constexpr const char* kFamilies[] = {"backgammon", "plakoto", "fevga", "narde", "tawla31"};
}  // namespace

void check_net_family(const std::string& name) {
  for (const char* f : kFamilies)
    if (name == f) return;
  throw std::invalid_argument("unknown net family '" + name + "' (known: backgammon, plakoto, fevga, narde, tawla31)");
}

Encoding net_family_encoding(const std::string& family) {
  check_net_family(family);
  for (const VariantInfo& v : variant_table())
    if (family == net_family(v.variant)) return default_encoding(make_rules(v.variant));
  throw std::logic_error("net family '" + family + "' has no game");
}

// --- the net -------------------------------------------------------------------------------------

namespace {

void check_sizes(int inputs, int hidden) {
  if (inputs < 1 || inputs > NeuralNet::kMaxUnits)
    throw std::invalid_argument("inputs must be 1.." + std::to_string(NeuralNet::kMaxUnits) + ", got " + std::to_string(inputs));
  if (hidden < 1 || hidden > NeuralNet::kMaxUnits)
    throw std::invalid_argument("hidden must be 1.." + std::to_string(NeuralNet::kMaxUnits) + ", got " + std::to_string(hidden));
}

// The encoding name is known (or "raw"), fits the input size and the family's games.
void check_encoding(const std::string& encoding, const std::string& family, int inputs) {
  check_net_family(family);
  if (encoding == "raw") return;
  const Encoding e = encoding_from_name(encoding);
  if (encoding_size(e, false) != inputs)
    throw std::invalid_argument("encoding '" + encoding + "' has " + std::to_string(encoding_size(e, false)) +
                                " units, but the net has " + std::to_string(inputs) + " inputs");
  for (const VariantInfo& v : variant_table())
    if (family == net_family(v.variant) && !encoding_fits(e, make_rules(v.variant)))
      throw std::invalid_argument(std::string("the games of family '") + family + "' are encoded with '" +
                                  encoding_name(net_family_encoding(family)) + "'" +
                                  (family == std::string("backgammon") ? " or 'expert'" : "") + ", not '" + encoding + "'");
}

}  // namespace

NeuralNet::NeuralNet(int inputs, int hidden, const std::string& encoding, const std::string& family,
                     std::uint64_t seed)
    : inputs_(inputs), hidden_(hidden), encoding_(encoding), family_(family) {
  check_sizes(inputs, hidden);
  check_encoding(encoding, family, inputs);
  w1_.resize(static_cast<std::size_t>(inputs) * hidden);
  b1_.assign(static_cast<std::size_t>(hidden), 0.0f);
  w2_.resize(static_cast<std::size_t>(kOutputs) * hidden);
  b2_.assign(kOutputs, 0.0f);
  Rng rng(seed);
  auto fill = [&](Weights& w, int fan_in) {
    const float a = 1.0f / std::sqrt(static_cast<float>(fan_in));
    for (float& v : w) v = a * (static_cast<float>(rng.next() >> 40) * (2.0f / 16777216.0f) - 1.0f);  // 24 bits
  };
  fill(w1_, inputs);
  fill(w2_, hidden);
  use_avx2_ = cpu_has_avx2();
  use_avx512_ = cpu_has_avx512();
}

void NeuralNet::set_metadata(std::string text) {
  if (text.size() > kMaxText) throw std::invalid_argument("metadata longer than " + std::to_string(kMaxText) + " bytes");
  metadata_ = std::move(text);
}

bool NeuralNet::cpu_has_avx2() {
  return simd::has_avx2_fma();
}

bool NeuralNet::cpu_has_avx512() {
  return simd::has_avx512f();
}

std::uint64_t NeuralNet::next_version() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}

void NeuralNet::force_scalar(bool on) {
  touch();
  use_avx2_ = !on && cpu_has_avx2();
  use_avx512_ = !on && cpu_has_avx512();
}

void NeuralNet::force_avx2(bool on) {
  touch();
  use_avx512_ = !on && use_avx2_ && cpu_has_avx512();
}

void NeuralNet::check_finite() const {
  const struct {
    const char* name;
    const Weights& w;
    int cols;
  } layers[] = {{"w1", w1_, hidden_}, {"b1", b1_, 0}, {"w2", w2_, hidden_}, {"b2", b2_, 0}};
  for (const auto& l : layers)
    for (std::size_t k = 0; k < l.w.size(); ++k)
      if (!std::isfinite(l.w[k])) {
        const std::string where = l.cols ? "[" + std::to_string(k / static_cast<std::size_t>(l.cols)) + "][" +
                                               std::to_string(k % static_cast<std::size_t>(l.cols)) + "]"
                                         : "[" + std::to_string(k) + "]";
        throw std::invalid_argument(std::string("weight ") + l.name + where + " is " +
                                    (std::isnan(l.w[k]) ? "NaN" : "infinite"));
      }
}

NeuralNet::Path NeuralNet::path() const {
  return use_avx512_ ? Path::kAvx512 : use_avx2_ ? Path::kAvx2 : Path::kScalar;
}

void NeuralNet::forward_batch(const float* x, int n, float* out, float* hidden) const {
  nnet_forward::dense(layers(), x, n, out, hidden, path());
}

void NeuralNet::forward_sparse(const std::uint16_t* index, const float* value, const int* start, int n,
                               float* out) const {
  nnet_forward::sparse(layers(), index, value, start, n, out, path());
}

void NeuralNet::forward_sparse(const float* w1, const std::uint16_t* index, const float* value, const int* start,
                               int n, float* out) const {
  nnet_forward::Layers l = layers();
  l.w1 = w1;
  nnet_forward::sparse(l, index, value, start, n, out, path());
}

// --- the weight file -----------------------------------------------------------------------------

namespace {

constexpr char kMagic[8] = {'T', 'A', 'V', 'L', 'I', 'N', 'E', 'T'};
constexpr std::size_t kMaxName = 64;  // encoding and family names

std::uint64_t fnv1a64(const std::uint8_t* p, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

// Little-endian writer into a byte buffer.
struct Writer {
  std::vector<std::uint8_t> bytes;
  void u32(std::uint32_t v) {
    for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
  }
  void u64(std::uint64_t v) {
    for (int k = 0; k < 8; ++k) bytes.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
  }
  void text(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
  template <typename V>
  void floats(const V& w) {
    for (float f : w) {
      std::uint32_t v;
      std::memcpy(&v, &f, sizeof v);
      u32(v);
    }
  }
};

// Little-endian reader that names the field it could not read. It reads the stream only as far as
// the fields need: the header bounds how much a file can make it read (a device such as
// /dev/zero, or a huge declared size, stops at the first field out of range).
struct Reader {
  std::istream& in;
  const std::string& path;
  std::vector<std::uint8_t> bytes;  // what has been read so far
  std::size_t pos = 0;

  [[noreturn]] void fail(const std::string& what) const { throw std::invalid_argument(path + ": " + what); }
  // Reads up to `total` bytes in all; false if the stream ends first.
  bool fill(std::size_t total) {
    if (bytes.size() >= total) return true;
    const std::size_t had = bytes.size();
    bytes.resize(total);
    in.read(reinterpret_cast<char*>(bytes.data() + had), static_cast<std::streamsize>(total - had));
    bytes.resize(had + static_cast<std::size_t>(in.gcount()));
    return bytes.size() >= total;
  }
  void need(std::size_t n, const char* what) {
    if (!fill(pos + n))
      fail(std::string("truncated file: ") + what + " needs " + std::to_string(n) + " bytes at offset " +
           std::to_string(pos) + ", the file has " + std::to_string(bytes.size()));
  }
  std::uint32_t u32(const char* what) {
    need(4, what);
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v |= static_cast<std::uint32_t>(bytes[pos + k]) << (8 * k);
    pos += 4;
    return v;
  }
  std::uint64_t u64(const char* what) {
    const std::uint64_t lo = u32(what);
    return lo | static_cast<std::uint64_t>(u32(what)) << 32;
  }
  std::string text(const char* what, std::size_t max) {
    const std::uint32_t n = u32(what);
    if (n > max) fail(std::string(what) + " is " + std::to_string(n) + " bytes long (at most " + std::to_string(max) + ")");
    need(n, what);
    std::string s(reinterpret_cast<const char*>(bytes.data() + pos), n);
    pos += n;
    return s;
  }
  template <typename V>
  void floats(V& w) {
    for (float& f : w) {
      const std::uint32_t v = u32("weights");
      std::memcpy(&f, &v, sizeof f);
    }
  }
};

std::string hex64(std::uint64_t v) {
  char buf[19];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

void NeuralNet::save(const std::string& path) const {
  check_finite();
  Writer w;
  w.bytes.insert(w.bytes.end(), kMagic, kMagic + 8);
  w.u32(kFormatVersion);
  w.u32(2);
  w.u32(static_cast<std::uint32_t>(inputs_));
  w.u32(static_cast<std::uint32_t>(hidden_));
  w.u32(kOutputs);
  w.text(encoding_);
  w.text(family_);
  w.text(metadata_);
  w.floats(w1_);
  w.floats(b1_);
  w.floats(w2_);
  w.floats(b2_);
  w.u64(fnv1a64(w.bytes.data(), w.bytes.size()));

  // A reader never sees a half-written file: write a temporary next to the target, then rename
  // (atomic on POSIX within one file system).
  const std::string tmp = path + ".tmp" + std::to_string(tavli_getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw std::runtime_error("cannot write " + tmp);
    f.write(reinterpret_cast<const char*>(w.bytes.data()), static_cast<std::streamsize>(w.bytes.size()));
    f.flush();
    if (!f) {
      f.close();
      std::remove(tmp.c_str());
      throw std::runtime_error("error writing " + tmp);
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot rename " + tmp + " to " + path);
  }
}

NeuralNet NeuralNet::load(const std::string& path) {
  // Only a regular file: a directory cannot be read, and a device or a pipe may never end.
  std::error_code ec;
  const auto kind = std::filesystem::status(path, ec).type();
  if (ec || kind == std::filesystem::file_type::not_found) throw std::invalid_argument(path + ": cannot open (no such file)");
  if (kind != std::filesystem::file_type::regular)
    throw std::invalid_argument(path + ": not a regular file (" +
                                (kind == std::filesystem::file_type::directory ? "a directory" : "a device, pipe or socket") +
                                "): a net is read from a weight file");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::invalid_argument(path + ": cannot open");
  Reader rd{f, path, {}};
  const std::vector<std::uint8_t>& bytes = rd.bytes;

  if (!rd.fill(sizeof kMagic) || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    rd.fail("not a tavli network file (bad magic; expected \"TAVLINET\")");
  rd.pos = sizeof kMagic;
  const std::uint32_t version = rd.u32("format version");
  if (version != kFormatVersion)
    rd.fail("unsupported format version " + std::to_string(version) + " (this build reads version " +
            std::to_string(kFormatVersion) + ")");
  const std::uint32_t layers = rd.u32("layer count");
  if (layers < 2 || layers > 8) rd.fail("corrupt layer count " + std::to_string(layers));
  std::vector<std::uint32_t> sizes;
  for (std::uint32_t k = 0; k <= layers; ++k) sizes.push_back(rd.u32("layer sizes"));
  if (layers != 2)
    rd.fail(std::to_string(layers - 1) + " hidden layers: this build reads nets with one hidden layer");
  for (std::uint32_t s : sizes)
    if (s < 1 || s > static_cast<std::uint32_t>(kMaxUnits)) rd.fail("corrupt layer size " + std::to_string(s));
  if (sizes[2] != kOutputs)
    rd.fail(std::to_string(sizes[2]) + " outputs: this build reads nets with " + std::to_string(kOutputs));

  NeuralNet net;
  net.inputs_ = static_cast<int>(sizes[0]);
  net.hidden_ = static_cast<int>(sizes[1]);
  net.encoding_ = rd.text("encoding name", kMaxName);
  net.family_ = rd.text("family name", kMaxName);
  net.metadata_ = rd.text("metadata", kMaxText);
  const std::size_t I = sizes[0], H = sizes[1];
  net.w1_.resize(I * H);
  net.b1_.resize(H);
  net.w2_.resize(kOutputs * H);
  net.b2_.resize(kOutputs);
  const std::size_t expected = rd.pos + 4 * (I * H + H + kOutputs * H + kOutputs) + 8;
  const std::uintmax_t on_disk = std::filesystem::file_size(path, ec);
  if ((!ec && on_disk < expected) || !rd.fill(expected))
    rd.fail("truncated file: the header describes " + std::to_string(expected) + " bytes, the file has " +
            std::to_string(!ec && on_disk < expected ? on_disk : bytes.size()));
  // Trailing bytes, counted up to a bound (the file may have grown without end).
  constexpr std::size_t kTrailingCounted = 1u << 16;
  rd.fill(expected + kTrailingCounted);
  if (bytes.size() > expected)
    rd.fail((bytes.size() - expected < kTrailingCounted ? std::to_string(bytes.size() - expected) : "too many") +
            std::string(" unexpected bytes after the checksum (the header describes ") + std::to_string(expected) +
            " bytes)");
  rd.floats(net.w1_);
  rd.floats(net.b1_);
  rd.floats(net.w2_);
  rd.floats(net.b2_);
  const std::uint64_t computed = fnv1a64(bytes.data(), rd.pos);
  const std::uint64_t stored = rd.u64("checksum");
  if (stored != computed)
    rd.fail("checksum mismatch (the file is corrupt): stored " + hex64(stored) + ", computed " + hex64(computed));

  try {
    check_encoding(net.encoding_, net.family_, net.inputs_);
    net.check_finite();
  } catch (const std::invalid_argument& e) {
    rd.fail(e.what());
  }
  net.use_avx2_ = cpu_has_avx2();
  net.use_avx512_ = cpu_has_avx512();
  return net;
}

// --- the evaluator -------------------------------------------------------------------------------

namespace {

// The kinds of win a game's scoring has (terminal_probabilities: a double is 2 points or more, a
// triple 3 or more).
bool has_doubles(const Rules& r) { return r.scoring == Scoring::SingleDouble || r.scoring == Scoring::Backgammon; }
bool has_triples(const Rules& r) {
  return r.scoring == Scoring::Backgammon || r.koks || (r.mother != MotherRule::Off && r.mother_points >= 3);
}

// Net outputs (or exact race values) made consistent with each other and with the scoring.
Probabilities consistent(float win, float wd, float wt, float ld, float lt, const Rules& rules) {
  Probabilities p;
  p.win = std::min(1.0f, std::max(0.0f, win));
  const float lose = 1.0f - p.win;
  if (has_doubles(rules)) {
    p.win_double = std::min(std::max(0.0f, wd), p.win);
    p.lose_double = std::min(std::max(0.0f, ld), lose);
    if (has_triples(rules)) {
      p.win_triple = std::min(std::max(0.0f, wt), p.win_double);
      p.lose_triple = std::min(std::max(0.0f, lt), p.lose_double);
    }
  }
  return p;
}

}  // namespace

void net_encode(const Position& pos, const Rules& rules, Encoding e, float* out) {
  encode(pos, kWhite, rules, e, nullptr, out);
}

NeuralEvaluator::NeuralEvaluator(std::shared_ptr<const NeuralNet> net) : net_(std::move(net)) {
  if (!net_) throw std::invalid_argument("NeuralEvaluator: no net");
  version_ = net_->version();
  if (net_->encoding() == "raw")
    throw std::invalid_argument("a net with the 'raw' encoding cannot evaluate positions (it has no encoding)");
  encoding_ = encoding_from_name(net_->encoding());
  const PointUnits units = point_units(encoding_);
  if (units.per_point == 0) return;
  // The net's rows, then each column: the point's units times their weights, summed in unit order.
  const std::size_t I = static_cast<std::size_t>(net_->inputs()), H = static_cast<std::size_t>(net_->hidden());
  point_columns_ = net_->inputs();
  first_layer_.resize((I + kPointColumns) * H);
  std::copy(net_->w1(), net_->w1() + I * H, first_layer_.begin());
  for (int s = 0; s < 2; ++s)
    for (int r = 0; r < kPoints; ++r) {
      const float* w = net_->w1() + static_cast<std::size_t>(s * units.per_side + units.per_point * r) * H;
      for (int n = 1; n <= kPointColumnCounts; ++n) {
        float* column = first_layer_.data() + static_cast<std::size_t>(point_column(point_columns_, s, r, n)) * H;
        std::fill(column, column + H, 0.0f);
        for (int j = 0; j < units.per_point; ++j) {
          const float x = point_unit_value(encoding_, n, j);
          for (std::size_t h = 0; h < H; ++h) column[h] += x * w[j * H + h];
        }
      }
    }
}

bool NeuralEvaluator::supports(const Rules& rules) const { return net_->family() == net_family(rules.variant); }

std::string NeuralEvaluator::refusal(const Rules& rules) const {
  if (supports(rules)) return {};
  return "a net of family '" + net_->family() + "' cannot evaluate " + rules.info().name + " (family '" +
         net_family(rules.variant) + "')";
}

void NeuralEvaluator::evaluate(const Position* positions, int n, const Rules& rules, Probabilities* out) const {
  if (!supports(rules)) throw std::invalid_argument(refusal(rules));
  if (net_->version() != version_)
    throw std::logic_error("NeuralEvaluator: the net has changed since this evaluator was made (make a new one)");
  // Sparse inputs (encode_sparse): no dense vector is written or scanned, and each row's forward
  // pass reads only its own units' weights; the outputs are those of net_encode + forward_batch
  // (up to the point columns' rounding).
  // Blocks of kBlock positions keep the scratch in the L1/L2 caches whatever n is (encoding a
  // whole bulk call first and then running the net over it streamed ~6 bytes per input unit
  // through memory: 1.27 instead of 2.1 M positions/s on 54,000 rows).
  constexpr int kBlock = 64;
  const int I = net_->inputs();
  thread_local std::vector<std::uint16_t> index;
  thread_local std::vector<float> value, y;
  thread_local std::vector<int> start, which;
  // Grown, never shrunk: a resize that grows value-initialises (memsets) the new part, and a
  // search alternates calls of different sizes (its nodes, a pruning net's and the evaluator's).
  const std::size_t need = static_cast<std::size_t>(std::min(n, kBlock)) * I + kSparseSlack;  // encode_sparse's scratch slots
  if (index.size() < need) index.resize(need);
  if (value.size() < need) value.resize(need);
  if (y.size() < static_cast<std::size_t>(kBlock) * NeuralNet::kOutputs) y.resize(static_cast<std::size_t>(kBlock) * NeuralNet::kOutputs);
  for (int b = 0; b < n; b += kBlock) {
    const int e = std::min(n, b + kBlock);
    start.assign(1, 0);
    which.clear();
    for (int i = b; i < e; ++i) {
      const Position& pos = positions[i];
      if (is_bearoff_race(pos, rules)) {
        const Probabilities p = bearoff_race(pos);
        out[i] = consistent(p.win, p.win_double, p.win_triple, p.lose_double, p.lose_triple, rules);
        continue;
      }
      const int at = start.back();
      start.push_back(at + encode_sparse(pos, kWhite, rules, encoding_, index.data() + at, value.data() + at,
                                         point_columns_));
      which.push_back(i);
    }
    const int m = static_cast<int>(which.size());
    net_->forward_sparse(first_layer_.empty() ? net_->w1() : first_layer_.data(), index.data(), value.data(),
                         start.data(), m, y.data());
    for (int k = 0; k < m; ++k) {
      const float* o = y.data() + static_cast<std::size_t>(k) * NeuralNet::kOutputs;
      out[which[static_cast<std::size_t>(k)]] = consistent(o[0], o[1], o[2], o[3], o[4], rules);
    }
  }
}

}  // namespace tavli
