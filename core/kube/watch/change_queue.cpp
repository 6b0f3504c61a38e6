#include "kube/watch/change_queue.hpp"

namespace kd::core::kube {

void Change::add(std::string_view object, Encoding e) {
    add(object, {}, e);
}

void Change::add(std::string_view before, std::string_view after, Encoding e) {
    if (count == 0) encoding = e;
    auto n = static_cast<uint32_t>(before.size() + after.size());
    objects.append(reinterpret_cast<const char*>(&n), sizeof n);
    objects.append(before);
    objects.append(after);
    if (encoding == Encoding::json) objects.push_back('\0');
    ++count;
}

bool ChangeQueue::push(Change change) {
    std::unique_lock lock(mutex_);
    // One change alone may exceed the bound (a big object): it waits for an empty queue.
    room_.wait(lock, [&] { return closed_ || queue_.empty() || bytes_ + change.objects.size() <= max_bytes_; });
    if (closed_) return false;
    bytes_ += change.objects.size();
    queue_.push_back(std::move(change));
    ready_.notify_all();
    return true;
}

std::vector<Change> ChangeQueue::take() {
    std::lock_guard lock(mutex_);
    std::vector<Change> out(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
    queue_.clear();
    bytes_ = 0;
    room_.notify_all();
    return out;
}

void ChangeQueue::close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    ready_.notify_all();
    room_.notify_all();
}

size_t ChangeQueue::bytes() const {
    std::lock_guard lock(mutex_);
    return bytes_;
}

}  // namespace kd::core::kube
