// Shared by the shim's sd-bus connections; not part of the module's interface.
#ifndef ORIENTD_SD_BUS_TIMEOUT_H
#define ORIENTD_SD_BUS_TIMEOUT_H

#include <systemd/sd-bus.h>

/// Milliseconds until sd-bus needs processing again, for poll(2); -1: no deadline.
int orientd_sd_bus_timeout_ms(sd_bus *bus);

#endif
