#include "app_context.h"

#include "catalog_service.h"
#include "clusterplan/sim/io/input_file.h"

#include <QFileInfo>
#include <QSaveFile>
#include <QSettings>
#include <exception>

namespace cp::gui {

namespace {
constexpr int kMaxRecent = 8;
}

AppContext::AppContext(QObject* parent)
    : QObject(parent), catalog_(std::make_unique<CatalogService>()), scenario_(defaultScenario()) {}

AppContext::~AppContext() = default;

void AppContext::setScenario(const sim::Scenario& scenario, QObject* origin) {
    scenario_ = scenario;
    emit scenarioChanged(origin);
}

QString AppContext::openScenario(const QString& path) {
    try {
        // Bounded and regular files only: a FIFO or /dev/zero must not hang the window.
        const std::string text = sim::io::read_input_file(path.toStdString(), "the scenario file");
        sim::Scenario parsed = sim::parse_scenario(text, path.toStdString());
        scenario_path_ = path;
        addRecent(path);
        setScenario(parsed);
        return {};
    } catch (const std::exception& e) {
        // parse_scenario's message names the field; prefix the file when it does not.
        const QString what = QString::fromStdString(e.what());
        return what.contains(QFileInfo(path).fileName()) ? what : tr("%1: %2").arg(path, what);
    }
}

QString AppContext::saveScenario(const QString& path) {
    QSaveFile file(path); // atomic: a failed save never truncates the old file
    if (!file.open(QIODevice::WriteOnly)) {
        return tr("%1: cannot be written (%2).").arg(path, file.errorString());
    }
    std::string json;
    try {
        json = sim::scenario_to_json(scenario_);
    } catch (const std::exception& e) {
        return tr("%1: %2").arg(path, QString::fromStdString(e.what()));
    }
    file.write(json.data(), qint64(json.size()));
    if (!file.commit()) return tr("%1: cannot be written (%2).").arg(path, file.errorString());
    scenario_path_ = path;
    addRecent(path);
    return {};
}

QStringList AppContext::recentFiles() const {
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void AppContext::addRecent(const QString& path) {
    QStringList files = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecent)
        files.removeLast();
    QSettings().setValue(QStringLiteral("recentFiles"), files);
    emit recentFilesChanged();
}

} // namespace cp::gui
