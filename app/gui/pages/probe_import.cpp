#include "pages/probe_import.h"

#include "clusterplan/sim/calibration_fit.h"
#include "clusterplan/sim/io/input_file.h"
#include "format.h"
#include "models/probe_result_model.h"

#include <QObject>
#include <QStringList>
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

namespace {
// The fastest figure at the largest size measured: the streaming rate, past the fixed start cost
// that small copies pay.
const sim::ProbeBandwidth* largest(const std::vector<sim::ProbeBandwidth>& rows,
                                   const std::string& what) {
    const sim::ProbeBandwidth* best = nullptr;
    for (const sim::ProbeBandwidth& r : rows)
        if (r.what == what && (best == nullptr || r.bytes > best->bytes ||
                               (r.bytes == best->bytes && r.gbytes_per_s > best->gbytes_per_s)))
            best = &r;
    return best;
}
} // namespace

QString probe_without_collectives_text(const sim::ProbeDocument& doc) {
    const int gpus = std::max<int>(1, static_cast<int>(doc.gpus.size())) * doc.world_size;
    const QString run = QObject::tr("The probe run on %1 (%2)")
                            .arg(QString::fromStdString(doc.hostname),
                                 QString::fromStdString(doc.started_at).left(10));
    QStringList lines;
    lines
        << (gpus < 2
                ? QObject::tr("%1 measured one GPU:\ncollectives need two or more ranks.").arg(run)
                : QObject::tr("%1 holds no collective measurement.").arg(run));
    // A copy's bytes count the read and the write (the probe's convention): the array is half;
    // the size shown is the array or the PCIe transfer.
    const struct {
        const std::vector<sim::ProbeBandwidth>& rows;
        const char* what;
        const char* label;
        double bytes_per_array;
    } kinds[] = {{doc.membw, "memcpy_d2d", QT_TR_NOOP("Device copy"), 2},
                 {doc.membw, "triad", QT_TR_NOOP("STREAM triad"), 3},
                 {doc.pcie, "h2d", QT_TR_NOOP("Host to device (PCIe)"), 1},
                 {doc.pcie, "d2h", QT_TR_NOOP("Device to host (PCIe)"), 1}};
    for (const auto& k : kinds)
        if (const sim::ProbeBandwidth* r = largest(k.rows, k.what))
            lines << QObject::tr("%1: %2 GB/s (%3)")
                         .arg(QObject::tr(k.label), fmt_num(r->gbytes_per_s, 0),
                              ProbeResultModel::bytesText(r->bytes / k.bytes_per_array));
    return lines.join(QLatin1Char('\n'));
}

} // namespace cp::gui
