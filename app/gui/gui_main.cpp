#include "gui_main.h"

#include <QApplication>
#include <QLabel>

namespace cp::gui {
int run_gui(int argc, char** argv) {
    QApplication app(argc, argv);
    QLabel label("ClusterPlan GUI lands with the GUI issue.");
    label.show();
    return app.exec();
}
} // namespace cp::gui
