#include "pages/report_page.h"

#include "app_context.h"
#include "catalog_service.h"
#include "clusterplan/catalog/catalog.h"
#include "format.h"
#include "report_export.h"

#include <QElapsedTimer>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPalette>
#include <QProgressBar>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>
#include <variant>

namespace cp::gui {

namespace {
using Built = std::variant<report::ReportData, QString>;
}

ReportPage::ReportPage(AppContext& context, QWidget* parent) : Page(parent), context_(context) {
    refresh_ = new QPushButton(tr("Refresh"));
    refresh_->setShortcut(QKeySequence(QKeySequence::Refresh));
    refresh_->setToolTip(tr("Rebuild the report from the current scenario (F5)."));
    export_ = new QPushButton(tr("Export…"));
    export_->setShortcut(QKeySequence(QStringLiteral("Ctrl+E")));
    export_->setToolTip(tr("Save the report as PDF, HTML, Markdown, CSV or JSON (Ctrl+E)."));
    export_->setEnabled(false);
    progress_ = new QProgressBar;
    progress_->setRange(0, 0);
    progress_->setMaximumWidth(120);
    progress_->setVisible(false);
    status_ = new QLabel;
    auto* bar = new QHBoxLayout;
    bar->addWidget(refresh_);
    bar->addWidget(export_);
    bar->addWidget(progress_);
    bar->addWidget(status_, 1);
    preview_ = new QTextBrowser;
    preview_->setOpenExternalLinks(true);
    // The preview shows the document as exported: dark ink on white paper whatever the system
    // palette, because the report's stylesheet and charts are drawn for paper (a dark palette
    // would put light text on its light table bands).
    QPalette paper = preview_->palette();
    for (const QPalette::ColorGroup group :
         {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
        paper.setColor(group, QPalette::Base, Qt::white);
        paper.setColor(group, QPalette::Text, QColor(0x1d, 0x23, 0x30));
        paper.setColor(group, QPalette::Link, QColor(0x00, 0x72, 0xb2));
    }
    preview_->setPalette(paper);
    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(6, 6, 6, 6);
    root->addLayout(bar);
    root->addWidget(preview_, 1);
    connect(refresh_, &QPushButton::clicked, this, &ReportPage::refresh);
    connect(export_, &QPushButton::clicked, this, &ReportPage::exportInteractive);
    connect(&context_, &AppContext::scenarioChanged, this, [this] { stale_ = true; });
    connect(&context_, &AppContext::catalogChanged, this, [this] { stale_ = true; });
}

void ReportPage::showEvent(QShowEvent* event) {
    Page::showEvent(event);
    if (stale_ && !running_) refresh();
}

void ReportPage::refresh() {
    if (running_) return;
    if (!context_.catalog().db()) {
        status_->setText(context_.catalog().openError());
        return;
    }
    running_ = true;
    stale_ = false;
    progress_->setVisible(true);
    refresh_->setEnabled(false);
    status_->setText(tr("Searching every plan for the report…"));
    const sim::Scenario scenario = context_.scenario();
    const int generation = ++generation_;
    auto* watcher = new QFutureWatcher<Built>(this);
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    connect(watcher, &QFutureWatcher<Built>::finished, this, [this, watcher, generation, timer] {
        Built built = watcher->result();
        watcher->deleteLater();
        running_ = false;
        progress_->setVisible(false);
        refresh_->setEnabled(true);
        if (generation != generation_) return;
        if (const QString* error = std::get_if<QString>(&built)) {
            preview_->setPlainText(*error);
            status_->setText(tr("The report could not be built."));
            export_->setEnabled(false);
            data_.reset();
        } else {
            data_ = std::make_shared<const report::ReportData>(
                std::move(std::get<report::ReportData>(built)));
            preview_->setHtml(report::render_html(*data_));
            status_->setText(
                tr("Report built in %1.").arg(fmt_duration_s(double(timer->elapsed()) / 1e3)));
            export_->setEnabled(true);
        }
        emit previewReady();
        if (stale_ && isVisible()) refresh();
    });
    // The worker opens its own connection: the window's may be reopened by an import meanwhile.
    const std::string db_path = context_.catalog().databasePath().toStdString();
    watcher->setFuture(QtConcurrent::run([scenario, db_path]() -> Built {
        try {
            catalog::Catalog db{std::filesystem::path(db_path)};
            return report::build_report_data(scenario, db, report::kDefaultTopN);
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
    }));
}

QString ReportPage::previewHtml() const {
    return preview_->toHtml();
}

QString ReportPage::exportTo(const QString& path) {
    if (!data_) return tr("%1: there is no report to export yet.").arg(path);
    QString error;
    if (!report::export_report(*data_, path, &error)) return error;
    return {};
}

void ReportPage::exportInteractive() {
    QStringList filters;
    for (const QString& f : report::export_formats())
        filters << tr("%1 (*.%2)").arg(f.toUpper(), f);
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export report"), QStringLiteral("report.pdf"),
                                     filters.join(QStringLiteral(";;")));
    if (path.isEmpty()) return;
    const QString error = exportTo(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export report"), error);
    else
        emit statusMessage(tr("Report written to %1").arg(path));
}

} // namespace cp::gui
