// iio-sensor-proxy's D-Bus interface (net.hadess.SensorProxy) served through libsystemd's sd-bus.
// A transport: the vtable and the variadic sd-bus calls live here; the calls and the bus's news
// go to Swift as events, and Swift's decisions (answer, refuse, ask polkit, tell a client) come
// back as calls. Who claims what, the limits and the property values are Swift's. Every call
// happens on one thread: the one that waits on orientd_bus_fd (sd-bus is not thread-safe).
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

/// The properties of the two interfaces; the values index tables on both sides.
enum orientd_bus_property {
    ORIENTD_BUS_HAS_ACCELEROMETER = 0,
    ORIENTD_BUS_ACCELEROMETER_ORIENTATION,
    ORIENTD_BUS_ACCELEROMETER_TILT,
    ORIENTD_BUS_HAS_AMBIENT_LIGHT,
    ORIENTD_BUS_LIGHT_LEVEL_UNIT,
    ORIENTD_BUS_LIGHT_LEVEL,
    ORIENTD_BUS_HAS_PROXIMITY,
    ORIENTD_BUS_PROXIMITY_NEAR,
    ORIENTD_BUS_HAS_COMPASS,
    ORIENTD_BUS_COMPASS_HEADING,
};

/// What polkit said about a call.
enum orientd_bus_polkit_answer {
    ORIENTD_BUS_POLKIT_AUTHORIZED = 0,
    ORIENTD_BUS_POLKIT_DENIED = 1,
    /// polkit is not running or did not answer: the message says why.
    ORIENTD_BUS_POLKIT_UNREACHABLE = 2,
    /// polkit answered with an error: the message says which.
    ORIENTD_BUS_POLKIT_FAILED = 3,
};

/// A Claim or Release call held until Swift answers it: an sd-bus message, referenced.
typedef struct orientd_bus_call orientd_bus_call;

/// A property's value, as Swift gives it: the member its D-Bus type uses.
typedef struct {
    bool boolean;
    double number;
    char text[32];
} orientd_bus_value;

typedef struct {
    void *context;
    /// A Claim (claiming) or Release of `sensor` from `sender`. Swift owns `call` from here and
    /// answers it with orientd_bus_reply or orientd_bus_refuse, or lets it go with orientd_bus_forget.
    void (*called)(void *context, orientd_bus_call *call, const char *sender, int sensor, bool claiming);
    /// The client with this unique name left the bus.
    void (*client_left)(void *context, const char *name);
    /// polkit's answer about `call` (one orientd_bus_ask_polkit asked about); message says why.
    void (*polkit_answered)(void *context, orientd_bus_call *call, int answer, const char *message);
    /// Writes the current value of `property` (enum orientd_bus_property) into `value`.
    void (*get_property)(void *context, int property, orientd_bus_value *value);
    /// What became of the bus name; message is a reason (may be empty).
    void (*name_changed)(void *context, int state, const char *message);
} orientd_bus_callbacks;

/// Connects to the system bus (DBUS_SYSTEM_BUS_ADDRESS when set) and serves the objects; the name
/// is asked for with orientd_bus_request_name, once the properties say what there is.
/// On failure returns NULL and writes the reason into error.
orientd_bus *orientd_bus_open(orientd_bus_callbacks callbacks, char *error, size_t error_length);
/// Leaves the bus. Calls Swift still holds must be let go (orientd_bus_forget) first.
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

/// Answers `call` with success, or with the D-Bus error `name` and `message`; either way the
/// call is gone afterwards.
void orientd_bus_reply(orientd_bus_call *call);
void orientd_bus_refuse(orientd_bus_call *call, const char *name, const char *message);
/// Lets `call` go unanswered (its sender left the bus).
void orientd_bus_forget(orientd_bus_call *call);
/// Asks polkit whether the sender of `call` may claim sensors (net.hadess.SensorProxy.claim-sensor),
/// without waiting: the answer comes through polkit_answered. Returns 0, or a negative errno
/// value when polkit could not be asked (nothing will come).
int orientd_bus_ask_polkit(orientd_bus *bus, orientd_bus_call *call);
/// One PropertiesChanged signal to `destination` with these properties, in this order (all of
/// one interface), their values from get_property.
void orientd_bus_emit(orientd_bus *bus, const int *properties, size_t count, const char *destination);

/// The process behind a bus name (a client's unique name, or the well-known name's owner), as the
/// bus daemon vouches for it: its pid, and the owner's unique name into `unique` (may be NULL).
/// 0, or a negative errno (no such name). A round trip to the bus daemon: for status, not a hot path.
int orientd_bus_name_pid(orientd_bus *bus, const char *name, int *pid, char *unique, size_t unique_length);

#endif
