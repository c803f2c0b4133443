#pragma once

namespace cp::gui {
// Starts the desktop application. Understands `--screenshot FILE.png [--page NAME]`.
int run_gui(int argc, char** argv);
} // namespace cp::gui
