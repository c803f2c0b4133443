// Report page: preview of the recommendation report (app/report's HTML) for the current
// scenario, built on a worker thread; export to PDF, HTML, Markdown, CSV or JSON.
#pragma once

#include "pages/page.h"

#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;
class QTextBrowser;

namespace cp::report {
struct ReportData;
}

namespace cp::gui {

class AppContext;

class ReportPage : public Page {
    Q_OBJECT
public:
    explicit ReportPage(AppContext& context, QWidget* parent = nullptr);
    bool busy() const override { return running_; }
    void refresh();
    QString exportTo(const QString& path); // empty or one sentence
    QString previewHtml() const;

signals:
    void previewReady();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void exportInteractive();

    AppContext& context_;
    QPushButton* refresh_ = nullptr;
    QPushButton* export_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QTextBrowser* preview_ = nullptr;
    std::shared_ptr<const report::ReportData> data_;
    bool running_ = false;
    bool stale_ = true;
    int generation_ = 0;
};

} // namespace cp::gui
