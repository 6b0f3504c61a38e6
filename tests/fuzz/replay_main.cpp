// Runs a fuzz target's LLVMFuzzerTestOneInput on every file of the directories it is given (the
// seed corpus, the regressions), without libFuzzer: so every target compiles in every build and
// every reproducer ever found stays a test of the ordinary suite. A directory that does not exist
// is passed over (a target may have no regressions yet); no file at all is a failure.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace fs = std::filesystem;

int main(int argc, char** argv) {
    size_t inputs = 0;
    for (int i = 1; i < argc; ++i) {
        if (!fs::is_directory(argv[i])) continue;
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(argv[i]))
            if (entry.is_regular_file()) files.push_back(entry.path());
        std::sort(files.begin(), files.end());  // the same order everywhere, for reading a failure
        for (const auto& file : files) {
            std::ifstream in(file, std::ios::binary);
            std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::cout << file.string() << std::endl;  // the last name printed is the input that failed
            LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
            ++inputs;
        }
    }
    if (inputs == 0) {
        std::cerr << "no input files in the given directories\n";
        return 1;
    }
    std::cout << inputs << " inputs replayed\n";
    return 0;
}
