// CNN forward passes (generic models: ResNet-50 and models described like it by their FLOPs).
//
// On a GPU every convolution runs as an implicit GEMM on the tensor cores (cuDNN's and
// TensorRT's implicit-GEMM convolution kernels: M = batch x output pixels, N = output channels,
// K = input channels x kernel area), so it is priced as the transformer layers' GEMMs are: at the
// size-dependent GEMM rate of the engine's matrix precision, scaled by the engine's compute
// factor, which the encoder runs of the same engine also fit. Each layer reads its input feature
// map and writes its output (TensorRT fuses the batch norm, ReLU and residual add into the
// convolution's epilogue; the add reads the shortcut), and the kernel is bound by the slower of
// its tensor-core time and that traffic (roofline per kernel, as for the GEMMs). Feature maps of
// a whole batch outgrow the L2 at the batches MLPerf's Offline scenario runs (ResNet-50 at batch
// 2048 writes 1.6 GB after its first convolution), so H100 reaches 2.2x A100's rate where the
// INT8 peaks differ 3.2x: the memory-bound 1x1 convolutions follow the HBM bandwidths (1.6x).
// Neuron devices keep the whole-model rate (one compiled graph per core; its CNN factor is fitted
// on the Neuron CNN runs).
#include "engine/model_constants.h"
#include "serving/serving_model.h"

#include <algorithm>
#include <array>
#include <vector>

namespace cp::sim {

namespace {

// One convolution (or the classifier) of one 224x224 image: its implicit-GEMM shape per image and
// the feature-map elements it reads and writes.
struct ConvLayer {
    double out_pixels = 0; // output positions (M per image)
    double out_channels = 0;
    double reduction = 0; // input channels x kernel area (K)
    double read_elements = 0;
    double written_elements = 0;
};

// ResNet-50 v1.5 (He et al. 2016, "Deep Residual Learning for Image Recognition", Table 1: a 7x7
// stem of 64 channels at stride 2, a 3x3 max pool at stride 2, bottleneck stages of 3, 4, 6 and
// 3 blocks of width 64, 128, 256 and 512 expanded 4x, a 1000-way classifier; v1.5 strides the
// 3x3 rather than the first 1x1 convolution of a downsampling block, as torchvision's resnet50
// and NVIDIA's MLPerf submissions do). 4.1 GMAC per image.
std::vector<ConvLayer> resnet50_layers() {
    std::vector<ConvLayer> layers;
    auto conv = [&](double side_in, double c_in, double side_out, double c_out, double kernel,
                    bool shortcut) {
        const double out = side_out * side_out * c_out;
        layers.push_back({side_out * side_out, c_out, c_in * kernel * kernel,
                          side_in * side_in * c_in + (shortcut ? out : 0.0), out});
    };
    conv(224, 3, 112, 64, 7, false);
    // Max pool 3x3 / 2: reads the stem's output, writes a quarter of it (no GEMM).
    layers.push_back({0, 0, 0, 112.0 * 112 * 64, 56.0 * 56 * 64});
    const std::array<int, 4> blocks{3, 4, 6, 3};
    double side = 56, channels = 64;
    for (std::size_t s = 0; s < blocks.size(); ++s) {
        const double width = 64.0 * double(1u << s), out_channels = 4.0 * width;
        for (int b = 0; b < blocks[s]; ++b) {
            const double side_out = (b == 0 && s > 0) ? side / 2 : side;
            conv(side, channels, side, width, 1, false);
            conv(side, width, side_out, width, 3, false);
            if (b == 0) conv(side, channels, side_out, out_channels, 1, false); // projection
            conv(side_out, width, side_out, out_channels, 1, true);
            side = side_out;
            channels = out_channels;
        }
    }
    // Global average pool (reads 7x7x2048, writes 2048) and the fully connected classifier.
    layers.push_back({0, 0, 0, side * side * channels, channels});
    layers.push_back({1, 1000, channels, channels, 1000});
    return layers;
}

// Kernels of one encoder layer as TensorRT's demoBERT builds it (NVIDIA/TensorRT demo/BERT
// builder.py, transformer_layer_opt: the QKV projection, the qkv2ctx attention plugin, the
// attention output projection, a skip-layernorm plugin, FC1, the GELU plugin, FC2 and a second
// skip-layernorm plugin). The engine's fixed cost per layer (ServingTerm::overhead, fitted on
// those encoders) is that of this many kernels; a CNN pays it per kernel it launches.
constexpr double kKernelsPerEncoderLayer = 8.0;

const std::vector<ConvLayer>& reference_layers() {
    static const std::vector<ConvLayer> layers = resnet50_layers();
    return layers;
}

} // namespace

double resnet50_forward_flops() {
    double flops = 0;
    for (const ConvLayer& l : reference_layers())
        flops += 2.0 * l.out_pixels * l.out_channels * l.reduction;
    return flops;
}

ServingTerms cnn_terms(const ServingSetup& st, double batch) {
    ServingTerms t;
    const Workload& w = *st.workload;
    // The project counts a training sample as forward + backward = 3 forward passes (ResNet-50:
    // 3 x 2 x 4.1 GMAC, model_constants.h), so inference is a third of flops_per_sample.
    const double forward_flops = w.flops_per_sample / 3.0;
    t[ServingTerm::pass_overhead] += 1.0;
    if (!st.hw.device.is_gpu) {
        double fraction = model::kGenericComputeFractionHalf;
        if (st.compute == Precision::fp32) fraction = model::kGenericComputeFractionFp32;
        t[ServingTerm::cnn_compute] += batch * forward_flops / (st.rates.peak_flops * fraction);
        t[ServingTerm::weights] += hbm_s(st, serving_weight_bytes(w, st.weights), 1e8);
        return t;
    }
    // A generic model is taken as ResNet-50's layers repeated in proportion to its FLOPs.
    const double repeats = forward_flops / resnet50_forward_flops();
    const double weight_bytes = storage_bytes(st.weights);
    const double act_bytes = st.int8_activations ? 1.0 : 2.0;
    // One kernel per layer of the table (each convolution with its fused epilogue, the pools,
    // the classifier).
    t[ServingTerm::overhead] +=
        repeats * double(reference_layers().size()) / kKernelsPerEncoderLayer;
    // Where the weights and the largest layer's feature maps fit in the L2 together (ResNet-50's
    // 25 MB of INT8 weights at batch 1 on an L4's 48 MB or an L40S's 96 MB), back-to-back passes
    // find the weights there; else every pass streams them from HBM.
    const auto maps_bytes = [&](const ConvLayer& l) {
        return batch * (l.read_elements + l.written_elements) * act_bytes;
    };
    const auto layer_weight_bytes = [&](const ConvLayer& l) {
        return l.reduction * l.out_channels * weight_bytes;
    };
    double weights_total = 0, largest_maps = 0;
    for (const ConvLayer& l : reference_layers()) {
        weights_total += repeats * layer_weight_bytes(l);
        largest_maps = std::max(largest_maps, maps_bytes(l));
    }
    const bool weights_in_l2 = weights_total + largest_maps <= st.hw.l2_bytes;
    for (const ConvLayer& l : reference_layers()) {
        // A layer whose input and output feature maps fit in the L2 together reads the input
        // its predecessor left there and leaves its output for the next (the L2 is write-back);
        // what does not fit goes through HBM.
        const double maps = maps_bytes(l);
        const double bytes = maps * l2_spill_share(maps, st.hw.l2_bytes) +
                             (weights_in_l2 ? 0.0 : layer_weight_bytes(l));
        const double memory_s = hbm_s(st, bytes, bytes);
        const double flops = 2.0 * batch * l.out_pixels * l.out_channels * l.reduction;
        // At small batches a convolution has fewer output tiles than the GPU has SMs: no faster
        // than its tiles' waves.
        const double compute_s =
            flops > 0
                ? std::max(flops / gemm_flops_per_s(st.rates, flops),
                           gemm_wave_floor_s(st, batch * l.out_pixels, l.out_channels, l.reduction))
                : 0.0;
        if (compute_s >= memory_s)
            t[ServingTerm::compute] += repeats * compute_s;
        else
            t[ServingTerm::feature_maps] += repeats * memory_s;
    }
    return t;
}

} // namespace cp::sim
