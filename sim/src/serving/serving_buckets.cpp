#include "serving/serving_model.h"

#include <algorithm>
#include <cmath>

// Neuron's compiled buckets: the prompt length a context encoding runs at and the KV length a
// decode step attends over.
namespace cp::sim {

namespace {

// Neuron graphs have static shapes: a prompt is encoded by the context-encoding graph of the
// next bucket at or above its length, padded to it. NxD Inference buckets at powers of two from
// 128 tokens up to the maximum context (its auto-bucketing default; the Neuron bucketing app note:
// "each input is padded until its shape matches the next largest bucket shape").
constexpr double kSmallestContextBucketTokens = 128;

double context_bucket_tokens(double tokens) {
    if (tokens <= kSmallestContextBucketTokens)
        return tokens > 0 ? kSmallestContextBucketTokens : 0;
    return std::exp2(std::ceil(std::log2(tokens)));
}

} // namespace

double compiled_bucket_tokens(const std::vector<int>& compiled, double tokens) {
    for (const int bucket : compiled)
        if (bucket >= tokens) return bucket;
    return context_bucket_tokens(tokens);
}

double decode_context_tokens(const ServingSetup& st, double input_tokens, double output_tokens,
                             double quantile) {
    if (!neuron_devices(st.hw)) return input_tokens + output_tokens / 2.0;
    if (!(output_tokens > 0))
        return compiled_bucket_tokens(st.generation_buckets, input_tokens + 1);
    // transformers-neuronx's last bucket is n_positions itself, not the next power of two
    // (aws-neuron/transformers-neuronx@1ade6d7 bucket.py token_sizes: powers of two from 128
    // below n_positions, then n_positions), and a static batch is compiled for its own sequence
    // length (the Neuron SDK tables' 'Sequence Length' is input + output: 1152, 3072).
    const bool own_length = st.transformers_neuronx && st.generation_buckets.empty() &&
                            !st.policy().continuous_batching;
    const double positions = input_tokens + output_tokens;
    auto bucket_of = [&](double position) {
        const double b = compiled_bucket_tokens(st.generation_buckets, position);
        return own_length ? std::min(b, positions) : b;
    };
    // A quantile of the steps' times is the time of the step at that fraction of the generated
    // positions: the step time only grows with the bucket.
    if (is_known(quantile))
        return bucket_of(input_tokens + std::floor(quantile * output_tokens) + 1);
    // Token generation compiles the same power-of-two buckets as context encoding (NxD Inference
    // auto-bucketing; transformers-neuronx n_positions buckets); the step that writes position p
    // runs in the bucket at or above p. Mean bucket over the generated positions, segment-wise.
    const double begin = input_tokens, end = input_tokens + output_tokens;
    double sum = 0, from = begin;
    while (from < end) {
        const double bucket = bucket_of(from + 1);
        const double to = std::min(end, bucket);
        sum += (to - from) * bucket;
        from = to;
    }
    return sum / output_tokens;
}

} // namespace cp::sim
