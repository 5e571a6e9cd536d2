// ThreadPool.h - the CPU threads behind prange (and, later, the CPU device's
// blocks). Size: KJIT_NUM_THREADS, or the number of cores.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kjit {

class ThreadPool {
 public:
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  unsigned size() const { return unsigned(workers_.size()) + 1; }  // the caller works too

  // Runs task(k) for k in [0, n), spread over the workers and the calling
  // thread; returns when every task has finished. Not reentrant: a task
  // that calls run() again runs its tasks on its own thread.
  void run(unsigned n, const std::function<void(unsigned)> &task);

  // The size KJIT_NUM_THREADS asks for, else the hardware's.
  static unsigned defaultSize();

 private:
  void workerLoop();
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(unsigned)> *task_ = nullptr;
  unsigned total_ = 0, next_ = 0, finished_ = 0;
  std::atomic<uint64_t> generation_{0};
  bool stop_ = false;
  bool busy_ = false;
};

}  // namespace kjit
