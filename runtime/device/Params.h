// Params.h - the one packer of kernel parameters, for every device that
// takes them as an array of pointers (cuLaunchKernel, hipModuleLaunchKernel).
//
// A launch path adds the arguments in order: an array as its pointer, shape
// and strides (array()), anything else as a value written into a zeroed slot
// the packer owns (value(): 8-byte slots, so that a small integer a target
// widened reads zeros above it). params() then gives the pointer array in the
// device's layout (Device.h, ParamLayout): NVPTX takes each array's shape
// and strides after its pointer, AMDGPU all of them after the last argument.
// Up to kInline parameters; values over 8 bytes are allocated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/device/Device.h"

namespace kjit::device {

class ParamPacker {
 public:
  explicit ParamPacker(ParamLayout layout) : layout_(layout) {}
  ParamPacker(const ParamPacker &) = delete;
  ParamPacker &operator=(const ParamPacker &) = delete;

  // (Inline: every launch runs these for each argument.)
  void array(uint64_t ptr, int nd, const int64_t *shape, const int64_t *strides) {
    if (nd < 0 || !room(1 + 2 * size_t(nd))) tooMany();
    add(word(ptr), 8);
    if (layout_ == ParamLayout::ExtentsLast) {
      for (int k = 0; k < nd; ++k) extents_.push_back(uint64_t(shape[k]));
      for (int k = 0; k < nd; ++k) extents_.push_back(uint64_t(strides[k]));
      return;
    }
    for (int k = 0; k < nd; ++k) add(word(uint64_t(shape[k])), 8);
    for (int k = 0; k < nd; ++k) add(word(uint64_t(strides[k])), 8);
  }
  // A zeroed slot of `bytes` (8-byte aligned) for one parameter's value.
  unsigned char *value(size_t bytes) {
    if (!room(1)) tooMany();
    unsigned char *dst =
        bytes <= 8 ? reinterpret_cast<unsigned char *>(word(0)) : largeValue(bytes);
    add(dst, bytes);
    return dst;
  }
  // The parameters' pointers, valid while the packer lives.
  void **params() {
    if (!done_) {
      done_ = true;
      if (!extents_.empty()) {
        if (!room(extents_.size())) tooMany();
        for (uint64_t e : extents_) add(word(e), 8);
      }
    }
    return count_ ? params_ : nullptr;
  }
  size_t count() const { return count_; }
  // Parameter i's size in bytes: 8 for a pointer, a shape or a stride, the
  // value's own for a value (the code object declares the same).
  uint32_t size(size_t i) const { return sizes_[i]; }

  static constexpr size_t kInline = 1280;  // 64 arguments of 9 dimensions and more

 private:
  ParamLayout layout_;
  uint64_t words_[kInline];
  void *params_[kInline];
  uint32_t sizes_[kInline];
  size_t nwords_ = 0, count_ = 0;
  std::vector<std::unique_ptr<uint64_t[]>> large_;  // values of more than 8 bytes
  std::vector<uint64_t> extents_;                   // ExtentsLast: shapes and strides
  bool done_ = false;

  // Room for n more parameters of a word each (callers check first).
  bool room(size_t n) const { return nwords_ + n <= kInline && count_ + n <= kInline; }
  uint64_t *word(uint64_t v) {
    uint64_t *w = &words_[nwords_++];
    *w = v;
    return w;
  }
  void add(void *p, size_t bytes) {
    sizes_[count_] = uint32_t(bytes);
    params_[count_++] = p;
  }
  unsigned char *largeValue(size_t bytes);
  [[noreturn]] static void tooMany();
};

}  // namespace kjit::device
