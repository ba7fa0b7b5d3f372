#pragma once

// QCustomPlot's header trips our warning flags; include it as a system header.
#pragma GCC system_header
#include <qcustomplot.h>
