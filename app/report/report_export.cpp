// export_report(): picks the renderer by suffix and writes atomically (sim/io/output_file.h), so
// a failed export never leaves a half-written report behind and never follows a symlink.
#include "report_export.h"

#include "clusterplan/sim/io/output_file.h"
#include "renderers.h"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <string_view>

namespace cp::report {
namespace {

QString cannot_write(const QString& path, const QString& reason) {
    return QStringLiteral("cannot write %1: %2").arg(path, reason);
}

// sim/io/output_file.h: a fresh temporary file renamed over the target; a symlink, device or
// directory at the target is refused, never followed (QSaveFile writes through a symlink).
bool write_atomically(const QString& path, const QByteArray& bytes, QString* error) {
    try {
        sim::io::write_output_file(
            path.toStdString(),
            std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    } catch (const sim::io::OutputFileError& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

bool export_markdown(const ReportData& data, const QString& path, QString* error) {
    const QFileInfo info(path);
    // The chart directory is named after the file, with characters that would need escaping
    // in a Markdown link replaced, so every relative link resolves as written.
    QString stem = info.completeBaseName();
    for (QChar& ch : stem) {
        if (!(ch.isLetterOrNumber() && ch.unicode() < 128) && ch != u'-' && ch != u'_' &&
            ch != u'.')
            ch = u'_';
    }
    const QString image_dir = stem + QStringLiteral("_charts");
    const MarkdownOutput md = render_markdown(build_document(data), image_dir);
    QDir dir = info.absoluteDir();
    // The charts go into a directory next to the report: a symlink there would send them elsewhere.
    if (QFileInfo(dir.filePath(image_dir)).isSymLink()) {
        if (error)
            *error = cannot_write(dir.filePath(image_dir), QStringLiteral("it is a symbolic link"));
        return false;
    }
    const bool had_dir = dir.exists(image_dir);
    // A report without charts (no plan) gets no empty chart directory.
    if (!had_dir && !md.images.empty() && !dir.mkpath(image_dir)) {
        if (error)
            *error = cannot_write(dir.filePath(image_dir),
                                  QStringLiteral("cannot create the chart directory"));
        return false;
    }
    for (const auto& [relative, png] : md.images) {
        if (!write_atomically(dir.filePath(relative), png, error)) {
            if (!had_dir) QDir(dir.filePath(image_dir)).removeRecursively();
            return false;
        }
    }
    if (!write_atomically(path, md.text.toUtf8(), error)) {
        if (!had_dir) QDir(dir.filePath(image_dir)).removeRecursively();
        return false;
    }
    return true;
}

bool export_pdf(const ReportData& data, const QString& path, QString* error) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QString reason;
    if (!render_pdf(build_document(data), buffer, &reason)) {
        if (error) *error = cannot_write(path, reason);
        return false;
    }
    buffer.close();
    return write_atomically(path, buffer.data(), error);
}

} // namespace

QString render_html(const ReportData& data) {
    return render_html(build_document(data));
}

QStringList export_formats() {
    return {QStringLiteral("pdf"), QStringLiteral("html"), QStringLiteral("htm"),
            QStringLiteral("md"),  QStringLiteral("csv"),  QStringLiteral("json")};
}

bool export_report(const ReportData& data, const QString& path, QString* error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("pdf")) return export_pdf(data, path, error);
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm")) {
        return write_atomically(path, render_html(data).toUtf8(), error);
    }
    if (suffix == QLatin1String("md")) return export_markdown(data, path, error);
    if (suffix == QLatin1String("csv"))
        return write_atomically(path, QByteArray::fromStdString(plans_csv(data)), error);
    if (suffix == QLatin1String("json")) {
        return write_atomically(path, QByteArray::fromStdString(plans_json(data).dump(2) + "\n"),
                                error);
    }
    if (error) {
        *error =
            QStringLiteral("%1: unknown report format '.%2' (use .pdf, .html, .md, .csv or .json)")
                .arg(path, suffix);
    }
    return false;
}

} // namespace cp::report
