#include "frontend/support/Options.h"

#include <cstdlib>

namespace kjit {

std::optional<std::string> envString(const char *name) {
  const char *v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

std::optional<std::string> envFirst(std::initializer_list<const char *> names) {
  for (const char *name : names)
    if (auto v = envString(name)) return v;
  return std::nullopt;
}

bool envFlag(const char *name, bool fallback) {
  auto v = envString(name);
  return v ? *v != "0" : fallback;
}

long envInt(const char *name, long fallback, long min, long max) {
  auto v = envString(name);
  if (!v) return fallback;
  char *end = nullptr;
  long n = std::strtol(v->c_str(), &end, 10);
  if (end == v->c_str() || n < min || n > max) return fallback;
  return n;
}

std::vector<std::string> envList(const char *name, char sep) {
  std::vector<std::string> items;
  auto v = envString(name);
  if (!v) return items;
  size_t start = 0;
  while (start <= v->size()) {
    size_t end = v->find(sep, start);
    if (end == std::string::npos) end = v->size();
    if (end > start) items.push_back(v->substr(start, end - start));
    start = end + 1;
  }
  return items;
}

bool dumpRequested(const std::string &what) {
  for (const std::string &item : envList("KJIT_DUMP"))
    if (item == what || item == "all") return true;
  return false;
}

}  // namespace kjit
