/**
 * @file host_threads.hpp
 * @brief Host loops over many elements split into contiguous chunks, one per core: making
 *        inputs and checking outputs of 2^31 elements would otherwise take minutes.
 */
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace tutorial {

/// Below this many elements one thread does the whole loop: starting threads costs more.
constexpr size_t kParallelFrom = size_t{1} << 22;

/// How many chunks for_each_chunk() splits @p count elements into.
inline size_t chunk_count(size_t count) {
  return count > kParallelFrom ? std::max(1u, std::thread::hardware_concurrency()) : 1;
}

/**
 * @brief Calls body(chunk, begin, end) for chunk_count(@p count) contiguous chunks that
 *        cover [0, count) in order, each on its own thread (the first on this one).
 * @pre body may run on several threads at once and touches only its own chunk's elements.
 */
template <typename Body>
void for_each_chunk(size_t count, Body body) {
  const size_t chunks = chunk_count(count);
  std::vector<std::thread> threads;
  for (size_t c = 1; c < chunks; ++c) {
    threads.emplace_back([&, c] { body(c, count * c / chunks, count * (c + 1) / chunks); });
  }
  body(size_t{0}, size_t{0}, count / chunks);
  for (std::thread& thread : threads) thread.join();
}

}  // namespace tutorial
