#include "runtime/device/Params.h"

#include <cstring>
#include <stdexcept>

namespace kjit::device {

uint64_t *ParamPacker::word() {
  if (nwords_ >= kInline) throw std::length_error("a kernel launch with too many parameters");
  uint64_t *w = &words_[nwords_++];
  *w = 0;
  return w;
}

void ParamPacker::add(void *p, size_t bytes) {
  if (count_ >= kInline) throw std::length_error("a kernel launch with too many parameters");
  sizes_[count_] = uint32_t(bytes);
  params_[count_++] = p;
}

void ParamPacker::array(uint64_t ptr, int nd, const int64_t *shape, const int64_t *strides) {
  uint64_t *p = word();
  *p = ptr;
  add(p, 8);
  if (layout_ == ParamLayout::ExtentsLast) {
    for (int k = 0; k < nd; ++k) extents_.push_back(uint64_t(shape[k]));
    for (int k = 0; k < nd; ++k) extents_.push_back(uint64_t(strides[k]));
    return;
  }
  for (int k = 0; k < nd; ++k) {
    uint64_t *w = word();
    std::memcpy(w, &shape[k], 8);
    add(w, 8);
  }
  for (int k = 0; k < nd; ++k) {
    uint64_t *w = word();
    std::memcpy(w, &strides[k], 8);
    add(w, 8);
  }
}

unsigned char *ParamPacker::value(size_t bytes) {
  unsigned char *dst;
  if (bytes <= 8) {
    dst = reinterpret_cast<unsigned char *>(word());
  } else {
    size_t n = (bytes + 7) / 8 + 2;  // (room for a target's padding at the end)
    large_.emplace_back(new uint64_t[n]());
    dst = reinterpret_cast<unsigned char *>(large_.back().get());
  }
  add(dst, bytes);
  return dst;
}

void **ParamPacker::params() {
  if (!done_) {
    done_ = true;
    for (uint64_t e : extents_) {
      uint64_t *w = word();
      *w = e;
      add(w, 8);
    }
  }
  return count_ ? params_ : nullptr;
}

}  // namespace kjit::device
