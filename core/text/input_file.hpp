// Reading files that come from the user (profiles, snapshots, kubeconfigs): only what can end —
// a regular file or a pipe — so `/dev/zero` or a directory is refused by name instead of read
// forever; small inputs are read whole up to a stated limit.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace kd::core {

// Largest profile (DeschedulerConfiguration or ConfigMap) file kdesched reads.
constexpr size_t kMaxProfileBytes = 4u << 20;

// Throws kd::core::Error naming `path` when it does not exist or is not a regular file or a FIFO.
// `what` says what the file was meant to be ("the configuration file").
void check_input_file(const std::filesystem::path& path, std::string_view what);

// The whole file, after check_input_file; throws when it is longer than `limit` bytes.
std::string read_small_file(const std::filesystem::path& path, size_t limit, std::string_view what);

}  // namespace kd::core
