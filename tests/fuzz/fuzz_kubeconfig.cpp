// Fuzz target: a kubeconfig's bytes through read_kubeconfig (YAML guard, YAML → JSON, the merge,
// the current context's cluster and user, base64 and PEM checks), as `--kubeconfig FILE` reads it.
// The reader takes paths, so the bytes go to one file per process in the temporary folder (paths
// inside the kubeconfig are relative to it).
#include "error.hpp"
#include "kube/client/kubeconfig.hpp"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

struct ScratchFile {
    std::string path =
        (std::filesystem::temp_directory_path() / ("kdesched-fuzz-kubeconfig-" + std::to_string(::getpid()) + ".yaml"))
            .string();
    ~ScratchFile() { std::filesystem::remove(path); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const ScratchFile file;
    std::ofstream(file.path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), size);
    try {
        kd::core::kube::read_kubeconfig({file.path}, "");
    } catch (const kd::core::Error&) {
    }
    return 0;
}
