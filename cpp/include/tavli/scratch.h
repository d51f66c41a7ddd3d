// Per-thread scratch objects (move lists, batches) that are too big to build for every game or
// call, leased for the duration of a scope:
//
//   Scratch<MoveList> list;   // *list is this thread's, for this scope only
//
// A lease takes a free object from the calling thread's pool (or makes one) and gives it back
// when it goes out of scope, so nested users in one thread (a game loop calling a search that
// keeps its own root list) never share an object, and each object keeps its capacity for the
// next lease. The object's contents on lease are whatever its last user left.
#pragma once

#include <memory>
#include <vector>

namespace tavli {

template <class T>
class Scratch {
 public:
  Scratch() {
    auto& pool = free_list();
    if (pool.empty()) {
      obj_ = std::make_unique<T>();
    } else {
      obj_ = std::move(pool.back());
      pool.pop_back();
    }
  }
  ~Scratch() { free_list().push_back(std::move(obj_)); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  T& operator*() const { return *obj_; }
  T* operator->() const { return obj_.get(); }
  T* get() const { return obj_.get(); }

 private:
  static std::vector<std::unique_ptr<T>>& free_list() {
    thread_local std::vector<std::unique_ptr<T>> pool;
    return pool;
  }
  std::unique_ptr<T> obj_;
};

}  // namespace tavli
