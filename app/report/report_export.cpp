// export_report(): picks the renderer by suffix and writes atomically (QSaveFile), so a failed
// export never leaves a half-written report behind.
#include "report_export.h"

#include "renderers.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace cp::report {
namespace {

QString cannot_write(const QString& path, const QString& reason) {
    return QStringLiteral("cannot write %1: %2").arg(path, reason);
}

bool write_atomically(const QString& path, const QByteArray& bytes, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error) *error = cannot_write(path, file.errorString());
        return false;
    }
    if (file.write(bytes) != bytes.size() || !file.commit()) {
        if (error) *error = cannot_write(path, file.errorString());
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
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error) *error = cannot_write(path, file.errorString());
        return false;
    }
    QString reason;
    if (!render_pdf(build_document(data), file, &reason)) {
        file.cancelWriting();
        if (error) *error = cannot_write(path, reason);
        return false;
    }
    if (!file.commit()) {
        if (error) *error = cannot_write(path, file.errorString());
        return false;
    }
    return true;
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
