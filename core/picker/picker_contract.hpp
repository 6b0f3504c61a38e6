// The Pod Picker REST contract (KEP-3189, downscalePodPicker): the request body, and the answer
// checked and turned into one rank per candidate.
//   request: {"number_of_pods_requested": n, "candidate_pods": ["<namespace>/<name>", …]}
//   answer:  {"chosen_pods": [...], "tied_pods": [...]} — only candidates, each once, at least n
//            in total; chosen rank 0, tied rank 1, every other candidate rank 3.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kd::core::picker {

// The largest answer read: names of candidates only, so 1 MiB holds tens of thousands.
constexpr size_t kMaxPickerAnswerBytes = 1u << 20;

std::string encode_pick_request(const std::vector<std::string>& candidates, uint32_t requested);

// Ranks parallel to `candidates` (kd::kPickChosen, kPickTied, kPickOther). Throws PickerError
// (invalid_answer) at `where` when the answer is not JSON, not shaped as above, names a pod that
// is not a candidate or names one twice, or names fewer than `requested`. Other members are ignored.
std::vector<uint8_t> rank_answer(std::string_view body, const std::vector<std::string>& candidates, uint32_t requested,
                                 const std::string& where);

}  // namespace kd::core::picker
