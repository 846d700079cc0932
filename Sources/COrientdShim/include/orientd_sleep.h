// logind's word of the system going to sleep and waking (org.freedesktop.login1.Manager's
// PrepareForSleep signal), heard through libsystemd's sd-bus. A transport: Swift decides what a
// resume means. Every call happens on one thread: the one that waits on orientd_sleep_watch_fd.
#ifndef ORIENTD_SLEEP_H
#define ORIENTD_SLEEP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct orientd_sleep_watch orientd_sleep_watch;

/// Called with true before the system sleeps, false when it woke (or a sleep was called off).
typedef void (*orientd_sleep_changed)(void *context, bool sleeping);

/// Connects to the system bus (DBUS_SYSTEM_BUS_ADDRESS when set) and listens for PrepareForSleep
/// sent by whoever owns org.freedesktop.login1 (the bus delivers no one else's). On failure
/// returns NULL and writes the reason into error.
orientd_sleep_watch *orientd_sleep_watch_open(orientd_sleep_changed changed, void *context, char *error, size_t error_length);
void orientd_sleep_watch_close(orientd_sleep_watch *watch);

/// What to poll for, and how long at most (-1: no limit).
int orientd_sleep_watch_fd(orientd_sleep_watch *watch);
short orientd_sleep_watch_events(orientd_sleep_watch *watch);
int orientd_sleep_watch_timeout_ms(orientd_sleep_watch *watch);

/// Handles what the bus sent (calling `changed`); negative errno once the bus is lost.
int orientd_sleep_watch_process(orientd_sleep_watch *watch);

#endif
