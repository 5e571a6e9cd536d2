#include "runtime/host/ThreadPool.h"

#include "frontend/support/Options.h"

namespace kjit {

unsigned ThreadPool::defaultSize() {
  if (long v = envInt("KJIT_NUM_THREADS", 0, 1, 1024)) return unsigned(v);
  unsigned hw = std::thread::hardware_concurrency();
  return hw ? hw : 1;
}

ThreadPool::ThreadPool(unsigned threads) {
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread &t : workers_) t.join();
}

void ThreadPool::workerLoop() {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (!stop_ && generation_ == seen) {
      // Spin a little before sleeping: back-to-back prange loops (the common
      // case) then start without a futex wake-up.
      lock.unlock();
      for (int i = 0; i < 20000 && generation_.load(std::memory_order_acquire) == seen; ++i)
        __builtin_ia32_pause();
      lock.lock();
    }
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    while (next_ < total_) {
      unsigned k = next_++;
      const auto *task = task_;
      lock.unlock();
      (*task)(k);
      lock.lock();
      if (++finished_ == total_) done_.notify_all();
    }
  }
}

void ThreadPool::run(unsigned n, const std::function<void(unsigned)> &task) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (busy_ || workers_.empty()) {
    // Nested use, or no workers: run here, in order.
    lock.unlock();
    for (unsigned k = 0; k < n; ++k) task(k);
    return;
  }
  busy_ = true;
  task_ = &task;
  total_ = n;
  next_ = 0;
  finished_ = 0;
  ++generation_;
  wake_.notify_all();
  while (next_ < total_) {
    unsigned k = next_++;
    lock.unlock();
    task(k);
    lock.lock();
    ++finished_;
  }
  done_.wait(lock, [&] { return finished_ == total_; });
  task_ = nullptr;
  busy_ = false;
}

}  // namespace kjit
