// sd-bus for the benchmarks' D-Bus clients of iio-sensor-proxy (the daemon's own sd-bus code
// stays in COrientdShim, behind C strings).
#include <systemd/sd-bus.h>
