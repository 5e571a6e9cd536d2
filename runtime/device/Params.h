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

  void array(uint64_t ptr, int nd, const int64_t *shape, const int64_t *strides);
  // A zeroed slot of `bytes` (8-byte aligned) for one parameter's value.
  unsigned char *value(size_t bytes);
  // The parameters' pointers, valid while the packer lives.
  void **params();
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

  uint64_t *word();
  void add(void *p, size_t bytes);
};

}  // namespace kjit::device
