// iio-sensor-proxy's D-Bus interface (net.hadess.SensorProxy) served through libsystemd's sd-bus.
// The vtable, the variadic sd-bus calls, claim tracking and polkit checks live here; Swift sees
// an opaque handle, plain setters and three callbacks. Every call happens on one thread: the one
// that waits on orientd_bus_fd (sd-bus is not thread-safe).
#ifndef ORIENTD_BUS_H
#define ORIENTD_BUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct orientd_bus orientd_bus;

/// The sensors a client can claim; the values index arrays on both sides.
enum orientd_bus_sensor {
    ORIENTD_BUS_ACCELEROMETER = 0,
    ORIENTD_BUS_LIGHT = 1,
    ORIENTD_BUS_PROXIMITY = 2,
    ORIENTD_BUS_COMPASS = 3,
};

/// What happened to orientd's request for the bus name.
enum orientd_bus_name_state {
    ORIENTD_BUS_NAME_OWNED = 0,
    /// Another process owns it and does not give it up: orientd waits in the bus's queue.
    ORIENTD_BUS_NAME_QUEUED = 1,
    /// Lost to another owner (orientd stays queued: the bus hands it back when that one leaves).
    ORIENTD_BUS_NAME_LOST = 2,
    /// The bus refused the request (policy): the reason is in the message.
    ORIENTD_BUS_NAME_REFUSED = 3,
};

typedef struct {
    void *context;
    /// The first client claimed `sensor` (wanted) or the last one released it or left the bus.
    void (*demand_changed)(void *context, int sensor, bool wanted);
    /// A claim of `sensor` was accepted. Return true when the properties already hold a current
    /// value (the reply goes at once), false to hold the reply until orientd_bus_settle.
    bool (*claim_is_current)(void *context, int sensor);
    /// What became of the bus name; message is a reason (may be empty).
    void (*name_changed)(void *context, int state, const char *message);
    /// polkit answered (reachable), or could not be asked (not running, or it failed; the claim
    /// was refused): message says why.
    void (*polkit_answers)(void *context, bool reachable, const char *message);
} orientd_bus_callbacks;

/// Connects to the system bus (DBUS_SYSTEM_BUS_ADDRESS when set) and serves the objects; the name
/// is asked for with orientd_bus_request_name, once the properties say what there is. With check_polkit every
/// Claim/Release of the accelerometer, light and proximity sensors is authorized through polkit
/// (action net.hadess.SensorProxy.claim-sensor), as iio-sensor-proxy 3.4 and later do.
/// On failure returns NULL and writes the reason into error.
orientd_bus *orientd_bus_open(orientd_bus_callbacks callbacks, bool check_polkit, char *error, size_t error_length);
void orientd_bus_close(orientd_bus *bus);
/// Asks for net.hadess.SensorProxy: replacing an owner that allows it, else queued behind it.
/// Returns 0 or a negative errno value; the outcome comes through name_changed.
int orientd_bus_request_name(orientd_bus *bus);

/// The descriptor to poll, the events to poll it for, and how long to wait at most (ms; -1 for
/// ever) before calling orientd_bus_process again.
int orientd_bus_fd(orientd_bus *bus);
short orientd_bus_events(orientd_bus *bus);
int orientd_bus_timeout_ms(orientd_bus *bus);
/// Handles everything the bus has for orientd. Returns 0, or a negative errno value when the
/// connection is gone.
int orientd_bus_process(orientd_bus *bus);

/// New property values. Each setter tells the clients that claimed the sensor what changed, in
/// iio-sensor-proxy's order (the orientation alone in its own signal).
void orientd_bus_set_accelerometer(orientd_bus *bus, bool present, const char *orientation, const char *tilt);
void orientd_bus_set_light(orientd_bus *bus, bool present, double level, const char *unit);
void orientd_bus_set_proximity(orientd_bus *bus, bool present, bool near);
void orientd_bus_set_compass(orientd_bus *bus, bool present, double heading);

/// Answers the claims of `sensor` held for a current value.
void orientd_bus_settle(orientd_bus *bus, int sensor);

#endif
