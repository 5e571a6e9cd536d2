#include "runtime/device/Device.h"

namespace kjit::device {

const char *kindName(MemoryKind k) {
  switch (k) {
  case MemoryKind::Device: return "device";
  case MemoryKind::Pinned: return "pinned";
  case MemoryKind::Mapped: return "mapped";
  case MemoryKind::Managed: return "managed";
  }
  return "device";
}

bool kindOfName(const std::string &name, MemoryKind &out) {
  for (MemoryKind k :
       {MemoryKind::Device, MemoryKind::Pinned, MemoryKind::Mapped, MemoryKind::Managed})
    if (name == kindName(k)) {
      out = k;
      return true;
    }
  return false;
}

}  // namespace kjit::device
