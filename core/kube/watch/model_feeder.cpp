#include "kube/watch/model_feeder.hpp"

#include "kube/client/resources.hpp"

namespace kd::core::kube {

namespace {

// A watch's DELETED objects: what the decoder delivers is removed from the model by its key.
class Remover : public ObjectSink {
public:
    Remover(ClusterModel& model, uint64_t& removed) : model_(model), removed_(removed) {}
    void on_pod(const PodDraft& d) override { remove(ObjectKind::pod, d.meta); }
    void on_node(const NodeDraft& d) override { remove(ObjectKind::node, d.meta, ""); }
    void on_node_metric(const NodeMetricDraft& d) override { remove(ObjectKind::node_metric, d.meta, ""); }
    void on_workload(const WorkloadDraft& d) override {
        if (auto k = object_kind(d.kind)) remove(*k, d.meta);
    }
    void on_pdb(const PodDisruptionBudgetDraft& d) override { remove(ObjectKind::pdb, d.meta); }
    void on_namespace(const NamespaceDraft& d) override { remove(ObjectKind::namespace_, d.meta, ""); }
    void on_priority_class(const PriorityClassDraft& d) override { remove(ObjectKind::priority_class, d.meta, ""); }
    void on_pvc(const PersistentVolumeClaimDraft& d) override { remove(ObjectKind::pvc, d.meta); }
    void on_secret(const SecretDraft& d) override { remove(ObjectKind::secret, d.meta); }
    void on_migration_job(PodMigrationJob j) override {
        count(model_.remove(ObjectKind::migration_job,
                            ClusterModel::key_of(ObjectKind::migration_job, j.uid, "", j.name)));
    }
    void on_reservation(Reservation r) override {
        count(model_.remove(ObjectKind::reservation, ClusterModel::key_of(ObjectKind::reservation, r.uid, "", r.name)));
    }

private:
    void remove(ObjectKind kind, const ObjectMetaDraft& m) { remove(kind, m, m.ns); }
    void remove(ObjectKind kind, const ObjectMetaDraft& m, std::string_view ns) {
        count(model_.remove(kind, ClusterModel::key_of(kind, m.uid, ns, m.name)));
    }
    void count(bool removed) { removed_ += removed ? 1 : 0; }
    ClusterModel& model_;
    uint64_t& removed_;
};

std::string origin(const char* what, ObjectKind kind) {
    return std::string(what) + " " + std::string(resource_of(kind).resource);
}

}  // namespace

size_t ModelFeeder::decode_each(Change& change, ApiObjectDecoder& decoder) {
    size_t applied = 0;
    change.for_each([&](char* data, size_t size) {
        auto problem = change.encoding == Encoding::protobuf ? decoder.decode_protobuf(std::string_view(data, size))
                                                             : decoder.decode(data, size);
        if (problem) {
            ++state(change.kind).counters.problems;
            messages_.push_back("skipped an object the API server sent: " + *problem);
        } else {
            ++applied;
        }
    });
    return applied;
}

size_t ModelFeeder::apply(std::vector<Change>& changes) {
    size_t applied = 0;
    for (Change& c : changes) {
        KindState& k = state(c.kind);
        const ApiResource& res = resource_of(c.kind);
        switch (c.type) {
            case Change::Type::list_start:
                k.relist = std::make_unique<Relist>(model_, c.kind);
                k.relist_decoder = std::make_unique<ApiObjectDecoder>(origin("LIST", c.kind), std::string(res.kind),
                                                                      res.group_version(), *k.relist);
                break;
            case Change::Type::list_items:
                if (!k.relist) break;  // the start was not seen: a list_abort came in between
                {
                    size_t n = decode_each(c, *k.relist_decoder);
                    k.counters.objects += n;
                    applied += n;
                }
                break;
            case Change::Type::list_done:
                if (!k.relist) break;
                k.counters.removed += k.relist->finish();
                ++k.counters.lists;
                k.synced = true;
                k.relist.reset();
                k.relist_decoder.reset();
                break;
            case Change::Type::list_abort:
                k.relist.reset();
                k.relist_decoder.reset();
                break;
            case Change::Type::upsert: {
                if (!k.upsert_decoder)
                    k.upsert_decoder = std::make_unique<ApiObjectDecoder>(
                        origin("watch", c.kind), std::string(res.kind), res.group_version(), model_);
                size_t n = decode_each(c, *k.upsert_decoder);
                k.counters.objects += n;
                k.counters.events += c.count;
                applied += n;
                break;
            }
            case Change::Type::remove:
                if (!k.remove_decoder) {
                    k.remover = std::make_unique<Remover>(model_, k.counters.removed);
                    k.remove_decoder = std::make_unique<ApiObjectDecoder>(
                        origin("watch", c.kind), std::string(res.kind), res.group_version(), *k.remover);
                }
                decode_each(c, *k.remove_decoder);
                k.counters.events += c.count;
                break;
        }
    }
    return applied;
}

std::vector<std::string> ModelFeeder::take_messages() {
    return std::exchange(messages_, {});
}

}  // namespace kd::core::kube
