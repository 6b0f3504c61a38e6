// The store of a small kind (PodDisruptionBudget, Namespace, Secret, PodMigrationJob,
// Reservation): owned objects in a std::map by key (their UID, or one the model derived), so
// iteration is in key order. These kinds are few per cluster (tens to hundreds), so lookups by
// anything else than the key scan them rather than keep a second index up to date.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kd::core {

// T has a `uid` member holding its key.
template <class T>
class ObjectStore {
public:
    using Map = std::map<std::string, T, std::less<>>;

    // Adds `obj` under its uid, or replaces the object stored there.
    void put(T obj) {
        std::string key = obj.uid;
        objects_[std::move(key)] = std::move(obj);
    }
    // Deletes the object stored under `key`; false when unknown.
    bool erase(std::string_view key) {
        auto it = objects_.find(key);
        if (it == objects_.end()) return false;
        objects_.erase(it);
        return true;
    }

    const T* find(std::string_view key) const {
        auto it = objects_.find(key);
        return it == objects_.end() ? nullptr : &it->second;
    }
    // The first object in key order that `matches`, or nullptr.
    template <class Match>
    const T* find_if(Match&& matches) const {
        for (const auto& [key, obj] : objects_)
            if (matches(obj)) return &obj;
        return nullptr;
    }
    // Every object that `matches`, in key order.
    template <class Match>
    std::vector<const T*> select(Match&& matches) const {
        std::vector<const T*> out;
        for (const auto& [key, obj] : objects_)
            if (matches(obj)) out.push_back(&obj);
        return out;
    }

    const Map& all() const { return objects_; }
    std::vector<std::string> keys() const {
        std::vector<std::string> out;
        for (const auto& [key, obj] : objects_) out.push_back(key);
        return out;
    }
    size_t size() const { return objects_.size(); }

private:
    Map objects_;
};

}  // namespace kd::core
