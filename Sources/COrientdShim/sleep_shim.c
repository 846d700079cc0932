#define _GNU_SOURCE
#include "orientd_sleep.h"
#include "sd_bus_timeout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

struct orientd_sleep_watch {
    sd_bus *bus;
    orientd_sleep_changed changed;
    void *context;
};

static int prepare_for_sleep(sd_bus_message *message, void *userdata, sd_bus_error *error)
{
    (void)error;
    struct orientd_sleep_watch *watch = userdata;
    int sleeping = 0;
    // A malformed signal is ignored: only logind can send it, and a read is all it would cost.
    if (sd_bus_message_read(message, "b", &sleeping) >= 0)
        watch->changed(watch->context, sleeping != 0);
    return 0;
}

orientd_sleep_watch *orientd_sleep_watch_open(orientd_sleep_changed changed, void *context, char *error, size_t error_length)
{
    struct orientd_sleep_watch *watch = calloc(1, sizeof *watch);
    if (!watch) {
        snprintf(error, error_length, "out of memory");
        return NULL;
    }
    watch->changed = changed;
    watch->context = context;
    int r = sd_bus_open_system(&watch->bus);
    if (r >= 0)
        r = sd_bus_match_signal(watch->bus, NULL, "org.freedesktop.login1", "/org/freedesktop/login1",
                                "org.freedesktop.login1.Manager", "PrepareForSleep", prepare_for_sleep, watch);
    if (r < 0) {
        snprintf(error, error_length, "%s", strerror(-r));
        orientd_sleep_watch_close(watch);
        return NULL;
    }
    return watch;
}

void orientd_sleep_watch_close(orientd_sleep_watch *watch)
{
    if (!watch)
        return;
    sd_bus_flush_close_unref(watch->bus);
    free(watch);
}

int orientd_sleep_watch_fd(orientd_sleep_watch *watch) { return sd_bus_get_fd(watch->bus); }

short orientd_sleep_watch_events(orientd_sleep_watch *watch)
{
    int events = sd_bus_get_events(watch->bus);
    return events < 0 ? 0 : (short)events;
}

int orientd_sleep_watch_timeout_ms(orientd_sleep_watch *watch) { return orientd_sd_bus_timeout_ms(watch->bus); }

int orientd_sleep_watch_process(orientd_sleep_watch *watch)
{
    // A bounded batch, as the sensor-proxy face's: the loop comes straight back while more wait.
    for (int i = 0; i < 64; i++) {
        int r = sd_bus_process(watch->bus, NULL);
        if (r <= 0)
            return r;
    }
    return 0;
}
