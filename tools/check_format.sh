#!/usr/bin/env bash
# Checks that the tracked C++ sources are formatted as .clang-format says,
# changing nothing: lists each file that clang-format 19 would change and
# exits 1 if there is one. For CI and before a commit.
#     tools/check_format.sh [FILE...]     (default: every tracked *.cpp and *.h)
# To apply the formatting to a file: clang-format-19 -i FILE.
# Generated tables (*.inc, e.g. frontend/UnicodeTables.inc) are not checked.
set -uo pipefail
cd "$(dirname "$0")/.."
cf=${CLANG_FORMAT:-clang-format-19}
command -v "$cf" > /dev/null || { echo "check_format: $cf not found (tools/install_deps.sh installs it)" >&2; exit 2; }
if [ $# -gt 0 ]; then files=("$@"); else mapfile -t files < <(git ls-files '*.cpp' '*.h'); fi
bad=()
for f in "${files[@]}"; do
  "$cf" --style=file --dry-run -Werror "$f" > /dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  printf '%s\n' "${bad[@]}"
  echo "check_format: ${#bad[@]} of ${#files[@]} files differ from .clang-format ($cf -i FILE applies it)" >&2
  exit 1
fi
echo "check_format: ${#files[@]} files formatted"
