// Unit tests of the PTX low-bit peephole (targets/nvptx/NvptxTarget.h,
// rewriteLowBitTests): it rewrites a compare with 1 only when the register
// is written once in its function, by `and.b32 %r, _, 1`.
#include <catch2/catch.hpp>
#include <string>

#include "targets/nvptx/NvptxTarget.h"

using kjit::rewriteLowBitTests;

namespace {

std::string rewrite(std::string ptx) {
  rewriteLowBitTests(ptx);
  return ptx;
}

const char *kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n\n";

}  // namespace

TEST_CASE("a low-bit test compares with 0", "[ptx]") {
  std::string ptx =
      std::string(kHeader) +
      ".visible .entry k(\n)\n{\n\tand.b32  \t%r54, %r62, 1;\n\tsetp.eq.b32 \t%p8, %r54, 1;\n"
      "\tsetp.ne.s32 \t%p9, %r54, 1;\n\tret;\n}\n";
  std::string out = rewrite(ptx);
  CHECK(out.find("\tsetp.ne.b32 \t%p8, %r54, 0;") != std::string::npos);
  CHECK(out.find("\tsetp.eq.b32 \t%p9, %r54, 0;") != std::string::npos);
  CHECK(out.find(", 1;\n\tret") == std::string::npos);
  CHECK(out.size() > ptx.size() - 8);  // nothing else lost
  CHECK(out.substr(0, std::string(kHeader).size()) == kHeader);
}

TEST_CASE("a register written twice is left alone", "[ptx]") {
  // A guarded move, a vector load and a pair destination all write %r5.
  for (const char *second :
       {"\t@%p1 mov.u32 \t%r5, %r7;\n", "\tld.global.v2.u32 \t{%r5, %r6}, [%rd1];\n",
        "\tshfl.sync.idx.b32 \t%r5|%p2, %r3, 0, 31, -1;\n", "\tmov.u32 \t%r5, 7;\n"}) {
    std::string ptx = std::string(kHeader) +
                      ".visible .entry k(\n)\n{\n\tand.b32  \t%r5, %r2, 1;\n" + second +
                      "\tsetp.eq.s32 \t%p3, %r5, 1;\n\tret;\n}\n";
    INFO(second);
    CHECK(rewrite(ptx) == ptx);
  }
}

TEST_CASE("registers are counted per function", "[ptx]") {
  // %r5 is `and ..., 1` in f but an ordinary value in k: k's compare stays.
  std::string ptx =
      std::string(kHeader) +
      ".func f(\n)\n{\n\tand.b32  \t%r5, %r2, 1;\n\tsetp.eq.b32 \t%p1, %r5, 1;\n\tret;\n}\n"
      ".visible .entry k(\n)\n{\n\tld.param.u32 \t%r5, [k_param_0];\n\tsetp.eq.b32 \t%p1, %r5, 1;\n"
      "\tret;\n}\n";
  std::string out = rewrite(ptx);
  size_t k = out.find(".visible .entry k");
  REQUIRE(k != std::string::npos);
  CHECK(out.substr(0, k).find("setp.ne.b32 \t%p1, %r5, 0;") != std::string::npos);
  CHECK(out.substr(k).find("setp.eq.b32 \t%p1, %r5, 1;") != std::string::npos);
}

TEST_CASE("other masks and guarded compares are left alone", "[ptx]") {
  std::string ptx =
      std::string(kHeader) +
      ".visible .entry k(\n)\n{\n\tand.b32  \t%r5, %r2, 3;\n"
      "\tsetp.eq.b32 \t%p1, %r5, 1;\n\tand.b32  \t%r6, %r2, 1;\n\t@%p1 setp.eq.b32 \t%p2, %r6, 1;\n"
      "\tret;\n}\n";
  CHECK(rewrite(ptx) == ptx);
}
