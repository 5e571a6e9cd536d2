// The device layer (runtime/device): the CPU device's implementation of the
// interface every device implements, and the one parameter packer, in each
// of its layouts. (The CUDA and HIP implementations run in
// tests/python/devices against the fake driver and the fake HIP runtime, and
// on the GPU machine.)
#include <catch2/catch.hpp>
#include <cstring>
#include <thread>

#include "runtime/device/Params.h"
#include "runtime/host/HostDevice.h"

using namespace kjit;

TEST_CASE("the CPU device: memory, copies and fills are host memory", "[device]") {
  host::HostDevice d(nullptr, "test device");
  CHECK(std::string(d.kind()) == "cpu");
  CHECK(d.available());
  CHECK(d.count() == 1);
  CHECK(d.properties(0).name == "test device");
  CHECK(d.properties(0).ccMajor == 9);
  CHECK_THROWS_AS(d.select(1), std::out_of_range);
  auto [freeB, total] = d.memoryInfo();
  CHECK(total > 0);
  CHECK(freeB <= total);

  auto a = d.allocate(64, device::MemoryKind::Device);
  auto b = d.allocate(64, device::MemoryKind::Mapped);
  REQUIRE(a->host != nullptr);
  CHECK(a->address == reinterpret_cast<uintptr_t>(a->host));
  CHECK(a->address % 64 == 0);  // aligned as NumPy and vector loads like
  CHECK(b->kind == device::MemoryKind::Mapped);
  CHECK(a->alive());
  double src[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[8] = {0};
  d.copyToDevice(a->address, src, sizeof src, nullptr);
  d.copyOnDevice(b->address, a->address, sizeof src, nullptr);
  d.copyToHost(back, b->address, sizeof back, nullptr);
  CHECK(std::memcmp(src, back, sizeof src) == 0);
  d.fill(b->address, 0, 16, nullptr);
  d.copyToHost(back, b->address, sizeof back, nullptr);
  CHECK(back[0] == 0);
  CHECK(back[1] == 0);
  CHECK(back[2] == 3);
}

TEST_CASE("the CPU device: streams are idle, events time the host", "[device]") {
  host::HostDevice d(nullptr, "test device");
  device::Stream s1 = d.createStream(), s2 = d.createStream();
  CHECK(s1 != nullptr);
  CHECK(s1 != s2);
  CHECK(d.queryStream(s1));
  device::Event start = d.createEvent(true), end = d.createEvent(true),
                quiet = d.createEvent(false);
  CHECK_THROWS_WITH(d.elapsedMs(start, end), Catch::Contains("has not been recorded"));
  d.record(start, s1);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  d.record(end, s2);
  CHECK(d.elapsedMs(start, end) >= 4.0f);
  CHECK(d.elapsedMs(end, start) <= -4.0f);
  d.record(quiet, s1);
  try {
    d.elapsedMs(quiet, end);
    FAIL("an event made without timing was timed");
  } catch (const device::Error &e) {
    CHECK(std::string(e.what()).find("timing=False") != std::string::npos);
    CHECK(e.name == "CUDA_ERROR_INVALID_HANDLE");
  }
  for (device::Event e : {start, end, quiet}) d.destroyEvent(e);
  // Its kernels come from the host JIT, not from code objects.
  CHECK_THROWS_AS(d.load("image", "entry", "k"), device::Unsupported);
}

TEST_CASE("the parameter packer lays parameters out as each target takes them",
          "[device][params]") {
  const int64_t shape[2] = {3, 4}, strides[2] = {32, 8};
  auto fill = [&](device::ParamPacker &p) {
    int32_t n = 7;
    std::memcpy(p.value(4), &n, 4);
    p.array(0x1000, 2, shape, strides);
    unsigned char *big = p.value(24);  // a tuple by value
    big[23] = 9;
    p.array(0x2000, 1, shape, strides);
  };
  auto word = [](void *p) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  };

  device::ParamPacker nv(device::ParamLayout::Interleaved);
  fill(nv);
  void **p = nv.params();
  REQUIRE(nv.count() == 10);  // n, (ptr, 3, 4, 32, 8), tuple, (ptr, 3, 32)
  CHECK(*static_cast<int32_t *>(p[0]) == 7);
  CHECK(word(p[0]) == 7);  // a small value's slot is zeroed above it
  CHECK(word(p[1]) == 0x1000);
  CHECK(word(p[2]) == 3);
  CHECK(word(p[5]) == 8);
  CHECK(static_cast<unsigned char *>(p[6])[23] == 9);
  CHECK(word(p[7]) == 0x2000);
  CHECK(word(p[8]) == 3);
  CHECK(word(p[9]) == 32);
  CHECK(nv.size(0) == 4);
  CHECK(nv.size(6) == 24);
  CHECK(nv.size(9) == 8);

  device::ParamPacker amd(device::ParamLayout::ExtentsLast);
  fill(amd);
  p = amd.params();
  REQUIRE(amd.count() == 10);  // n, ptr, tuple, ptr, then 3, 4, 32, 8, 3, 32
  CHECK(*static_cast<int32_t *>(p[0]) == 7);
  CHECK(word(p[1]) == 0x1000);
  CHECK(static_cast<unsigned char *>(p[2])[23] == 9);
  CHECK(word(p[3]) == 0x2000);
  CHECK(word(p[4]) == 3);
  CHECK(word(p[5]) == 4);
  CHECK(word(p[6]) == 32);
  CHECK(word(p[7]) == 8);
  CHECK(word(p[8]) == 3);
  CHECK(word(p[9]) == 32);
  CHECK(amd.params() == p);  // (params() twice adds nothing)
  CHECK(amd.count() == 10);
}

TEST_CASE("the parameter packer refuses more parameters than it holds", "[device][params]") {
  device::ParamPacker p(device::ParamLayout::Interleaved);
  for (size_t i = 0; i < device::ParamPacker::kInline; ++i) p.value(8);
  CHECK_THROWS_AS(p.value(8), std::length_error);
}
