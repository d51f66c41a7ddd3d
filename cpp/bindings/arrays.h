// NumPy conversions shared by the binding files: position rows in (shape checks, validated
// positions) and rows or columns out. Row layout: cpp/include/tavli/position.h.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "tavli/game.h"

namespace tavli_bindings {

using RowsIn = pybind11::array_t<std::uint8_t, pybind11::array::c_style | pybind11::array::forcecast>;
using DiceIn = pybind11::array_t<std::int64_t, pybind11::array::c_style | pybind11::array::forcecast>;

// Throws std::invalid_argument unless `rows` is (N, kRowBytes).
inline void check_rows_shape(const RowsIn& rows) {
  if (rows.ndim() != 2 || rows.shape(1) != tavli::kRowBytes)
    throw std::invalid_argument("positions must be a uint8 array of shape (N, " + std::to_string(tavli::kRowBytes) + ")");
}

// The number of rows, after checking rows (N, kRowBytes) and dice (N, 2).
inline std::int64_t check_batch_shapes(const RowsIn& rows, const DiceIn& dice) {
  check_rows_shape(rows);
  if (dice.ndim() != 2 || dice.shape(1) != 2 || dice.shape(0) != rows.shape(0))
    throw std::invalid_argument("dice must be an integer array of shape (N, 2) with N = len(positions)");
  return rows.shape(0);
}

// Rows (N, kRowBytes) of the rules' game as validated positions (InvalidPosition naming the row);
// the side to move of each row goes to `movers` where given.
inline std::vector<tavli::Position> positions_of(const RowsIn& rows, const tavli::Rules& rules,
                                                 std::vector<tavli::Player>* movers = nullptr) {
  check_rows_shape(rows);
  const auto n = static_cast<std::size_t>(rows.shape(0));
  std::vector<tavli::Position> out(n);
  if (movers) movers->assign(n, tavli::kWhite);
  for (std::size_t i = 0; i < n; ++i) {
    try {
      tavli::Player t;
      out[i] = tavli::Position::from_row(rows.data() + tavli::kRowBytes * i, &t);
      if (movers) (*movers)[i] = t;
      tavli::validate_position(out[i], rules);
    } catch (const std::invalid_argument& e) {
      throw tavli::InvalidPosition("row " + std::to_string(i) + ": " + e.what());
    }
  }
  return out;
}

// Hands the vector's buffer to numpy (no copy): the array owns it through a capsule.
// Templated over the allocator: batch results come in a RowBuffer (batch.h).
template <class Alloc>
pybind11::array_t<std::uint8_t> rows_array(std::vector<std::uint8_t, Alloc>&& bytes, std::size_t begin = 0,
                                           std::size_t rows = static_cast<std::size_t>(-1)) {
  // The rows from byte `begin` on (all that fit by default), the buffer handed to numpy whole.
  using Bytes = std::vector<std::uint8_t, Alloc>;
  if (rows == static_cast<std::size_t>(-1)) rows = (bytes.size() - begin) / tavli::kRowBytes;
  const auto n = static_cast<pybind11::ssize_t>(rows);
  auto* owned = new Bytes(std::move(bytes));
  pybind11::capsule free_it(owned, [](void* p) { delete static_cast<Bytes*>(p); });
  return pybind11::array_t<std::uint8_t>({n, static_cast<pybind11::ssize_t>(tavli::kRowBytes)},
                                         owned->data() + begin, free_it);
}

inline pybind11::array_t<std::uint8_t> rows_array(const std::vector<std::uint8_t>& bytes) {
  const auto n = static_cast<pybind11::ssize_t>(bytes.size() / tavli::kRowBytes);
  pybind11::array_t<std::uint8_t> a({n, static_cast<pybind11::ssize_t>(tavli::kRowBytes)});
  if (!bytes.empty()) std::memcpy(a.mutable_data(), bytes.data(), bytes.size());
  return a;
}

template <class T>
pybind11::array_t<T> vector_array(const std::vector<T>& v) {
  pybind11::array_t<T> a(static_cast<pybind11::ssize_t>(v.size()));
  if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), v.size() * sizeof(T));
  return a;
}

}  // namespace tavli_bindings
