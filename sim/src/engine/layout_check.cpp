#include "engine/layout_check.h"

#include "engine/pipeline_stages.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace cp::sim {

bool framework_allows(const Layout& layout, const AcceleratorSpec& accelerator) {
    if (layout.framework == Framework::automatic) return true;
    const FrameworkProfile& fw = framework_profile(layout.framework);
    if (!framework_runs_on(layout.framework, accelerator)) return false;
    if (layout.zero > fw.max_zero || (layout.pp > 1 && layout.zero > fw.max_zero_with_pp))
        return false;
    return layout.cp == 1 || fw.context_parallel;
}

namespace {

std::string num(std::int64_t v) {
    return std::to_string(v);
}

// The rules of check_layout; on the first one broken, `why` (when given) gets a sentence naming
// it. Sentences are built only when asked for: the search checks millions of layouts.
Limit check_rules(const Workload& workload, const Cluster& cluster, const Layout& layout,
                  std::string* why) {
    const auto bad = [why](const auto& sentence) {
        if (why) *why = sentence();
        return Limit::invalid_layout;
    };
    if (layout.tp < 1 || layout.pp < 1 || layout.dp < 1 || layout.micro_batch < 1 ||
        layout.global_batch < 1 || layout.virtual_stages < 1 || layout.cp < 1)
        return bad([] {
            return std::string("tp, pp, dp, cp, virtual stages, micro-batch and global batch "
                               "must each be at least 1");
        });
    if (cluster.nodes < 1 || cluster.node.accelerators_per_node < 1)
        return bad([] { return std::string("the cluster has no devices"); });
    const AcceleratorSpec& acc = cluster.node.accelerator;
    // 64-bit products: each factor is range-checked, their product need not fit an int.
    const std::int64_t named = std::int64_t{layout.tp} * layout.pp * layout.dp * layout.cp;
    if (named != cluster.devices())
        return bad([&] {
            return "tp × pp × dp × cp = " + num(named) + " does not equal the cluster's " +
                   num(cluster.devices()) + " devices";
        });
    if (layout.global_batch % (std::int64_t{layout.micro_batch} * layout.dp) != 0)
        return bad([&] {
            return "the global batch of " + num(layout.global_batch) +
                   " is not a whole number of micro-batches of " + num(layout.micro_batch) +
                   " on each of dp " + num(layout.dp) + " replicas";
        });
    if (layout.zero < 0 || layout.zero > 3)
        return bad([&] { return "ZeRO stage " + num(layout.zero) + " is not 0 to 3"; });
    if (layout.zero > acc.max_zero_stage)
        return bad([&] {
            return "the training software of " + acc.id + " offers ZeRO up to stage " +
                   num(acc.max_zero_stage) + ", not " + num(layout.zero);
        });
    if (!(layout.grad_compression > 0.0 && layout.grad_compression <= 1.0))
        return bad([] { return std::string("gradient compression must be in (0, 1]"); });
    if (layout.dp_comm == DpComm::parameter_server && layout.parameter_servers < 1)
        return bad([] { return std::string("parameter-server training needs a server"); });
    if (layout.virtual_stages > 1 && layout.schedule != Schedule::interleaved)
        return bad([&] {
            return num(layout.virtual_stages) +
                   " virtual stages per pipeline rank need the interleaved schedule";
        });
    if (!framework_allows(layout, acc))
        return bad([&] {
            const std::string fw(enum_name(layout.framework));
            const FrameworkProfile& p = framework_profile(layout.framework);
            if (!framework_runs_on(layout.framework, acc)) return fw + " does not run on " + acc.id;
            if (layout.zero > p.max_zero)
                return fw + " offers ZeRO up to stage " + num(p.max_zero) + ", not " +
                       num(layout.zero);
            if (layout.pp > 1 && layout.zero > p.max_zero_with_pp)
                return fw + " offers ZeRO up to stage " + num(p.max_zero_with_pp) +
                       " with pipeline parallelism, not " + num(layout.zero);
            return fw + " has no context parallelism (cp " + num(layout.cp) + ")";
        });
    if (layout.ep < 1 || layout.etp < 1)
        return bad([] { return std::string("ep and etp must each be at least 1"); });
    // Offloaded parameters are fetched shard by shard: ZeRO-3 (DeepSpeed offload_param, FSDP).
    if (layout.offload.params != OffloadTarget::none && layout.zero < 3)
        return bad([] { return std::string("offloading parameters needs ZeRO stage 3"); });
    // Only a fully recomputed layer's replicated input can be split (Megatron asserts both);
    // with tp 1 there is nothing to split.
    if (layout.distribute_saved_activations &&
        (layout.recompute != Recompute::full || layout.sequence_parallel))
        return bad([] {
            return std::string("distributed saved activations need full recompute and no "
                               "sequence parallelism");
        });

    if (workload.kind == WorkloadKind::generic) {
        if (layout.tp != 1 || layout.pp != 1 || layout.virtual_stages != 1 || layout.cp != 1)
            return bad([&] {
                return workload.name +
                       " is not a transformer: it runs data parallel only (tp, pp, cp 1)";
            });
        if (layout.ep != 1 || layout.etp != 1 || workload.finetune.adapters())
            return bad([&] {
                return workload.name + " is not a transformer: no experts or adapters to split";
            });
        if (!(workload.params > 0) || !(workload.flops_per_sample > 0))
            return bad(
                [&] { return workload.name + " needs positive params and flops_per_sample"; });
        return Limit::none;
    }
    const TransformerShape& s = workload.shape;
    if (s.layers < 1 || s.hidden < 1 || s.heads < 1 || s.seq_len < 1 || s.vocab < 1)
        return bad([] {
            return std::string("the model's layers, hidden, heads, seq_len and vocab must each "
                               "be at least 1");
        });
    // A given head width frees the heads from dividing the hidden size (GLM-4.5: 96 heads of
    // 128 over 5,120), as the scenario parser allows.
    if (s.head_dim <= 0 && s.hidden % s.heads != 0)
        return bad([&] {
            return "the model's " + num(s.heads) + " heads do not divide its hidden size " +
                   num(s.hidden);
        });
    const int kv = s.kv_heads > 0 ? s.kv_heads : s.heads;
    const int ffn = s.ffn_hidden > 0 ? s.ffn_hidden : 4 * s.hidden;
    // KV heads split over tp, or replicated when tp is a multiple of them (Megatron, NeuronX).
    const bool padded_heads = framework_profile(layout.framework).pads_attention_heads;
    if (s.heads % layout.tp != 0 && !padded_heads)
        return bad([&] {
            return "tp " + num(layout.tp) + " does not divide the model's " + num(s.heads) +
                   " attention heads";
        });
    if (ffn % layout.tp != 0)
        return bad(
            [&] { return "tp " + num(layout.tp) + " does not divide the MLP width " + num(ffn); });
    if (kv % layout.tp != 0 && layout.tp % kv != 0)
        return bad([&] {
            return "tp " + num(layout.tp) + " neither divides nor is a multiple of the model's " +
                   num(kv) + " key/value heads";
        });
    // Stages may hold unequal numbers of layers; every virtual chunk needs one (most_chunks).
    if (layout.pp > s.layers)
        return bad([&] {
            return "pp " + num(layout.pp) + " exceeds the model's " + num(s.layers) + " layers";
        });
    if (const int fewest = stage_split(s.layers, layout).most_chunks(layout.pp);
        fewest < layout.virtual_stages)
        return bad([&] {
            return num(layout.virtual_stages) +
                   " virtual stages need as many layers on every pipeline stage; " + num(s.layers) +
                   " layers over pp " + num(layout.pp) + " leave a stage " + num(fewest);
        });
    // Ring attention splits each sequence into 2·cp chunks (causal load balancing); Ulysses
    // splits it into cp and gives each rank whole heads of a tp rank's share after its all-to-all
    // (DeepSpeed DistributedAttention scatters the head dimension over the sequence group).
    if (layout.cp > 1) {
        if (framework_profile(layout.framework).ulysses_cp) {
            if (s.seq_len % layout.cp != 0 || (s.heads / layout.tp) % layout.cp != 0)
                return bad([&] {
                    return "Ulysses context parallelism needs cp " + num(layout.cp) +
                           " to divide seq_len " + num(s.seq_len) + " and the " +
                           num(s.heads / layout.tp) + " heads of a tensor-parallel rank";
                });
        } else if (s.seq_len % (2 * layout.cp) != 0) {
            return bad([&] {
                return "ring attention splits a sequence into 2 × cp = " + num(2 * layout.cp) +
                       " chunks, which do not divide seq_len " + num(s.seq_len);
            });
        }
    }
    if (layout.virtual_stages > 1 && interleave_group_size(layout) == 0)
        return bad([&] {
            return "the interleaved schedule runs micro-batches in groups of pp " + num(layout.pp) +
                   ": " + num(layout.micro_batches()) +
                   " micro-batches per replica do not divide into them under " +
                   std::string(enum_name(layout.framework));
        });
    // Expert parallelism splits the experts (and etp each expert's columns) over ranks carved
    // out of a stage's tp x cp x dp ranks (Megatron-Core's MoE parallel folding).
    if (layout.ep > 1 || layout.etp > 1) {
        if (!s.moe.enabled())
            return bad([] { return std::string("ep and etp need a mixture-of-experts model"); });
        if (s.moe.experts % layout.ep != 0)
            return bad([&] {
                return "ep " + num(layout.ep) + " does not divide the model's " +
                       num(s.moe.experts) + " experts";
            });
        if (s.moe.moe_ffn_hidden % layout.etp != 0)
            return bad([&] {
                return "etp " + num(layout.etp) + " does not divide the expert MLP width " +
                       num(s.moe.moe_ffn_hidden);
            });
        if ((layout.tp * layout.cp * layout.dp) % (layout.ep * layout.etp) != 0)
            return bad([&] {
                return "ep × etp = " + num(layout.ep * layout.etp) +
                       " does not divide a stage's tp × cp × dp = " +
                       num(layout.tp * layout.cp * layout.dp) + " ranks";
            });
    }
    return Limit::none;
}

} // namespace

Limit check_layout(const Workload& workload, const Cluster& cluster, const Layout& layout) {
    return check_rules(workload, cluster, layout, nullptr);
}

std::string layout_problem(const Workload& workload, const Cluster& cluster, const Layout& layout) {
    Layout resolved = layout; // as evaluate checks it
    resolved.framework = resolve_framework(layout.framework, cluster.node.accelerator, layout.zero);
    std::string why;
    check_rules(workload, cluster, resolved, &why);
    return why;
}

} // namespace cp::sim
