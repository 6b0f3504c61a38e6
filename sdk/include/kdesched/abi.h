/*
 * kdesched plugin ABI — the only contract between the kdesched host and a plugin library.
 *
 * Plain C, no dependencies beyond <stddef.h>/<stdint.h>, so a plugin built with any compiler or
 * C++ standard library can be loaded. No C++ object, std::string or exception crosses this edge.
 *
 * Conventions (apply to every entry below unless it says otherwise):
 *  - Hooks (prefix `kd_plugin_…`, fields of kd_plugin_descriptor) are implemented by the plugin
 *    and called by the host. Callbacks (fields of kd_host and kd_snapshot) are implemented by the
 *    host and called by the plugin.
 *  - Every struct that crosses the boundary starts with `struct_size`, set by whoever fills it to
 *    sizeof() of the struct as *it* was compiled. Structs only ever grow by appending fields (a
 *    MINOR version bump); a reader touches a field only when struct_size covers it. Arrays of
 *    structs are therefore walked with the element's struct_size as stride (see KD_AT).
 *  - Strings are kd_str: pointer + length, not NUL-terminated unless stated. A NULL data pointer
 *    with size 0 is the empty string.
 *  - Threads: the host calls all hooks of one plugin instance from one thread at a time.
 *    Callbacks may only be called from inside a hook, on the thread that runs the hook.
 *  - `host_data` fields belong to whoever fills the struct; the other side never reads them.
 *  - Callbacks (kd_host, kd_snapshot) are never NULL when the struct's struct_size covers them;
 *    a field newer than the host (struct_size too small) must not be used. Hooks of
 *    kd_plugin_descriptor may be NULL where it says so.
 *  - Versioning: the host refuses a module whose MAJOR differs from the host's or whose MINOR is
 *    newer than the host's. PATCH never matters for compatibility.
 */
#ifndef KDESCHED_ABI_H
#define KDESCHED_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* API version this header describes. */
#define KD_API_VERSION_MAJOR 1
#define KD_API_VERSION_MINOR 8
#define KD_API_VERSION_PATCH 0

/* Name of the single symbol every plugin library exports (type kd_module_entry_fn). */
#define KD_MODULE_ENTRY_SYMBOL "kdesched_module"

#if defined(_WIN32)
#define KD_EXPORT __declspec(dllexport)
#else
#define KD_EXPORT __attribute__((visibility("default")))
#endif

/* Address of element i of an array whose elements are `stride` bytes apart. */
#define KD_AT(type, base, stride, i) ((const type*)((const char*)(base) + (size_t)(i) * (stride)))

/* ------------------------------------------------------------------------------------------ */
/* Basic types                                                                                 */

/* Borrowed string. Lifetime: stated by the struct that holds it. */
typedef struct kd_str {
    const char* data;
    size_t size;
} kd_str;

/* Semantic version. */
typedef struct kd_version {
    uint32_t major;
    uint32_t minor;
    uint32_t patch;
} kd_version;

/* Result of every hook. */
typedef enum kd_status { KD_OK = 0, KD_ERROR = 1 } kd_status;

/* Log levels for kd_host.log. */
typedef enum kd_log_level { KD_LOG_DEBUG = 0, KD_LOG_INFO = 1, KD_LOG_WARN = 2, KD_LOG_ERROR = 3 } kd_log_level;

/* (API 1.2) Outcome of a cluster write (kd_host.evict_pod … update_object_status), as the API
 * server answers it, so that a plugin can tell a 409 from a 404. */
typedef enum kd_write_code {
    KD_WRITE_OK = 0,
    KD_WRITE_CONFLICT = 1,  /* 409 Conflict: the object changed since it was read (stale resourceVersion) */
    KD_WRITE_NOT_FOUND = 2, /* 404: the object (or the pod) does not exist */
    KD_WRITE_EXISTS = 3,    /* 409 AlreadyExists: a create of a name that is taken */
    KD_WRITE_INVALID = 4,   /* 400/422: the object is malformed, or the write is not allowed for its kind */
    KD_WRITE_FORBIDDEN = 5, /* 401/403, or the host refuses writes from this plugin */
    KD_WRITE_REFUSED = 6,   /* 429 on an eviction: a PodDisruptionBudget does not allow it now */
    KD_WRITE_TRANSIENT = 7, /* timeout, connection, 429/5xx after retries: trying again later may work */
    KD_WRITE_FAILED = 8     /* anything else */
} kd_write_code;

/*
 * Where a call writes an error message. The side that receives it (the host for hooks, the
 * plugin for callbacks) calls `set`; the side that made it owns it. `set` copies the text, so a
 * temporary may be passed; a second call keeps the last message. Valid only during the call that
 * received it.
 */
typedef struct kd_error_sink {
    uint32_t struct_size;
    void* host_data; /* for the side that made the sink; opaque to the other */
    void (*set)(struct kd_error_sink* self, const char* message, size_t size);
    /* (API 1.2) Cluster write callbacks only, when struct_size covers them: the host sets `code`
     * (a kd_write_code, KD_WRITE_OK on success) and, after a successful create or update, sets
     * `resource_version` to the object's new metadata.resourceVersion, which the next update of
     * the same object must carry (host-owned, valid until the hook returns). */
    int32_t code;
    kd_str resource_version;
} kd_error_sink;

/* ------------------------------------------------------------------------------------------ */
/* Cluster snapshot (read-only, host-owned)                                                    */
/*
 * Lifetime of everything reachable from a kd_snapshot (objects, strings, arrays): until the hook
 * that received it returns. Plugins must copy what they keep across calls (names, UIDs).
 * Quantities are exact integers in milli-units (1 CPU = 1000, 1 byte of memory = 1000).
 */

/* One label, annotation or node-selector entry. */
typedef struct kd_key_value {
    kd_str key;
    kd_str value;
} kd_key_value;

/* One resource quantity: name ("cpu", "memory", "pods", …) and value in milli-units. */
typedef struct kd_resource {
    kd_str name;
    int64_t milli;
} kd_resource;

typedef struct kd_resource_list {
    const kd_resource* items;
    size_t count;
} kd_resource_list;

typedef struct kd_key_value_list {
    const kd_key_value* items;
    size_t count;
} kd_key_value_list;

typedef struct kd_str_list {
    const kd_str* items;
    size_t count;
} kd_str_list;

typedef struct kd_owner_reference {
    uint32_t struct_size;
    kd_str api_version;
    kd_str kind;
    kd_str name;
    kd_str uid;
    uint8_t controller; /* ownerReference.controller == true */
} kd_owner_reference;

typedef struct kd_taint {
    uint32_t struct_size;
    kd_str key;
    kd_str value;
    kd_str effect; /* NoSchedule | PreferNoSchedule | NoExecute */
} kd_taint;

typedef struct kd_toleration {
    uint32_t struct_size;
    kd_str key;
    kd_str operator_; /* Exists | Equal ("" means Equal) */
    kd_str value;
    kd_str effect; /* "" matches every effect */
} kd_toleration;

/* A node-selector requirement: key, operator (In, NotIn, Exists, DoesNotExist, Gt, Lt), values.
 * (API 1.5) Also a label-selector requirement (In, NotIn, Exists, DoesNotExist). */
typedef struct kd_selector_requirement {
    uint32_t struct_size;
    kd_str key;
    kd_str operator_;
    kd_str_list values;
} kd_selector_requirement;

/* One term of requiredDuringSchedulingIgnoredDuringExecution: all requirements must hold. */
typedef struct kd_node_selector_term {
    uint32_t struct_size;
    const kd_selector_requirement* match_expressions; /* stride: element struct_size */
    size_t match_expression_count;
    const kd_selector_requirement* match_fields;
    size_t match_field_count;
} kd_node_selector_term;

typedef struct kd_pod_condition {
    uint32_t struct_size;
    kd_str type;   /* PodScheduled, Ready, … */
    kd_str status; /* True | False | Unknown */
    kd_str reason;
    kd_str message;
} kd_pod_condition;

/* (API 1.8) One entry of spec.resourceClaims (core/v1 PodResourceClaim): the name the
 * containers use, and the claim it refers to (one of the two is set; both empty on a pod written
 * by an older API server). */
typedef struct kd_pod_resource_claim {
    uint32_t struct_size;
    kd_str name;                         /* name */
    kd_str resource_claim_name;          /* resourceClaimName */
    kd_str resource_claim_template_name; /* resourceClaimTemplateName */
} kd_pod_resource_claim;

/* (API 1.5) One entry of spec.topologySpreadConstraints (core/v1 TopologySpreadConstraint). */
typedef struct kd_topology_spread_constraint {
    uint32_t struct_size;
    int32_t max_skew;               /* maxSkew */
    int32_t min_domains;            /* minDomains; 0 = absent (the API requires > 0 when set) */
    uint8_t has_label_selector;     /* labelSelector present (without one the constraint counts no pod) */
    kd_str topology_key;            /* topologyKey */
    kd_str when_unsatisfiable;      /* DoNotSchedule | ScheduleAnyway */
    kd_key_value_list match_labels; /* labelSelector.matchLabels */
    const kd_selector_requirement* match_expressions; /* labelSelector.matchExpressions, stride: element struct_size */
    size_t match_expression_count;
    kd_str node_affinity_policy;  /* nodeAffinityPolicy: Honor | Ignore; "" = absent (Honor) */
    kd_str node_taints_policy;    /* nodeTaintsPolicy: Honor | Ignore; "" = absent (Ignore) */
    kd_str_list match_label_keys; /* matchLabelKeys */
} kd_topology_spread_constraint;

/* (API 1.6) One entry of nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution
 * (core/v1 PreferredSchedulingTerm): its weight and its preference, a node selector term. */
typedef struct kd_preferred_node_term {
    uint32_t struct_size;
    int32_t weight;                                   /* 1–100 */
    uint8_t has_preference;                           /* preference present (the API requires it) */
    const kd_selector_requirement* match_expressions; /* preference.matchExpressions, stride: element struct_size */
    size_t match_expression_count;
    const kd_selector_requirement* match_fields; /* preference.matchFields */
    size_t match_field_count;
} kd_preferred_node_term;

/* (API 1.6) A pod affinity or anti-affinity term (core/v1 PodAffinityTerm), required or
 * preferred (WeightedPodAffinityTerm: the weight, and the term inlined). */
typedef struct kd_pod_affinity_term {
    uint32_t struct_size;
    int32_t weight;                                   /* preferred terms: weight (1–100); required terms: 0 */
    uint8_t has_term;                                 /* preferred terms: podAffinityTerm present; required terms: 0 */
    uint8_t has_label_selector;                       /* labelSelector present (without one the term matches no pod) */
    uint8_t has_namespace_selector;                   /* namespaceSelector present ({} selects every namespace) */
    kd_key_value_list match_labels;                   /* labelSelector.matchLabels */
    const kd_selector_requirement* match_expressions; /* labelSelector.matchExpressions */
    size_t match_expression_count;
    kd_str_list namespaces;                   /* namespaces; empty with no namespaceSelector = the pod's own */
    kd_str topology_key;                      /* topologyKey */
    kd_key_value_list namespace_match_labels; /* namespaceSelector.matchLabels */
    const kd_selector_requirement* namespace_match_expressions; /* namespaceSelector.matchExpressions */
    size_t namespace_match_expression_count;
    kd_str_list match_label_keys;    /* matchLabelKeys */
    kd_str_list mismatch_label_keys; /* mismatchLabelKeys */
} kd_pod_affinity_term;

/* Pod phase. */
typedef enum kd_pod_phase {
    KD_POD_PENDING = 0,
    KD_POD_RUNNING = 1,
    KD_POD_SUCCEEDED = 2,
    KD_POD_FAILED = 3,
    KD_POD_UNKNOWN = 4
} kd_pod_phase;

/* Kubernetes QoS class (status.qosClass, else computed by the host from the containers). */
typedef enum kd_qos_class { KD_QOS_BEST_EFFORT = 1, KD_QOS_BURSTABLE = 2, KD_QOS_GUARANTEED = 3 } kd_qos_class;

/* Bits of kd_pod.flags, derived by the host from the pod spec. */
enum {
    KD_POD_HAS_PRIORITY = 1u << 0,     /* spec.priority is set */
    KD_POD_TERMINATING = 1u << 1,      /* metadata.deletionTimestamp is set */
    KD_POD_LOCAL_STORAGE = 1u << 2,    /* a hostPath or emptyDir volume */
    KD_POD_PVC = 1u << 3,              /* a persistentVolumeClaim volume */
    KD_POD_EPHEMERAL_VOLUME = 1u << 4, /* a generic ephemeral volume */
    KD_POD_READY = 1u << 5,            /* condition Ready is True */
    KD_POD_HAS_NODE_AFFINITY = 1u << 6 /* required node affinity present (terms may be 0: matches nothing) */
};

/* The part of a pod that the pods of one template share (namespace, labels, scheduling
 * constraints, owners, requests). The host stores each distinct value once and points many pods at it, which keeps
 * a 300,000-pod snapshot small. */
typedef struct kd_pod_spec {
    uint32_t struct_size;
    kd_str namespace_;
    kd_key_value_list labels;
    kd_str scheduler_name; /* spec.schedulerName */
    kd_str priority_class_name;
    const kd_owner_reference* owners; /* stride: element struct_size */
    size_t owner_count;
    kd_resource_list requests; /* effective requests: max(Σ containers, max init) + overhead */
    kd_key_value_list node_selector;
    const kd_node_selector_term* affinity_terms; /* required node affinity, OR-ed */
    size_t affinity_term_count;
    const kd_toleration* tolerations;
    size_t toleration_count;
    /* (API 1.5) spec.topologySpreadConstraints, in the pod's order. Stride: element struct_size. */
    const struct kd_topology_spread_constraint* topology_spread_constraints;
    size_t topology_spread_constraint_count;
    /* (API 1.6) nodeAffinity's preferred terms; podAffinity's and podAntiAffinity's required
     * (requiredDuringSchedulingIgnoredDuringExecution) and preferred terms; each in the pod's order,
     * stride: element struct_size. spec.containers[].image, in the containers' order. */
    const struct kd_preferred_node_term* preferred_node_terms;
    size_t preferred_node_term_count;
    const struct kd_pod_affinity_term* pod_affinity_terms;
    size_t pod_affinity_term_count;
    const struct kd_pod_affinity_term* preferred_pod_affinity_terms;
    size_t preferred_pod_affinity_term_count;
    const struct kd_pod_affinity_term* pod_anti_affinity_terms;
    size_t pod_anti_affinity_term_count;
    const struct kd_pod_affinity_term* preferred_pod_anti_affinity_terms;
    size_t preferred_pod_anti_affinity_term_count;
    kd_str_list container_images;
    /* ---- (API 1.8) block: DefaultEvictor's PodsWithResourceClaims and protectedStorageClasses ---- */
    /* spec.resourceClaims, in the pod's order. Stride: element struct_size. */
    const struct kd_pod_resource_claim* resource_claims;
    size_t resource_claim_count;
    /* spec.volumes[].persistentVolumeClaim.claimName, in the volumes' order (a name given twice
     * is listed twice). */
    kd_str_list pvc_claim_names;
    /* ---- end of the (API 1.8) block ---- */
} kd_pod_spec;

/* (API 1.3) Which list of status a kd_container_status comes from. */
typedef enum kd_container_kind {
    KD_CONTAINER_APP = 0,      /* status.containerStatuses */
    KD_CONTAINER_INIT = 1,     /* status.initContainerStatuses */
    KD_CONTAINER_EPHEMERAL = 2 /* status.ephemeralContainerStatuses */
} kd_container_kind;

/* (API 1.3) A container's current state (status.*ContainerStatuses[].state). */
typedef enum kd_container_state {
    KD_CONTAINER_STATE_UNKNOWN = 0, /* no state reported */
    KD_CONTAINER_STATE_WAITING = 1,
    KD_CONTAINER_STATE_RUNNING = 2,
    KD_CONTAINER_STATE_TERMINATED = 3
} kd_container_state;

/* (API 1.3) One entry of a pod's container statuses. */
typedef struct kd_container_status {
    uint32_t struct_size;
    uint8_t kind;          /* kd_container_kind */
    uint8_t state;         /* kd_container_state */
    int32_t restart_count; /* restartCount */
    int32_t exit_code;     /* state.terminated.exitCode; 0 unless KD_CONTAINER_STATE_TERMINATED */
    kd_str name;
    kd_str reason; /* state.waiting.reason or state.terminated.reason ("CrashLoopBackOff", "OOMKilled", …) */
} kd_container_status;

typedef struct kd_pod {
    uint32_t struct_size;
    uint32_t flags; /* KD_POD_* bits */
    kd_str uid;
    kd_str name;
    kd_str node_name;    /* spec.nodeName, empty when unbound */
    int32_t priority;    /* spec.priority, valid when KD_POD_HAS_PRIORITY */
    uint8_t phase;       /* kd_pod_phase */
    uint8_t qos_class;   /* kd_qos_class */
    int64_t creation_ms; /* metadata.creationTimestamp, Unix milliseconds */
    kd_key_value_list annotations;
    const kd_pod_condition* conditions; /* stride: element struct_size */
    size_t condition_count;
    const kd_pod_spec* spec; /* never NULL; shared with other pods */
    /* (API 1.3) */
    kd_str status_reason; /* status.reason ("Evicted", "NodeLost", …) */
    /* The containers' statuses, then the init containers', then the ephemeral containers', each
     * list in the pod's order. Stride: element struct_size. */
    const kd_container_status* container_statuses;
    size_t container_status_count;
    /* (API 1.4) */
    int64_t start_time_ms; /* status.startTime (the kubelet acknowledged the pod), Unix ms; 0 = absent */
    /* (API 1.7) Each condition's lastTransitionTime, parallel to `conditions` (entry i is
     * conditions[i]'s): whole seconds after creation_ms (the API's timestamps have one-second
     * resolution), KD_NO_TRANSITION when the condition has none. NULL when no condition has one.
     * Kept apart from the conditions because those are shared by the pods with the same ones,
     * while transition times are each pod's own. */
    const int32_t* condition_transitions;
} kd_pod;

/* An entry of kd_pod.condition_transitions for a condition without lastTransitionTime. */
#define KD_NO_TRANSITION INT32_MIN

typedef struct kd_node {
    uint32_t struct_size;
    uint8_t unschedulable; /* spec.unschedulable */
    uint8_t ready;         /* no Ready condition, or Ready == True */
    kd_str uid;
    kd_str name;
    kd_key_value_list labels;
    kd_key_value_list annotations;
    const kd_taint* taints;
    size_t taint_count;
    kd_resource_list allocatable;     /* status.allocatable */
    kd_resource_list raw_allocatable; /* annotation node.koordinator.sh/raw-allocatable if valid, else allocatable */
} kd_node;

/* One entry of NodeMetric status.podsMetric. */
typedef struct kd_pod_metric {
    uint32_t struct_size;
    kd_str namespace_;
    kd_str name;
    kd_resource_list usage; /* podUsage */
} kd_pod_metric;

/* NodeMetric (slo.koordinator.sh/v1alpha1) of one node. */
typedef struct kd_node_metric {
    uint32_t struct_size;
    uint8_t has_node_metric;       /* status.nodeMetric present */
    int64_t update_time_ms;        /* status.updateTime, Unix ms; 0 = absent */
    kd_resource_list system_usage; /* status.nodeMetric.systemUsage */
    const kd_pod_metric* pods;     /* status.podsMetric, stride: element struct_size */
    size_t pod_count;
} kd_node_metric;

/* Pods of one node (any phase), in a stable order. */
typedef struct kd_pod_ref_list {
    const kd_pod* const* items;
    size_t count;
} kd_pod_ref_list;

/* The workload a pod belongs to, resolved from its controller ownerReference the way Kubernetes'
 * controller finder does: a ReplicaSet owned by a Deployment resolves to the Deployment (its pods:
 * those of all its ReplicaSets); StatefulSet, ReplicationController, Job, DaemonSet and an
 * unowned ReplicaSet resolve to themselves. (API 1.1) */
typedef struct kd_workload {
    uint32_t struct_size;
    uint8_t found;        /* the pod has a controller and the host knows it */
    uint8_t has_replicas; /* the top workload has spec.replicas (Job: spec.parallelism) */
    int32_t replicas;     /* spec.replicas of the top workload; 0 when absent */
    kd_str kind;          /* of the top workload */
    kd_str namespace_;
    kd_str name;
    kd_str uid;
    kd_pod_ref_list pods; /* the workload's pods, any phase (host-owned, valid until the hook returns) */
} kd_workload;

/*
 * The cluster as the host sees it for this cycle. Nodes are the ones this extension point runs
 * on (already filtered by the global and profile node selectors) followed by nothing else;
 * `all_nodes` also has nodes outside the selectors (for fit checks).
 */
typedef struct kd_snapshot {
    uint32_t struct_size;
    int64_t now_ms;              /* the cycle's clock, Unix ms (virtual in the simulator) */
    const kd_node* const* nodes; /* nodes given to this extension point */
    size_t node_count;
    const kd_node* const* all_nodes; /* every ready node known to the host */
    size_t all_node_count;
    const kd_pod* const* pods; /* every pod known to the host */
    size_t pod_count;
    void* host_data;
    /* Pods bound to the node with this name (empty list when none). */
    kd_pod_ref_list (*pods_on_node)(const struct kd_snapshot* self, kd_str node_name);
    /* NodeMetric of the node with this name, or NULL. */
    const kd_node_metric* (*node_metric)(const struct kd_snapshot* self, kd_str node_name);
    /* Pod by namespace and name, or NULL. */
    const kd_pod* (*find_pod)(const struct kd_snapshot* self, kd_str namespace_, kd_str name);
    /* Node by name, or NULL. */
    const kd_node* (*find_node)(const struct kd_snapshot* self, kd_str name);
    /* Every object of a kind the host keeps beyond pods and nodes — "PodMigrationJob",
     * "Reservation" (scheduling.koordinator.sh/v1alpha1), and since API 1.7 "Namespace" (v1:
     * metadata name, uid, labels) and "PodDisruptionBudget" (policy/v1: metadata, spec selector,
     * minAvailable, maxUnavailable, status disruptionsAllowed), since API 1.8 "PriorityClass"
     * (scheduling.k8s.io/v1: metadata name, uid, value) and "PersistentVolumeClaim" (v1: metadata
     * namespace, name, uid, spec storageClassName) — as a JSON array of their wire form, the
     * cluster-scoped kinds by name and the others by namespace and name; "[]" for none or a kind
     * the host does not keep (an older host's answer for the 1.7 and 1.8 kinds). Host-owned,
     * valid until the hook returns.
     * (API 1.8, metrics) "NodeMetrics.metrics.k8s.io" and "PodMetrics.metrics.k8s.io"
     * (metrics.k8s.io/v1beta1, what metrics-server serves: metadata, timestamp, window, and
     * `usage` for a node or `containers[].usage` for a pod), kept only when the policy enables
     * the KubernetesMetrics source (kd_create_info.metrics_sources): NodeMetrics by name, their
     * cpu and memory smoothed over the host's polls as upstream's metrics collector does;
     * PodMetrics by namespace and name, as last listed. A node or pod without an entry has no
     * metrics (yet): that is not zero usage. */
    kd_str (*list_objects)(const struct kd_snapshot* self, kd_str kind);
    /* (API 1.1) The workload of `pod` (see kd_workload); out->found = 0 when the pod has no
     * controller or the controller is unknown. `out->struct_size` is set by the caller. */
    void (*pod_workload)(const struct kd_snapshot* self, const kd_pod* pod, kd_workload* out);
    /* (API 1.2) The host's cluster model revision this snapshot shows: it changes whenever any
     * object changes, and two snapshots with the same revision show the same cluster. For
     * caching what a plugin derives from the snapshot. */
    uint64_t revision;
} kd_snapshot;

/* ------------------------------------------------------------------------------------------ */
/* Eviction                                                                                    */

/* Outcome of an eviction request. Never collapse it to a bool: callers stop early on limits. */
typedef enum kd_evict_code {
    KD_EVICT_ACCEPTED = 0,        /* the evict plugin took the pod */
    KD_EVICT_DRY_RUN = 1,         /* framework dry run: logged, counted, nothing done */
    KD_EVICT_FILTERED = 2,        /* a filter plugin rejected it: `plugin`, `reason` say which, why */
    KD_EVICT_LIMIT_NODE = 3,      /* maxNoOfPodsToEvictPerNode reached */
    KD_EVICT_LIMIT_NAMESPACE = 4, /* maxNoOfPodsToEvictPerNamespace reached */
    KD_EVICT_LIMIT_TOTAL = 5,     /* maxNoOfPodsToEvictTotal reached */
    KD_EVICT_FAILED = 6           /* the evict plugin refused or failed: `plugin`, `reason` say why */
} kd_evict_code;

/* (API 1.4) kd_evict_options.flags. */
typedef enum kd_evict_flag {
    /* Do not run the profile's PreEvictionFilter for this request. For a port of a plugin whose
     * upstream never calls it (Koordinator's LowNodeLoad), or a plugin that just asked
     * kd_host.pre_eviction_filter itself. */
    KD_EVICT_SKIP_PRE_EVICTION_FILTER = 1u
} kd_evict_flag;

typedef struct kd_evict_options {
    uint32_t struct_size;
    kd_str reason;      /* why (shown in events, annotations); the host fills "" from context */
    kd_str plugin_name; /* requesting plugin; "" = the plugin whose hook is running */
    /* (API 1.4) kd_evict_flag bits. Options without it (an older plugin's): 0, so a 1.4 host runs
     * the pre-eviction filters for every plugin unless it asks not to. */
    uint32_t flags;
} kd_evict_options;

/* Filled by the host (kd_host.evict) or by an evict hook. Strings: valid until the hook returns. */
typedef struct kd_evict_result {
    uint32_t struct_size;
    int32_t code;  /* kd_evict_code */
    kd_str plugin; /* the plugin that decided (filter or evict plugin); empty for limits */
    kd_str reason; /* short reason code or message */
} kd_evict_result;

/* Verdict of a filter hook. `reason`: why it was rejected, valid until the next call into the
 * same instance (a string literal is the usual choice). */
typedef struct kd_filter_result {
    uint32_t struct_size;
    uint8_t allowed;
    kd_str reason;
} kd_filter_result;

/* ------------------------------------------------------------------------------------------ */
/* The call context and the host's callbacks                                                   */

/*
 * Passed to every extension-point hook. Host-owned; valid until the hook returns. Identifies the
 * running cycle and profile, and is what the plugin hands back to kd_host callbacks.
 */
typedef struct kd_call {
    uint32_t struct_size;
    const kd_snapshot* snapshot;
    kd_str profile;  /* profile name */
    kd_str plugin;   /* the plugin whose hook runs */
    uint64_t cycle;  /* 1-based cycle number */
    uint8_t dry_run; /* framework-level dry run is on */
    void* host_data;
} kd_call;

/*
 * Host callbacks. Host-owned, valid from create until destroy of the instance that received it.
 * May only be called from inside a hook of that instance, with the kd_call that hook received.
 */
typedef struct kd_host {
    uint32_t struct_size;
    kd_version api_version; /* the host's */
    void* host_data;
    /* Log a message under the plugin's name. `message` is copied. */
    void (*log)(const struct kd_host* self, const kd_call* call, int32_t level, const char* message, size_t size);
    /* AND of the profile's filter plugins' Filter (allowed when there are none). */
    void (*filter)(const struct kd_host* self, const kd_call* call, const kd_pod* pod, kd_filter_result* out);
    /* AND of the profile's filter plugins' PreEvictionFilter. */
    void (*pre_eviction_filter)(const struct kd_host* self, const kd_call* call, const kd_pod* pod,
                                kd_filter_result* out);
    /* Ask for an eviction: the profile's Filter → its PreEvictionFilter (API 1.4; skipped with
     * KD_EVICT_SKIP_PRE_EVICTION_FILTER) → per-node / per-namespace / total limits → framework dry
     * run → the profile's evict plugin. A filter's rejection is KD_EVICT_FILTERED naming the
     * filter plugin and its reason. Hosts before 1.4 ran no PreEvictionFilter here (kd::Cycle::evict
     * asks for it first on such a host). Result strings valid until the calling hook returns. */
    void (*evict)(const struct kd_host* self, const kd_call* call, const kd_pod* pod, const kd_evict_options* options,
                  kd_evict_result* out);
    /* Cluster write: evict the pod now through the Eviction API (policy/v1; the simulator deletes
     * it). For evict plugins, which record the Event and count_eviction themselves.
     * `reason` is copied. Returns KD_ERROR with a message in `err` when the API refuses
     * (KD_WRITE_REFUSED: a PodDisruptionBudget; KD_WRITE_NOT_FOUND: the pod is gone). */
    kd_status (*evict_pod)(const struct kd_host* self, const kd_call* call, const kd_pod* pod, kd_str reason,
                           kd_error_sink* err);
    /* Tell the host a fact for its reports (`kdesched simulate` output, --explain, debug logs).
     * subject_kind: "node" or "pod"; subject: node name or "namespace/name". Keys the host knows:
     * node "pool" (node pool name), node "class" (high, low, prodHigh, prodLow, bothLow,
     * appropriate), pod "skipped" (a reason code: why a candidate was not evicted). Copied. */
    void (*report)(const struct kd_host* self, const kd_call* call, kd_str subject_kind, kd_str subject, kd_str key,
                   kd_str value);

    /* Cluster writes, through the same back end as evict_pod (the simulator or the API server).
     * A write's effect shows in the snapshot of a later hook call (the watch delivers it; the
     * simulator applies it after the call), never in the running one. Every string is copied.
     * Each returns KD_ERROR with a message in `err` when the write is refused (malformed object,
     * unknown kind, missing pod, conflict), and from API 1.2 its kd_write_code in `err->code`.
     * Only the profile's evict plugin and plugins with a tick hook may write: any other plugin
     * gets KD_WRITE_FORBIDDEN (a balance plugin asks for evictions through `evict`). */
    /* Creates an object from its JSON wire form (apiVersion, kind, metadata, spec).
     * Kinds: scheduling.koordinator.sh/v1alpha1 PodMigrationJob and Reservation. `status` is a
     * subresource of both (as the API server does, it is ignored on create: write it with
     * update_object_status). For a plugin built against API 1.0/1.1 the host writes a given
     * status right after the create, as those versions promised. */
    kd_status (*create_object)(const struct kd_host* self, const kd_call* call, kd_str json, kd_error_sink* err);
    /* Replaces an existing object's metadata and spec (same kinds; matched by kind, namespace and
     * metadata.name). `metadata.resourceVersion` must be the stored one, else KD_WRITE_CONFLICT
     * (read the object again). `status` is ignored (API 1.0/1.1 plugins: written after the update). */
    kd_status (*update_object)(const struct kd_host* self, const kd_call* call, kd_str json, kd_error_sink* err);
    /* Deletes an object by kind and name (namespace empty for cluster-scoped kinds). */
    kd_status (*delete_object)(const struct kd_host* self, const kd_call* call, kd_str kind, kd_str namespace_,
                               kd_str name, kd_error_sink* err);
    /* Deletes the pod (DELETE, no eviction API: no PDB check). */
    kd_status (*delete_pod)(const struct kd_host* self, const kd_call* call, const kd_pod* pod, kd_str reason,
                            kd_error_sink* err);
    /* Sets annotation `key` to `value` on the pod (a merge patch). */
    kd_status (*annotate_pod)(const struct kd_host* self, const kd_call* call, const kd_pod* pod, kd_str key,
                              kd_str value, kd_error_sink* err);
    /* Records a Kubernetes Event about an object: type Normal or Warning, reason, action, message. */
    void (*record_event)(const struct kd_host* self, const kd_call* call, kd_str kind, kd_str namespace_, kd_str name,
                         kd_str type, kd_str reason, kd_str action, kd_str message);
    /* (API 1.1) Counts one eviction of `pod` in the descheduler_pods_evicted metric: `result`
     * "success" or "error"; `strategy` the plugin that asked for it (a migration's trigger). */
    void (*count_eviction)(const struct kd_host* self, const kd_call* call, const kd_pod* pod, kd_str result,
                           kd_str strategy);
    /* (API 1.1) The Pod Picker, a host service: asks a user's REST service which of `candidates`
     * should leave first (contract of KEP-3189's downscalePodPicker). `picker_json`: the
     * `podPicker` block of the plugin's args as JSON — {http: {scheme, host, port, path, caFile,
     * httpHeaders: [{name, value | valueFrom: {secretKeyRef: {namespace, name, key}}}]},
     * maxRetries, timeoutSeconds} — which the host decodes and validates itself, reading
     * secretKeyRef values from the cluster. The host POSTs {"number_of_pods_requested":
     * requested, "candidate_pods": ["<namespace>/<name>", …]} and checks the answer
     * {"chosen_pods": […], "tied_pods": […]}: only candidates, each once, at least `requested`
     * in total. On success it fills ranks[i] for candidates[i] — 0 chosen, 1 tied, 3 not
     * returned (lower leaves first) — and returns KD_OK. On any failure (config, Secret,
     * connection, no answer within timeoutSeconds after maxRetries retries, non-2xx, invalid
     * answer) it returns KD_ERROR with the reason in `err` and leaves `ranks` alone. Every
     * outcome is counted in descheduler_pod_picker_requests_total{result}. Blocks the hook for
     * at most (maxRetries + 1) × timeoutSeconds. `picker_json`, `candidates` (count elements,
     * at least 1, requested between 1 and count) and `ranks` (count bytes) are caller-owned and
     * used during the call only. */
    kd_status (*pick_pods)(const struct kd_host* self, const kd_call* call, kd_str picker_json,
                           const kd_pod* const* candidates, size_t candidate_count, uint32_t requested, uint8_t* ranks,
                           kd_error_sink* err);
    /* (API 1.2) Replaces the `status` of an existing object (the status subresource); everything
     * else in `json` is ignored. `metadata.resourceVersion` must be the stored one, else
     * KD_WRITE_CONFLICT. */
    kd_status (*update_object_status)(const struct kd_host* self, const kd_call* call, kd_str json, kd_error_sink* err);
} kd_host;

/* Facts about the run given to create. Host-owned, valid during create only. */
typedef struct kd_create_info {
    uint32_t struct_size;
    kd_str profile;                   /* profile the instance belongs to */
    int64_t descheduling_interval_ms; /* top-level deschedulingInterval (0 = one cycle) */
    /* (API 1.1) Stable identity of this descheduler: the same across restarts and replicas of
     * one deployment (derived from the leader-election lease and the profile), different between
     * two deployments. For marking objects a plugin created so that it can resume them. */
    kd_str instance_id;
    /* ---- (API 1.8, metrics) actual-usage sources; a reader checks struct_size first ---- */
    /* kd_metrics_source bits the host collects for this run (from the DeschedulerPolicy's
     * metricsProviders / metricsCollector); 0 from a host before 1.8. */
    uint32_t metrics_sources;
} kd_create_info;

/* (API 1.8, metrics) kd_create_info.metrics_sources. */
typedef enum kd_metrics_source {
    /* metrics.k8s.io (metrics-server): list_objects answers "NodeMetrics.metrics.k8s.io" and
     * "PodMetrics.metrics.k8s.io". */
    KD_METRICS_KUBERNETES = 1u
} kd_metrics_source;

/* ------------------------------------------------------------------------------------------ */
/* The module and its plugins                                                                  */

/* Plugin instance: opaque to the host. Created by `create`, released by `destroy`. */
typedef struct kd_plugin_instance kd_plugin_instance;

typedef struct kd_plugin_descriptor {
    uint32_t struct_size;
    const char* name;        /* required, NUL-terminated, e.g. "LowNodeLoad"; static storage */
    const char* version;     /* required, plugin's own version, e.g. "1.0.0"; static storage */
    const char* description; /* optional one line; static storage */

    /* Required. Decode, default and validate `args_json` (a JSON object, "{}" when the profile
     * gives no pluginConfig; not NUL-terminated), then create an instance in *out. On failure
     * return KD_ERROR with a message in `err` (field paths for args problems) and leave *out NULL.
     * `host` outlives the instance. */
    kd_status (*create)(const kd_host* host, const kd_create_info* info, const char* args_json, size_t args_size,
                        kd_plugin_instance** out, kd_error_sink* err);
    /* Required. Release the instance. Must not fail. */
    void (*destroy)(kd_plugin_instance* self);

    /* Extension points: NULL = not implemented. The host only calls those that are set. */
    kd_status (*deschedule)(kd_plugin_instance* self, const kd_call* call, kd_error_sink* err);
    kd_status (*balance)(kd_plugin_instance* self, const kd_call* call, kd_error_sink* err);
    /* Filter and PreEvictionFilter come as a pair: a filter plugin sets both. */
    kd_status (*filter)(kd_plugin_instance* self, const kd_call* call, const kd_pod* pod, kd_filter_result* out,
                        kd_error_sink* err);
    kd_status (*pre_eviction_filter)(kd_plugin_instance* self, const kd_call* call, const kd_pod* pod,
                                     kd_filter_result* out, kd_error_sink* err);
    /* Evict the pod (the host has already applied filters, limits and dry run). Fill `out` with
     * KD_EVICT_ACCEPTED, KD_EVICT_FILTERED or KD_EVICT_FAILED. */
    kd_status (*evict)(kd_plugin_instance* self, const kd_call* call, const kd_pod* pod,
                       const kd_evict_options* options, kd_evict_result* out, kd_error_sink* err);

    /* (API 1.1) Optional periodic work between cycles — a controller's reconcile loop, driven by
     * the host instead of threads of the plugin's own. The host calls it after every cycle and
     * again at (or soon after) the time the plugin asks for in *next_ms (absolute, on the
     * snapshot's clock; 0 = nothing to do before the next cycle). Each call gets a fresh
     * snapshot; cluster writes made in one call are visible in the snapshot of the next. In
     * the simulator the virtual clock jumps to each requested time. */
    kd_status (*tick)(kd_plugin_instance* self, const kd_call* call, int64_t* next_ms, kd_error_sink* err);
} kd_plugin_descriptor;

/* What the entry point returns. Static storage in the plugin library: lives until it is unloaded. */
typedef struct kd_module {
    uint32_t struct_size;
    kd_version api_version; /* the API the module targets (the SDK's KD_API_VERSION_* unless built
                             * for an older host: KDESCHED_TARGET_API_MINOR); never moves */
    const char* name;       /* module (library) name, for messages */
    const kd_plugin_descriptor* const* plugins;
    size_t plugin_count;
} kd_module;

/* The one exported symbol: `KD_EXPORT const kd_module* kdesched_module(void);` */
typedef const kd_module* (*kd_module_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* KDESCHED_ABI_H */
