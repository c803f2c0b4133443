#include "pages/probe_import.h"

#include "clusterplan/sim/calibration_fit.h"
#include "clusterplan/sim/io/input_file.h"

#include <QObject>
#include <cmath>
#include <exception>

namespace cp::gui {

Imported parse_file(const QString& path) {
    Imported out;
    const std::string name = path.toStdString();
    std::string text;
    try {
        // Bounded and regular files only: a FIFO or /dev/zero must not hang the page.
        text = sim::io::read_input_file(name, "the measurement file");
    } catch (const std::exception& e) {
        out.error = QString::fromStdString(e.what());
        return out;
    }
    out.raw = text;
    try {
        switch (sim::detect_collective_format(text)) {
        case sim::CollectiveFormat::probe_json: {
            sim::ProbeDocument doc = sim::parse_probe_json(text, name);
            out.tables = doc.collectives;
            out.probe = std::move(doc);
            break;
        }
        case sim::CollectiveFormat::nccl_tests_json:
            out.tables.push_back(sim::parse_nccl_tests_json(text, name));
            break;
        case sim::CollectiveFormat::csv:
            out.tables.push_back(sim::parse_nccl_csv(text, name));
            break;
        case sim::CollectiveFormat::nccl_tests_text:
            out.tables.push_back(sim::parse_nccl_tests_text(text, name));
            break;
        case sim::CollectiveFormat::unknown:
            out.error =
                QObject::tr("%1: not nccl-tests output, nccl-tests JSON, a bandwidth CSV or a "
                            "clusterplan.probe/1 document.")
                    .arg(path);
            break;
        }
    } catch (const std::exception& e) {
        out.error = QString::fromStdString(e.what());
    }
    return out;
}

::cp::charts::BandwidthSeries bandwidth_series(const sim::CollectiveTable& table) {
    ::cp::charts::BandwidthSeries s;
    s.label =
        QObject::tr("%1 · %2 ranks").arg(QString::fromStdString(table.collective)).arg(table.ranks);
    const sim::CollectiveFit fit = sim::fit_collective(table);
    for (const sim::CollectiveSample& x : table.samples) {
        s.bytes.push_back(x.bytes);
        s.busbw_gbytes_per_s.push_back(x.busbw_gbytes_per_s);
        const double fitted_s = sim::segments_time_s(fit.segments, x.bytes);
        s.fitted_busbw_gbytes_per_s.push_back(
            fitted_s > 0 && x.time_us > 0 ? x.busbw_gbytes_per_s * x.time_us * 1e-6 / fitted_s
                                          : std::nan(""));
    }
    return s;
}

} // namespace cp::gui
