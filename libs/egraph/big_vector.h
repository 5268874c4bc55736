// A vector of trivially copyable elements for the e-graph's big per-id
// arrays (node records, union-find, per-op e-node lists, matches). It grows
// as std::vector does, by doubling, but a buffer of 2 MiB and more is a
// block mapped on its own (mapped_blocks.h) and grows by moving its pages
// to a bigger block (mremap), not by copying its elements into fresh
// memory. On the development machine (a VM) the first write to a page is
// what costs: zeroing fresh memory took a quarter of egg's
// math_simplify_root benchmark, most of it for the copies that every
// doubling of a std::vector makes.
#ifndef TESSEL_LIBS_EGRAPH_BIG_VECTOR_H_
#define TESSEL_LIBS_EGRAPH_BIG_VECTOR_H_

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#include "libs/egraph/mapped_blocks.h"

namespace tessel::egraph {

template <typename T>
class BigVector {
  static_assert(std::is_trivially_copyable_v<T>,
                "BigVector moves its elements as bytes");

 public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T*;
  using const_iterator = const T*;

  BigVector() = default;
  BigVector(const BigVector& other) { append(other.begin(), other.end()); }
  BigVector(BigVector&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  BigVector& operator=(const BigVector& other) {
    if (this != &other) {
      clear();
      append(other.begin(), other.end());
    }
    return *this;
  }
  BigVector& operator=(BigVector&& other) noexcept {
    if (this != &other) {
      Release(data_, capacity_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
  }
  ~BigVector() { Release(data_, capacity_); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  void push_back(const T& value) {
    if (size_ == capacity_) {
      T copy = value;  // `value` may be an element
      Reserve(size_ + 1);
      data_[size_++] = copy;
      return;
    }
    data_[size_++] = value;
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  // Appends [first, last), which must not be in this vector.
  template <typename It>
  void append(It first, It last) {
    size_t n = std::distance(first, last);
    if (size_ + n > capacity_) Reserve(size_ + n);
    std::uninitialized_copy(first, last, data_ + size_);
    size_ += n;
  }
  // Removes [first, last).
  T* erase(T* first, T* last) {
    std::memmove(static_cast<void*>(first), last, (end() - last) * sizeof(T));
    size_ -= last - first;
    return first;
  }

 private:
  static constexpr size_t kBlock = mapped_blocks_internal::kBlock;
  static bool IsMapped(size_t capacity) {
    return capacity * sizeof(T) >= kBlock;
  }
  static size_t Rounded(size_t bytes) {
    return (bytes + kBlock - 1) / kBlock * kBlock;
  }

  // Grows the capacity to at least `n`, doubling it at least.
  void Reserve(size_t n) {
    size_t capacity = std::max({n, 2 * capacity_, size_t{16}});
    if (!IsMapped(capacity)) {
      void* grown = std::realloc(data_, capacity * sizeof(T));
      if (grown == nullptr) throw std::bad_alloc();
      data_ = static_cast<T*>(grown);
    } else {
      // A mapped block's capacity is all of it.
      size_t bytes = Rounded(capacity * sizeof(T));
      capacity = bytes / sizeof(T);
      if (IsMapped(capacity_)) {
        data_ = static_cast<T*>(mapped_blocks_internal::Grow(
            data_, Rounded(capacity_ * sizeof(T)), bytes));
      } else {
        T* block = static_cast<T*>(mapped_blocks_internal::Map(bytes));
        if (size_ > 0)
          std::memcpy(static_cast<void*>(block), data_, size_ * sizeof(T));
        std::free(data_);
        data_ = block;
      }
    }
    capacity_ = capacity;
  }
  static void Release(T* data, size_t capacity) {
    if (data == nullptr) return;
    if (IsMapped(capacity)) {
      mapped_blocks_internal::Unmap(data, Rounded(capacity * sizeof(T)));
    } else {
      std::free(data);
    }
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_BIG_VECTOR_H_
