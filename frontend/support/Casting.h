// Casting.h - LLVM-style checked casts for kjit's node hierarchies (the AST
// and the typed IR): isa<T>(n), cast<T>(n), dyn_cast<T>(n). A node class T
// says which nodes it is with `static bool classof(const Node *)`.
#pragma once

namespace kjit {

template <class T, class N>
bool isa(const N *n) {
  return n && T::classof(n);
}
template <class T, class N>
T *cast(N *n) {
  return static_cast<T *>(n);
}
template <class T, class N>
const T *cast(const N *n) {
  return static_cast<const T *>(n);
}
template <class T, class N>
T *dyn_cast(N *n) {
  return isa<T>(n) ? static_cast<T *>(n) : nullptr;
}
template <class T, class N>
const T *dyn_cast(const N *n) {
  return isa<T>(n) ? static_cast<const T *>(n) : nullptr;
}

}  // namespace kjit
