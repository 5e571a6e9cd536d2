// Device.h - the one interface of the devices kjit runs kernels on: memory,
// copies, modules, launches, streams, events and limits.
//
// Three implement it: the CUDA driver (runtime/cuda/CudaDevice.h), the HIP
// runtime (runtime/hip/HipDevice.h) and the CPU device
// (runtime/host/HostDevice.h). The Python host API (kjit/hostapi: Device,
// Context, Stream, Event, device arrays) is written once over it, and the
// launch paths pack parameters with one packer (runtime/device/Params.h).
//
// Addresses are device addresses as 64-bit integers (what kernels receive);
// host buffers are plain pointers. Streams and events are the device's own
// handles (null: the default stream). Errors are the device's exceptions
// (cuda::Error, hip::Error, std::runtime_error on the CPU device), which the
// binding turns into Python ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace kjit::device {

// A failing call of a device's runtime: which call, its error code and the
// code's name (cuda::Error and hip::Error are this class).
class Error : public std::runtime_error {
 public:
  Error(std::string message, std::string call, int code, std::string name)
      : std::runtime_error(std::move(message)),
        call(std::move(call)),
        code(code),
        name(std::move(name)) {}
  std::string call;
  int code;
  std::string name;
};

// What a device cannot do (yet): Python's NotImplementedError.
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class MemoryKind { Device, Pinned, Mapped, Managed };

// Memory a device allocated, freed with the last reference. `address` is
// what kernels and copies use (0 for pinned host memory that is not mapped);
// `host` is the host's view (pinned, mapped and managed memory; every kind
// on the CPU device).
struct Memory {
  uint64_t address = 0;
  void *host = nullptr;
  size_t size = 0;
  MemoryKind kind = MemoryKind::Device;
  int ordinal = 0;  // the device it is on
  virtual ~Memory() = default;
  // False once the memory is gone with its context (a CUDA context lost to
  // a kernel fault, or closed): it is then never touched again.
  virtual bool alive() const { return true; }
};

using Stream = void *;  // the device's handle; null: the default stream
using Event = void *;

// What a device is and what it allows (the limits a launch is checked
// against, runtime/jit/LaunchConfig.h).
struct Properties {
  int ordinal = 0;
  std::string name;
  std::string arch;  // "sm_90", "gfx90a", "host"
  int ccMajor = 0, ccMinor = 0;
  unsigned warpSize = 32;
  size_t totalMemory = 0;
  int multiprocessors = 0;
  int maxThreadsPerBlock = 1024;
  int maxBlock[3] = {1024, 1024, 64};
  int maxGrid[3] = {0x7fffffff, 65535, 65535};
  int maxSharedPerBlock = 48 * 1024;
};

// A kernel ready to launch (a loaded module's function; on the CPU device,
// compiled host code).
struct Kernel {
  std::string name;  // the user's kernel name, for messages
  virtual ~Kernel() = default;
};

struct LaunchShape {
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t sharedBytes = 0;  // dynamic shared memory
};

// How a kernel's parameters are laid out (runtime/device/Params.h).
enum class ParamLayout {
  // NVPTX: each array as its pointer, shape and strides in place.
  Interleaved,
  // AMDGPU: the arrays' pointers and the values in the arguments' order,
  // then every array's shape and strides.
  ExtentsLast,
  // The CPU device: the host ABI of compiled functions (compiler/Lowering.h),
  // params[i] pointing at argument i's value in its memory form.
  Host,
};

class Device {
 public:
  virtual ~Device() = default;

  // "cuda", "hip" or "cpu".
  virtual const char *kind() const = 0;
  // Whether the device can be used; why() says why not.
  virtual bool available() const = 0;
  virtual std::string why() const = 0;
  virtual int count() const = 0;
  virtual Properties properties(int ordinal) const = 0;
  virtual int current() const = 0;
  virtual void select(int ordinal) = 0;
  // Waits for all work on the current device.
  virtual void synchronize() = 0;
  // (free, total) bytes of the current device's memory.
  virtual std::pair<size_t, size_t> memoryInfo() = 0;
  // Increases when the device's context is remade (CUDA, after a kernel
  // fault or close()): handles made before are then not destroyed.
  virtual uint64_t epoch() const { return 0; }
  // The process is ending: nothing is freed or destroyed any more.
  virtual bool closing() const { return false; }

  virtual std::shared_ptr<Memory> allocate(size_t bytes, MemoryKind kind) = 0;
  // Copies; those to the host wait for the stream (and report what a
  // kernel raised, as a synchronisation does).
  virtual void copyToDevice(uint64_t dst, const void *src, size_t bytes, Stream s) = 0;
  virtual void copyToHost(void *dst, uint64_t src, size_t bytes, Stream s) = 0;
  virtual void copyOnDevice(uint64_t dst, uint64_t src, size_t bytes, Stream s) = 0;
  virtual void fill(uint64_t dst, unsigned char value, size_t bytes, Stream s) = 0;

  virtual Stream createStream() = 0;
  virtual void destroyStream(Stream s) = 0;
  virtual void synchronizeStream(Stream s) = 0;
  // True when all work queued on the stream is done.
  virtual bool queryStream(Stream s) = 0;
  virtual Event createEvent(bool timing) = 0;
  virtual void destroyEvent(Event e) = 0;
  virtual void record(Event e, Stream s) = 0;
  // The stream waits for the event before its later work.
  virtual void wait(Stream s, Event e) = 0;
  virtual void synchronizeEvent(Event e) = 0;
  virtual bool queryEvent(Event e) = 0;
  virtual float elapsedMs(Event start, Event end) = 0;

  // Loads a code object (PTX or cubin; HSACO) and finds `entry`; `name` is
  // the user's. The CPU device runs host code its JIT compiled instead
  // (HostDevice::kernel), and says so.
  virtual std::shared_ptr<Kernel> load(const std::string &image, const std::string &entry,
                                       const std::string &name) = 0;
  // `params[i]` points at parameter i, laid out as paramLayout() says.
  virtual void launch(Kernel &k, const LaunchShape &shape, Stream s, void **params) = 0;
  virtual ParamLayout paramLayout() const = 0;
};

// The name of a memory kind ("device", "pinned", "mapped", "managed") and
// back; false for another name.
const char *kindName(MemoryKind k);
bool kindOfName(const std::string &name, MemoryKind &out);

}  // namespace kjit::device
