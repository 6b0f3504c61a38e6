#include "picker/picker_contract.hpp"

#include "picker/picker_error.hpp"
#include "text/json_writer.hpp"

#include <kdesched/decode.hpp>
#include <kdesched/pod_picker.hpp>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <unordered_map>

namespace kd::core::picker {

namespace {

constexpr const char* kShapeHint =
    "the picker must answer {\"chosen_pods\": [...], \"tied_pods\": [...]} with names taken from candidate_pods, at "
    "least number_of_pods_requested in total";

std::string shorten(std::string_view text) {
    constexpr size_t kMax = 200;
    return text.size() <= kMax ? std::string(text) : std::string(text.substr(0, kMax)) + "…";
}

}  // namespace

std::string encode_pick_request(const std::vector<std::string>& candidates, uint32_t requested) {
    json::TextWriter w;
    w.StartObject();
    json::field(w, "number_of_pods_requested", uint64_t{requested});
    json::string_array(w, "candidate_pods", candidates);
    w.EndObject();
    return w.text();
}

std::vector<uint8_t> rank_answer(std::string_view body, const std::vector<std::string>& candidates, uint32_t requested,
                                 const std::string& where) {
    auto invalid = [&](const std::string& what) {
        return PickerError(PickFailure::invalid_answer, where, what, kShapeHint);
    };
    if (kd::json_too_deep(body))
        throw invalid("answer nests JSON more than " + std::to_string(kd::kMaxJsonDepth) + " levels deep (the limit)");
    rapidjson::Document doc;
    doc.Parse(body.data(), body.size());
    if (doc.HasParseError())
        throw invalid("answer is not JSON (" + std::string(rapidjson::GetParseError_En(doc.GetParseError())) +
                      " at offset " + std::to_string(doc.GetErrorOffset()) + "): " + shorten(body));
    if (!doc.IsObject()) throw invalid("answer is not a JSON object: " + shorten(body));

    std::unordered_map<std::string_view, size_t> index;  // candidate name → position
    for (size_t i = 0; i < candidates.size(); ++i) index.emplace(candidates[i], i);
    std::vector<uint8_t> ranks(candidates.size(), kd::kPickOther);
    size_t named = 0;
    const std::pair<const char*, uint8_t> lists[] = {{"chosen_pods", kd::kPickChosen}, {"tied_pods", kd::kPickTied}};
    for (const auto& [member, rank] : lists) {
        auto it = doc.FindMember(member);
        if (it == doc.MemberEnd() || it->value.IsNull()) continue;  // an empty list may be left out
        if (!it->value.IsArray()) throw invalid(std::string(member) + " is not a list: " + shorten(body));
        for (const auto& v : it->value.GetArray()) {
            if (!v.IsString())
                throw invalid(std::string(member) + " holds a value that is not a string: " + shorten(body));
            std::string_view name(v.GetString(), v.GetStringLength());
            auto found = index.find(name);
            if (found == index.end())
                throw invalid(std::string(member) + " names \"" + std::string(name) + "\", which is not a candidate");
            if (ranks[found->second] != kd::kPickOther)
                throw invalid("\"" + std::string(name) + "\" is named twice in chosen_pods and tied_pods");
            ranks[found->second] = rank;
            ++named;
        }
    }
    if (named < requested)
        throw invalid("answer names " + std::to_string(named) + " pod" + (named == 1 ? "" : "s") + ", " +
                      std::to_string(requested) + " requested");
    return ranks;
}

}  // namespace kd::core::picker
