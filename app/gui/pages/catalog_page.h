// Catalog page: sortable, filterable instance table with prices in the picked region; detail pane
// (accelerator specs with estimate marks, prices per zone with dates); side-by-side comparison of
// selected rows; import, and Refresh from what AWS publishes, in the background with progress,
// cancel and errors in the window.
#pragma once

#include "pages/page.h"

#include <atomic>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;
class QTabWidget;
class QTextBrowser;

namespace cp::gui {

class AppContext;
class InstanceTableModel;

class CatalogPage : public Page {
    Q_OBJECT
public:
    explicit CatalogPage(AppContext& context, QWidget* parent = nullptr);
    bool busy() const override { return importing_ || refreshing_; }

    // Imports `file` in the background; the result appears in the message line.
    void startImport(const QString& file, const QString& format = QString());
    void importInteractive();
    void cancelImport();
    // Downloads and imports the price lists of `regions` (empty: the picked region), the spot
    // feed and the Spot Advisor data off the GUI thread (service layer); `base_url` names a
    // mirror (empty: AWS). Cancel (the same button as for imports) changes nothing.
    void startRefresh(const QStringList& regions = QStringList(),
                      const QString& base_url = QString());
    QString region() const; // whose prices the table shows
    void setRegion(const QString& region);
    QComboBox* regionPicker() const { return region_; }
    QProgressBar* progressBar() const { return progress_; }
    QPushButton* refreshButton() const { return refresh_button_; }
    // Shows the selected rows side by side in the Compare tab.
    void compareSelected();

    InstanceTableModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QTableView* table() const { return table_; }
    QTableWidget* comparison() const { return compare_; }
    QString message() const;
    bool messageIsError() const { return message_is_error_; }

signals:
    void importFinished(bool ok);
    void refreshFinished(bool ok);

private:
    void reload();
    void applyFilter();
    void showDetail();
    void setMessage(const QString& text, bool error);
    void setBusy(bool busy); // shows the progress bar and Cancel, disables Import and Refresh
    void fillRegions();
    void showRegion(); // the table and families for the picked region

    AppContext& context_;
    InstanceTableModel* model_ = nullptr;
    QSortFilterProxyModel* proxy_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QComboBox* family_ = nullptr;
    QComboBox* region_ = nullptr;
    QPushButton* refresh_button_ = nullptr;
    QComboBox* format_ = nullptr;
    QPushButton* compare_button_ = nullptr;
    QPushButton* import_button_ = nullptr;
    QPushButton* cancel_button_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* message_ = nullptr;
    QTableView* table_ = nullptr;
    QTabWidget* side_ = nullptr;
    QTextBrowser* detail_ = nullptr;
    QTableWidget* compare_ = nullptr;
    bool importing_ = false;
    bool refreshing_ = false;
    bool message_is_error_ = false;
    std::shared_ptr<std::atomic<bool>> cancel_;
};

} // namespace cp::gui
