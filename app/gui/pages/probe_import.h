// Reading a measurement file the Probes page imports: nccl-tests text or JSON, a bandwidth CSV
// or a clusterplan.probe/1 document, bounded and regular files only.
#pragma once

#include "clusterplan/sim/calibration_import.h"
#include "clusterplan/sim/calibration_probe.h"
#include "probe_specs.h"

#include <QString>
#include <optional>
#include <string>
#include <vector>

namespace cp::gui {

struct Imported {
    QString error;
    std::string raw; // the file or probe output as read, kept with the profile
    std::vector<sim::CollectiveTable> tables;
    std::optional<sim::ProbeDocument> probe;
};

// The file's tables (and its probe document), or `error` saying why it cannot be used.
Imported parse_file(const QString& path);

// One table as measured, with the busbw its α–β fit (what a profile made from it predicts)
// gives at each size: time scales busbw inversely at a fixed size.
::cp::charts::BandwidthSeries bandwidth_series(const sim::CollectiveTable& table);

// What the collective chart says when a probe document measured no collective: a single-GPU
// run has none to measure (they need two or more ranks), and its memory and PCIe bandwidths
// (the largest size of each) are named instead so the import shows what it measured.
QString probe_without_collectives_text(const sim::ProbeDocument& doc);

} // namespace cp::gui
